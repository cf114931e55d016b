"""The manager PIN: hash format, checks, where the PIN comes from, the lockout and its file."""

from __future__ import annotations

import asyncio
import hmac
import json
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import Any, TypeVar

import pytest

from kiosk.core.security import lock as L
from kiosk.core.security import pin_hash as H
from kiosk.core.security.lock import (
    OWASP,
    LockoutPolicy,
    ManagerLock,
    NoPinError,
    Outcome,
    PinChangeRefused,
    PinHashError,
    PinStore,
    Provisioned,
    ScryptParams,
    hash_pin,
    is_pin_hash,
    parse_hash,
    verify_pin,
)
from kiosk.core.settings import layers as S
from kiosk.core.settings.layers import Settings
from kiosk.core.settings.paths import KioskPaths

T = TypeVar("T")
FAST = ScryptParams(n=2**4, r=1, p=1)
DOCS_EXAMPLE = "scrypt$16384$8$1$c2FsdHNhbHRzYWx0$aGFzaGhhc2hoYXNoaGFzaA=="


@pytest.fixture(autouse=True)
def _lockouts_are_expected(expect_log: Callable[[str], None]) -> None:
    expect_log(r"wrong manager PIN \(\d+ in a row\): locked for")


def run(coro: Coroutine[Any, Any, T]) -> T:
    return asyncio.run(coro)


class Clocks:
    """A wall clock and a monotonic clock the test moves by hand."""

    def __init__(self, wall: float = 1_800_000_000.0, mono: float = 500.0) -> None:
        self.wall = wall
        self.mono = mono

    def advance(self, seconds: float) -> None:
        self.wall += seconds
        self.mono += seconds


def make_lock(
    tmp_path: Path, clocks: Clocks, provisioned: Provisioned | None = None
) -> ManagerLock:
    given = provisioned or Provisioned(None, False, training=True)
    pins = PinStore(tmp_path / "config" / L.PIN_FILE, lambda: given)
    return ManagerLock(
        pins,
        tmp_path / "data" / L.LOCKOUT_FILE,
        params=FAST,
        wall=lambda: clocks.wall,
        monotonic=lambda: clocks.mono,
    )


# -- hashing -------------------------------------------------------------------------
def test_the_default_parameters_are_owasps_scrypt() -> None:
    assert (OWASP.n, OWASP.r, OWASP.p, OWASP.dklen, OWASP.salt_bytes) == (2**17, 8, 1, 32, 16)
    assert ManagerLock.__init__.__kwdefaults__["params"] is OWASP
    stored = hash_pin("482913")  # the real cost, once
    params, salt, digest = parse_hash(stored)
    assert (params.n, params.r, params.p, len(salt), len(digest)) == (2**17, 8, 1, 16, 32)
    assert verify_pin("482913", stored)


def test_the_hash_is_self_describing_and_the_settings_accept_it() -> None:
    stored = hash_pin("1234", FAST)
    scheme, n, r, p, salt, digest = stored.split("$")
    assert (scheme, n, r, p) == ("scrypt", "16", "1", "1")
    assert len(salt) == 24
    assert len(digest) == 44
    assert S.MANAGER_PIN_HASH.parse(stored) == stored
    assert "1234" not in stored
    assert hash_pin("1234", FAST) != stored  # a fresh salt every time
    assert is_pin_hash(DOCS_EXAMPLE)  # the example in docs/settings.md


def test_verify_right_and_wrong() -> None:
    stored = hash_pin("90210", FAST)
    assert verify_pin("90210", stored)
    assert not verify_pin("90211", stored)
    assert not verify_pin("9021", stored)
    assert not verify_pin("902100", stored)
    assert not verify_pin("abcde", stored)


@pytest.mark.parametrize("pin", ["123", "1234567890123", "12a4", "１２３４", ""])
def test_hash_pin_refuses_what_is_not_4_to_12_digits(pin: str) -> None:
    with pytest.raises(ValueError, match="4 to 12 digits"):
        hash_pin(pin, FAST)


@pytest.mark.parametrize(
    "stored",
    [
        "bcrypt$16$1$1$c2FsdHNhbHRzYWx0$aGFzaGhhc2hoYXNoaGFzaA==",
        "scrypt$16$1$1$c2FsdHNhbHRzYWx0",
        "scrypt$1073741824$8$1$c2FsdHNhbHRzYWx0$aGFzaGhhc2hoYXNoaGFzaA==",  # 2^30: too big
        "scrypt$1000$8$1$c2FsdHNhbHRzYWx0$aGFzaGhhc2hoYXNoaGFzaA==",  # not a power of two
        "scrypt$1048576$32$1$c2FsdHNhbHRzYWx0$aGFzaGhhc2hoYXNoaGFzaA==",  # 4 GiB of memory
        "scrypt$16$1$1$not*base64$aGFzaGhhc2hoYXNoaGFzaA==",
        "reset$1800000000$abcd1234",
    ],
)
def test_what_is_not_a_checkable_hash_is_refused(stored: str) -> None:
    with pytest.raises(PinHashError) as caught:
        verify_pin("1234", stored)
    assert stored not in str(caught.value)
    assert not is_pin_hash(stored)


def test_the_comparison_is_constant_time(monkeypatch: pytest.MonkeyPatch) -> None:
    compared: list[tuple[bytes, bytes]] = []
    original = hmac.compare_digest

    def recording(a: bytes, b: bytes) -> bool:
        compared.append((a, b))
        return original(a, b)

    monkeypatch.setattr(H.hmac, "compare_digest", recording)
    stored = hash_pin("2468", FAST)
    assert verify_pin("2468", stored)
    assert not verify_pin("2469", stored)
    assert not verify_pin("24", stored)  # not a PIN: still one compare, of the same length
    assert len(compared) == 3
    assert all(len(a) == len(b) == 32 for a, b in compared)


# -- the lockout schedule ---------------------------------------------------------
def test_the_schedule_grows_and_locks_30_minutes_from_the_10th_failure() -> None:
    policy = LockoutPolicy()
    waits = [policy.wait_after(n) for n in range(1, 14)]
    assert waits == [0, 0, 30, 60, 120, 240, 480, 960, 1800, 1800, 1800, 1800, 1800]
    assert all(policy.wait_after(n) >= 30 * 60 for n in range(10, 40))
    assert [policy.tries_before_wait(n) for n in range(4)] == [3, 2, 1, 0]


def test_first_run_sets_a_pin_and_unlocks(tmp_path: Path) -> None:
    clocks = Clocks()
    lock = make_lock(tmp_path, clocks)
    seen: list[bool] = []
    lock.changed.connect(seen.append)
    assert not lock.has_pin()
    with pytest.raises(NoPinError):
        run(lock.attempt("1234"))
    run(lock.set_pin("4826"))
    assert lock.unlocked
    assert lock.has_pin()
    assert seen == [True]
    saved = json.loads((tmp_path / "config" / L.PIN_FILE).read_text())
    assert verify_pin("4826", saved["hash"])
    assert "4826" not in json.dumps(saved)
    lock.relock()
    assert not lock.unlocked
    assert seen == [True, False]
    with pytest.raises(PinChangeRefused):  # a PIN exists: the current one first
        run(lock.set_pin("1111"))


def test_wrong_pins_wait_longer_each_time_and_a_right_one_resets(tmp_path: Path) -> None:
    clocks = Clocks()
    lock = make_lock(tmp_path, clocks)
    run(lock.set_pin("1357"))
    lock.relock()
    first, second = run(lock.attempt("0000")), run(lock.attempt("0001"))
    assert (first.outcome, first.wait, first.tries_left) == (Outcome.WRONG, 0, 2)
    assert (second.outcome, second.wait, second.tries_left) == (Outcome.WRONG, 0, 1)
    third = run(lock.attempt("0002"))
    assert (third.outcome, third.wait, third.failures) == (Outcome.WRONG, 30, 3)
    refused = run(lock.attempt("1357"))  # the right PIN, but too early: not even checked
    assert refused.outcome is Outcome.LOCKED_OUT
    assert refused.wait == pytest.approx(30)
    assert lock.failures == 3
    assert not lock.unlocked
    clocks.advance(29)
    assert lock.wait_remaining() == pytest.approx(1)
    clocks.advance(1)
    fourth = run(lock.attempt("0003"))
    assert (fourth.wait, fourth.failures) == (60, 4)
    clocks.advance(60)
    assert run(lock.attempt("1357")).outcome is Outcome.OK
    assert lock.unlocked
    assert lock.failures == 0
    assert lock.wait_remaining() == 0
    state = json.loads((tmp_path / "data" / L.LOCKOUT_FILE).read_text())
    assert (state["failures"], state["locked_until"]) == (0, 0)


def test_ten_failures_lock_for_at_least_30_minutes(tmp_path: Path) -> None:
    clocks = Clocks()
    lock = make_lock(tmp_path, clocks)
    run(lock.set_pin("8642"))
    lock.relock()
    for _ in range(10):
        clocks.advance(lock.wait_remaining())
        result = run(lock.attempt("1111"))
    assert result.failures == 10
    assert result.wait >= 1800
    clocks.advance(29 * 60)
    assert run(lock.attempt("8642")).outcome is Outcome.LOCKED_OUT
    clocks.advance(60)
    assert run(lock.attempt("8642")).outcome is Outcome.OK


def test_the_lockout_survives_a_restart(tmp_path: Path) -> None:
    clocks = Clocks()
    lock = make_lock(tmp_path, clocks)
    run(lock.set_pin("2580"))
    lock.relock()
    for pin in ("1", "22", "333"):
        run(lock.attempt(pin.ljust(4, "9")))
    clocks.advance(10)
    # The app restarts: a new monotonic clock, the wall clock goes on.
    restarted_clocks = Clocks(wall=clocks.wall, mono=3.0)
    restarted = make_lock(tmp_path, restarted_clocks)
    assert restarted.failures == 3
    assert not restarted.unlocked
    assert restarted.wait_remaining() == pytest.approx(20)
    assert run(restarted.attempt("2580")).outcome is Outcome.LOCKED_OUT
    restarted_clocks.advance(20)
    fourth = run(restarted.attempt("0000"))
    assert (fourth.failures, fourth.wait) == (4, 60)


def test_a_wall_clock_set_back_does_not_stretch_the_wait(tmp_path: Path) -> None:
    clocks = Clocks()
    lock = make_lock(tmp_path, clocks)
    run(lock.set_pin("2580"))
    lock.relock()
    for _ in range(3):
        run(lock.attempt("0000"))
    back = Clocks(wall=clocks.wall - 86_400, mono=0.0)
    assert make_lock(tmp_path, back).wait_remaining() == pytest.approx(30)


def test_a_try_is_on_disk_before_the_check_runs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    clocks = Clocks()
    lock = make_lock(tmp_path, clocks)
    run(lock.set_pin("1470"))
    lock.relock()
    during: list[int] = []

    def spying(pin: str, stored: str) -> bool:
        during.append(json.loads(lock.state_file.read_text())["failures"])
        return pin == "1470"

    monkeypatch.setattr(L, "verify_pin", spying)
    run(lock.attempt("0000"))
    run(lock.attempt("1470"))
    assert during == [1, 2]  # a crash mid-check would have counted the try
    assert json.loads(lock.state_file.read_text())["failures"] == 0


def test_its_new_value_clears_the_pin_and_the_lockout(tmp_path: Path) -> None:
    clocks = Clocks()
    given = [Provisioned(None, False, training=True)]
    pins = PinStore(tmp_path / "config" / L.PIN_FILE, lambda: given[0])

    def fresh() -> ManagerLock:
        state = tmp_path / "data" / L.LOCKOUT_FILE
        return ManagerLock(
            pins, state, params=FAST, wall=lambda: clocks.wall, monotonic=lambda: clocks.mono
        )

    lock = fresh()
    run(lock.set_pin("1593"))
    lock.relock()
    for _ in range(5):
        clocks.advance(lock.wait_remaining())
        run(lock.attempt("0000"))
    assert fresh().failures == 5
    given[0] = Provisioned(L.reset_marker(), False, training=True)  # IT runs reset-pin
    again = fresh()
    assert not again.has_pin()
    assert again.failures == 0
    assert again.wait_remaining() == 0
    run(again.set_pin("7531"))
    assert again.unlocked


# -- where the PIN comes from ------------------------------------------------------------
def test_it_provisioned_and_locked_pin_wins_and_cannot_change(tmp_path: Path) -> None:
    it_hash = hash_pin("1111", FAST)
    lock = make_lock(tmp_path, Clocks(), Provisioned(it_hash, True))
    assert lock.has_pin()
    assert not lock.can_change_pin()
    assert run(lock.attempt("1111")).outcome is Outcome.OK
    with pytest.raises(PinChangeRefused):
        run(lock.set_pin("2222"))


def test_a_kiosk_pin_holds_until_it_changes_its_value(tmp_path: Path) -> None:
    provisioned = [Provisioned(hash_pin("1111", FAST), False)]
    pins = PinStore(tmp_path / L.PIN_FILE, lambda: provisioned[0])
    lock = ManagerLock(pins, tmp_path / L.LOCKOUT_FILE, params=FAST)
    assert run(lock.attempt("1111")).outcome is Outcome.OK
    run(lock.set_pin("2589340176"))  # the manager changes IT's PIN (not locked)
    lock.relock()
    assert run(lock.attempt("1111")).outcome is Outcome.WRONG
    assert run(lock.attempt("2589340176")).outcome is Outcome.OK
    provisioned[0] = Provisioned(hash_pin("3333", FAST), False)  # IT provisions again
    assert pins.current() == provisioned[0].value
    assert lock.failures == 0  # another PIN: a clean count
    provisioned[0] = Provisioned(L.reset_marker(), False)  # IT runs reset-pin
    assert pins.current() is None
    assert not lock.has_pin()


def test_reset_marker_is_accepted_by_the_settings_and_unique() -> None:
    marker = L.reset_marker(1_800_000_000)
    assert marker.startswith("reset$1800000000$")
    assert S.MANAGER_PIN_HASH.parse(marker) == marker
    assert L.reset_marker(1_800_000_000) != marker


def test_for_paths_reads_the_settings(tmp_path: Path) -> None:
    it_hash = hash_pin("5555", FAST)
    settings = Settings({"manager_pin_hash": it_hash, "locked": "manager_pin_hash"})
    paths = KioskPaths(tmp_path / "kiosk.ini", tmp_path / "c", tmp_path / "d", tmp_path / "l")
    lock = ManagerLock.for_paths(settings, paths, params=FAST)
    assert lock.pins.pin_file == tmp_path / "c" / L.PIN_FILE
    assert lock.state_file == tmp_path / "d" / L.LOCKOUT_FILE
    assert lock.pins.current() == it_hash
    assert not lock.can_change_pin()

"""Who may be the manager (issue #17, items 7 and 8): no PIN outside training means
nobody; the most common PINs are never chosen; 100 wrong PINs in a row leave it to IT."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import Any, TypeVar

import pytest

from kiosk.core.security import lock as L
from kiosk.core.security.lock import (
    CommonPinError,
    ManagerLock,
    NoPinError,
    Outcome,
    PinChangeRefused,
    PinStore,
    Provisioned,
    ScryptParams,
    common_pin,
    hash_pin,
)
from kiosk.core.settings.layers import Settings
from kiosk.core.settings.paths import KioskPaths

T = TypeVar("T")
FAST = ScryptParams(n=2**4, r=1, p=1)


def run(coro: Coroutine[Any, Any, T]) -> T:
    return asyncio.run(coro)


class Clocks:
    def __init__(self) -> None:
        self.wall, self.mono = 1_800_000_000.0, 50.0

    def advance(self, seconds: float) -> None:
        self.wall += seconds
        self.mono += seconds


def lock_with(folder: Path, given: Callable[[], Provisioned], clocks: Clocks) -> ManagerLock:
    return ManagerLock(
        PinStore(folder / L.PIN_FILE, given),
        folder / L.LOCKOUT_FILE,
        params=FAST,
        wall=lambda: clocks.wall,
        monotonic=lambda: clocks.mono,
    )


# -- item 7: no PIN outside training ---------------------------------------------------
def test_outside_training_without_its_pin_nobody_is_the_manager(tmp_path: Path) -> None:
    lock = lock_with(tmp_path, lambda: Provisioned(None, False, training=False), Clocks())
    assert not lock.has_pin()
    assert lock.needs_it()
    assert not lock.may_choose_pin()
    with pytest.raises(PinChangeRefused, match="IT sets the manager PIN"):
        run(lock.set_pin("4826"))
    with pytest.raises(NoPinError):
        run(lock.attempt("4826"))
    assert not lock.unlocked
    assert not (tmp_path / L.PIN_FILE).exists()


def test_a_pin_chosen_in_training_does_not_count_in_production(tmp_path: Path) -> None:
    mode = [Provisioned(None, False, training=True)]
    lock = lock_with(tmp_path, lambda: mode[0], Clocks())
    assert lock.may_choose_pin()
    run(lock.set_pin("4826"))
    assert lock.unlocked
    mode[0] = Provisioned(None, False, training=False)  # the kiosk goes to production
    again = lock_with(tmp_path, lambda: mode[0], Clocks())
    assert not again.has_pin()
    assert again.needs_it()
    reset = Provisioned(L.reset_marker(), False, training=False)  # after reset-pin: the same
    assert not lock_with(tmp_path, lambda: reset, Clocks()).has_pin()


def test_outside_training_a_manager_may_change_the_pin_under_its_hash(tmp_path: Path) -> None:
    given = Provisioned(hash_pin("5820", FAST), False, training=False)
    lock = lock_with(tmp_path, lambda: given, Clocks())
    assert lock.has_pin()
    assert not lock.needs_it()
    assert run(lock.attempt("5820")).outcome is Outcome.OK
    with pytest.raises(L.ShortPinError):  # #22 item 3: 10 digits outside training
        run(lock.set_pin("7391"))
    assert lock.pin_min == 10
    run(lock.set_pin("7391046285"))  # under IT's hash: it counts
    lock.relock()
    again = lock_with(tmp_path, lambda: given, Clocks())
    assert run(again.attempt("7391046285")).outcome is Outcome.OK


def test_the_lock_reads_the_mode_from_the_settings(tmp_path: Path) -> None:
    paths = KioskPaths(tmp_path / "kiosk.ini", tmp_path / "c", tmp_path / "d", tmp_path / "l")
    production = Settings({"environment": "production", "production_url": "https://a.example"})
    assert not ManagerLock.for_paths(production, paths, params=FAST, seal=None).training
    assert ManagerLock.for_paths(Settings({}), paths, params=FAST, seal=None).training
    demo = ManagerLock.for_paths(production, paths, params=FAST, seal=None, training=True)
    assert demo.training


# -- item 8: common PINs ---------------------------------------------------------------
@pytest.mark.parametrize(
    "pin",
    [
        "0000", "1111", "777777", "99999999",  # one digit repeated
        "1234", "0123", "123456", "12345678", "4321", "3210", "987654",  # runs
        "1212", "6969", "1010", "123123", "12341234",  # a block repeated
        "1004", "2000", "2001", "1122",  # the most common others
    ],
)  # fmt: skip
def test_the_pins_anyone_tries_first_are_common(pin: str) -> None:
    assert common_pin(pin)


@pytest.mark.parametrize("pin", ["4826", "1357", "2468", "5820", "90210", "246813", "1973"])
def test_ordinary_pins_are_not(pin: str) -> None:
    assert not common_pin(pin)


@pytest.mark.parametrize("pin", ["0000", "1234", "4321", "777777", "987654"])
def test_a_common_pin_cannot_be_chosen_on_the_kiosk(tmp_path: Path, pin: str) -> None:
    lock = lock_with(tmp_path, lambda: Provisioned(None, False, training=True), Clocks())
    with pytest.raises(CommonPinError):
        run(lock.set_pin(pin))
    assert not lock.has_pin()
    assert not lock.unlocked


# -- item 8: the cap ------------------------------------------------------------------
def test_a_hundred_wrong_pins_in_a_row_leave_it_to_it(
    tmp_path: Path, expect_log: Callable[[str], None]
) -> None:
    expect_log(r"wrong manager PIN \(\d+ in a row\)")
    clocks = Clocks()
    given = [Provisioned(hash_pin("5820", FAST), True, training=False)]
    lock = lock_with(tmp_path, lambda: given[0], clocks)
    assert L.LockoutPolicy().cap == 100
    for _ in range(99):
        clocks.advance(lock.wait_remaining())
        assert run(lock.attempt("0000")).outcome is Outcome.WRONG
    assert not lock.blocked
    clocks.advance(lock.wait_remaining())
    last = run(lock.attempt("0001"))
    assert (last.outcome, last.failures) == (Outcome.WRONG, 100)
    assert lock.blocked
    clocks.advance(30 * 86_400)  # no wait ends it
    assert run(lock.attempt("5820")).outcome is Outcome.BLOCKED
    restarted = lock_with(tmp_path, lambda: given[0], clocks)
    assert restarted.blocked
    assert run(restarted.attempt("5820")).outcome is Outcome.BLOCKED
    assert not restarted.unlocked
    given[0] = Provisioned(hash_pin("5820", FAST), True, training=False)  # IT: reset-pin
    unblocked = lock_with(tmp_path, lambda: given[0], clocks)
    assert not unblocked.blocked
    assert unblocked.failures == 0
    assert run(unblocked.attempt("5820")).outcome is Outcome.OK


def test_blocked_in_training_nobody_chooses_a_new_pin(
    tmp_path: Path, expect_log: Callable[[str], None]
) -> None:
    expect_log(r"wrong manager PIN \(\d+ in a row\)")
    given = Provisioned(None, False, training=True)
    lock = ManagerLock(
        PinStore(tmp_path / L.PIN_FILE, lambda: given),
        tmp_path / L.LOCKOUT_FILE,
        params=FAST,
        policy=L.LockoutPolicy(cap=3, free_failures=5),
    )
    run(lock.set_pin("4826"))
    lock.relock()
    for _ in range(3):
        run(lock.attempt("0000"))
    assert lock.blocked
    assert lock.pins.forget()  # the PIN file goes: still IT's to unlock
    assert not lock.has_pin()
    assert not lock.may_choose_pin()
    with pytest.raises(PinChangeRefused, match="locked until IT"):
        run(lock.set_pin("7391"))

"""The manager lock's files under the keyring's seal (issue #17, item 8): deleting,
editing, forging or putting back an older copy of ``manager-lockout.json`` or
``manager-pin.json`` reads as locked (and IT's hash wins over a forged PIN file);
IT's new value unlocks; a kiosk upgraded from unsealed files keeps its state."""

from __future__ import annotations

import asyncio
import json
import shutil
from collections.abc import Callable, Coroutine, Iterator
from pathlib import Path
from typing import Any, TypeVar

import pytest

from kiosk.core.security import lock as L
from kiosk.core.security.lock import (
    ManagerLock,
    Outcome,
    PinStore,
    Provisioned,
    ScryptParams,
    hash_pin,
)
from kiosk.core.security.pin_hash import fingerprint
from kiosk.core.security.seal import KeyringVault, Seal, Verdict
from kiosk.core.security.secrets import LOCK_ENTRY, SERVICE
from kiosk.core.settings.layers import Settings
from kiosk.core.settings.paths import KioskPaths
from tests.ui.fake_keyring import MemoryKeyring, memory_keyring, no_keyring

T = TypeVar("T")
FAST = ScryptParams(n=2**4, r=1, p=1)
TAMPERED = r"manager mode is locked until IT resets the PIN"


def run(coro: Coroutine[Any, Any, T]) -> T:
    return asyncio.run(coro)


class Clocks:
    def __init__(self) -> None:
        self.wall, self.mono = 1_800_000_000.0, 50.0

    def advance(self, seconds: float) -> None:
        self.wall += seconds
        self.mono += seconds


class Kiosk:
    """The lock's folder, the keyring entry, and what IT provisioned; ``lock()`` is one
    start of the kiosk (a new seal read from the keyring each time)."""

    def __init__(self, folder: Path, keyring: MemoryKeyring) -> None:
        self.folder = folder
        self.keyring = keyring
        self.clocks = Clocks()
        self.given = Provisioned(None, False, training=True)
        paths = KioskPaths(folder / "kiosk.ini", folder / "config", folder / "data", folder / "l")
        self.paths = paths

    @property
    def entry(self) -> tuple[str, str]:
        """The keyring entry of this kiosk's lock (named after its folders)."""
        return (SERVICE, KeyringVault.for_files(self.pin_file, self.lockout).entry)

    def lock(self) -> ManagerLock:
        seal = Seal.open(KeyringVault.for_files(self.pin_file, self.lockout))
        assert seal is not None
        return ManagerLock(
            PinStore(self.paths.config_dir / L.PIN_FILE, lambda: self.given, seal),
            self.paths.data_dir / L.LOCKOUT_FILE,
            params=FAST,
            wall=lambda: self.clocks.wall,
            monotonic=lambda: self.clocks.mono,
            seal=seal,
        )

    @property
    def lockout(self) -> Path:
        return self.paths.data_dir / L.LOCKOUT_FILE

    @property
    def pin_file(self) -> Path:
        return self.paths.config_dir / L.PIN_FILE


@pytest.fixture
def kiosk(tmp_path: Path) -> Iterator[Kiosk]:
    with memory_keyring() as backend:
        yield Kiosk(tmp_path, backend)


def wrong_tries(lock: ManagerLock, count: int) -> None:
    for _ in range(count):
        run(lock.attempt("0000"))


@pytest.fixture(autouse=True)
def _waits_are_expected(expect_log: Callable[[str], None]) -> None:
    expect_log(r"wrong manager PIN \(\d+ in a row\)")


def test_the_keyring_keeps_a_key_and_counts_never_a_pin(kiosk: Kiosk) -> None:
    lock = kiosk.lock()
    run(lock.set_pin("4826"))
    lock.relock()
    wrong_tries(lock, 2)
    entry = json.loads(kiosk.keyring.entries[kiosk.entry])
    assert set(entry) == {"version", "key", "writes"}
    assert entry["writes"][L.LOCKOUT_KIND] >= 3
    on_disk = json.loads(kiosk.lockout.read_text())
    assert on_disk["version"] == 2
    assert on_disk["fields"]["failures"] == 2
    assert len(on_disk["mac"]) == 64
    restarted = kiosk.lock()
    assert restarted.failures == 2
    assert not restarted.blocked
    assert run(restarted.attempt("4826")).outcome is Outcome.OK


@pytest.mark.parametrize("how", ["deleted", "edited", "forged", "older copy", "unsigned"])
def test_a_lockout_file_not_the_kiosks_own_reads_as_locked(
    kiosk: Kiosk, how: str, expect_log: Callable[[str], None]
) -> None:
    expect_log(TAMPERED)
    lock = kiosk.lock()
    run(lock.set_pin("4826"))
    lock.relock()
    copy = kiosk.folder / "copy.json"
    shutil.copy(kiosk.lockout, copy)  # failures 0, as the cashier saw it
    wrong_tries(lock, 5)
    data = json.loads(kiosk.lockout.read_text())
    if how == "deleted":
        kiosk.lockout.unlink()
    elif how == "edited":
        data["fields"]["failures"] = 0
        kiosk.lockout.write_text(json.dumps(data))
    elif how == "forged":
        forged = {**data, "seq": data["seq"] + 10, "fields": {**data["fields"], "failures": 0}}
        kiosk.lockout.write_text(json.dumps(forged))
    elif how == "older copy":
        shutil.copy(copy, kiosk.lockout)
    else:
        kiosk.lockout.write_text(json.dumps({"version": 1, "failures": 0, "locked_until": 0}))
    restarted = kiosk.lock()
    assert restarted.blocked
    assert restarted.tampered
    assert run(restarted.attempt("4826")).outcome is Outcome.BLOCKED
    assert not restarted.unlocked
    assert kiosk.lock().blocked  # and it stays so at the next start
    kiosk.given = Provisioned(L.reset_marker(), False, training=True)  # IT: reset-pin
    after_it = kiosk.lock()
    assert not after_it.blocked
    assert after_it.failures == 0
    assert not after_it.has_pin()
    run(after_it.set_pin("7391"))  # training: the first person chooses again
    assert after_it.unlocked


def test_its_hash_wins_over_a_forged_pin_file(
    kiosk: Kiosk, expect_log: Callable[[str], None]
) -> None:
    expect_log(TAMPERED)
    expect_log(r"manager-pin\.json was not written by this kiosk")
    it_hash = hash_pin("5820", FAST)
    kiosk.given = Provisioned(it_hash, False, training=False)
    lock = kiosk.lock()
    assert lock.pins.current() == it_hash
    mine = hash_pin("1357", FAST)  # the cashier's own PIN, "under" IT's public value
    forged = {"version": 1, "hash": mine, "under": fingerprint(it_hash)}
    kiosk.pin_file.parent.mkdir(parents=True, exist_ok=True)
    kiosk.pin_file.write_text(json.dumps(forged))
    restarted = kiosk.lock()
    assert restarted.pins.current() == it_hash
    assert restarted.blocked  # someone wrote it: only IT unlocks
    assert run(restarted.attempt("1357")).outcome is Outcome.BLOCKED


def test_a_pin_file_put_back_is_not_used(kiosk: Kiosk, expect_log: Callable[[str], None]) -> None:
    expect_log(TAMPERED)
    expect_log(r"manager-pin\.json was not written by this kiosk")
    it_hash = hash_pin("5820", FAST)
    kiosk.given = Provisioned(it_hash, False, training=False)
    lock = kiosk.lock()
    assert run(lock.attempt("5820")).outcome is Outcome.OK
    run(lock.set_pin("1357902468"))  # the cashier watched this one
    old = kiosk.folder / "old-pin.json"
    shutil.copy(kiosk.pin_file, old)
    run(lock.set_pin("7391046285"))  # the manager changes it
    shutil.copy(old, kiosk.pin_file)
    restarted = kiosk.lock()
    assert restarted.blocked
    assert restarted.pins.current() == it_hash


def test_a_stop_between_the_file_and_the_keyring_is_no_tampering(kiosk: Kiosk) -> None:
    lock = kiosk.lock()
    run(lock.set_pin("4826"))
    lock.relock()
    before = kiosk.keyring.entries[kiosk.entry]
    wrong_tries(lock, 1)
    kiosk.keyring.entries[kiosk.entry] = before  # the keyring write was lost
    restarted = kiosk.lock()
    assert not restarted.blocked
    assert restarted.failures == 1


def test_an_upgraded_kiosk_keeps_its_pin_and_count_then_seals_them(kiosk: Kiosk) -> None:
    pin = hash_pin("4826", FAST)
    kiosk.pin_file.parent.mkdir(parents=True)
    kiosk.pin_file.write_text(json.dumps({"version": 1, "hash": pin, "under": fingerprint(None)}))
    kiosk.lockout.parent.mkdir(parents=True)
    until = kiosk.clocks.wall + 30
    kiosk.lockout.write_text(
        json.dumps({"version": 1, "pin": "x", "failures": 3, "locked_until": until})
    )
    lock = kiosk.lock()  # no keyring entry yet: the files of before are taken, once
    assert lock.failures == 3
    assert lock.wait_remaining() == pytest.approx(30)
    assert lock.pins.current() == pin
    assert json.loads(kiosk.lockout.read_text())["version"] == 2
    assert json.loads(kiosk.pin_file.read_text())["version"] == 2
    assert not kiosk.lock().blocked


def test_a_keyring_entry_deleted_makes_the_sealed_files_read_as_locked(
    kiosk: Kiosk, expect_log: Callable[[str], None]
) -> None:
    expect_log(TAMPERED)
    expect_log(r"manager-pin\.json was not written by this kiosk")
    lock = kiosk.lock()
    run(lock.set_pin("4826"))
    del kiosk.keyring.entries[kiosk.entry]
    restarted = kiosk.lock()
    assert restarted.blocked
    assert "another key" in restarted.tampered


def test_the_seal_says_what_it_found(kiosk: Kiosk) -> None:
    seal = Seal.open()
    assert seal is not None
    assert seal.check("thing", None).verdict is Verdict.FRESH
    record = {"version": 2, **seal.sign("thing", {"a": 1})}
    seal.written("thing", record["seq"])
    assert seal.check("thing", record).verdict is Verdict.VALID
    assert seal.check("other", record).verdict is Verdict.TAMPERED  # another kind's record
    assert seal.check("thing", None).verdict is Verdict.TAMPERED


def test_for_paths_seals_with_the_keyring_and_without_one_says_so(
    tmp_path: Path, expect_log: Callable[[str], None]
) -> None:
    paths = KioskPaths(tmp_path / "kiosk.ini", tmp_path / "c", tmp_path / "d", tmp_path / "l")
    production = Settings(
        {"environment": "production", "production_url": "https://a.example",
         "manager_pin_hash": hash_pin("5820", FAST)}
    )  # fmt: skip
    with memory_keyring() as backend:
        lock = ManagerLock.for_paths(production, paths, params=FAST)
        assert run(lock.attempt("0000")).outcome is Outcome.WRONG
        [entry] = [name for service, name in backend.entries if service == SERVICE]
        assert entry.startswith(f"{LOCK_ENTRY}:")
        assert json.loads(lock.state_file.read_text())["version"] == 2
    expect_log(r"no usable keyring .*: the manager lock.s files are kept unsealed")
    expect_log(r"manager-lockout\.json cannot be read")
    with no_keyring():
        unsealed = ManagerLock.for_paths(production, paths, params=FAST)
    assert unsealed.has_pin()


def test_a_kiosk_in_another_folder_keeps_its_own_count(tmp_path: Path) -> None:
    with memory_keyring():
        here, there = (
            Kiosk(tmp_path / "here", MemoryKeyring()),
            Kiosk(tmp_path / "there", MemoryKeyring()),
        )
        lock = here.lock()
        run(lock.set_pin("4826"))
        lock.relock()
        wrong_tries(lock, 2)
        elsewhere = there.lock()  # LOYALTY_KIOSK_HOME elsewhere, same account
        assert not elsewhere.blocked
        assert elsewhere.failures == 0
        assert here.lock().failures == 2

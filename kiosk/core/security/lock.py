"""The manager lock: the PIN check, the lockout after wrong tries, whether manager mode is open.

The PIN's hash and which PINs may be chosen (10 to 12 digits outside training, 4 to
12 in training: ``pin_min``): ``kiosk.core.security.pin_hash``; where
the PIN comes from (IT's hash, a PIN set on the kiosk, none): ``pin_store``; how
the lock's files are sealed: ``seal``. The check costs about half a second and
128 MiB, so ``ManagerLock`` runs it in a worker thread.

Without a PIN: in training mode the first person at Manager chooses one (twice, on
screen); outside training nobody can, and Manager, cancels and discards are refused
until IT sets ``manager_pin_hash`` (``loyalty-kiosk-cli hash-pin``, the installer).

Lockout: the 3rd wrong PIN in a row waits 30 s, each further one twice as long,
capped at 30 min; from the 10th on, every wrong PIN locks for 30 min; the 100th
(NIST SP 800-63B 5.2.2: at most 100 consecutive failures) locks manager mode until
IT resets the PIN (``loyalty-kiosk-cli reset-pin``). A right PIN resets the count.

The count is written (atomically, sealed) to ``manager-lockout.json`` in the data
folder *before* each check, so stopping the app mid-check still counts the try, and
it survives a restart (wall clock on disk; the monotonic clock within a run, so
moving the system clock does not shorten a wait). It belongs to IT's value of
``manager_pin_hash``: IT's new word (``reset-pin``, a new hash) starts a clean count.
A lockout or PIN file that is not this kiosk's own last write (deleted, edited,
replaced, an older copy put back) reads as the 100th failure: locked until IT resets
the PIN. That stops whoever can only reach the files; code running as the kiosk's
account can read the seal's key from its own keyring and sign a clean record
(``kiosk.core.security.seal``): what keeps such code from running is IT's lock-down
(Shell Launcher, no command prompt, AppLocker: ``docs/security.md``).
"""

from __future__ import annotations

import asyncio
import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path
from typing import Any, Literal

from kiosk.core.events import Event
from kiosk.core.security.pin_hash import (
    OWASP,
    PIN_MAX,
    PIN_MIN,
    REAL_PIN_MIN,
    RESET_PREFIX,
    SCHEME,
    CommonPinError,
    PinHashError,
    ScryptParams,
    ShortPinError,
    check_new_pin,
    common_pin,
    fingerprint,
    hash_pin,
    is_pin_hash,
    parse_hash,
    reset_marker,
    valid_pin,
    verify_pin,
)
from kiosk.core.security.pin_store import PinStore, Provisioned
from kiosk.core.security.seal import KeyringVault, Seal, SealedFile, Verdict
from kiosk.core.settings import layers as S
from kiosk.core.settings.layers import Environment, Settings
from kiosk.core.settings.paths import KioskPaths

__all__ = [
    "LOCKOUT_FILE",
    "OWASP",
    "PIN_FILE",
    "PIN_MAX",
    "PIN_MIN",
    "REAL_PIN_MIN",
    "RESET_PREFIX",
    "SCHEME",
    "Attempt",
    "CommonPinError",
    "LockoutPolicy",
    "ManagerLock",
    "NoPinError",
    "Outcome",
    "PinChangeRefused",
    "PinHashError",
    "PinStore",
    "Provisioned",
    "ScryptParams",
    "ShortPinError",
    "check_new_pin",
    "common_pin",
    "hash_pin",
    "is_pin_hash",
    "parse_hash",
    "reset_marker",
    "valid_pin",
    "verify_pin",
]

log = logging.getLogger(__name__)

PIN_FILE = "manager-pin.json"
LOCKOUT_FILE = "manager-lockout.json"
LOCKOUT_KIND = "manager-lockout"


@dataclass(frozen=True)
class LockoutPolicy:
    free_failures: int = 2  # wrong PINs without a wait; the next one starts waiting
    first_wait: float = 30.0
    factor: float = 2.0
    max_wait: float = 1800.0
    hard_failures: int = 10  # from here on, every wrong PIN locks for hard_wait
    hard_wait: float = 1800.0
    cap: int = 100  # wrong PINs in a row after which only IT unlocks (NIST SP 800-63B)

    def wait_after(self, failures: int) -> float:
        """Seconds to wait after ``failures`` wrong PINs in a row."""
        if failures >= self.hard_failures:
            return self.hard_wait
        if failures <= self.free_failures:
            return 0.0
        wait = self.first_wait * self.factor ** (failures - self.free_failures - 1)
        return min(wait, self.max_wait)

    def tries_before_wait(self, failures: int) -> int:
        return max(0, self.free_failures - failures + 1)


class Outcome(StrEnum):
    OK = "ok"
    WRONG = "wrong"
    LOCKED_OUT = "locked_out"  # refused without checking: wait first
    BLOCKED = "blocked"  # refused without checking: only IT unlocks (reset-pin)


@dataclass(frozen=True)
class Attempt:
    outcome: Outcome
    wait: float = 0.0  # seconds before the next try is accepted
    failures: int = 0  # wrong PINs in a row so far
    tries_left: int = 0  # wrong PINs still possible before a wait


class NoPinError(RuntimeError):
    """No manager PIN is set: in training choose one; outside training IT sets it."""


class PinChangeRefused(RuntimeError):
    """IT provisioned and locked the PIN, manager mode is locked, or outside training
    there is no PIN to start from (IT sets it)."""


class ManagerLock:
    """The manager PIN check, the lockout, and whether manager mode is unlocked."""

    def __init__(
        self,
        pins: PinStore,
        state_file: Path,
        *,
        policy: LockoutPolicy | None = None,
        params: ScryptParams = OWASP,
        wall: Callable[[], float] = time.time,
        monotonic: Callable[[], float] = time.monotonic,
        seal: Seal | None = None,
    ) -> None:
        self.pins = pins
        self.state_file = state_file
        self.policy = policy or LockoutPolicy()
        self.params = params
        self._wall = wall
        self._mono = monotonic
        self._record = SealedFile(state_file, LOCKOUT_KIND, seal)
        self._unlocked = False
        self._busy = asyncio.Lock()
        self._thread_lock = threading.Lock()
        self.changed: Event[bool] = Event()  # True: unlocked; False: locked again
        self._it = ""  # the fingerprint of IT's value the count belongs to
        self._failures = 0
        self._deadline = 0.0
        self.tampered = ""  # why a lock file was found not to be this kiosk's own
        self._short_noted = False
        self._load()
        self._sync_pin()  # a PIN file not this kiosk's own locks from the start

    @classmethod
    def for_paths(
        cls,
        settings: Settings,
        paths: KioskPaths,
        *,
        training: bool | None = None,
        seal: Seal | Literal["keyring"] | None = "keyring",
        **kwargs: Any,
    ) -> ManagerLock:
        """The kiosk's lock: its files in the kiosk's folders, sealed in the OS keyring.
        ``training``: the kiosk's mode (default: the ``environment`` setting)."""
        in_training = (
            settings.get(S.ENVIRONMENT) is Environment.TRAINING if training is None else training
        )
        pin_file, state_file = paths.config_dir / PIN_FILE, paths.data_dir / LOCKOUT_FILE
        if seal == "keyring":
            vault = KeyringVault.for_files(pin_file, state_file)
            seal = Seal.open(vault, warn=not in_training)
        assert not isinstance(seal, str)
        pins = PinStore.from_settings(settings, pin_file, seal, training=in_training)
        return cls(pins, state_file, seal=seal, **kwargs)

    # -- state on disk --------------------------------------------------------------
    def _load(self) -> None:
        self._it = fingerprint(self.pins.provisioned().value)
        self._failures, self._deadline, self.tampered = 0, 0.0, ""
        reading = self._record.load()
        if reading.verdict is Verdict.TAMPERED:
            self._tamper(f"{self.state_file.name}: {reading.why}")
            return
        data = reading.fields
        if reading.verdict is Verdict.VALID and data.get("it") != self._it:
            # IT's new word (or a plain file of before): a clean count, and the PIN set
            # on the kiosk under IT's previous value goes with it.
            if self._record.seal is not None:
                self.pins.clear()
                self._write(0, 0.0)
            return
        failures, until = data.get("failures"), data.get("locked_until")
        if isinstance(failures, int) and isinstance(until, int | float):
            self._failures = max(0, failures)
            # A wall clock set back must not stretch the wait beyond what the policy gives.
            remaining = min(max(0.0, until - self._wall()), self.policy.wait_after(failures))
            self._deadline = self._mono() + remaining if remaining > 0 else 0.0
        if isinstance(data.get("tampered"), str):
            self.tampered = str(data["tampered"])
        if reading.verdict is Verdict.LEGACY:  # a file of before the seal: sealed now
            self._write(self._failures, self.wait_remaining())

    def _write(self, failures: int, wait: float) -> None:
        until = self._wall() + wait if wait > 0 else 0.0
        fields: dict[str, Any] = {"it": self._it, "failures": failures, "locked_until": until}
        if self.tampered:
            fields["tampered"] = self.tampered
        self._record.save(fields)

    def _tamper(self, why: str) -> None:
        """A lock file that is not this kiosk's own: the 100th failure, on disk too."""
        log.error("manager mode is locked until IT resets the PIN: %s", why)
        self.tampered = why
        self._failures, self._deadline = max(self._failures, self.policy.cap), 0.0
        self._write(self._failures, 0.0)

    def _sync_pin(self) -> str | None:
        if fingerprint(self.pins.provisioned().value) != self._it:
            self._load()  # IT changed its value meanwhile
        stored = self.pins.current()
        if self.pins.tampered and not self.blocked:
            self._tamper(f"{self.pins.pin_file.name}: {self.pins.tampered}")
        return stored

    # -- queries ----------------------------------------------------------------------
    @property
    def unlocked(self) -> bool:
        return self._unlocked

    @property
    def failures(self) -> int:
        return self._failures

    @property
    def blocked(self) -> bool:
        """Only IT unlocks: too many wrong PINs, or a lock file not this kiosk's own."""
        return self._failures >= self.policy.cap

    @property
    def training(self) -> bool:
        return self.pins.training

    def has_pin(self) -> bool:
        return self._sync_pin() is not None

    def may_choose_pin(self) -> bool:
        """No PIN yet and training mode: the first person here chooses it."""
        return not self.has_pin() and self.training and self.can_change_pin() and not self.blocked

    def needs_it(self) -> bool:
        """No PIN and outside training: IT must set one (``manager_pin_hash``)."""
        return not self.has_pin() and not self.training

    def can_change_pin(self) -> bool:
        return self.pins.can_change()

    @property
    def pin_min(self) -> int:
        """Digits a new PIN needs here: 4 in training, 10 outside (``REAL_PIN_MIN``)."""
        return PIN_MIN if self.training else REAL_PIN_MIN

    def wait_remaining(self) -> float:
        """Seconds before another PIN is accepted (0: now; see ``blocked`` too)."""
        return max(0.0, self._deadline - self._mono()) if self._deadline else 0.0

    # -- actions ----------------------------------------------------------------------
    async def attempt(self, pin: str) -> Attempt:
        """Check ``pin``; on success manager mode is unlocked. ``NoPinError`` if none."""
        async with self._busy:
            stored = self._sync_pin()
            if self.blocked:
                return Attempt(Outcome.BLOCKED, 0.0, self._failures, 0)
            if stored is None:
                raise NoPinError("no manager PIN is set")
            ok = await asyncio.to_thread(self._check, pin, stored)
            if ok is None:
                capped = self._failures >= self.policy.cap
                outcome = Outcome.BLOCKED if capped else Outcome.LOCKED_OUT
                return Attempt(outcome, self.wait_remaining(), self._failures, 0)
            if ok:
                log.info("manager mode unlocked")
                if len(pin) < self.pin_min and not self._short_noted:
                    self._short_noted = True
                    log.info(
                        "the manager PIN has fewer than %d digits: an offline search of "
                        "kiosk.ini's hash can find it (docs/security.md); IT sets a longer "
                        "one with reset-pin --new-pin",
                        self.pin_min,
                    )
                self._set_unlocked(True)
                return Attempt(Outcome.OK)
            failures, penalty = self._failures, self.policy.wait_after(self._failures)
            if failures >= self.policy.cap:
                log.error(
                    "wrong manager PIN (%d in a row): locked until IT resets the PIN", failures
                )
            elif penalty > 0:
                log.warning("wrong manager PIN (%d in a row): locked for %.0f s", failures, penalty)
            else:
                log.info("wrong manager PIN (%d in a row)", failures)
            tries = self.policy.tries_before_wait(failures)
            return Attempt(Outcome.WRONG, penalty, failures, tries)

    def _check(self, pin: str, stored: str) -> bool | None:
        """Worker thread: count the try first (pessimistic: stopping the app mid-check
        still counts it), check, then record the outcome; the whole of it even when the
        caller stops waiting. None: refused unchecked (wait first, or IT must unlock)."""
        with self._thread_lock:
            if self.blocked or self.wait_remaining() > 0:
                return None
            failures = self._failures + 1
            penalty = self.policy.wait_after(failures)
            self._write(failures, penalty)
            try:
                ok = verify_pin(pin, stored)
            except PinHashError:
                log.error("manager_pin_hash is not a PIN hash this kiosk can check")
                ok = False
            if ok:
                self._write(0, 0.0)
                self._failures, self._deadline = 0, 0.0
            else:
                self._failures = failures
                self._deadline = self._mono() + penalty if penalty > 0 else 0.0
            return ok

    async def set_pin(self, pin: str) -> None:
        """Training's first run (no PIN yet), or a change while unlocked; then manager
        mode is unlocked. ``CommonPinError`` (a ``ValueError``) for a PIN anyone tries,
        ``ShortPinError`` for fewer than ``pin_min`` digits."""
        if not valid_pin(pin):
            raise ValueError(f"a PIN has {self.pin_min} to {PIN_MAX} digits")
        async with self._busy:
            current = self._sync_pin()
            if self.blocked:
                raise PinChangeRefused("manager mode is locked until IT resets the PIN")
            if current is None and not self.training:
                raise PinChangeRefused("outside training IT sets the manager PIN")
            if current is not None and not self._unlocked:
                raise PinChangeRefused("enter the current PIN first")
            if not self.pins.can_change():
                raise PinChangeRefused("IT manages the PIN")
            check_new_pin(pin, self.pin_min)
            stored = await asyncio.to_thread(hash_pin, pin, self.params)
            await asyncio.to_thread(self.pins.save, stored)
            self._failures, self._deadline = 0, 0.0
            await asyncio.to_thread(self._write, 0, 0.0)
            log.info("manager PIN set on this kiosk")
            self._set_unlocked(True)

    def relock(self) -> None:
        if self._unlocked:
            log.info("manager mode locked")
            self._set_unlocked(False)

    def _set_unlocked(self, unlocked: bool) -> None:
        self._unlocked = unlocked
        self.changed.emit(unlocked)

"""The manager PIN: a slow salted hash, where it is kept, and the lockout after wrong tries.

Hash: ``scrypt$N$r$p$salt_b64$hash_b64`` (``hash_pin``), OWASP's scrypt parameters
(N=2^17, r=8, p=1, 32 bytes, 16-byte random salt); ``verify_pin`` reads the
parameters back from the string and compares in constant time. A check costs
about half a second and 128 MiB, so ``ManagerLock`` runs it in a worker thread.

Where the PIN comes from (``PinStore``), in this order:

1. ``manager_pin_hash`` from the settings (IT's machine-wide file) when IT also
   locked that key: the manager cannot change it.
2. The PIN the manager set on the kiosk (``manager-pin.json`` in the config
   folder), but only while IT's value is the one it was set under: each file
   records a fingerprint of ``manager_pin_hash`` at the time. A new IT hash, or
   ``reset-pin`` (which writes a ``reset$...`` marker in the machine-wide file,
   administrator rights needed), makes it stale, so IT's last word always wins.
3. IT's ``manager_pin_hash`` when it is a hash.
4. None: first run (or after a reset): whoever configures the kiosk sets one.

Lockout: the 3rd wrong PIN in a row waits 30 s, each further one twice as long,
capped at 30 min; from the 10th on, every wrong PIN locks for 30 min. A right
PIN resets the count. The state is written (atomically) to
``manager-lockout.json`` in the data folder *before* each check, so stopping the
app mid-check still counts the try, and it survives a restart (wall clock on
disk; the monotonic clock within a run, so moving the system clock does not
shorten a wait). It belongs to one PIN: a new PIN starts a clean count.
"""

from __future__ import annotations

import asyncio
import base64
import binascii
import contextlib
import hashlib
import hmac
import json
import logging
import os
import secrets
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path
from typing import Any

from kiosk.core.events import Event
from kiosk.core.settings import layers as S
from kiosk.core.settings.layers import Settings
from kiosk.core.settings.paths import KioskPaths

log = logging.getLogger(__name__)

PIN_MIN, PIN_MAX = 4, 8
SCHEME = "scrypt"
RESET_PREFIX = "reset$"
PIN_FILE = "manager-pin.json"
LOCKOUT_FILE = "manager-lockout.json"
_FILE_VERSION = 1
# Refuse parameters that would take minutes or gigabytes (a damaged or hostile INI).
_MAX_N, _MAX_P, _MAX_MEMORY = 2**20, 4, 2**28


@dataclass(frozen=True)
class ScryptParams:
    n: int = 2**17
    r: int = 8
    p: int = 1
    dklen: int = 32
    salt_bytes: int = 16

    @property
    def maxmem(self) -> int:
        return 128 * self.r * (self.n + self.p + 2) + 2**16


OWASP = ScryptParams()  # cheatsheets.owasp.org: Password Storage, scrypt


class PinHashError(ValueError):
    """Not a PIN hash this kiosk can check (the reason never repeats the value)."""


def valid_pin(pin: str) -> bool:
    return PIN_MIN <= len(pin) <= PIN_MAX and pin.isascii() and pin.isdigit()


def _b64(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")


def _derive(pin: str, salt: bytes, params: ScryptParams) -> bytes:
    return hashlib.scrypt(
        pin.encode("ascii"),
        salt=salt,
        n=params.n,
        r=params.r,
        p=params.p,
        dklen=params.dklen,
        maxmem=params.maxmem,
    )


def hash_pin(pin: str, params: ScryptParams = OWASP) -> str:
    """``scrypt$N$r$p$salt$hash`` of a 4-8 digit PIN, with a fresh random salt."""
    if not valid_pin(pin):
        raise ValueError(f"a PIN has {PIN_MIN} to {PIN_MAX} digits")
    salt = secrets.token_bytes(params.salt_bytes)
    digest = _derive(pin, salt, params)
    return f"{SCHEME}${params.n}${params.r}${params.p}${_b64(salt)}${_b64(digest)}"


def parse_hash(stored: str) -> tuple[ScryptParams, bytes, bytes]:
    parts = stored.strip().split("$")
    if len(parts) != 6 or parts[0] != SCHEME:
        raise PinHashError("not a scrypt PIN hash")
    try:
        n, r, p = (int(part) for part in parts[1:4])
        salt = base64.b64decode(parts[4], validate=True)
        digest = base64.b64decode(parts[5], validate=True)
    except (ValueError, binascii.Error):
        raise PinHashError("damaged PIN hash") from None
    if not (1 < n <= _MAX_N and n & (n - 1) == 0 and r >= 1 and 1 <= p <= _MAX_P):
        raise PinHashError("PIN hash parameters out of range")
    if 128 * r * n * p > _MAX_MEMORY:
        raise PinHashError("PIN hash parameters out of range")
    if len(salt) < 8 or not 16 <= len(digest) <= 64:
        raise PinHashError("PIN hash salt or length out of range")
    return ScryptParams(n, r, p, len(digest), len(salt)), salt, digest


def is_pin_hash(value: str | None) -> bool:
    if not value:
        return False
    try:
        parse_hash(value)
    except PinHashError:
        return False
    return True


def verify_pin(pin: str, stored: str) -> bool:
    """Whether ``pin`` matches ``stored`` (constant-time compare). ``PinHashError``
    when ``stored`` is not a hash. Slow on purpose: call it off the UI thread."""
    params, salt, digest = parse_hash(stored)
    candidate = _derive(pin, salt, params) if valid_pin(pin) else bytes(len(digest))
    return hmac.compare_digest(candidate, digest) and valid_pin(pin)


def reset_marker(now: float | None = None) -> str:
    """What ``reset-pin`` writes as ``manager_pin_hash``: no PIN, and unique."""
    stamp = int(time.time() if now is None else now)
    return f"{RESET_PREFIX}{stamp}${secrets.token_hex(4)}"


def _fingerprint(value: str | None) -> str:
    return hashlib.sha256(("none" if value is None else value).encode()).hexdigest()[:16]


def _read_json(path: Path) -> dict[str, Any] | None:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return None
    except (OSError, ValueError):
        log.warning("%s cannot be read; ignored", path.name)
        return None
    return data if isinstance(data, dict) and data.get("version") == _FILE_VERSION else None


def write_json_atomic(path: Path, data: dict[str, Any]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, temp = tempfile.mkstemp(prefix=path.name, suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            json.dump({"version": _FILE_VERSION, **data}, handle)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(temp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temp)
        raise


@dataclass(frozen=True)
class Provisioned:
    """``manager_pin_hash`` as the settings give it, and whether IT locked it."""

    value: str | None
    locked: bool


class PinStore:
    """Which hash the manager PIN is checked against (see the module doc)."""

    def __init__(self, pin_file: Path, provisioned: Callable[[], Provisioned]) -> None:
        self.pin_file = pin_file
        self._provisioned = provisioned
        self._stale_noted = False

    @classmethod
    def from_settings(cls, settings: Settings, pin_file: Path) -> PinStore:
        return cls(
            pin_file,
            lambda: Provisioned(
                settings.get(S.MANAGER_PIN_HASH), settings.is_locked(S.MANAGER_PIN_HASH)
            ),
        )

    def current(self) -> str | None:
        provisioned = self._provisioned()
        it_hash = provisioned.value if is_pin_hash(provisioned.value) else None
        if provisioned.locked and it_hash:
            return it_hash
        saved = _read_json(self.pin_file) or {}
        if saved.get("under") == _fingerprint(provisioned.value) and is_pin_hash(saved.get("hash")):
            return str(saved["hash"])
        if saved and not self._stale_noted:
            self._stale_noted = True
            log.info("the manager PIN set on this kiosk predates IT's last change: not used")
        return it_hash

    def can_change(self) -> bool:
        """False when IT provisioned the PIN and locked it."""
        provisioned = self._provisioned()
        return not (provisioned.locked and is_pin_hash(provisioned.value))

    def save(self, stored: str) -> None:
        under = _fingerprint(self._provisioned().value)
        write_json_atomic(self.pin_file, {"hash": stored, "under": under})

    def forget(self) -> bool:
        """Delete the PIN set on this kiosk (``reset-pin``). Whether there was one."""
        try:
            self.pin_file.unlink()
        except FileNotFoundError:
            return False
        return True


@dataclass(frozen=True)
class LockoutPolicy:
    free_failures: int = 2  # wrong PINs without a wait; the next one starts waiting
    first_wait: float = 30.0
    factor: float = 2.0
    max_wait: float = 1800.0
    hard_failures: int = 10  # from here on, every wrong PIN locks for hard_wait
    hard_wait: float = 1800.0

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


@dataclass(frozen=True)
class Attempt:
    outcome: Outcome
    wait: float = 0.0  # seconds before the next try is accepted
    failures: int = 0  # wrong PINs in a row so far
    tries_left: int = 0  # wrong PINs still possible before a wait


class NoPinError(RuntimeError):
    """No manager PIN is set yet: set one first."""


class PinChangeRefused(RuntimeError):
    """IT provisioned and locked the PIN, or manager mode is locked."""


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
    ) -> None:
        self.pins = pins
        self.state_file = state_file
        self.policy = policy or LockoutPolicy()
        self.params = params
        self._wall = wall
        self._mono = monotonic
        self._unlocked = False
        self._busy = asyncio.Lock()
        self._thread_lock = threading.Lock()
        self.changed: Event[bool] = Event()  # True: unlocked; False: locked again
        self._pin_id = ""
        self._failures = 0
        self._deadline = 0.0
        self._load()

    @classmethod
    def for_paths(cls, settings: Settings, paths: KioskPaths, **kwargs: Any) -> ManagerLock:
        pins = PinStore.from_settings(settings, paths.config_dir / PIN_FILE)
        return cls(pins, paths.data_dir / LOCKOUT_FILE, **kwargs)

    # -- state on disk --------------------------------------------------------------
    def _load(self) -> None:
        self._pin_id = _fingerprint(self.pins.current())
        data = _read_json(self.state_file)
        self._failures, self._deadline = 0, 0.0
        if data is None or data.get("pin") != self._pin_id:
            return
        failures, until = data.get("failures"), data.get("locked_until")
        if not isinstance(failures, int) or not isinstance(until, int | float):
            return
        self._failures = max(0, failures)
        # A wall clock set back must not stretch the wait beyond what the policy gives.
        remaining = min(max(0.0, until - self._wall()), self.policy.wait_after(self._failures))
        self._deadline = self._mono() + remaining if remaining > 0 else 0.0

    def _write(self, failures: int, wait: float) -> None:
        until = self._wall() + wait if wait > 0 else 0.0
        write_json_atomic(
            self.state_file, {"pin": self._pin_id, "failures": failures, "locked_until": until}
        )

    def _sync_pin(self) -> str | None:
        stored = self.pins.current()
        if _fingerprint(stored) != self._pin_id:
            self._load()  # another PIN than the count was for: start clean
        return stored

    # -- queries ----------------------------------------------------------------------
    @property
    def unlocked(self) -> bool:
        return self._unlocked

    @property
    def failures(self) -> int:
        return self._failures

    def has_pin(self) -> bool:
        return self._sync_pin() is not None

    def can_change_pin(self) -> bool:
        return self.pins.can_change()

    def wait_remaining(self) -> float:
        """Seconds before another PIN is accepted (0: now)."""
        return max(0.0, self._deadline - self._mono()) if self._deadline else 0.0

    # -- actions ----------------------------------------------------------------------
    async def attempt(self, pin: str) -> Attempt:
        """Check ``pin``; on success manager mode is unlocked. ``NoPinError`` if none."""
        async with self._busy:
            stored = self._sync_pin()
            if stored is None:
                raise NoPinError("no manager PIN is set")
            ok = await asyncio.to_thread(self._check, pin, stored)
            if ok is None:
                return Attempt(Outcome.LOCKED_OUT, self.wait_remaining(), self._failures, 0)
            if ok:
                log.info("manager mode unlocked")
                self._set_unlocked(True)
                return Attempt(Outcome.OK)
            failures, penalty = self._failures, self.policy.wait_after(self._failures)
            if penalty > 0:
                log.warning("wrong manager PIN (%d in a row): locked for %.0f s", failures, penalty)
            else:
                log.info("wrong manager PIN (%d in a row)", failures)
            tries = self.policy.tries_before_wait(failures)
            return Attempt(Outcome.WRONG, penalty, failures, tries)

    def _check(self, pin: str, stored: str) -> bool | None:
        """Worker thread: count the try first (pessimistic: stopping the app mid-check
        still counts it), check, then record the outcome; the whole of it even when the
        caller stops waiting. None: refused unchecked (wait first)."""
        with self._thread_lock:
            if self.wait_remaining() > 0:
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
        """First run (no PIN yet), or a change while unlocked; then manager mode is unlocked."""
        if not valid_pin(pin):
            raise ValueError(f"a PIN has {PIN_MIN} to {PIN_MAX} digits")
        async with self._busy:
            if self.pins.current() is not None and not self._unlocked:
                raise PinChangeRefused("enter the current PIN first")
            if not self.pins.can_change():
                raise PinChangeRefused("IT manages the PIN")
            stored = await asyncio.to_thread(hash_pin, pin, self.params)
            await asyncio.to_thread(self.pins.save, stored)
            self._pin_id = _fingerprint(stored)
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


def clear_lockout(state_file: Path) -> bool:
    """Forget the wrong tries (``reset-pin``). Whether there were any on record."""
    try:
        state_file.unlink()
    except FileNotFoundError:
        return False
    return True

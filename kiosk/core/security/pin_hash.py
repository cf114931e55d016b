"""The manager PIN as stored: a slow salted hash, and which PINs may be chosen at all.

Hash: ``scrypt$N$r$p$salt_b64$hash_b64`` (``hash_pin``), OWASP's scrypt parameters
(N=2^17, r=8, p=1, 32 bytes, 16-byte random salt); ``verify_pin`` reads the
parameters back from the string and compares in constant time. A check costs
about half a second and 128 MiB: call it off the UI thread.

A PIN has 4 to 12 digits (``valid_pin``). When a PIN is chosen it needs at least 10
outside training (``REAL_PIN_MIN``): ``kiosk.ini``, which holds IT's hash, is readable
by every user, and a search of every 8-digit PIN at this cost takes days on a rented
machine, of every 10-digit one years (``docs/security.md``); IT's own commands
(``hash-pin``, ``reset-pin --new-pin``) always ask for 10. The ones a stranger tries first are
refused (``common_pin``, NIST SP 800-63B 5.1.1.2's list of commonly used secrets):
a block of digits repeated (0000, 1111, 777777, 1212, 123123), a run up or down
(1234, 4321, 123456, 987654, 0123) and the most common other 4-digit PINs
(1004, 2000, 2001, 1122: DataGenetics' count of 3.4 million PINs).
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import itertools
import secrets
import time
from dataclasses import dataclass

PIN_MIN, PIN_MAX = 4, 12
# Outside training (and for IT's own commands): a PIN an offline search of kiosk.ini's
# hash does not find in years (docs/security.md; tests/bench/pin_search.py measures it).
REAL_PIN_MIN = 10
SCHEME = "scrypt"
RESET_PREFIX = "reset$"
# Refuse parameters that would take minutes or gigabytes (a damaged or hostile INI).
_MAX_N, _MAX_P, _MAX_MEMORY = 2**20, 4, 2**28
# The most common 4-digit PINs that are neither a repeated block nor a run.
_COMMON = frozenset({"1004", "2000", "2001", "1122"})


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


class CommonPinError(ValueError):
    """A PIN anyone would try first (the message never repeats it)."""


class ShortPinError(ValueError):
    """Fewer digits than the kiosk's minimum (``REAL_PIN_MIN`` outside training)."""

    def __init__(self, minimum: int) -> None:
        self.minimum = minimum
        super().__init__(f"a manager PIN here has {minimum} to {PIN_MAX} digits")


def valid_pin(pin: str) -> bool:
    return PIN_MIN <= len(pin) <= PIN_MAX and pin.isascii() and pin.isdigit()


def common_pin(pin: str) -> bool:
    """Whether ``pin`` is one a stranger tries first: a repeated block, a run of
    digits up or down, or one of the most common PINs."""
    if pin in _COMMON:
        return True
    size = len(pin)
    if any(pin == pin[:block] * (size // block) for block in range(1, size // 2 + 1)):
        return True  # 0000, 777777, 1212, 123123, 12341234
    if not pin.isdigit():
        return False
    steps = {int(b) - int(a) for a, b in itertools.pairwise(pin)}
    return steps in ({1}, {-1})  # 1234, 0123, 4321, 987654


def check_new_pin(pin: str, minimum: int = PIN_MIN) -> None:
    """``ValueError`` when ``pin`` cannot be chosen: not ``minimum`` to 12 digits
    (``ShortPinError`` when only too short), or too common."""
    if not valid_pin(pin):
        raise ValueError(f"a PIN has {minimum} to {PIN_MAX} digits")
    if len(pin) < minimum:
        raise ShortPinError(minimum)
    if common_pin(pin):
        raise CommonPinError("this PIN is among the first anyone tries (like 1234, 1111 or 4321)")


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
    """``scrypt$N$r$p$salt$hash`` of a 4-12 digit PIN, with a fresh random salt."""
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


def fingerprint(value: str | None) -> str:
    """A short digest of ``manager_pin_hash`` as given (``None`` too): what a record was
    written under, never the value."""
    return hashlib.sha256(("none" if value is None else value).encode()).hexdigest()[:16]

"""``reset-pin`` and ``hash-pin``: the manager PIN, for IT (see ``kiosk.core.security.lock``).

``loyalty-kiosk-cli reset-pin`` (administrator console: it writes the machine-wide
``kiosk.ini``) clears the manager PIN: it writes ``manager_pin_hash = reset$<time>$<random>``
in ``[kiosk]``, which makes every PIN set on the kiosk before it stale. Outside
training mode Manager, cancels and discards are then refused until IT sets a new PIN;
in training the next person to open Manager chooses one (twice). ``--new-pin``
instead sets a PIN that IT chooses (read without echo at a console, or one line on
standard input). IT's new value also starts a clean count of wrong tries, so it
ends a lockout, the 100-failure one included (the kiosk keeps the count sealed, so
nothing is deleted here). The running kiosk reads the file at start: restart it
(``--shutdown``, then start).

``loyalty-kiosk-cli hash-pin`` prints the hash of a PIN for IT to provision
(``manager_pin_hash = scrypt$...`` under ``[kiosk]``) without touching any file.

A new PIN of IT's has 10 to 12 digits (an offline search of the hash in the readable
``kiosk.ini`` takes years: docs/security.md) and is not one anyone tries first (0000, 1234, 4321,
777777...: ``kiosk.core.security.pin_hash.common_pin``). The PIN is never taken
from the command line and never printed or logged. The machine-wide file is edited
in place, line by line: its comments, order, encoding (UTF-8, UTF-16 with BOM or the
ANSI code page) and permissions stay.
"""

from __future__ import annotations

import getpass
import logging
import os
import re
from pathlib import Path
from typing import TextIO

from kiosk.cli.args import EXIT_FAILED, EXIT_OK, EXIT_USAGE
from kiosk.core.security.lock import (
    PIN_MAX,
    REAL_PIN_MIN,
    CommonPinError,
    ShortPinError,
    check_new_pin,
    hash_pin,
    reset_marker,
)
from kiosk.core.settings import layers as S
from kiosk.core.settings.layers import machine_file
from kiosk.core.settings.paths import KioskPaths

log = logging.getLogger(__name__)

SECTION = S.MANAGER_PIN_HASH.section
KEY = S.MANAGER_PIN_HASH.key
_BOMS = ((b"\xff\xfe", "utf-16-le"), (b"\xfe\xff", "utf-16-be"), (b"\xef\xbb\xbf", "utf-8"))


class PinInputError(ValueError):
    """No usable PIN was given (the message never repeats what was typed)."""


def read_pin(stdin: TextIO | None, *, confirm: bool = True, minimum: int = REAL_PIN_MIN) -> str:
    """A new PIN of IT's: asked twice without echo at a console, else one line of
    ``stdin``. ``minimum`` digits (10: one an offline search of kiosk.ini does not find)."""
    if stdin is not None and stdin.isatty():
        pin = getpass.getpass(f"New manager PIN ({minimum} to {PIN_MAX} digits, not shown): ")
        if confirm and getpass.getpass("The same PIN again: ") != pin:
            raise PinInputError("the two PINs do not match")
    elif stdin is not None:
        lines = [line.strip() for line in stdin.read().splitlines() if line.strip()]
        pin = lines[0] if len(lines) == 1 else ""
    else:
        raise PinInputError("no standard input to read the PIN from")
    try:
        check_new_pin(pin.strip(), minimum)
    except ShortPinError:
        raise PinInputError(
            f"a manager PIN has {minimum} to {PIN_MAX} digits: kiosk.ini, which holds its "
            "hash, is readable by every user, and a shorter PIN is found by an offline "
            "search (docs/security.md)"
        ) from None
    except CommonPinError:
        raise PinInputError(
            "this PIN is among the first anyone tries (like 0000, 1234, 4321 or 777777): "
            "choose another"
        ) from None
    except ValueError:
        raise PinInputError(f"a manager PIN has {minimum} to {PIN_MAX} digits") from None
    return pin.strip()


def _decode(data: bytes) -> tuple[str, bytes, str]:
    """(text, byte-order mark, encoding) of the INI file as found."""
    for bom, encoding in _BOMS:
        if data.startswith(bom):
            return data[len(bom) :].decode(encoding), bom, encoding
    try:
        return data.decode("utf-8"), b"", "utf-8"
    except UnicodeDecodeError:
        return data.decode("cp1252"), b"", "cp1252"


def set_ini_value(path: Path, section: str, key: str, value: str) -> None:
    """Set ``key = value`` in ``[section]`` of ``path`` (created if missing), changing
    nothing else. Written in place so the file keeps its permissions."""
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        data = b""
    text, bom, encoding = _decode(data)
    newline = "\r\n" if "\r\n" in text or (not text and os.name == "nt") else "\n"
    lines = text.splitlines()
    header = re.compile(r"\s*\[([^\]]*)\]")
    entry = re.compile(rf"\s*{re.escape(key)}\s*[=:]", re.IGNORECASE)
    sections = [
        (i, m.group(1).strip().lower()) for i, line in enumerate(lines) if (m := header.match(line))
    ]
    start = next((i for i, name in sections if name == section), None)
    new_line = f"{key} = {value}"
    if start is None:
        lines += ([""] if lines and lines[-1].strip() else []) + [f"[{section}]", new_line]
    else:
        end = next((i for i in range(start + 1, len(lines)) if header.match(lines[i])), len(lines))
        found = [i for i in range(start + 1, end) if entry.match(lines[i])]
        if found:
            lines[found[0]] = new_line
            for extra in reversed(found[1:]):  # a key twice would make the file unreadable
                del lines[extra]
        else:
            last = max((i for i in range(start, end) if lines[i].strip()), default=start)
            lines.insert(last + 1, new_line)
    payload = bom + (newline.join(lines) + newline).encode(encoding)
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "r+b" if path.exists() else "wb") as handle:
        handle.write(payload)
        handle.truncate()
        handle.flush()
        os.fsync(handle.fileno())


def reset_pin(
    paths: KioskPaths,
    *,
    new_pin: bool = False,
    stdin: TextIO | None = None,
    out: TextIO | None = None,
    err: TextIO | None = None,
) -> int:
    """Clear the manager PIN (or set IT's ``new_pin``) in the machine-wide file."""
    try:
        value = hash_pin(read_pin(stdin)) if new_pin else reset_marker()
    except PinInputError as error:
        _say(err, f"reset-pin: {error}")
        return EXIT_USAGE
    target = machine_file(paths)  # the file the kiosk reads, wherever a variable points
    try:
        set_ini_value(target, SECTION, KEY, value)
    except PermissionError:
        _say(
            err,
            f"reset-pin: {target} can only be changed by an administrator. Run this from an "
            "administrator console (Windows: Run as administrator; Linux: sudo).",
        )
        return EXIT_FAILED
    except OSError as error:
        _say(err, f"reset-pin: {target} could not be written ({error.strerror})")
        return EXIT_FAILED
    log.info("manager PIN %s by IT in %s", "replaced" if new_pin else "reset", target)
    what = (
        "The manager PIN is now the one you typed."
        if new_pin
        else "The manager PIN is cleared. Outside training mode Manager, cancels and "
        "discards are refused until you set one (hash-pin, or reset-pin --new-pin); in "
        "training the next person to open Manager chooses it."
    )
    _say(out, f"{what} Written to {target}. The count of wrong PINs starts again.")
    _say(
        out,
        "Restart the kiosk for it to take effect (loyalty-kiosk-cli --shutdown --all-users, then start it).",
    )
    return EXIT_OK


def print_pin_hash(
    stdin: TextIO | None = None, out: TextIO | None = None, err: TextIO | None = None
) -> int:
    """``hash-pin``: the INI line for a PIN that IT chooses (no file is touched)."""
    try:
        pin = read_pin(stdin)
    except PinInputError as error:
        _say(err, f"hash-pin: {error}")
        return EXIT_USAGE
    _say(out, f"[{SECTION}]\n{KEY} = {hash_pin(pin)}")
    return EXIT_OK


def _say(stream: TextIO | None, text: str) -> None:
    if stream is not None:
        stream.write(text + "\n")
        stream.flush()

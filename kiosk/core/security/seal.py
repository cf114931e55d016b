"""The manager lock's files, sealed so that deleting, editing or copying them back is noticed.

The lock keeps two small JSON files in the kiosk user's folders: the PIN set on the
kiosk (``manager-pin.json``) and the count of wrong PINs (``manager-lockout.json``).
That account may delete, edit or copy back its own files. So each write is numbered
and signed: HMAC-SHA256, under a random 256-bit key kept in the OS keyring
(``loyalty-kiosk`` / ``manager-lock:<folders>``, ``kiosk.core.security.secrets``), over the
record's kind, number and fields. The keyring entry also keeps the number of the
last write of each kind. Reading a file says (``Verdict``):

- ``VALID``: signed under this key and no older than the last write;
- ``FRESH``: no file, and nothing of that kind was ever written under this key;
- ``LEGACY``: a file from before the seal (no signature), taken at the first look
  only, and only when the key was made by this run (a kiosk just upgraded); the
  caller signs it again at once;
- ``TAMPERED``: a file gone after a write, damaged, unsigned, signed under another
  key, changed, or older than the last write (a copy put back).

The file is written before the keyring entry: a stop between the two leaves a file one
write ahead of the keyring, which reads as valid (the keyring catches up), never as
tampered. What it does not stop: code running as the kiosk's account can read the key
from that account's keyring and sign a clean record, or delete the entry and start
again from a brand-new key (the log says so). A key the account owns cannot be hidden
from the account: what stops that code is that it never runs (the kiosk as the only
shell, no command prompt, AppLocker: docs/security.md, "What IT must lock down").

Without a usable keyring (``Seal.open`` answers ``None``) the files are kept as
before, unsigned, and a warning is logged: a kiosk without a keyring cannot hold an
API key either, so it does not serve production.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import json
import logging
import secrets
import threading
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path
from typing import Any, Protocol

from kiosk.core.security.secrets import LOCK_ENTRY, KeyringUnavailable, load_secret, store_secret
from kiosk.core.storage import write_atomically

log = logging.getLogger(__name__)

PLAIN_VERSION = 1  # a file as written before the seal, or without a keyring
SEALED_VERSION = 2
_KEY_BYTES = 32
_MISSING = object()


class Vault(Protocol):
    """Where the seal's key and write numbers live (the OS keyring; a dict in tests)."""

    def read(self) -> str | None: ...

    def write(self, value: str) -> None: ...


class KeyringVault:
    def __init__(self, entry: str = LOCK_ENTRY) -> None:
        self.entry = entry

    @classmethod
    def for_files(cls, *files: Path) -> KeyringVault:
        """The entry of the lock whose files are ``files``: ``manager-lock:<digest of
        their folders>``, so a kiosk moved elsewhere (``LOYALTY_KIOSK_HOME``, a demo)
        starts its own count instead of finding the other one's files gone."""
        where = "|".join(str(f.parent.resolve()) for f in files)
        return cls(f"{LOCK_ENTRY}:{hashlib.sha256(where.encode()).hexdigest()[:12]}")

    def read(self) -> str | None:
        return load_secret(self.entry)

    def write(self, value: str) -> None:
        store_secret(self.entry, value)


class Verdict(StrEnum):
    FRESH = "fresh"
    VALID = "valid"
    LEGACY = "legacy"
    TAMPERED = "tampered"


@dataclass(frozen=True)
class Reading:
    verdict: Verdict
    fields: dict[str, Any] = field(default_factory=dict)
    why: str = ""  # for the log, when tampered


def _canonical(kind: str, seq: int, fields: dict[str, Any]) -> bytes:
    return json.dumps(
        {"kind": kind, "seq": seq, "fields": fields}, sort_keys=True, separators=(",", ":")
    ).encode("utf-8")


def _parse_vault(text: str | None) -> tuple[bytes, dict[str, int]] | None:
    if not text:
        return None
    try:
        data = json.loads(text)
        key = base64.b64decode(data["key"], validate=True)
        writes = {str(k): int(v) for k, v in data.get("writes", {}).items()}
    except (ValueError, TypeError, KeyError, AttributeError, binascii.Error):
        return None
    return (key, writes) if len(key) == _KEY_BYTES else None


class Seal:
    """Signs and checks the lock's records (see the module doc). Thread-safe."""

    def __init__(self, vault: Vault) -> None:
        self._vault = vault
        self._lock = threading.Lock()
        self._checked: set[str] = set()
        stored = vault.read()
        parsed = _parse_vault(stored)
        self.new = parsed is None
        self._key: bytes
        self._writes: dict[str, int]
        if parsed is None:
            if stored:
                log.error("the manager lock's keyring entry is damaged: a new one is made")
            else:
                log.info("the manager lock's seal is made (a new key in the keyring)")
            self._key, self._writes = secrets.token_bytes(_KEY_BYTES), {}
            self._save()
        else:
            self._key, self._writes = parsed

    @classmethod
    def open(cls, vault: Vault | None = None, *, warn: bool = True) -> Seal | None:
        """The seal in the OS keyring (made on first use); ``None`` without a keyring
        (a warning, or with ``warn=False``, training, a note)."""
        try:
            return cls(vault if vault is not None else KeyringVault())
        except KeyringUnavailable as error:
            log.log(
                logging.WARNING if warn else logging.INFO,
                "no usable keyring (%s): the manager lock's files are kept unsealed",
                error,
            )
            return None

    def _save(self) -> None:
        key = base64.b64encode(self._key).decode("ascii")
        self._vault.write(json.dumps({"version": 1, "key": key, "writes": self._writes}))

    def _mac(self, kind: str, seq: int, fields: dict[str, Any]) -> str:
        return hmac.new(self._key, _canonical(kind, seq, fields), hashlib.sha256).hexdigest()

    def sign(self, kind: str, fields: dict[str, Any]) -> dict[str, Any]:
        """The record to write: ``fields`` with the next number and the signature."""
        with self._lock:
            seq = self._writes.get(kind, 0) + 1
        return {"fields": fields, "seq": seq, "mac": self._mac(kind, seq, fields)}

    def written(self, kind: str, seq: int) -> None:
        """The file of ``kind`` now holds write ``seq``: the keyring follows."""
        with self._lock:
            if seq <= self._writes.get(kind, 0):
                return
            self._writes[kind] = seq
            try:
                stored = _parse_vault(self._vault.read())  # another writer's numbers stay
                if stored is not None and stored[0] == self._key:
                    for other, count in stored[1].items():
                        self._writes[other] = max(count, self._writes.get(other, 0))
                self._save()
            except KeyringUnavailable as error:  # the file is ahead: still valid next time
                log.warning("the manager lock's seal could not be updated (%s)", error)

    def check(self, kind: str, data: Any) -> Reading:
        """What the file of ``kind`` holds (``data``: its JSON, ``None`` when missing)."""
        with self._lock:
            last = self._writes.get(kind, 0)
            first = kind not in self._checked  # a legacy file is taken at the first look only
            self._checked.add(kind)
        if data is None:
            if last:
                return Reading(Verdict.TAMPERED, why="the file is gone")
            return Reading(Verdict.FRESH)
        if not isinstance(data, dict):
            return Reading(Verdict.TAMPERED, why="the file is damaged")
        version = data.get("version")
        if version == PLAIN_VERSION and "mac" not in data:
            if self.new and first and not last:
                return Reading(Verdict.LEGACY, {k: v for k, v in data.items() if k != "version"})
            return Reading(Verdict.TAMPERED, why="the file is not signed")
        fields, seq, mac = data.get("fields"), data.get("seq"), data.get("mac")
        if version != SEALED_VERSION or not isinstance(fields, dict):
            return Reading(Verdict.TAMPERED, why="the file is damaged")
        if not isinstance(seq, int) or not isinstance(mac, str):
            return Reading(Verdict.TAMPERED, why="the file is damaged")
        if not hmac.compare_digest(mac, self._mac(kind, seq, fields)):
            why = "signed under another key" if self.new else "the file was changed"
            return Reading(Verdict.TAMPERED, why=why)
        if seq < last:
            return Reading(Verdict.TAMPERED, why="an older copy of the file was put back")
        self.written(kind, seq)
        return Reading(Verdict.VALID, dict(fields))


class SealedFile:
    """One record of the lock on disk: sealed with ``seal``, or plain without one."""

    def __init__(self, path: Path, kind: str, seal: Seal | None) -> None:
        self.path = path
        self.kind = kind
        self.seal = seal

    def load(self) -> Reading:
        data = _read(self.path)
        if self.seal is not None:
            return self.seal.check(self.kind, None if data is _MISSING else data or "damaged")
        if data is _MISSING:
            return Reading(Verdict.FRESH)
        if isinstance(data, dict) and data.get("version") == PLAIN_VERSION:
            return Reading(Verdict.VALID, {k: v for k, v in data.items() if k != "version"})
        log.warning("%s cannot be read; ignored", self.path.name)
        return Reading(Verdict.FRESH)

    def save(self, fields: dict[str, Any]) -> None:
        if self.seal is None:
            write_json_atomic(self.path, {"version": PLAIN_VERSION, **fields})
            return
        record = self.seal.sign(self.kind, fields)
        write_json_atomic(self.path, {"version": SEALED_VERSION, **record})
        self.seal.written(self.kind, int(record["seq"]))

    def remove(self) -> bool:
        try:
            self.path.unlink()
        except FileNotFoundError:
            return False
        return True


def _read(path: Path) -> Any:
    """The file's JSON; ``_MISSING`` when there is no file; ``None`` when unreadable."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return _MISSING
    except OSError:
        return None
    try:
        return json.loads(text)
    except ValueError:
        return None


def write_json_atomic(path: Path, data: dict[str, Any]) -> None:
    write_atomically(path, json.dumps(data))

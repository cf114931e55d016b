"""The kiosk's folders on disk: can it write them, how much space is left, and is a
failure a full disk or a folder the kiosk may not write.

The self-test checks what the start needs (``check_folder``, ``free_bytes``); the
start-up error screen and the counter's messages tell a full disk (``is_disk_full``)
and a folder without write access (``is_write_denied``) from other failures, so a
full disk says "disk full", never "something went wrong".
"""

from __future__ import annotations

import contextlib
import errno
import os
import shutil
import sqlite3
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import NamedTuple

MIN_FREE_BYTES = 50 * 1024 * 1024
"""Below this, the start and the self-test say "disk full": the database grows by a
few KiB per sale, the log by up to 12 MiB, and Windows needs room of its own."""

_FULL_ERRNOS = frozenset({errno.ENOSPC, getattr(errno, "EDQUOT", errno.ENOSPC)})
_FULL_WINERRORS = frozenset({39, 112})  # ERROR_HANDLE_DISK_FULL, ERROR_DISK_FULL
_DENIED_ERRNOS = frozenset({errno.EACCES, errno.EPERM, errno.EROFS})
_DENIED_WINERRORS = frozenset({5, 19})  # ERROR_ACCESS_DENIED, ERROR_WRITE_PROTECT
# SQLite's primary result codes (``sqlite_errorcode & 0xFF``).
_SQLITE_FULL = 13
_SQLITE_READONLY = 8
_SQLITE_CANTOPEN = 14
_SQLITE_PERM = 3


class DiskUsage(NamedTuple):
    total: int
    used: int
    free: int


def disk_usage(folder: Path) -> DiskUsage:
    """The disk's figures for a folder (a test replaces it to fill a disk)."""
    return DiskUsage(*shutil.disk_usage(folder))


def _chain(error: BaseException) -> Iterator[BaseException]:
    seen: BaseException | None = error
    for _ in range(8):
        if seen is None:
            return
        yield seen
        seen = seen.__cause__ or seen.__context__


def _sqlite_code(error: BaseException) -> int | None:
    code = getattr(error, "sqlite_errorcode", None)
    return code & 0xFF if isinstance(code, int) else None


def is_disk_full(error: BaseException) -> bool:
    """Whether ``error`` (or what caused it) is a full disk or an exhausted quota."""
    for item in _chain(error):
        if isinstance(item, OSError) and (
            item.errno in _FULL_ERRNOS or getattr(item, "winerror", None) in _FULL_WINERRORS
        ):
            return True
        if isinstance(item, sqlite3.Error) and (
            _sqlite_code(item) == _SQLITE_FULL or "disk is full" in str(item)
        ):
            return True
    return False


def is_write_denied(error: BaseException) -> bool:
    """Whether ``error`` is the system refusing a write: no permission, a read-only
    drive, or SQLite unable to create or write its file."""
    for item in _chain(error):
        if isinstance(item, PermissionError):
            return True
        if isinstance(item, OSError) and (
            item.errno in _DENIED_ERRNOS or getattr(item, "winerror", None) in _DENIED_WINERRORS
        ):
            return True
        if isinstance(item, sqlite3.Error) and (
            _sqlite_code(item) in (_SQLITE_READONLY, _SQLITE_CANTOPEN, _SQLITE_PERM)
            or "readonly database" in str(item)
            or "unable to open database file" in str(item)
        ):
            return True
    return False


def nearest_existing(folder: Path) -> Path:
    """``folder`` or its closest parent that exists (where a disk can be asked)."""
    for candidate in (folder, *folder.parents):
        if candidate.exists():
            return candidate
    return folder


def free_bytes(folder: Path) -> int | None:
    """Free bytes on the disk of ``folder`` (None: the system would not say, or the
    folder is on no disk at all, a total of 0 bytes)."""
    try:
        usage = disk_usage(nearest_existing(folder))
    except OSError:
        return None
    return usage.free if usage.total > 0 else None


@dataclass(frozen=True)
class FolderProblem:
    """A folder the kiosk must write and cannot: ``why`` in IT's words."""

    folder: Path
    why: str
    disk_full: bool = False


def check_folder(folder: Path) -> FolderProblem | None:
    """Create ``folder`` if missing (the start does), then write and delete a small
    file in it: None when that worked."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
        handle, name = tempfile.mkstemp(prefix=".write-check-", dir=folder)
        try:
            os.write(handle, b"loyalty-kiosk")
            os.fsync(handle)
        finally:
            os.close(handle)
            os.unlink(name)
    except OSError as error:
        reason = error.strerror or type(error).__name__
        if is_disk_full(error):
            return FolderProblem(folder, f"disk full ({reason})", disk_full=True)
        return FolderProblem(folder, f"not writable by this account ({reason})")
    return None


def megabytes(count: int) -> str:
    return f"{count / (1024 * 1024):,.0f} MB"


def write_atomically(path: Path, text: str) -> None:
    """Replace ``path`` with ``text`` so that a crash leaves the old file or the new one,
    never half of one: a temporary file beside it, flushed to disk, then renamed over."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, temp = tempfile.mkstemp(prefix=path.name, suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(temp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temp)
        raise

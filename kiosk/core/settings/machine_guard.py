"""IT's machine-wide file: found where Windows says, and refused when users may write it.

- **Where.** On Windows the ProgramData folder comes from the shell's known-folder
  API (``SHGetKnownFolderPath(FOLDERID_ProgramData)``), never from the ``PROGRAMDATA``
  environment variable, which any account may set for itself (nor from platformdirs,
  which honours ``WIN_PD_OVERRIDE_*`` variables). Should the API fail, the fixed
  ``C:\\ProgramData`` is used.
- **Who may write it.** The file holds IT's environment, base URLs, PIN hash and locks:
  a file (or its folder) that the kiosk's account may change is no stronger than the
  manager's own ``settings.json``. ``check_machine_file`` refuses it
  (``MachineFileUnsafe``, a ``SettingsFileError``): on Windows when its owner is not
  Administrators, SYSTEM or TrustedInstaller, or an allow entry of its ACL or of its
  folder's gives Users, Authenticated Users, Interactive or Everyone a right to write,
  append, delete, or change the ACL or the owner; on POSIX when it or its folder is
  writable by group or others, or not owned by root. The installer sets that ACL
  (``installer.iss``, ``LockDataFolder``; ``docs/deploy.md``).

The operating-system calls are injected (``AclReader``, ``stat``), so the rules are
tested on any system; the ctypes readers run on Windows only.
"""

from __future__ import annotations

import os
import stat as stat_module
import sys
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

from kiosk.core.settings.files import FileProblem, SettingsFileError

PROGRAM_DATA_FALLBACK = r"C:\ProgramData"
FOLDERID_PROGRAM_DATA = "{62AB5D82-FDC1-4DC3-A9DD-070D1D495D97}"

# Well-known SIDs: whoever may not write IT's file, and who may own it.
EVERYONE, AUTHENTICATED_USERS, INTERACTIVE, USERS = "S-1-1-0", "S-1-5-11", "S-1-5-4", "S-1-5-32-545"
UNTRUSTED = frozenset({EVERYONE, AUTHENTICATED_USERS, INTERACTIVE, USERS})
ADMINISTRATORS, SYSTEM = "S-1-5-32-544", "S-1-5-18"
TRUSTED_INSTALLER = "S-1-5-80-956008885-3418522649-1831038044-1853292631-2271478464"
TRUSTED_OWNERS = frozenset({ADMINISTRATORS, SYSTEM, TRUSTED_INSTALLER})

ACCESS_ALLOWED_ACE_TYPE = 0
INHERIT_ONLY_ACE = 0x08
# FILE_WRITE_DATA (add file), FILE_APPEND_DATA (add subfolder), FILE_WRITE_EA,
# FILE_DELETE_CHILD, FILE_WRITE_ATTRIBUTES, DELETE, WRITE_DAC, WRITE_OWNER,
# GENERIC_ALL, GENERIC_WRITE.
WRITE_RIGHTS = (
    0x0002
    | 0x0004
    | 0x0010
    | 0x0040
    | 0x0100
    | 0x00010000
    | 0x00040000
    | 0x00080000
    | 0x10000000
    | 0x40000000
)


class MachineFileUnsafe(SettingsFileError):
    """IT's file, or its folder, may be changed by a user: nothing of it is used."""


@dataclass(frozen=True)
class Ace:
    """One entry of a Windows ACL, as far as the check needs it."""

    sid: str
    kind: int  # ACCESS_ALLOWED_ACE_TYPE, or another type (deny, audit...)
    mask: int
    flags: int = 0  # INHERIT_ONLY_ACE: for what the folder will hold, not for itself


@dataclass(frozen=True)
class Security:
    """A file's or folder's owner and access entries (``None``: no DACL, all may write)."""

    owner: str
    aces: tuple[Ace, ...] | None


AclReader = Callable[[Path], Security]


def known_program_data(shell: Callable[[], str] | None = None) -> str:
    """``FOLDERID_ProgramData`` from the shell (Windows), or ``C:\\ProgramData``."""
    ask = shell or (_shell_program_data if os.name == "nt" else None)
    if ask is None:
        return PROGRAM_DATA_FALLBACK
    try:
        return ask()
    except (OSError, AttributeError, ValueError):
        return PROGRAM_DATA_FALLBACK


def _shell_program_data() -> str:  # pragma: no cover - Windows only
    import ctypes
    import uuid
    from ctypes import wintypes

    class Guid(ctypes.Structure):
        _fields_ = [
            ("data1", wintypes.DWORD),
            ("data2", wintypes.WORD),
            ("data3", wintypes.WORD),
            ("data4", ctypes.c_ubyte * 8),
        ]

    raw = uuid.UUID(FOLDERID_PROGRAM_DATA)
    guid = Guid(
        raw.time_low, raw.time_mid, raw.time_hi_version, (ctypes.c_ubyte * 8)(*raw.bytes[8:])
    )
    found = ctypes.c_wchar_p()
    windll = ctypes.windll  # type: ignore[attr-defined,unused-ignore]
    result = windll.shell32.SHGetKnownFolderPath(ctypes.byref(guid), 0, None, ctypes.byref(found))
    try:
        if result != 0 or not found.value:
            raise OSError(f"SHGetKnownFolderPath failed ({result})")
        return str(found.value)
    finally:
        windll.ole32.CoTaskMemFree(found)


def users_may_write(security: Security) -> str | None:
    """Why a user may change what ``security`` protects (``None``: only IT may)."""
    if security.owner not in TRUSTED_OWNERS:
        return f"owned by {security.owner}, not by Administrators or SYSTEM"
    if security.aces is None:
        return "it has no access list (everyone may change it)"
    for ace in security.aces:
        applies = ace.kind == ACCESS_ALLOWED_ACE_TYPE and not ace.flags & INHERIT_ONLY_ACE
        if applies and ace.sid in UNTRUSTED and ace.mask & WRITE_RIGHTS:
            return f"{ace.sid} may change it (rights 0x{ace.mask:08x})"
    return None


def check_machine_file(
    path: Path,
    *,
    platform: str | None = None,
    read_acl: AclReader | None = None,
    stat: Callable[[Path], os.stat_result] | None = None,
) -> None:
    """Refuse IT's file when a user may change it or its folder (``MachineFileUnsafe``).
    A missing file is no file: nothing to refuse."""
    platform = sys.platform if platform is None else platform
    if not (path.exists() if stat is None else _exists(path, stat)):
        return
    for target in (path, path.parent):
        try:
            if platform.startswith("win"):
                why = users_may_write((read_acl or _read_windows_acl)(target))
            else:
                why = _posix_problem((stat or os.stat)(target))
        except OSError as error:  # fail closed: an access list nobody can read is no proof
            why = f"its access list cannot be read: {error.strerror or error}"
        if why is not None:
            what = "the file" if target == path else f"its folder {target}"
            raise MachineFileUnsafe(
                path,
                FileProblem.UNSAFE,
                f"not used: {what} may be changed by users ({why}). Only administrators may "
                "write IT's settings: run the installer again, or set the access list as "
                "docs/deploy.md says",
            )


def _exists(path: Path, stat: Callable[[Path], os.stat_result]) -> bool:
    try:
        stat(path)
    except FileNotFoundError:
        return False
    return True


def _posix_problem(found: os.stat_result) -> str | None:
    if found.st_uid != 0:
        return f"owned by user {found.st_uid}, not root"
    if found.st_mode & (stat_module.S_IWGRP | stat_module.S_IWOTH):
        return f"writable by group or others (mode {stat_module.S_IMODE(found.st_mode):o})"
    return None


def _read_windows_acl(path: Path) -> Security:  # pragma: no cover - Windows only
    import ctypes

    windll = ctypes.windll  # type: ignore[attr-defined,unused-ignore]
    owner, dacl, descriptor = ctypes.c_void_p(), ctypes.c_void_p(), ctypes.c_void_p()
    owner_info, dacl_info, se_file_object = 0x1, 0x4, 1
    error = windll.advapi32.GetNamedSecurityInfoW(
        str(path),
        se_file_object,
        owner_info | dacl_info,
        ctypes.byref(owner),
        None,
        ctypes.byref(dacl),
        None,
        ctypes.byref(descriptor),
    )
    if error != 0:
        raise OSError(error, f"cannot read the access list of {path}")
    try:
        aces = tuple(_aces(dacl)) if dacl.value else None
        return Security(_sid_text(owner), aces)
    finally:
        windll.kernel32.LocalFree(descriptor)


def _aces(dacl: object) -> Iterable[Ace]:  # pragma: no cover - Windows only
    import ctypes

    class AclSize(ctypes.Structure):
        _fields_ = [
            ("count", ctypes.c_uint32),
            ("used", ctypes.c_uint32),
            ("free", ctypes.c_uint32),
        ]

    class AllowedAce(ctypes.Structure):
        _fields_ = [
            ("kind", ctypes.c_ubyte),
            ("flags", ctypes.c_ubyte),
            ("size", ctypes.c_ushort),
            ("mask", ctypes.c_uint32),
            ("sid_start", ctypes.c_uint32),
        ]

    advapi = ctypes.windll.advapi32  # type: ignore[attr-defined,unused-ignore]
    size = AclSize()
    if not advapi.GetAclInformation(dacl, ctypes.byref(size), ctypes.sizeof(size), 2):
        raise OSError("GetAclInformation failed")
    for index in range(size.count):
        pointer = ctypes.c_void_p()
        if not advapi.GetAce(dacl, index, ctypes.byref(pointer)):
            raise OSError("GetAce failed")
        ace = ctypes.cast(pointer, ctypes.POINTER(AllowedAce)).contents
        sid = ctypes.c_void_p((pointer.value or 0) + AllowedAce.sid_start.offset)
        yield Ace(_sid_text(sid), ace.kind, ace.mask, ace.flags)


def _sid_text(sid: object) -> str:  # pragma: no cover - Windows only
    import ctypes

    windll = ctypes.windll  # type: ignore[attr-defined,unused-ignore]
    text = ctypes.c_wchar_p()
    if not windll.advapi32.ConvertSidToStringSidW(sid, ctypes.byref(text)):
        raise OSError("ConvertSidToStringSidW failed")
    try:
        return str(text.value)
    finally:
        windll.kernel32.LocalFree(text)

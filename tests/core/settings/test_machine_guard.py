"""#22 item 4: IT's machine-wide file is refused when users may change it or its folder.

The Windows rules run on the access lists a Windows machine gives (injected here as
``Security``); the POSIX ones on real files where this account is root, else on
injected ``stat`` results."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from kiosk.core.settings import layers as s
from kiosk.core.settings.files import FileProblem
from kiosk.core.settings.machine_guard import (
    ACCESS_ALLOWED_ACE_TYPE,
    ADMINISTRATORS,
    AUTHENTICATED_USERS,
    SYSTEM,
    USERS,
    Ace,
    MachineFileUnsafe,
    Security,
    check_machine_file,
)
from kiosk.core.settings.paths import KioskPaths

FULL, READ_EXECUTE, ADD_FILE, DELETE, WRITE_DAC = 0x1F01FF, 0x1200A9, 0x0002, 0x00010000, 0x00040000
DENY = 1
# What installer.iss (LockDataFolder) leaves: Administrators and SYSTEM full, Users read.
LOCKED = Security(
    ADMINISTRATORS,
    (
        Ace(ADMINISTRATORS, ACCESS_ALLOWED_ACE_TYPE, FULL),
        Ace(SYSTEM, ACCESS_ALLOWED_ACE_TYPE, FULL),
        Ace(USERS, ACCESS_ALLOWED_ACE_TYPE, READ_EXECUTE),
    ),
)
# ProgramData's inherited entries: Users may create files in a folder (and then own them).
PROGRAM_DATA_DEFAULT = Security(
    ADMINISTRATORS, (*(LOCKED.aces or ()), Ace(USERS, ACCESS_ALLOWED_ACE_TYPE, ADD_FILE))
)


def windows(tmp_path: Path, file: Security, folder: Security = LOCKED) -> None:
    ini = tmp_path / "kiosk.ini"
    ini.write_text("[connection]\nenvironment = production\n")
    check_machine_file(ini, platform="win32", read_acl=lambda path: file if path == ini else folder)


def test_the_installers_access_list_is_accepted(tmp_path: Path) -> None:
    windows(tmp_path, LOCKED)
    denied = Security(ADMINISTRATORS, (Ace(USERS, DENY, FULL), *(LOCKED.aces or ())))
    windows(tmp_path, denied)  # a deny entry gives nothing
    # An inherit-only entry is for files made later (each is checked on its own).
    for_children = Ace(USERS, ACCESS_ALLOWED_ACE_TYPE, FULL, flags=0x08 | 0x01)
    windows(tmp_path, LOCKED, Security(ADMINISTRATORS, (*(LOCKED.aces or ()), for_children)))


@pytest.mark.parametrize(
    ("file", "folder", "why"),
    [
        (
            Security(ADMINISTRATORS, (Ace(USERS, ACCESS_ALLOWED_ACE_TYPE, FULL),)),
            LOCKED,
            "S-1-5-32-545 may change it",
        ),
        (
            Security(
                ADMINISTRATORS, (Ace(AUTHENTICATED_USERS, ACCESS_ALLOWED_ACE_TYPE, WRITE_DAC),)
            ),
            LOCKED,
            "S-1-5-11",
        ),
        (
            Security(ADMINISTRATORS, (Ace("S-1-1-0", ACCESS_ALLOWED_ACE_TYPE, DELETE),)),
            LOCKED,
            "S-1-1-0",
        ),
        (Security("S-1-5-21-1-2-3-1001", LOCKED.aces), LOCKED, "owned by S-1-5-21-1-2-3-1001"),
        (Security(ADMINISTRATORS, None), LOCKED, "no access list"),
        (LOCKED, PROGRAM_DATA_DEFAULT, "its folder"),
    ],
)
def test_users_who_may_write_the_file_or_its_folder_are_refused(
    tmp_path: Path, file: Security, folder: Security, why: str
) -> None:
    with pytest.raises(MachineFileUnsafe) as refused:
        windows(tmp_path, file, folder)
    assert refused.value.problem is FileProblem.UNSAFE
    assert why in str(refused.value)
    assert "docs/deploy.md" in str(refused.value)


def fake_stat(uid: int, mode: int) -> os.stat_result:
    return os.stat_result((mode, 0, 0, 1, uid, 0, 0, 0, 0, 0))


@pytest.mark.parametrize(
    ("uid", "mode", "refused"),
    [(0, 0o100644, False), (0, 0o100664, True), (0, 0o100646, True), (1000, 0o100644, True)],
)
def test_posix_needs_root_and_no_group_or_other_write(
    tmp_path: Path, uid: int, mode: int, refused: bool
) -> None:
    ini = tmp_path / "kiosk.ini"
    folder = fake_stat(0, 0o40755)

    def stat(path: Path) -> os.stat_result:
        return fake_stat(uid, mode) if path == ini else folder

    if refused:
        with pytest.raises(MachineFileUnsafe):
            check_machine_file(ini, platform="linux", stat=stat)
    else:
        check_machine_file(ini, platform="linux", stat=stat)
    check_machine_file(tmp_path / "missing.ini", platform="linux")  # no file: nothing to refuse


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0, reason="needs root")
def test_the_kiosk_refuses_its_fixed_file_when_others_may_write_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The start itself: IT's file at its fixed place, group-writable, is not used."""
    fixed = tmp_path / "etc" / "loyalty-kiosk" / "kiosk.ini"
    fixed.parent.mkdir(parents=True)
    fixed.parent.chmod(0o755)
    fixed.write_text("[connection]\nenvironment = training\n")
    fixed.chmod(0o664)
    monkeypatch.setattr(s, "machine_settings_path", lambda: fixed)
    paths = KioskPaths(fixed, tmp_path / "config", tmp_path / "data", tmp_path / "log")
    with pytest.raises(MachineFileUnsafe, match="may be changed by users"):
        s.load_settings(paths)
    fixed.chmod(0o644)
    assert s.load_settings(paths).machine_path == fixed


def test_an_access_list_that_cannot_be_read_is_refused(tmp_path: Path) -> None:
    ini = tmp_path / "kiosk.ini"
    ini.write_text("[connection]\nenvironment = production\n")

    def unreadable(path: Path) -> Security:
        raise OSError(5, "Access is denied")

    with pytest.raises(MachineFileUnsafe, match="cannot be read: Access is denied"):
        check_machine_file(ini, platform="win32", read_acl=unreadable)

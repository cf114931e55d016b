"""``loyalty-kiosk --shutdown [--all-users] [--wait SECONDS]``: close the running kiosk.

Asks the kiosk through its single-instance server (``kiosk.cli.instance``) to close
cleanly (outbox and journal flushed, the manager PIN not asked), then waits until
its process has exited, so its files can be replaced.

Exit codes: 0 every kiosk found has exited; 3 no kiosk was running; 1 one is
still running after ``--wait`` seconds (or did not accept the request).
``--all-users`` reaches every user's kiosk on the machine (run it elevated: the
installer does, before replacing files).
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path
from typing import TextIO

from kiosk.cli.args import EXIT_FAILED, EXIT_NOT_RUNNING, EXIT_OK
from kiosk.cli.instance import SHUTDOWN, InstanceError, find_servers, send_command, server_name
from kiosk.core.settings.paths import KioskPaths

POLL = 0.1


def process_exists(pid: int) -> bool:
    if sys.platform == "win32":
        import ctypes
        from ctypes import wintypes

        kernel32 = ctypes.WinDLL("kernel32", use_last_error=True)
        kernel32.OpenProcess.restype = wintypes.HANDLE
        kernel32.OpenProcess.argtypes = [wintypes.DWORD, wintypes.BOOL, wintypes.DWORD]
        kernel32.WaitForSingleObject.argtypes = [wintypes.HANDLE, wintypes.DWORD]
        kernel32.CloseHandle.argtypes = [wintypes.HANDLE]
        handle = kernel32.OpenProcess(
            0x00100000 | 0x1000, False, pid
        )  # SYNCHRONIZE | QUERY_LIMITED
        if not handle:
            return ctypes.get_last_error() == 5  # access denied: it exists; else it is gone
        try:
            return bool(kernel32.WaitForSingleObject(handle, 0) == 0x102)  # WAIT_TIMEOUT: running
        finally:
            kernel32.CloseHandle(handle)
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # another user's process: it exists
        return True
    stat = Path(f"/proc/{pid}/stat")
    try:  # an exited child not yet reaped by its parent is a zombie: it is gone for us
        return stat.read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except (OSError, IndexError):
        return True


def wait_for_exit(pid: int, seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while process_exists(pid):
        if time.monotonic() >= deadline:
            return False
        time.sleep(POLL)
    return True


def shutdown(
    paths: KioskPaths, *, all_users: bool, wait: float, out: TextIO | None, err: TextIO | None
) -> int:
    names = find_servers() if all_users else [server_name(paths)]
    asked: list[int] = []
    status = EXIT_OK
    for name in names:
        try:
            pid = send_command(name, SHUTDOWN)
        except InstanceError as error:
            _say(err, f"{name}: {error}")
            status = EXIT_FAILED
            continue
        if pid is not None:
            asked.append(pid)
    if not asked:
        _say(out, "no kiosk is running")
        return status if status != EXIT_OK else EXIT_NOT_RUNNING
    deadline = time.monotonic() + wait
    for pid in asked:
        if wait_for_exit(pid, max(0.0, deadline - time.monotonic())):
            _say(out, f"kiosk closed (process {pid})")
        else:
            _say(err, f"kiosk (process {pid}) still running after {wait:.0f} s")
            status = EXIT_FAILED
    return status


def _say(stream: TextIO | None, text: str) -> None:
    if stream is not None:
        stream.write(text + "\n")
        stream.flush()

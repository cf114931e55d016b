"""One kiosk per user, and the channel ``--shutdown`` uses: a ``QLocalServer``.

The counter app claims its name before showing a window (``claim``): when another
kiosk of the same user (and data folder) already listens, that one is brought to
the front and the new start ends. The running kiosk closes cleanly when told to
(``shutdown_requested``); that close bypasses the manager PIN of kiosk mode.

Name: ``LoyaltyKiosk-`` + a hash of the user and the data folder (so test and
portable runs with their own ``LOYALTY_KIOSK_HOME`` never meet the real one). On
Windows it is the named pipe ``\\\\.\\pipe\\LoyaltyKiosk-…``, whose default security
lets the user, administrators and SYSTEM connect: the installer (elevated, or
SYSTEM under a deployment tool) closes every user's kiosk with ``--all-users``.
Elsewhere a Unix socket in Qt's temporary folder, reachable by its user only.

Protocol, one UTF-8 line each way: the server greets with ``loyalty-kiosk <pid>``;
the client sends ``activate`` or ``shutdown``; the server answers ``ok``.

On Windows the running kiosk also holds the mutex ``LoyaltyKioskRunning`` (local
and ``Global\\``), which ``installer.iss`` checks before replacing files.
"""

from __future__ import annotations

import getpass
import hashlib
import logging
import os
import sys
from pathlib import Path
from typing import Protocol

from PySide6.QtCore import QDir, QObject, Signal
from PySide6.QtNetwork import QLocalServer, QLocalSocket

from kiosk.core.settings.paths import KioskPaths

log = logging.getLogger(__name__)

PREFIX = "LoyaltyKiosk-"
MUTEX_NAME = "LoyaltyKioskRunning"
GREETING = "loyalty-kiosk"
ACTIVATE = "activate"
SHUTDOWN = "shutdown"
TIMEOUT_MS = 3000


class InstanceError(RuntimeError):
    """A kiosk answered, but not as expected."""


def _user() -> str:
    try:
        return getpass.getuser()
    except Exception:  # no user name in the environment
        return str(Path.home())


def server_name(paths: KioskPaths, user: str | None = None) -> str:
    key = f"{(user or _user()).lower()}|{paths.data_dir}"
    return PREFIX + hashlib.sha256(key.encode()).hexdigest()[:16]


def find_servers() -> list[str]:
    """Every kiosk's server on this machine (names, or socket paths outside Windows)."""
    if sys.platform == "win32":
        try:
            pipes = os.listdir("\\\\.\\pipe\\")
        except OSError:
            return []
        return sorted(p for p in pipes if p.startswith(PREFIX))
    folders = {Path(QDir.tempPath()), Path("/tmp")}  # noqa: S108 (where Qt puts sockets)
    return sorted({str(p) for f in folders if f.is_dir() for p in f.glob(f"{PREFIX}*")})


def _read_line(socket: QLocalSocket, timeout_ms: int) -> str:
    while not socket.canReadLine():
        if not socket.waitForReadyRead(timeout_ms):
            raise InstanceError("the kiosk did not answer")
    return bytes(socket.readLine().data()).decode("utf-8", errors="replace").strip()


def send_command(name: str, command: str, timeout_ms: int = TIMEOUT_MS) -> int | None:
    """Tell the kiosk listening as ``name``; its pid, or None when none listens there."""
    socket = QLocalSocket()
    socket.connectToServer(name)
    if not socket.waitForConnected(timeout_ms):
        return None
    try:
        greeting = _read_line(socket, timeout_ms).split()
        if len(greeting) != 2 or greeting[0] != GREETING or not greeting[1].isdigit():
            raise InstanceError(f"{name} is not a kiosk")
        pid = int(greeting[1])
        if command == ACTIVATE:
            _allow_foreground(pid)
        socket.write(f"{command}\n".encode())
        socket.flush()
        reply = _read_line(socket, timeout_ms)
        if reply != "ok":
            raise InstanceError(f"the kiosk refused {command!r}: {reply}")
        return pid
    finally:
        socket.abort()


class InstanceServer(QObject):
    """The running kiosk's end. Keep a reference for the app's lifetime."""

    activate_requested = Signal()
    shutdown_requested = Signal()

    def __init__(self, name: str, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.name = name
        self._server = QLocalServer(self)
        if sys.platform != "win32":
            self._server.setSocketOptions(QLocalServer.SocketOption.UserAccessOption)
        self._server.newConnection.connect(self._accept)
        self._mutex: object | None = None

    def listen(self) -> bool:
        """Listen (replacing a socket left by a crashed kiosk: call after no one answered)."""
        if not self._server.listen(self.name):
            QLocalServer.removeServer(self.name)
            if not self._server.listen(self.name):
                log.warning("single-instance server %s: %s", self.name, self._server.errorString())
                return False
        self._mutex = hold_running_mutex()
        return True

    def close(self) -> None:
        self._server.close()

    def _accept(self) -> None:
        while self._server.hasPendingConnections():
            socket = self._server.nextPendingConnection()
            socket.disconnected.connect(socket.deleteLater)
            socket.readyRead.connect(lambda s=socket: self._read(s))
            socket.write(f"{GREETING} {os.getpid()}\n".encode())
            socket.flush()

    def _read(self, socket: QLocalSocket) -> None:
        while socket.canReadLine():
            command = bytes(socket.readLine().data()).decode("utf-8", errors="replace").strip()
            if command not in (ACTIVATE, SHUTDOWN):
                socket.write(b"unknown command\n")
                socket.flush()
                continue
            socket.write(b"ok\n")
            socket.flush()
            log.info("single-instance server: %s requested", command)
            if command == SHUTDOWN:
                self.shutdown_requested.emit()
            else:
                self.activate_requested.emit()


def claim(paths: KioskPaths, parent: QObject | None = None) -> InstanceServer | None:
    """This user's kiosk server, or None when a kiosk already runs (it was brought to front)."""
    name = server_name(paths)
    try:
        if send_command(name, ACTIVATE) is not None:
            log.info("a kiosk is already running for this user: brought it to the front")
            return None
    except InstanceError as error:
        log.warning("single-instance check: %s", error)
    server = InstanceServer(name, parent)
    server.listen()
    return server


class Window(Protocol):
    def isMinimized(self) -> bool: ...
    def showNormal(self) -> None: ...
    def raise_(self) -> None: ...
    def activateWindow(self) -> None: ...


def bring_to_front(window: Window) -> None:
    if window.isMinimized():
        window.showNormal()
    window.raise_()
    window.activateWindow()


def _allow_foreground(pid: int) -> None:
    """Windows lets a background process take the foreground only when allowed to."""
    if sys.platform == "win32":
        import ctypes

        ctypes.windll.user32.AllowSetForegroundWindow(pid)


def hold_running_mutex() -> object | None:
    """Windows: hold ``LoyaltyKioskRunning`` (local and Global) for the process lifetime,
    waitable by everyone (the installer runs as another user). None elsewhere."""
    if sys.platform == "win32":
        return _hold_windows_mutex()
    return None


if sys.platform == "win32":
    import ctypes
    from ctypes import wintypes

    class _SecurityAttributes(ctypes.Structure):
        _fields_ = [
            ("nLength", wintypes.DWORD),
            ("lpSecurityDescriptor", wintypes.LPVOID),
            ("bInheritHandle", wintypes.BOOL),
        ]

    def _hold_windows_mutex() -> list[int]:
        descriptor = wintypes.LPVOID()
        # Full control for SYSTEM, administrators and the owner; SYNCHRONIZE for everyone.
        sddl = "D:(A;;GA;;;SY)(A;;GA;;;BA)(A;;GA;;;OW)(A;;0x00100000;;;WD)"
        attributes = None
        if ctypes.windll.advapi32.ConvertStringSecurityDescriptorToSecurityDescriptorW(
            sddl, 1, ctypes.byref(descriptor), None
        ):
            attributes = _SecurityAttributes(ctypes.sizeof(_SecurityAttributes), descriptor, False)
        kernel32 = ctypes.windll.kernel32
        kernel32.CreateMutexW.restype = wintypes.HANDLE
        handles = [
            kernel32.CreateMutexW(ctypes.byref(attributes) if attributes else None, False, name)
            for name in (MUTEX_NAME, f"Global\\{MUTEX_NAME}")
        ]
        return [h for h in handles if h]

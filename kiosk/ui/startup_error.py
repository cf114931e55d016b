"""The kiosk could not start: a full-screen error naming the file, the line and what to
do, in the person's language, and the exit code Shell Launcher reads.

``startup_problem(error, paths)`` turns what stopped the start into a ``StartupProblem``
(which failure, where, the technical detail); ``StartupErrorView`` shows it until
someone closes it (or IT's ``--shutdown``); the process then ends with the problem's
``ExitCode``. Every code and what IT does for it: ``docs/troubleshooting.md``.

The detail is the error's own text, in English for IT and support, through the log
redaction (never a key); the sentences around it are translated. Nothing here is
imported on a start that works.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from enum import IntEnum
from pathlib import Path

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication, Qt, Signal
from PySide6.QtWidgets import (
    QFrame,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QSizePolicy,
    QVBoxLayout,
    QWidget,
)

from kiosk.api import logsafety
from kiosk.core.db import SchemaError
from kiosk.core.security.secrets import KeyringUnavailable
from kiosk.core.settings.files import (
    InvalidSettingError,
    SecretInSettingsError,
    SettingsError,
)
from kiosk.core.settings.paths import KioskPaths
from kiosk.core.storage import MIN_FREE_BYTES, free_bytes, is_disk_full, is_write_denied


class ExitCode(IntEnum):
    """How the counter app ended (``loyalty-kiosk``'s exit code)."""

    CLOSED = 0  # closed normally: manager, --shutdown, the session ended
    UNEXPECTED = 1  # an error the kiosk does not know (see the log)
    SETTINGS_FILE = 10  # kiosk.ini cannot be read: binary, duplicate section, bad line
    SETTING_VALUE = 11  # a setting the start needs is invalid or missing
    SECRET_IN_FILE = 12  # a settings file holds an API key or another secret
    NO_KEYRING = 13  # no secure keyring for the API key in this account
    FOLDER_NOT_WRITABLE = 14  # the data, config or log folder cannot be written
    DISK_FULL = 15
    DATABASE = 16  # kiosk.sqlite3 is damaged or from a newer version
    NOT_SET_UP = 20  # closed while waiting for its branch (manager settings)
    NO_API_KEY = 21  # no API key for this environment in this account's keyring
    KEY_REFUSED = 22  # the service refused the stored API key


def _t(text: object) -> str:
    return QCoreApplication.translate("StartupError", str(text))


HEADLINE = QT_TRANSLATE_NOOP("StartupError", "The kiosk cannot start")

WHAT = {
    ExitCode.SETTINGS_FILE: QT_TRANSLATE_NOOP(
        "StartupError", "The kiosk's settings file cannot be read."
    ),
    ExitCode.SETTING_VALUE: QT_TRANSLATE_NOOP(
        "StartupError", "A setting in the settings file is wrong or missing."
    ),
    ExitCode.SECRET_IN_FILE: QT_TRANSLATE_NOOP(
        "StartupError", "A settings file contains an API key or another secret."
    ),
    ExitCode.NO_KEYRING: QT_TRANSLATE_NOOP(
        "StartupError", "This account has no secure place to keep the API key."
    ),
    ExitCode.FOLDER_NOT_WRITABLE: QT_TRANSLATE_NOOP(
        "StartupError", "The kiosk cannot write to its folder."
    ),
    ExitCode.DISK_FULL: QT_TRANSLATE_NOOP("StartupError", "The disk is full."),
    ExitCode.DATABASE: QT_TRANSLATE_NOOP("StartupError", "The kiosk's database cannot be used."),
    ExitCode.UNEXPECTED: QT_TRANSLATE_NOOP(
        "StartupError", "An unexpected error stopped the start."
    ),
    ExitCode.NO_API_KEY: QT_TRANSLATE_NOOP(
        "StartupError", "This account's keyring has no API key for this kiosk."
    ),
    ExitCode.KEY_REFUSED: QT_TRANSLATE_NOOP(
        "StartupError", "The loyalty service refused this kiosk's API key."
    ),
}

TODO = {
    ExitCode.SETTINGS_FILE: QT_TRANSLATE_NOOP(
        "StartupError",
        "Call IT. IT: correct this file at the line shown, or run the installer again "
        "to write a new one; then start the kiosk again.",
    ),
    ExitCode.SETTING_VALUE: QT_TRANSLATE_NOOP(
        "StartupError",
        "Call IT. IT: correct this setting in the file (docs/settings.md lists the "
        "values), then start the kiosk again.",
    ),
    ExitCode.SECRET_IN_FILE: QT_TRANSLATE_NOOP(
        "StartupError",
        "Call IT. IT: delete that line, rotate this key (it was kept in a plain file) "
        "and store the new one with 'loyalty-kiosk-cli provision' as the kiosk's "
        "account; then start the kiosk again.",
    ),
    ExitCode.NO_KEYRING: QT_TRANSLATE_NOOP(
        "StartupError",
        "Call IT. IT: run the kiosk under a normal user account with its own profile "
        "and keyring (Windows Credential Manager; on Linux, a Secret Service keyring "
        "such as GNOME Keyring or KWallet), then 'loyalty-kiosk-cli provision' as that "
        "account; then start the kiosk again.",
    ),
    ExitCode.FOLDER_NOT_WRITABLE: QT_TRANSLATE_NOOP(
        "StartupError",
        "Call IT. IT: give the kiosk's account write access to this folder (it must "
        "not be on a read-only drive), then start the kiosk again.",
    ),
    ExitCode.DISK_FULL: QT_TRANSLATE_NOOP(
        "StartupError",
        "Call IT. Nothing was lost: credits already saved wait in the kiosk's database. "
        "IT: free space on this disk, then start the kiosk again.",
    ),
    ExitCode.DATABASE: QT_TRANSLATE_NOOP(
        "StartupError",
        "Call IT. Do not delete the file: it may hold credits not sent yet. IT: run "
        "'loyalty-kiosk-cli --diagnostics' and send the zip and this file to support.",
    ),
    ExitCode.UNEXPECTED: QT_TRANSLATE_NOOP(
        "StartupError",
        "Start the kiosk again. If this comes back, call IT. IT: run "
        "'loyalty-kiosk-cli --diagnostics' and send the zip to support.",
    ),
    ExitCode.NO_API_KEY: QT_TRANSLATE_NOOP(
        "StartupError",
        "Call IT. IT: run 'loyalty-kiosk-cli provision' as this account to store the "
        "key; then start the kiosk again.",
    ),
    ExitCode.KEY_REFUSED: QT_TRANSLATE_NOOP(
        "StartupError",
        "Call IT. IT: ask the merchant panel for a new key and store it with "
        "'loyalty-kiosk-cli provision' as this account; then start the kiosk again.",
    ),
}

FILE_LINE = QT_TRANSLATE_NOOP("StartupError", "File: %1, line %2")
FILE = QT_TRANSLATE_NOOP("StartupError", "File: %1")
FOLDER = QT_TRANSLATE_NOOP("StartupError", "Folder: %1")
DETAIL = QT_TRANSLATE_NOOP("StartupError", "Details: %1")
LOGGED = QT_TRANSLATE_NOOP("StartupError", "Written to the log: %1. Exit code %2.")
NOT_LOGGED = QT_TRANSLATE_NOOP("StartupError", "The log could not be written. Exit code %1.")
CLOSE = QT_TRANSLATE_NOOP("StartupError", "Close the kiosk")


@dataclass(frozen=True)
class StartupProblem:
    """What stopped the start: the code, the file or folder to fix, the line (1-based)
    in that file, and the error's own words for IT (English, redacted)."""

    code: ExitCode
    detail: str
    path: Path | None = None
    line: int | None = None
    folder: bool = False  # ``path`` is a folder, not a file

    def log_line(self) -> str:
        where = f" ({self.path}{f', line {self.line}' if self.line else ''})" if self.path else ""
        return f"start-up error {int(self.code)} {self.code.name.lower()}{where}: {self.detail}"


def startup_problem(error: BaseException, paths: KioskPaths) -> StartupProblem:
    """The problem ``error`` stands for (``UNEXPECTED`` when the kiosk does not know it)."""
    detail = logsafety.redact(str(error)) or type(error).__name__
    if isinstance(error, SettingsError):
        detail = logsafety.redact(error.what)  # the place is shown on its own
    if isinstance(error, SecretInSettingsError):
        return StartupProblem(ExitCode.SECRET_IN_FILE, detail, error.path, error.line)
    if isinstance(error, InvalidSettingError):
        return StartupProblem(ExitCode.SETTING_VALUE, detail, error.path, error.line)
    if isinstance(error, SettingsError):
        return StartupProblem(ExitCode.SETTINGS_FILE, detail, error.path, error.line)
    if isinstance(error, KeyringUnavailable):
        return StartupProblem(ExitCode.NO_KEYRING, detail)
    from kiosk.core.setup_errors import KeyRefused, NoApiKey

    if isinstance(error, NoApiKey):
        return StartupProblem(ExitCode.NO_API_KEY, detail)
    if isinstance(error, KeyRefused):
        return StartupProblem(ExitCode.KEY_REFUSED, detail)
    if is_disk_full(error) or _database_on_a_full_disk(error, paths):
        return StartupProblem(ExitCode.DISK_FULL, detail, _folder_of(error, paths), folder=True)
    if is_write_denied(error) or _in_kiosk_folder(_filename(error), paths):
        return StartupProblem(
            ExitCode.FOLDER_NOT_WRITABLE, detail, _folder_of(error, paths), folder=True
        )
    if isinstance(error, SchemaError | sqlite3.DatabaseError):  # (training has a file of its own)
        return StartupProblem(ExitCode.DATABASE, detail, paths.data_dir, folder=True)
    return StartupProblem(ExitCode.UNEXPECTED, logsafety.redact(f"{type(error).__name__}: {error}"))


def _database_on_a_full_disk(error: BaseException, paths: KioskPaths) -> bool:
    """SQLite opening a database on a full disk often says "disk I/O error" (its
    shared-memory file cannot grow), not "disk is full": a database failure while the
    data folder's disk has less room than the kiosk needs is a full disk, not a damaged
    file."""
    if not isinstance(error, SchemaError | sqlite3.DatabaseError):
        return False
    free = free_bytes(paths.data_dir)
    return free is not None and free < MIN_FREE_BYTES


def _filename(error: BaseException) -> Path | None:
    seen: BaseException | None = error
    for _ in range(8):
        if seen is None:
            break
        if isinstance(seen, OSError) and seen.filename:
            return Path(str(seen.filename))
        seen = seen.__cause__ or seen.__context__
    return None


def _in_kiosk_folder(name: Path | None, paths: KioskPaths) -> bool:
    folders = (paths.data_dir, paths.config_dir, paths.log_dir)
    return name is not None and any(name == f or f in name.parents for f in folders)


def _folder_of(error: BaseException, paths: KioskPaths) -> Path:
    """The kiosk's folder the failed write was in (the data folder when unknown)."""
    name = _filename(error)
    if name is None:
        return paths.data_dir
    for folder in (paths.data_dir, paths.config_dir, paths.log_dir):
        if name == folder or folder in name.parents:
            return folder
    return name if not name.suffix else name.parent


def _label(text: str, role: str | None = None) -> QLabel:
    label = QLabel(text)
    label.setTextFormat(Qt.TextFormat.PlainText)
    label.setWordWrap(True)
    label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
    if role is not None:
        label.setProperty("role", role)
    return label


class StartupErrorView(QWidget):
    """The whole window while the start failed: what, where, what to do, the code."""

    close_requested = Signal()

    def __init__(
        self, problem: StartupProblem, log_file: Path | None, parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.problem = problem
        self.setObjectName("root")
        code = int(problem.code)
        self.headline = _label(_t(HEADLINE), "heading")
        self.what = _label(_t(WHAT.get(problem.code, WHAT[ExitCode.UNEXPECTED])))
        self.where = _label(self._where())
        self.where.setVisible(problem.path is not None)
        self.todo = _label(_t(TODO.get(problem.code, TODO[ExitCode.UNEXPECTED])))
        self.detail = _label(_t(DETAIL).replace("%1", problem.detail), "muted")
        footer = (
            _t(LOGGED).replace("%1", str(log_file)).replace("%2", str(code))
            if log_file is not None
            else _t(NOT_LOGGED).replace("%1", str(code))
        )
        self.footer = _label(footer, "muted")
        self.close_button = QPushButton(_t(CLOSE))
        self.close_button.setProperty("role", "primary")
        self.close_button.setMinimumHeight(56)
        self.close_button.clicked.connect(self.close_requested.emit)

        card = QFrame()
        card.setProperty("role", "card")
        card.setMaximumWidth(960)
        card.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Preferred)
        inner = QVBoxLayout(card)
        inner.setContentsMargins(32, 28, 32, 28)
        inner.setSpacing(14)
        for widget in (self.headline, self.what, self.where, self.todo, self.detail, self.footer):
            inner.addWidget(widget)
        inner.addSpacing(8)
        inner.addWidget(self.close_button, 0, Qt.AlignmentFlag.AlignLeft)
        row = QHBoxLayout()
        row.addStretch(1)
        row.addWidget(card, 10)  # as wide as the window allows, up to its maximum
        row.addStretch(1)
        outer = QVBoxLayout(self)
        outer.setContentsMargins(32, 32, 32, 32)
        outer.addStretch(1)
        outer.addLayout(row)
        outer.addStretch(1)

    def _where(self) -> str:
        problem = self.problem
        if problem.path is None:
            return ""
        if problem.folder:
            return _t(FOLDER).replace("%1", str(problem.path))
        if problem.line is not None:
            return _t(FILE_LINE).replace("%1", str(problem.path)).replace("%2", str(problem.line))
        return _t(FILE).replace("%1", str(problem.path))

    def text(self) -> str:
        """Everything the screen says, one line each (for the console and the tests)."""
        return "\n".join(
            label.text()
            for label in (self.headline, self.what, self.where, self.todo, self.detail, self.footer)
            if label.text()
        )

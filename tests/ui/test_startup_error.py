"""A start that fails shows a full-screen error naming the file, the line and what to do,
in the person's language, and ends with a documented exit code (issue #18, a bad day
for IT; issue #17, an invalid environment is no silent training kiosk).

Each case is built as ``kiosk/app.py`` builds the counter (``load_settings``, then
``build_counter``) from a kiosk home IT really broke; the error goes through the same
``show_startup_problem`` the app awaits, on a real ``KioskWindow``, offscreen, at both
counter sizes, in English and Spanish; the screen is closed with its button and the
code it returns is the process's exit code. ``tests/deploy/test_startup_errors.py``
runs the real program for the same cases.
"""

from __future__ import annotations

import asyncio
import re
import sqlite3
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QPoint, QRect, Qt
from PySide6.QtWidgets import QApplication, QLabel, QWidget
from pytestqt.qtbot import QtBot

from kiosk.app import show_startup_problem
from kiosk.core import storage
from kiosk.core.db import DatabaseWorker
from kiosk.core.settings.layers import load_settings
from kiosk.core.settings.paths import KioskPaths, resolve_paths
from kiosk.ui.i18n import install_translators
from kiosk.ui.messages import error_text
from kiosk.ui.shell import KioskWindow
from kiosk.ui.startup_error import ExitCode, StartupErrorView, startup_problem
from kiosk.wiring import build_counter
from tests.deploy.conftest import read_only_folder
from tests.qt_async import until
from tests.ui.fake_keyring import memory_keyring, no_keyring

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "troubleshooting.md"
LEFT = Qt.MouseButton.LeftButton
PRODUCTION = "[connection]\nenvironment = production\nproduction_url = {url}\nbranch_id = 1\n"


def disk_full_error() -> sqlite3.OperationalError:
    """A real SQLITE_FULL from SQLite (a database that may not grow past one page)."""
    conn = sqlite3.connect(":memory:")
    try:
        conn.execute("PRAGMA max_page_count = 1")
        conn.execute("CREATE TABLE t (x)")
        conn.execute("INSERT INTO t VALUES (zeroblob(10000))")
    except sqlite3.OperationalError as error:
        return error
    finally:
        conn.close()
    raise AssertionError("SQLite did not fill up")


@dataclass(frozen=True)
class Case:
    name: str
    code: ExitCode
    ini: str | bytes | None = None
    line: int | None = None
    says: str = ""  # in the technical detail
    demo: bool = False
    keyring: str = "memory"  # or "none"
    read_only: bool = False
    damaged_database: bool = False
    worker_fails: BaseException | None = None
    disk_free: int | None = None  # bytes left on the data folder's disk


CASES = [
    Case(
        "http-url",
        ExitCode.SETTING_VALUE,
        PRODUCTION.format(url="http://api.example.com"),
        3,
        "production_url: must use https",
    ),
    Case(
        "binary-ini",
        ExitCode.SETTINGS_FILE,
        b"\x00\x01\x02LoyaltyKiosk\xff\xfe\x00" * 20,
        None,
        "not a text settings file",
    ),
    Case(
        "duplicate-section",
        ExitCode.SETTINGS_FILE,
        "[connection]\nenvironment = training\n\n[connection]\nbranch_id = 1\n",
        4,
        "[connection] appears twice",
    ),
    Case(
        "api-key-in-the-file",
        ExitCode.SECRET_IN_FILE,
        "[connection]\nenvironment = training\napi_key = lk_live_9f8e7d6c5b4a39281706\n",
        3,
        "rotate this key",
    ),
    Case(
        "invalid-environment",
        ExitCode.SETTING_VALUE,
        "[connection]\nenvironment = prod\n",
        2,
        "environment: must be one of production, qa, training",
    ),
    Case(
        "no-secure-keyring",
        ExitCode.NO_KEYRING,
        PRODUCTION.format(url="https://api.example.com"),
        None,
        "no secure keyring backend",
        keyring="none",
    ),
    Case(
        "no-api-key",
        ExitCode.NO_API_KEY,
        PRODUCTION.format(url="https://api.example.com"),
        None,
        "No API key for production in this account's keyring (",
    ),
    Case(
        "read-only-data-folder",
        ExitCode.FOLDER_NOT_WRITABLE,
        None,
        None,
        "unable to open database file",
        demo=True,
        read_only=True,
    ),
    Case(
        "disk-full",
        ExitCode.DISK_FULL,
        None,
        None,
        "database or disk is full",
        demo=True,
        worker_fails=disk_full_error(),
    ),
    Case(
        "disk-full-database-io-error",
        ExitCode.DISK_FULL,
        None,
        None,
        "disk I/O error",
        demo=True,
        worker_fails=sqlite3.OperationalError("disk I/O error"),
        disk_free=3 * 1024 * 1024,
    ),
    Case(
        "damaged-database",
        ExitCode.DATABASE,
        None,
        None,
        "file is not a database",
        demo=True,
        damaged_database=True,
    ),
    Case(
        "unexpected",
        ExitCode.UNEXPECTED,
        None,
        None,
        "RuntimeError: the graphics driver fell over",
        demo=True,
        worker_fails=RuntimeError("the graphics driver fell over"),
    ),
]


@pytest.fixture
def kiosk_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("LOYALTY_KIOSK_HOME", str(tmp_path))
    for name in ("LOYALTY_KIOSK_MACHINE_SETTINGS", "LOYALTY_KIOSK_DATA_DIR"):
        monkeypatch.delenv(name, raising=False)
    return tmp_path


def broken_home(case: Case, home: Path, monkeypatch: pytest.MonkeyPatch, stack: Any) -> KioskPaths:
    """The kiosk's folders as IT left them for ``case``."""
    if case.read_only:
        folder = stack.enter_context(read_only_folder(home))
        monkeypatch.setenv("LOYALTY_KIOSK_DATA_DIR", str(folder))
    paths = resolve_paths()
    if case.ini is not None:
        paths.machine_settings.parent.mkdir(parents=True, exist_ok=True)
        raw = case.ini if isinstance(case.ini, bytes) else case.ini.encode("utf-8")
        paths.machine_settings.write_bytes(raw)
    if case.damaged_database:
        database = paths.database_for("training")
        database.parent.mkdir(parents=True, exist_ok=True)
        database.write_bytes(b"not a database, " * 512)
    stack.enter_context(no_keyring() if case.keyring == "none" else memory_keyring())
    if case.disk_free is not None:
        free = case.disk_free
        monkeypatch.setattr(
            storage,
            "disk_usage",
            lambda folder: storage.DiskUsage(64 * 2**30, 64 * 2**30 - free, free),
        )
    if case.worker_fails is not None:
        failure = case.worker_fails

        async def start(self: DatabaseWorker) -> None:
            raise failure

        monkeypatch.setattr(DatabaseWorker, "start", start)
    return paths


async def failed_start(paths: KioskPaths, *, demo: bool) -> BaseException:
    """What ``kiosk/app.py`` builds before the counter shows: settings, then the counter."""
    try:
        counter = await build_counter(load_settings(paths), paths, demo=demo)
    except Exception as error:  # what the app catches
        return error
    await counter.close()
    raise AssertionError("the start did not fail")


def inside(widget: QWidget, window: QWidget) -> bool:
    corner = widget.mapTo(window, QPoint(0, 0))
    return window.rect().contains(QRect(corner, widget.size()))


def whole(label: QLabel) -> bool:
    """A wrapped label has the height its text needs at its width (nothing cut off)."""
    return label.height() >= label.heightForWidth(label.width())


@pytest.fixture
def app_as_the_kiosk(qapp: QApplication) -> Iterator[QApplication]:
    """The application as ``kiosk/app.py`` sets it: closing the window ends nothing
    by itself (the app owns the shutdown)."""
    qapp.setQuitOnLastWindowClosed(False)
    try:
        yield qapp
    finally:
        qapp.setQuitOnLastWindowClosed(True)


@pytest.fixture(params=["en", "es"])
def language(request: pytest.FixtureRequest, app_as_the_kiosk: QApplication) -> Iterator[str]:
    installed = install_translators(app_as_the_kiosk, request.param)
    assert bool(installed) == (request.param == "es")
    try:
        yield request.param
    finally:
        for translator in installed:
            app_as_the_kiosk.removeTranslator(translator)


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_a_failed_start_shows_the_file_the_line_and_what_to_do(
    case: Case,
    language: str,
    kiosk_home: Path,
    qtbot: QtBot,
    arun: Callable[..., Any],
    monkeypatch: pytest.MonkeyPatch,
    expect_log: Callable[[str], None],
) -> None:
    import contextlib

    expect_log(rf"^start-up error {int(case.code)} ")
    expect_log("must use https|looks like an API key")  # the load's own warning
    with contextlib.ExitStack() as stack:
        paths = broken_home(case, kiosk_home, monkeypatch, stack)
        log_file = paths.log_dir / "kiosk.log"

        async def scenario() -> int:
            error = await failed_start(paths, demo=case.demo)
            window = KioskWindow()
            qtbot.addWidget(window)
            window.show()
            shown = asyncio.ensure_future(show_startup_problem(window, error, paths, log_file))
            await until(lambda: isinstance(window.centralWidget(), StartupErrorView))
            view = window.centralWidget()
            assert isinstance(view, StartupErrorView)
            assert window.isFullScreen()
            check_texts(view, case, paths, language)
            for size in ((1024, 768), (1280, 800)):
                window.showNormal()
                window.resize(*size)
                labels = [view.headline, view.what, view.todo, view.detail, view.footer]
                await until(
                    lambda labels=labels: (
                        inside(view.close_button, window)
                        and all(inside(w, window) and whole(w) for w in labels)
                    ),
                    message=f"the error screen does not fit {size}",
                )
            qtbot.mouseClick(view.close_button, LEFT)
            return await asyncio.wait_for(shown, 5)

        assert arun(scenario()) == case.code


def check_texts(view: StartupErrorView, case: Case, paths: KioskPaths, language: str) -> None:
    spanish = language == "es"
    assert view.headline.text() == (
        "La terminal no puede iniciar" if spanish else "The kiosk cannot start"
    )
    assert case.says in view.detail.text()
    assert str(int(case.code)) in view.footer.text()
    assert str(paths.log_dir / "kiosk.log") in view.footer.text()
    where = view.where.text()
    if case.ini is not None and case.code not in (ExitCode.NO_KEYRING, ExitCode.NO_API_KEY):
        assert str(paths.machine_settings) in where
        if case.line is not None:
            assert where.endswith(f"línea {case.line}" if spanish else f"line {case.line}"), where
    elif case.read_only or case.code in (ExitCode.DISK_FULL, ExitCode.DATABASE):
        assert where == ("Carpeta: " if spanish else "Folder: ") + str(paths.data_dir)
    else:
        assert view.where.isHidden()
    todo = view.todo.text()
    assert ("soporte técnico" if spanish else "IT") in todo
    assert "Traceback" not in view.text()
    for label in (view.headline, view.what, view.where, view.todo, view.detail, view.footer):
        assert label.textFormat() is Qt.TextFormat.PlainText


def test_the_smoke_run_prints_the_screen(
    app_as_the_kiosk: QApplication,
    kiosk_home: Path,
    qtbot: QtBot,
    arun: Callable[..., Any],
    capsys: pytest.CaptureFixture[str],
    expect_log: Callable[[str], None],
) -> None:
    expect_log("^start-up error 10 ")
    paths = resolve_paths()
    paths.machine_settings.parent.mkdir(parents=True)
    paths.machine_settings.write_text("[kiosk]\n[kiosk]\n", encoding="utf-8")
    window = KioskWindow()
    qtbot.addWidget(window)
    window.show()
    error = arun(failed_start(paths, demo=False))
    code = arun(show_startup_problem(window, error, paths, None, smoke=True))
    assert code == ExitCode.SETTINGS_FILE
    assert not window.isVisible()
    err = capsys.readouterr().err
    assert f"File: {paths.machine_settings}, line 2" in err
    assert "The log could not be written. Exit code 10." in err


def test_a_full_disk_at_the_counter_says_disk_full() -> None:
    """The counter's own sentence for the same failure (not "Something went wrong")."""
    assert error_text(disk_full_error()).startswith("Disk full:")
    assert error_text(OSError(28, "No space left on device")).startswith("Disk full:")
    assert error_text(RuntimeError("boom")).startswith("Something went wrong")


def test_errors_the_kiosk_does_not_know_stay_unexpected(tmp_path: Path) -> None:
    paths = resolve_paths({"LOYALTY_KIOSK_HOME": str(tmp_path)})
    missing = FileNotFoundError(2, "No such file", "/opt/loyalty-kiosk/_internal/theme.qss")
    assert startup_problem(missing, paths).code is ExitCode.UNEXPECTED  # not a kiosk folder
    denied = PermissionError(13, "Permission denied", str(paths.log_dir / "kiosk.log"))
    problem = startup_problem(denied, paths)
    assert (problem.code, problem.path, problem.folder) == (
        ExitCode.FOLDER_NOT_WRITABLE,
        paths.log_dir,
        True,
    )


def test_every_exit_code_is_documented_for_it() -> None:
    """docs/troubleshooting.md has a row per code, what it means and what IT does."""
    table = {
        int(m[1]): m[2]
        for m in re.finditer(r"^\| `?(\d+)`? \| (.+?) \|", DOC.read_text(encoding="utf-8"), re.M)
    }
    missing = [code for code in ExitCode if int(code) not in table]
    assert missing == []


def test_a_key_the_service_refuses_is_a_start_up_error_before_any_pin(
    kiosk_home: Path, arun: Callable[..., Any]
) -> None:
    """The service answers 401 to the stored key (issue #28, item 6): the start-up
    error card, its own code; not the manager's PIN pad."""
    from kiosk.core.setup_errors import KeyRefused
    from kiosk.wiring import training_transport

    paths = resolve_paths()
    paths.machine_settings.parent.mkdir(parents=True)
    paths.machine_settings.write_text(
        PRODUCTION.format(url="https://api.example.com"), encoding="utf-8"
    )
    transport, _ = training_transport(None)  # the simulator, any host

    async def scenario() -> BaseException:
        try:
            counter = await build_counter(
                load_settings(paths), paths, demo=False, transport=transport, api_key="lk_wrong"
            )
        except Exception as error:
            return error
        await counter.close()
        raise AssertionError("the start did not fail")

    with memory_keyring():
        error = arun(scenario())
    assert isinstance(error, KeyRefused)
    problem = startup_problem(error, paths)
    assert problem.code is ExitCode.KEY_REFUSED == 22
    assert "The service refused the API key for production" in problem.detail
    assert "loyalty-kiosk-cli provision" in problem.detail
    assert "lk_wrong" not in problem.detail

"""Issue #6: after a whole session, neither the API key nor any ``register_url`` is in
any file under the kiosk's config, data and log folders (nor in the diagnostics zip).

The session runs through the real composition (settings file, the key in the keyring,
``build_counter`` over real HTTP to the simulator on loopback, the rotating redacted
log file, the counter view with manager mode), and does what a day at the counter
does: identify an unregistered client and show their registration QR, credit, preview,
exchange a reward, redeem, a failing call, an unexpected exception reported on screen,
a key replaced in the keyring, and IT's diagnostics zip.
"""

from __future__ import annotations

import contextlib
import logging
import sys
import zipfile
from collections.abc import Callable, Iterator
from datetime import date
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from kiosk.api.errors import ApiError
from kiosk.api.models.points import CreditClient, CreditRequest
from kiosk.core.counter.tickets import credit_external_id, extra_data
from kiosk.core.logs import setup_logging
from kiosk.core.security import secrets
from kiosk.core.settings.layers import load_settings
from kiosk.core.settings.paths import KioskPaths, resolve_paths
from kiosk.sim.world import World
from kiosk.ui.counter import build_view
from kiosk.ui.crash import ExceptionReporter
from kiosk.wiring import build_counter
from tests.conftest import MAIN_KEY
from tests.qt_async import until
from tests.ui.fake_keyring import memory_keyring


@pytest.fixture
def kiosk_paths(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, sim_url: str) -> KioskPaths:
    monkeypatch.setenv("LOYALTY_KIOSK_HOME", str(tmp_path / "home"))
    machine = tmp_path / "machine.ini"
    machine.write_text(
        f"[connection]\nenvironment = qa\nqa_url = {sim_url}\nbranch_id = 1\n", encoding="utf-8"
    )
    monkeypatch.setenv("LOYALTY_KIOSK_MACHINE_SETTINGS", str(machine))
    paths = resolve_paths()
    paths.ensure_dirs()
    return paths


@pytest.fixture
def file_logs(kiosk_paths: KioskPaths) -> Iterator[None]:
    handlers = setup_logging(kiosk_paths.log_dir, level=logging.DEBUG)
    root = logging.getLogger()
    before = root.level
    try:
        yield
    finally:
        for handler in handlers:
            root.removeHandler(handler)
            handler.close()
        root.setLevel(before)


def every_file(*folders: Path) -> Iterator[tuple[Path, bytes]]:
    for folder in folders:
        for path in folder.rglob("*"):
            if not path.is_file():
                continue
            data = path.read_bytes()
            yield path, data
            if path.suffix == ".zip":
                with zipfile.ZipFile(path) as archive:
                    for name in archive.namelist():
                        yield path / name, archive.read(name)


def test_a_whole_session_leaves_no_key_and_no_register_url_on_disk(
    qtbot: QtBot,
    arun: Callable[..., Any],
    kiosk_paths: KioskPaths,
    file_logs: None,
    sim_world: World,
    expect_log: Callable[[str], None],
) -> None:
    expect_log("unexpected failure")  # the crash report below
    expect_log(r"rewards|redeem|points|identify")  # screens log refusals as warnings
    expect_log(r"POST|GET|PUT")  # request lines of refused calls
    settings = load_settings(kiosk_paths)
    seen_urls: list[str] = []
    with memory_keyring():
        secrets.store_api_key("qa", settings.base_url() or "", MAIN_KEY)
        unregistered = next(
            c
            for c in sim_world.merchants[1].tables["clients"].values()
            if not c.get("_registered") and c.get("status") == "ACTIVE" and c.get("email")
        )

        async def day_at_the_counter() -> None:
            # One coroutine from start to close, as kiosk/app.py runs the counter: the
            # outbox's sender task must never be left without a running loop.
            counter = await build_counter(settings, kiosk_paths, demo=False)
            view = build_view(counter.session)
            qtbot.addWidget(view)
            view.show()
            try:
                await session_day(counter.session, view)
            finally:
                view.shutdown()
                await counter.close()

        async def session_day(session: Any, view: Any) -> None:
            api = session.api
            # Identify an unregistered client and show the QR.
            identify = view.build("identify")
            field = identify.field  # type: ignore[attr-defined]
            qtbot.keyClicks(field, unregistered["email"])
            qtbot.keyClick(field, Qt.Key.Key_Return)
            await until(lambda: session.client is not None, timeout=10)
            assert session.client is not None
            assert session.client.register_url is not None
            seen_urls.append(session.client.register_url.reveal())
            qtbot.mouseClick(identify.found.qr_button, Qt.MouseButton.LeftButton)  # type: ignore[attr-defined]
            # Every other unregistered client's link comes back from the API too.
            for client in sim_world.merchants[1].tables["clients"].values():
                if not client.get("_registered") and client.get("email"):
                    found = await api.search_client(client["email"])
                    if found.register_url is not None:
                        seen_urls.append(found.register_url.reveal())
            # Preview and credit.
            client = session.client
            await api.preview(client.id, amount=2500)
            request = CreditRequest(
                external_id=credit_external_id(1, date.today(), "T-7", "0badcafe"),
                client=CreditClient(email=client.email),
                amount=300000,
                extra_data=extra_data("0badcafe"),
            )
            await api.credit(request)
            # A reward and its delivery.
            products = await api.list_products(limit=50)
            offer = min(
                (o for p in products.items for o in p.offers if o.level_id is None),
                key=lambda o: o.points,
            )
            purchase = await api.exchange_product(offer.id, client.id)
            await api.redeem(purchase.record.code)
            # A refused call and an unexpected failure reported on screen.
            with contextlib.suppress(ApiError):
                await api.redeem(purchase.record.code)
            reporter = ExceptionReporter(lambda text: None)
            try:
                raise RuntimeError(f"boom while showing {seen_urls[0]} with key {MAIN_KEY}")
            except RuntimeError:
                reporter.hook(*sys.exc_info())  # type: ignore[arg-type]
            session.clear_client()

        arun(day_at_the_counter(), timeout=60)
        # A key replaced in the keyring, and IT's diagnostics.
        secrets.store_api_key("qa", settings.base_url() or "", MAIN_KEY)
        from kiosk.cli.diagnostics import write_diagnostics

        zip_path, _ = write_diagnostics(kiosk_paths, demo=False, out=str(kiosk_paths.data_dir))
        assert zip_path.exists()

    for handler in logging.getLogger().handlers:
        handler.flush()
    assert seen_urls, "the session must have handled registration links"
    assert (kiosk_paths.log_dir / "kiosk.log").stat().st_size > 0
    secrets_to_find = [MAIN_KEY.encode(), *(url.encode() for url in seen_urls)]
    scanned = 0
    for path, data in every_file(kiosk_paths.config_dir, kiosk_paths.data_dir, kiosk_paths.log_dir):
        scanned += 1
        for secret in secrets_to_find:
            assert secret not in data, f"{secret[:12]!r}... found in {path}"
    assert scanned >= 4  # settings/kiosk id, database, log, diagnostics zip at least

"""Redeem in the counter's order (issue #14): confirm the delivery, and only on the
service's yes say "Hand over the reward". An expired code (the simulator's clock moved
past its life) or a code delivered meanwhile is said plainly after the attempt, with
nothing to hand over; a purchase of another client than the one identified is flagged
before confirming; Confirm commits once (double tap, Enter, Enter, taps in flight).
At 1280x800 and 1024x768, in English and Spanish. States rendered to
``/tmp/shots/redeem-*.png``."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtWidgets import QAbstractButton, QApplication, QLabel, QWidget
from pytestqt.qtbot import QtBot

from kiosk.core.session import CounterSession
from kiosk.sim.control import SimControl
from kiosk.sim.world import World
from kiosk.ui.i18n import install_translators
from kiosk.ui.screens.redeem.screen import RedeemScreen
from kiosk.ui.theme import apply_theme
from tests.qt_async import until
from tests.ui.layout_audit import audit
from tests.ui.screens.redeem.test_redeem import REDEEM_PATH, stored

LEFT = Qt.MouseButton.LeftButton
SIZES = [(1280, 800), (1024, 768)]
SHOTS = Path("/tmp/shots")


@pytest.fixture(params=["en", "es"])
def language(request: pytest.FixtureRequest, qapp: QApplication) -> Iterator[str]:
    apply_theme(qapp, "light")
    installed = install_translators(qapp, request.param) if request.param == "es" else []
    try:
        yield request.param
    finally:
        for translator in installed:
            qapp.removeTranslator(translator)


def tr(text: str, context: str = "RedeemScreen") -> str:
    return QCoreApplication.translate(context, text)


def hand_over() -> str:
    return tr("Hand over the reward")


def shown_text(root: QWidget) -> str:
    """Every text a person can read on ``root`` now (labels and buttons)."""
    parts = [w.text() for w in root.findChildren(QLabel) if w.isVisible()]
    parts += [w.text() for w in root.findChildren(QAbstractButton) if w.isVisible()]
    return "\n".join(parts)


def shot(widget: QWidget, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    widget.grab().save(str(SHOTS / f"redeem-{name}.png"))


def tap(qtbot: QtBot, window: QWidget, widget: QWidget) -> None:
    assert widget.isVisible(), f"{widget} is not visible"
    center = widget.rect().center()
    at = window.childAt(widget.mapTo(window, center))
    assert at is widget or widget.isAncestorOf(at), f"{at} lies over {widget}"
    qtbot.mouseClick(widget, LEFT, pos=center)


def make_screen(qtbot: QtBot, session: CounterSession, size: tuple[int, int]) -> RedeemScreen:
    screen = RedeemScreen(session)
    qtbot.addWidget(screen)
    screen.resize(*size)
    screen.show()
    screen.entered()
    return screen


async def look_up(qtbot: QtBot, screen: RedeemScreen, code: str) -> None:
    screen.code.clear()
    qtbot.keyClicks(screen.code, code)
    qtbot.keyClick(screen.code, Qt.Key.Key_Return)
    await until(lambda: screen.purchase is not None and screen.purchase.code == code)
    await until(lambda: not screen.tasks.running("lookup"))


async def open_sheet_and_confirm(qtbot: QtBot, screen: RedeemScreen) -> None:
    """Deliver, a double tap (the second lands on the sheet, unarmed), Enter too early,
    then Confirm once armed, twice, and Enter while in flight."""
    point = screen.deliver_button.mapTo(screen, screen.deliver_button.rect().center())
    tap(qtbot, screen, screen.deliver_button)
    assert screen.pages.currentWidget() is screen.sheet
    target = screen.childAt(point) or screen
    qtbot.mouseClick(target, LEFT, pos=target.mapFrom(screen, point))
    qtbot.keyClick(screen.sheet.confirm, Qt.Key.Key_Return)
    assert not screen.tasks.running("deliver")
    await until(lambda: screen.sheet.confirm.armed)
    assert hand_over() not in shown_text(screen)
    tap(qtbot, screen, screen.sheet.confirm)
    tap(qtbot, screen, screen.sheet.confirm)
    qtbot.keyClick(screen.sheet.confirm, Qt.Key.Key_Return)


@pytest.mark.parametrize("size", SIZES, ids=["1280x800", "1024x768"])
def test_hand_over_is_said_only_after_the_services_yes(
    qtbot: QtBot,
    session: CounterSession,
    arun: Callable[..., Any],
    sim_world: World,
    language: str,
    size: tuple[int, int],
) -> None:
    screen = make_screen(qtbot, session, size)
    control = SimControl(sim_world)
    name = f"{language}-{size[0]}"

    async def scenario() -> None:
        await look_up(qtbot, screen, "PEND2345")
        assert screen.card.status.text() == tr("Pending: not delivered yet", "PurchaseCard")
        assert hand_over() not in shown_text(screen)
        shot(screen, f"pending-{name}")
        control.add_fault("latency", REDEEM_PATH, method="POST", seconds=0.3)
        await open_sheet_and_confirm(qtbot, screen)
        await until(lambda: control.requests(path=REDEEM_PATH))
        # The request is out: still nothing says to hand it over.
        assert screen.sheet.confirm.busy
        assert hand_over() not in shown_text(screen)
        shot(screen, f"in-flight-{name}")
        await until(lambda: not screen.tasks.running("deliver"))
        assert stored(sim_world, "PEND2345")["status"] == "delivered"
        assert len(control.requests(path=REDEEM_PATH, method="POST")) == 1
        assert screen.card.notice.isVisible()
        assert screen.card.notice.text() == hand_over()
        assert screen.banner.kind == "success"
        shot(screen, f"handed-{name}")

    arun(scenario())


@pytest.mark.parametrize("size", SIZES, ids=["1280x800", "1024x768"])
def test_an_expired_code_is_said_plainly_after_the_attempt_and_nothing_handed_over(
    qtbot: QtBot,
    session: CounterSession,
    arun: Callable[..., Any],
    sim_world: World,
    language: str,
    size: tuple[int, int],
) -> None:
    screen = make_screen(qtbot, session, size)
    control = SimControl(sim_world)
    ttl = sim_world.merchants[1].rules.purchase_ttl_seconds
    name = f"{language}-{size[0]}"

    async def scenario() -> None:
        await look_up(qtbot, screen, "PEND2345")
        sim_world.clock.advance(ttl)  # the code's life ends while it is on screen
        # The record says pending (no expiry on it): never "ready", never "hand over".
        assert hand_over() not in shown_text(screen)
        await open_sheet_and_confirm(qtbot, screen)
        await until(lambda: not screen.tasks.running("deliver"))
        assert len(control.requests(path=REDEEM_PATH, method="POST")) == 1
        assert stored(sim_world, "PEND2345")["status"] == "pending"
        assert screen.card.status.text() == tr("Expired", "PurchaseCard")
        assert screen.banner.kind == "error"
        assert screen.banner.text().startswith(
            tr("This code has expired and can no longer be delivered. Nothing was changed.")
        )
        assert screen.card.notice.text() == tr("Expired: do not hand over the reward.")
        assert hand_over() not in shown_text(screen)
        assert not screen.deliver_button.isEnabled()
        shot(screen, f"expired-{name}")

    arun(scenario())


@pytest.mark.parametrize("size", SIZES, ids=["1280x800", "1024x768"])
def test_a_code_delivered_meanwhile_is_said_plainly_after_the_attempt(
    qtbot: QtBot,
    session: CounterSession,
    arun: Callable[..., Any],
    sim_world: World,
    language: str,
    size: tuple[int, int],
) -> None:
    screen = make_screen(qtbot, session, size)
    control = SimControl(sim_world)
    name = f"{language}-{size[0]}"

    async def scenario() -> None:
        await look_up(qtbot, screen, "PEND2345")
        # Another counter delivers it after this one looked it up.
        await session.api.redeem("PEND2345")
        await open_sheet_and_confirm(qtbot, screen)
        await until(lambda: not screen.tasks.running("deliver"))
        assert len(control.requests(path=REDEEM_PATH, method="POST")) == 2  # theirs, ours
        assert screen.card.status.text() == tr("Delivered", "PurchaseCard")
        assert screen.banner.kind == "error"
        assert screen.card.notice.text() == tr("Already delivered: do not hand it over again.")
        assert hand_over() not in shown_text(screen)
        shot(screen, f"delivered-meanwhile-{name}")
        # A code the record already shows delivered: said on look-up, nothing to try.
        await look_up(qtbot, screen, "ENTR6789")
        assert screen.card.notice.text() == tr("Already delivered: do not hand it over again.")
        assert not screen.deliver_button.isEnabled()
        assert hand_over() not in shown_text(screen)
        shot(screen, f"delivered-{name}")

    arun(scenario())


@pytest.mark.parametrize("size", SIZES, ids=["1280x800", "1024x768"])
def test_a_purchase_of_another_client_is_flagged_before_confirming(
    qtbot: QtBot,
    session: CounterSession,
    arun: Callable[..., Any],
    sim_world: World,
    language: str,
    size: tuple[int, int],
) -> None:
    owner_id = stored(sim_world, "PEND2345")["_client_id"]
    clients = sim_world.merchants[1].tables["clients"]
    other = next(c for c in clients.values() if c["id"] != owner_id and c.get("email"))
    screen = make_screen(qtbot, session, size)
    name = f"{language}-{size[0]}"
    flag = tr(
        "Not the client identified (%1): this purchase is another client's. "
        "Check who collects it before confirming."
    ).split("(%1)")[0]

    async def scenario() -> None:
        session.set_client(await session.api.search_client(other["email"]))
        await look_up(qtbot, screen, "PEND2345")
        assert screen.card.notice.isVisible()
        assert screen.card.notice.text().startswith(flag)
        assert screen.deliver_button.isEnabled()
        shot(screen, f"other-client-{name}")
        tap(qtbot, screen, screen.deliver_button)
        assert flag in screen.sheet.detail.text()
        await until(lambda: screen.sheet.confirm.armed)
        shot(screen, f"other-client-sheet-{name}")
        tap(qtbot, screen, screen.sheet.back)
        # The owner identified: nothing to flag.
        owner = clients[owner_id]
        session.set_client(await session.api.search_client(owner["email"]))
        await look_up(qtbot, screen, "PEND2345")
        assert not screen.card.notice.text()
        tap(qtbot, screen, screen.deliver_button)
        assert flag not in screen.sheet.detail.text()

    arun(scenario())


@pytest.mark.parametrize("size", SIZES, ids=["1280x800", "1024x768"])
def test_a_money_delivery_says_to_hand_over_the_money(
    qtbot: QtBot,
    session: CounterSession,
    arun: Callable[..., Any],
    sim_world: World,
    language: str,
    size: tuple[int, int],
) -> None:
    """A money exchange's delivery says to hand over the money, never "the reward"
    (issue #21: the Spanish banner said "Entregue el premio"), and says it once: on the
    card, not in the banner too; the banner covers no button or field."""
    screen = make_screen(qtbot, session, size)

    async def scenario() -> None:
        await look_up(qtbot, screen, "CASH2345")
        tap(qtbot, screen, screen.deliver_button)
        await until(lambda: screen.sheet.confirm.armed)
        tap(qtbot, screen, screen.sheet.confirm)
        await until(lambda: screen.banner.kind == "success")

    arun(scenario())
    shot(screen, f"money-handed-{language}-{size[0]}")
    expected = {
        "en": ("Delivered: $ 1.000,00 in money · code CASH2345.", "Hand over the money: "),
        "es": ("Entregado: $ 1.000,00 en dinero · código CASH2345.", "Entregue el dinero: "),
    }
    said, hand_over_money = expected[language]
    assert screen.banner.text() == said
    assert screen.card.notice.text() == hand_over_money + "$ 1.000,00"
    assert hand_over() not in shown_text(screen)  # never "the reward" for money
    covered = [f.line() for f in audit(screen, "delivered") if "covers" in f.what]
    assert covered == []

"""What a scan does at the counter (issue #21): the counter view's part for scans.

``ScanWatch`` (``kiosk/ui/scan_watch.py``) tells a scanner's burst from typing on every
screen and never lets it be typed; ``ScanDesk`` decides what the scan is for:

1. the screen's own (``take_scan``): Identify searches it wherever the focus was,
   Redeem looks a purchase code up;
2. a DNI barcode: the ``ScanOffer`` card asks "switch to this client?"; a tap on it
   clears the client at the counter (the sale on screen with it) and Identify
   searches the scan;
3. anything else sent to a text field: typed there as text, never its Enter (a ticket
   number into the ticket field, what a password manager types in manager mode);
4. a DNI number or an email sent elsewhere: the card too; anything else is said in the
   screen's banner, and dropped.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from PySide6.QtCore import QObject, QPoint, QRect
from PySide6.QtWidgets import QLineEdit, QWidget

from kiosk.core.counter.scan import IdentityKind, scanned_client
from kiosk.ui.scan_watch import ScanWatch
from kiosk.ui.widgets.scan_offer import ScanOffer

if TYPE_CHECKING:
    from collections.abc import Mapping

    from kiosk.core.session import CounterSession
    from kiosk.ui.screens.base import Screen


class CounterView(Protocol):
    """What the desk needs of the counter's view (kiosk/ui/main_window.py), which owns
    it: typed here without importing it back."""

    session: CounterSession
    current: Screen | None
    stack: QWidget
    specs: Mapping[str, object]

    def show_screen(self, key: str) -> None: ...


class ScanDesk(QObject):
    def __init__(self, view: CounterView, widget: QWidget) -> None:
        """``view`` and ``widget`` are the same counter view: as the desk's needs, and as
        the widget that parents the offer and whose keys are watched."""
        super().__init__(widget)
        self.view = view
        self.widget = widget
        self.offer = ScanOffer(widget)
        self.offer.accepted.connect(self.switch_to)
        self.watch = ScanWatch(widget)
        self.watch.scanned.connect(self.take)
        self.watch.install()

    def take(self, text: str) -> None:
        """A scanner read ``text`` (nothing typed yet, its Enter never sent)."""
        view = self.view
        screen = view.current
        taker = getattr(screen, "take_scan", None)
        if taker is not None and taker(text):
            return
        identity = scanned_client(text)
        barcode = identity is not None and identity.kind is IdentityKind.DNI_BARCODE
        field = self.watch.scan_target
        typable = isinstance(field, QLineEdit) and field.isEnabled() and not field.isReadOnly()
        if typable and not barcode:
            self.watch.type_scan()
            return
        if identity is None:
            if screen is not None:
                screen.banner.show_info(
                    self.tr("That scan is not a client's DNI: nothing was typed.")
                )
            return
        self.offer.offer(text, identity, has_client=view.session.client is not None)
        self.place()

    def switch_to(self, text: str) -> None:
        """The cashier chose the scanned client: Identify searches the scan."""
        view = self.view
        view.session.clear_client()
        view.show_screen(next(iter(view.specs)))
        taker = getattr(view.current, "take_scan", None)
        if taker is not None:
            taker(text)

    def place(self) -> None:
        """The offer over the top of the active screen (at a show and a resize)."""
        if self.offer.isVisible():
            stack = self.view.stack
            self.offer.place(QRect(stack.mapTo(self.widget, QPoint(0, 0)), stack.size()))
            self.offer.raise_()

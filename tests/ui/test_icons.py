"""The icon set: drawn once per name, colour and size; a label is not laid out again
for the pixmap it shows already (issue #4, event-loop stalls)."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, QEvent
from PySide6.QtGui import QColor, QImage
from PySide6.QtWidgets import QLabel, QVBoxLayout, QWidget
from pytestqt.qtbot import QtBot

from kiosk.ui.icons import pixmap, set_pixmap
from tests.ui.event_count import EventCount


def opaque_colours(image: QImage) -> set[str]:
    return {
        QColor(image.pixel(x, y)).name()
        for x in range(image.width())
        for y in range(image.height())
        if QColor.fromRgba(image.pixel(x, y)).alpha() == 255
    }


def test_an_icon_is_drawn_once_per_name_colour_and_size(qtbot: QtBot) -> None:
    green = pixmap("success", "#15803d", 36)
    assert pixmap("success", "#15803d", 36) is green
    assert pixmap("success", "#b91c1c", 36) is not green
    assert pixmap("success", "#15803d", 28) is not green
    # Tinted as asked, at the device pixel ratio asked.
    assert opaque_colours(green.toImage()) == {"#15803d"}
    assert green.devicePixelRatio() == 2.0
    assert green.width() == 72


def test_a_label_given_the_pixmap_it_shows_is_not_laid_out_again(qtbot: QtBot) -> None:
    window = QWidget()
    qtbot.addWidget(window)
    label = QLabel()
    QVBoxLayout(window).addWidget(label)
    window.show()
    qtbot.waitExposed(window)
    requests = EventCount(QEvent.Type.LayoutRequest)
    window.installEventFilter(requests)

    def delivered() -> int:  # the layout requests posted so far, delivered now
        QCoreApplication.sendPostedEvents(window, QEvent.Type.LayoutRequest)
        return requests.count

    set_pixmap(label, pixmap("success", "#15803d", 36))
    assert delivered() == 1
    set_pixmap(label, pixmap("success", "#15803d", 36))  # the same: nothing to do
    assert delivered() == 1
    label.setPixmap(pixmap("success", "#15803d", 36))  # (what set_pixmap spares)
    assert delivered() == 2
    set_pixmap(label, pixmap("error", "#b91c1c", 36))  # another: shown
    assert delivered() == 3
    assert "#b91c1c" in opaque_colours(label.pixmap().toImage())

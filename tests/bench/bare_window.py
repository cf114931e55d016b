"""The yardstick of tests/bench/startup.py: a bare PySide6 window, timed like the kiosk's
``--smoke`` (from the first line of Python to the first paint of the window)."""

import time

STARTED = time.perf_counter()

from PySide6.QtCore import QEvent, QObject, QTimer  # noqa: E402
from PySide6.QtWidgets import QApplication, QLabel, QMainWindow  # noqa: E402


class Watch(QObject):
    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.Paint:
            print(f"first_paint_ms={(time.perf_counter() - STARTED) * 1000:.0f}")
            watched.removeEventFilter(self)
            QTimer.singleShot(0, QApplication.quit)
        return False


app = QApplication([])
window = QMainWindow()
window.setCentralWidget(QLabel("bare"))
window.resize(1280, 800)
watch = Watch()
window.installEventFilter(watch)
window.show()
app.exec()

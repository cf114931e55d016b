"""A QR code drawn in memory from a string (never written to disk, never logged)."""

from __future__ import annotations

from PySide6.QtCore import QSize, Qt
from PySide6.QtGui import QImage, QPixmap
from PySide6.QtWidgets import QLabel, QWidget


def load_encoder() -> None:
    """Import the QR encoder now (~35 ms of the UI thread): call it while warming up,
    so the first QR a cashier shows does not freeze the window."""
    import segno  # noqa: F401


def qr_image(data: str, scale: int = 8, border: int = 4) -> QImage:
    import segno  # only when a QR is shown: ~30 ms kept off the start-up path

    code = segno.make(data, error="m", micro=False)
    # One grey byte a module, wrapped then copied: QImage.setPixel is not used because
    # PySide6 6.12 corrupts reference counts in it (the interpreter aborts later on).
    rows = [
        bytes(0 if dark else 255 for dark in row)
        for row in code.matrix_iter(scale=1, border=border)
    ]
    size = len(rows)
    pixels = b"".join(rows)
    image = QImage(pixels, size, size, size, QImage.Format.Format_Grayscale8).convertToFormat(
        QImage.Format.Format_RGB32
    )
    return image.scaled(
        QSize(size * scale, size * scale),
        Qt.AspectRatioMode.KeepAspectRatio,
        Qt.TransformationMode.FastTransformation,
    )


class QrView(QLabel):
    """Shows one QR at a time; ``clear()`` forgets the data and the picture."""

    def __init__(self, side: int = 280, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._side = side
        self._has_code = False
        self.setFixedSize(side, side)
        self.setAlignment(Qt.AlignmentFlag.AlignCenter)

    @property
    def has_code(self) -> bool:
        return self._has_code

    def set_data(self, data: str) -> None:
        image = qr_image(data)
        pix = QPixmap.fromImage(image).scaled(
            self._side,
            self._side,
            Qt.AspectRatioMode.KeepAspectRatio,
            Qt.TransformationMode.FastTransformation,
        )
        self.setPixmap(pix)
        self._has_code = True

    def clear(self) -> None:
        super().clear()
        self._has_code = False

"""A QR code drawn in memory from a string (never written to disk, never logged)."""

from __future__ import annotations

import segno
from PySide6.QtCore import QSize, Qt
from PySide6.QtGui import QColor, QImage, QPixmap
from PySide6.QtWidgets import QLabel, QWidget


def qr_image(data: str, scale: int = 8, border: int = 4) -> QImage:
    code = segno.make(data, error="m", micro=False)
    matrix = list(code.matrix_iter(scale=1, border=border))
    size = len(matrix)
    image = QImage(size, size, QImage.Format.Format_RGB32)
    image.fill(QColor("white"))
    black = QColor("black").rgb()
    for y, row in enumerate(matrix):
        for x, dark in enumerate(row):
            if dark:
                image.setPixel(x, y, black)
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

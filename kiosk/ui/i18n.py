"""Language of the counter: English or Spanish, from the setting or the system locale.

Every user-visible string goes through Qt's ``tr()``; the Spanish catalogue is
``resources/i18n/kiosk_es.ts`` (edit with Qt Linguist), compiled to ``kiosk_es.qm``
by ``python build/i18n.py``.
"""

from __future__ import annotations

import logging

from PySide6.QtCore import QLibraryInfo, QLocale, QTranslator
from PySide6.QtWidgets import QApplication

from kiosk.ui.resources import resource_path

log = logging.getLogger(__name__)

SUPPORTED = ("en", "es")


def choose_language(setting: str, system: QLocale | None = None) -> str:
    """``setting`` is ``auto``, ``en`` or ``es``; ``auto`` follows the system locale."""
    if setting in SUPPORTED:
        return setting
    locale = system or QLocale.system()
    return "es" if locale.language() == QLocale.Language.Spanish else "en"


def install_translators(app: QApplication, language: str) -> list[QTranslator]:
    """Install the kiosk's and Qt's own catalogues for ``language``; keep the result alive."""
    installed: list[QTranslator] = []
    if language == "en":
        return installed
    ours = QTranslator(app)
    if ours.load(str(resource_path("i18n", f"kiosk_{language}.qm"))):
        app.installTranslator(ours)
        installed.append(ours)
    else:
        log.error("translation catalogue for %s is missing; showing English", language)
    qt_own = QTranslator(app)
    qt_dir = QLibraryInfo.path(QLibraryInfo.LibraryPath.TranslationsPath)
    if qt_own.load(f"qtbase_{language}", qt_dir):
        app.installTranslator(qt_own)
        installed.append(qt_own)
    return installed


def switch_language(
    app: QApplication, language: str, installed: list[QTranslator]
) -> list[QTranslator]:
    """Replace the ``installed`` catalogues by those of ``language``; the new ones to keep.

    Widgets built afterwards speak the new language; widgets that already exist keep
    their words (the kiosk rebuilds the counter after a language change: ``kiosk.app``).
    """
    for translator in installed:
        app.removeTranslator(translator)
    log.info("language: %s", language)
    return install_translators(app, language)

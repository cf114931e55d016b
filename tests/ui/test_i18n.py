"""The Spanish catalogue: complete for the code as it is, compiled, faithful to the
placeholders, and really shown by the counter's widgets.

When a test here fails after someone added a ``tr()`` string, run
``python build/i18n_fill.py`` (with the new text in ``resources/i18n/es_translations.json``).
"""

from __future__ import annotations

import functools
import importlib.util
import re
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from PySide6.QtCore import QCoreApplication, QLocale, QTranslator
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from kiosk.api.errors import ApiError, ErrorKind
from kiosk.ui.i18n import choose_language, install_translators
from kiosk.ui.messages import KIND_TEXT, error_text
from kiosk.ui.widgets.band import EnvironmentBand
from kiosk.ui.widgets.status_bar import CounterStatusBar

ROOT = Path(__file__).resolve().parents[2]
TS = ROOT / "resources" / "i18n" / "kiosk_es.ts"
QM = TS.with_suffix(".qm")
MAPPING = ROOT / "resources" / "i18n" / "es_translations.json"
PLACEHOLDER = re.compile(r"%L?(\d{1,2}|n)")


@dataclass(frozen=True)
class Message:
    context: str
    source: str
    plural: bool
    forms: tuple[str, ...]  # one translation, or the plural forms
    unfinished: bool


def read_ts(path: Path) -> list[Message]:
    found: list[Message] = []
    for context in ET.parse(path).getroot().iter("context"):
        name = context.findtext("name") or ""
        for message in context.iter("message"):
            translation = message.find("translation")
            plural = message.get("numerus") == "yes"
            if translation is None:
                forms: tuple[str, ...] = ()
            elif plural:
                forms = tuple(f.text or "" for f in translation.findall("numerusform"))
            else:
                forms = (translation.text or "",)
            unfinished = translation is None or translation.get("type") == "unfinished"
            found.append(Message(name, message.findtext("source") or "", plural, forms, unfinished))
    return found


def untranslated(messages: list[Message]) -> list[str]:
    return [
        f"{m.context}: {m.source!r}"
        for m in messages
        if m.unfinished or not m.forms or not all(f.strip() for f in m.forms)
    ]


def placeholders(text: str) -> Counter[str]:
    return Counter(PLACEHOLDER.findall(text))


def tool(name: str) -> str:
    found = shutil.which(name, path=str(Path(sys.executable).parent)) or shutil.which(name)
    if found is None:
        pytest.fail(f"{name} is not installed in the venv")
    return found


@functools.cache
def fill_module() -> ModuleType:
    """``build/i18n_fill.py`` (``build`` is not a package)."""
    name = "kiosk_build_i18n_fill"
    spec = importlib.util.spec_from_file_location(name, ROOT / "build" / "i18n_fill.py")
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def catalogue() -> list[Message]:
    messages = read_ts(TS)
    assert len(messages) > 300, "the catalogue lost its messages"
    return messages


# -- (a) complete and compiled ---------------------------------------------------------


def test_every_message_of_the_catalogue_is_translated(catalogue: list[Message]) -> None:
    assert untranslated(catalogue) == []
    for message in catalogue:
        if message.plural:  # Spanish has two plural forms: one, other
            assert len(message.forms) == 2, f"{message.context}: {message.source!r}"


def test_the_compiled_catalogue_is_up_to_date_with_the_ts(tmp_path: Path) -> None:
    fresh = tmp_path / "kiosk_es.qm"
    subprocess.run(
        [tool("pyside6-lrelease"), str(TS), "-qm", str(fresh)], check=True, capture_output=True
    )
    assert QM.read_bytes() == fresh.read_bytes(), "run python build/i18n_fill.py"


def test_lrelease_finds_no_invalid_translation(tmp_path: Path) -> None:
    """Qt's own checks: place markers, accelerators, surrounding spaces, end punctuation."""
    done = subprocess.run(
        [tool("pyside6-lrelease"), "-fail-on-invalid", str(TS), "-qm", str(tmp_path / "x.qm")],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr


# -- (b) every tr() string of the code has a translation ------------------------------


def test_the_current_sources_add_no_untranslated_string(tmp_path: Path) -> None:
    copy = tmp_path / "kiosk_es.ts"
    shutil.copy(TS, copy)
    sources = sorted(str(p.relative_to(ROOT)) for p in (ROOT / "kiosk" / "ui").rglob("*.py"))
    subprocess.run(
        [tool("pyside6-lupdate"), *sources, "-no-obsolete", "-ts", str(copy)],
        cwd=ROOT,
        check=True,
        capture_output=True,
    )
    fresh = read_ts(copy)
    assert len(fresh) > 300
    missing = untranslated(fresh)
    assert not missing, "translate these and run python build/i18n_fill.py:\n" + "\n".join(missing)


# -- (c) placeholders ------------------------------------------------------------------


def test_every_translation_keeps_the_placeholders(catalogue: list[Message]) -> None:
    wrong = [
        f"{m.context}: {m.source!r} -> {form!r}"
        for m in catalogue
        for form in m.forms
        if form and placeholders(form) != placeholders(m.source)  # empty: see above
    ]
    assert wrong == []
    assert any("%n" in m.source for m in catalogue if m.plural)


def test_the_mapping_keeps_the_placeholders_too() -> None:
    fill = fill_module()
    mapping = fill.load_mapping(MAPPING)
    _, problems = fill.usable_entries(mapping)
    assert problems == []
    assert sum(len(v) for v in mapping.values()) > 300


# -- (d) real widgets in Spanish -------------------------------------------------------


def translation_of(catalogue: list[Message], context: str, source: str) -> tuple[str, ...]:
    return next(m.forms for m in catalogue if (m.context, m.source) == (context, source))


def test_widgets_speak_spanish_with_the_translator_installed(
    qtbot: QtBot, spanish: list[QTranslator], catalogue: list[Message]
) -> None:
    assert spanish, "the Spanish catalogue did not load"
    band = EnvironmentBand()
    qtbot.addWidget(band)
    band.set_environment("training")
    assert band.label.text() == "MODO PRÁCTICA: no se acreditan puntos reales"
    assert (band.label.text(),) == translation_of(
        catalogue, "EnvironmentBand", "TRAINING: no real points are credited"
    )

    bar = CounterStatusBar()
    qtbot.addWidget(bar)
    bar.set_online(True)
    assert bar.connection.text() == "En línea"
    bar.set_online(False)
    assert bar.connection.text() == "Sin conexión"
    bar.set_pending(1)
    assert bar.pending.text() == "1 pendiente"
    bar.set_pending(3)
    assert bar.pending.text() == "3 pendientes"

    sentence = error_text(ApiError(ErrorKind.NETWORK))
    assert sentence == "Sin conexión con el servicio. Revise la red e intente de nuevo."
    assert sentence != KIND_TEXT[ErrorKind.NETWORK]
    assert error_text(RuntimeError("boom")).startswith("Algo salió mal.")


def test_the_translator_is_removed_after_use(qtbot: QtBot, qapp: QApplication) -> None:
    installed = install_translators(qapp, "es")
    try:
        assert QCoreApplication.translate("CounterStatusBar", "Online") == "En línea"
    finally:
        for translator in installed:
            qapp.removeTranslator(translator)
    assert QCoreApplication.translate("CounterStatusBar", "Online") == "Online"


def test_english_installs_nothing(qapp: QApplication) -> None:
    assert install_translators(qapp, "en") == []
    assert QCoreApplication.translate("CounterStatusBar", "Online") == "Online"


def test_an_argentine_computer_gets_spanish() -> None:
    argentina = QLocale(QLocale.Language.Spanish, QLocale.Country.Argentina)
    assert choose_language("auto", argentina) == "es"
    assert choose_language("auto", QLocale(QLocale.Language.English)) == "en"
    assert choose_language("en", argentina) == "en"


# -- the fill script -------------------------------------------------------------------

SAMPLE = """<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="es_ES">
<context>
    <name>Keypad</name>
    <message>
        <location filename="../../kiosk/ui/widgets/keypad.py" line="35"/>
        <source>Delete</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>NewScreen</name>
    <message>
        <location filename="../../kiosk/ui/new.py" line="1"/>
        <source>Back</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/new.py" line="2"/>
        <source>Delete</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/new.py" line="3"/>
        <source>Credit %1 points to %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <location filename="../../kiosk/ui/new.py" line="4"/>
        <source>%n pending</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/new.py" line="5"/>
        <source>Kept &apos;as is&apos;</source>
        <translation>Se queda &apos;así&apos;</translation>
    </message>
</context>
</TS>
"""


def filled(mapping: dict[str, Any]) -> tuple[ModuleType, ET.Element, Any]:
    fill = fill_module()
    root = ET.fromstring(SAMPLE)
    return fill, root, fill.fill(root, mapping)


def test_the_fill_script_writes_lupdate_s_own_layout() -> None:
    fill = fill_module()
    assert fill.serialize(ET.fromstring(SAMPLE)) == SAMPLE
    current = TS.read_text(encoding="utf-8")
    assert fill.serialize(ET.fromstring(current)) == current


def test_the_fill_script_falls_back_by_source_and_refuses_what_it_cannot_trust() -> None:
    mapping = {
        "Keypad": {"Delete": "Borrar"},
        "FormPanel": {"Delete": "Eliminar", "Back": "Volver"},
        "NewScreen": {
            "Credit %1 points to %2": "Acreditar %1 puntos",  # lost %2: refused
            "%n pending": ["%n pendiente", "%n pendientes"],
        },
    }
    fill, root, report = filled(mapping)
    texts: dict[tuple[str | None, str | None], ET.Element] = {}
    for context in root.iter("context"):
        for message in context.iter("message"):
            translation = message.find("translation")
            assert translation is not None
            texts[(context.findtext("name"), message.findtext("source"))] = translation
    assert texts[("Keypad", "Delete")].text == "Borrar"
    assert texts[("NewScreen", "Back")].text == "Volver"  # by source: all contexts agree
    assert texts[("NewScreen", "Back")].get("type") is None
    assert ("NewScreen", "Delete") in report.ambiguous  # Borrar or Eliminar?
    assert [m[:2] for m in report.missing] == [("NewScreen", "Credit %1 points to %2")]
    assert any("placeholders differ" in p for p in report.invalid)
    forms = [f.text for f in texts[("NewScreen", "%n pending")].findall("numerusform")]
    assert forms == ["%n pendiente", "%n pendientes"]
    assert texts[("NewScreen", "Kept 'as is'")].text == "Se queda 'así'"
    assert report.kept == 1
    assert not report.complete
    assert fill.skeleton(report) == {"NewScreen": {"Delete": "", "Credit %1 points to %2": ""}}


def test_the_fill_script_is_idempotent_and_a_default_settles_ambiguity() -> None:
    mapping = {
        "*": {"Delete": "Eliminar"},
        "Keypad": {"Delete": "Borrar"},
        "FormPanel": {"Back": "Volver"},
        "NewScreen": {
            "Credit %1 points to %2": "Acreditar %1 puntos a %2",
            "%n pending": ["%n pendiente", "%n pendientes"],
        },
    }
    fill, root, report = filled(mapping)
    assert report.complete
    once = fill.serialize(root)
    again_root = ET.fromstring(once)
    again = fill.fill(again_root, mapping)
    assert fill.serialize(again_root) == once
    assert again.complete
    assert 'language="es_AR"' in once
    assert "<source>Delete</source>\n        <translation>Eliminar</translation>" in once
    assert "<translation>Borrar</translation>" in once


def test_a_plural_needs_its_two_forms() -> None:
    _, _, report = filled({"NewScreen": {"%n pending": "%n pendientes"}})
    assert any("plural" in p for p in report.invalid)
    _, _, report = filled({"NewScreen": {"%n pending": ["%n pendientes"]}})
    assert any("2 forms" in p for p in report.invalid)

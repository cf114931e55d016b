"""The frozen bundle's names and contents, shared by the spec, the build script and the tests.

One-folder PyInstaller bundle (``build/out/loyalty-kiosk/``)::

    loyalty-kiosk[.exe]        windowed: the counter app
    loyalty-kiosk-cli[.exe]    console companion: provision, --self-test,
                               --diagnostics, --shutdown (same program, same folder)
    _internal/                 Python, Qt (PySide6 only), our resources/

``installer.iss`` takes its ``Source:`` files from here; ``tests/deploy`` checks
that every one of them is in this layout. Importable without PyInstaller.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from pathlib import Path, PurePath
from typing import TypeVar

ROOT = Path(__file__).resolve().parents[1]
OUT_DIR = ROOT / "build" / "out"  # gitignored
WORK_DIR = ROOT / "build" / "work"  # gitignored
SPEC = ROOT / "build" / "kiosk.spec"
VERSION_ISS = OUT_DIR / "version.iss"  # "#define AppVersion ...", included by installer.iss

BUNDLE_NAME = "loyalty-kiosk"  # the folder under OUT_DIR
GUI_NAME = "loyalty-kiosk"  # windowed executable
CLI_NAME = "loyalty-kiosk-cli"  # console executable
CONTENTS_DIR = "_internal"  # PyInstaller 6's default contents folder
ICON_SOURCE = ROOT / "resources" / "icons" / "store.svg"
ICON_ICO = WORK_DIR / "loyalty-kiosk.ico"  # rendered by build_bundle.py (Windows needs .ico)

RESOURCES = ROOT / "resources"
# Sources of the translations, not read at run time (the app loads the compiled .qm).
RESOURCE_SOURCES = ("i18n/*.ts", "i18n/*.json", "i18n/*.md")

COMPANY = "Loyalty Kiosk"
PRODUCT = "Loyalty Kiosk"
DESCRIPTION = {
    GUI_NAME: "Loyalty Kiosk counter app",
    CLI_NAME: "Loyalty Kiosk console companion (provision, self-test, diagnostics, shutdown)",
}


def resource_datas() -> list[tuple[str, str]]:
    """(source file, folder in the bundle) for ``resources/`` without translation sources."""
    datas: list[tuple[str, str]] = []
    for path in sorted(RESOURCES.rglob("*")):
        relative = path.relative_to(RESOURCES)
        if path.is_file() and not any(relative.match(p) for p in RESOURCE_SOURCES):
            datas.append((str(path), str(PurePath("resources", *relative.parts[:-1]))))
    return datas


def executable(name: str, windows: bool) -> str:
    return f"{name}.exe" if windows else name


def top_level(windows: bool = True) -> set[str]:
    """The names directly inside the bundle folder."""
    return {executable(GUI_NAME, windows), executable(CLI_NAME, windows), CONTENTS_DIR}


# Python modules never collected: other Qt bindings, Tk, test and build tools, and the
# PySide6 modules the kiosk does not use (it uses QtCore, QtGui, QtWidgets, QtSvg and
# QtNetwork for QLocalServer/QLocalSocket).
EXCLUDED_MODULES: tuple[str, ...] = (
    "PyQt5",
    "PyQt6",
    "PySide2",
    "qtpy",
    "tkinter",
    "_tkinter",
    "turtle",
    "idlelib",
    "pytest",
    "_pytest",
    "pytestqt",
    "mypy",
    "ruff",
    "pip",
    "setuptools",
    "pkg_resources",
    "IPython",
    "matplotlib",
    "numpy",
    "PIL",
    "uvicorn",
    "pygments",
    "click",
    "rich",  # httpx's command-line tool only
    *(
        f"PySide6.{m}"
        for m in (
            "Qt3DAnimation",
            "Qt3DCore",
            "Qt3DExtras",
            "Qt3DInput",
            "Qt3DLogic",
            "Qt3DRender",
            "QtBluetooth",
            "QtCharts",
            "QtConcurrent",
            "QtDataVisualization",
            "QtDBus",
            "QtDesigner",
            "QtGraphs",
            "QtGraphsWidgets",
            "QtHelp",
            "QtHttpServer",
            "QtLabsStyleKit",
            "QtLocation",
            "QtMultimedia",
            "QtMultimediaWidgets",
            "QtNetworkAuth",
            "QtNfc",
            "QtOpenGL",
            "QtOpenGLWidgets",
            "QtPdf",
            "QtPdfWidgets",
            "QtPositioning",
            "QtPrintSupport",
            "QtQml",
            "QtQmlFeatures",
            "QtQuick",
            "QtQuick3D",
            "QtQuickControls2",
            "QtQuickTest",
            "QtQuickWidgets",
            "QtRemoteObjects",
            "QtScxml",
            "QtSensors",
            "QtSerialBus",
            "QtSerialPort",
            "QtSpatialAudio",
            "QtSql",
            "QtStateMachine",
            "QtSvgWidgets",
            "QtTest",
            "QtTextToSpeech",
            "QtUiTools",
            "QtWebChannel",
            "QtWebEngineCore",
            "QtWebEngineQuick",
            "QtWebEngineWidgets",
            "QtWebSockets",
            "QtXml",
        )
    ),
)

# Qt plugin folders the kiosk needs, and the plugins kept inside each (None: all).
# Everything else under PySide6/Qt/plugins is dropped (TLS backends and network
# information too: HTTP goes through httpx, and QtNetwork is used only for the
# local single-instance socket).
KEPT_PLUGINS: dict[str, tuple[str, ...] | None] = {
    "platforms": ("qwindows", "qxcb", "qoffscreen", "qminimal"),
    "platformthemes": ("qxdgdesktopportal",),  # qgtk3 would drag in GTK, cairo, pango
    "platforminputcontexts": (
        "composeplatforminputcontextplugin",
        "ibusplatforminputcontextplugin",
    ),
    "imageformats": ("qsvg", "qico"),
    "iconengines": ("qsvgicon",),
    "styles": None,
    "xcbglintegrations": None,  # Linux only; a Wayland desktop runs the kiosk through XWayland
    "generic": None,
}
KEPT_TRANSLATIONS = ("qtbase_es",)  # Qt's own strings for the Spanish counter

# Qt libraries of modules we exclude that a plugin or hook may still drag in.
DROPPED_QT_LIBRARIES = re.compile(
    r"Qt6?(Qml|Quick|Pdf|VirtualKeyboard|WebEngine|Multimedia|3D|Charts|DataVisualization|"
    r"Graphs|Designer|Sql|Test|Location|Positioning|Sensors|SerialPort|Bluetooth|Nfc|"
    r"RemoteObjects|Scxml|SpatialAudio|TextToSpeech|ShaderTools|LabsStyleKit|Help|UiTools|"
    r"Wayland|WlShell|EglFS)",
)

_PLUGIN = re.compile(r"PySide6[/\\]Qt[/\\]plugins[/\\]([^/\\]+)[/\\](?:lib)?([^/\\.]+)")
_TRANSLATION = re.compile(r"PySide6[/\\]Qt[/\\]translations[/\\]([^/\\]+)\.qm$")
_QT_LIBRARY = re.compile(r"PySide6[/\\](?:Qt[/\\](?:lib|bin)[/\\])?(?:lib)?(Qt6?\w+)")

Entry = TypeVar("Entry", bound=tuple[str, ...])


def keep(dest: str) -> bool:
    """Whether a collected file (its path inside the bundle) belongs in the bundle."""
    plugin = _PLUGIN.search(dest)
    if plugin:
        folder, name = plugin.groups()
        if folder not in KEPT_PLUGINS:
            return False
        wanted = KEPT_PLUGINS[folder]
        return wanted is None or name in wanted
    translation = _TRANSLATION.search(dest)
    if translation:
        return translation.group(1) in KEPT_TRANSLATIONS
    if re.search(r"PySide6[/\\]Qt[/\\]qml[/\\]", dest):
        return False
    library = _QT_LIBRARY.search(dest)
    return not (library and DROPPED_QT_LIBRARIES.match(library.group(1)))


def prune(entries: Iterable[Entry]) -> list[Entry]:
    """The Analysis TOC without what ``keep`` refuses (entries are (dest, src, kind))."""
    return [entry for entry in entries if keep(entry[0])]


def _base(dest: str) -> str:
    return PurePath(dest.replace("\\", "/")).name.lower()


def prune_binaries(
    entries: Iterable[Entry], imports_of: Callable[[str], Iterable[str]]
) -> list[Entry]:
    """``prune`` for the binaries, also dropping the libraries only the refused ones needed.

    A refused plugin (Qt's GTK theme, say) was analysed before it was refused, so
    the libraries it links (GTK, cairo, pango...) were collected: each library that
    only refused binaries reach is dropped too. ``imports_of(source_path)`` names
    the libraries a binary links (PyInstaller's ``bindepend.get_imports``).
    """
    entries = list(entries)
    kept = [e for e in entries if keep(e[0])]
    refused = [e for e in entries if not keep(e[0])]
    by_name = {_base(e[0]): e for e in kept}

    def reachable(roots: list[Entry]) -> set[str]:
        seen: set[str] = set()
        stack = list(roots)
        while stack:
            for name in imports_of(stack.pop()[1]):
                dep = by_name.get(_base(name))
                if dep is not None and dep[0] not in seen:
                    seen.add(dep[0])
                    stack.append(dep)
        return seen

    dragged = reachable(refused)
    needed = reachable([e for e in kept if e[0] not in dragged])
    return [e for e in kept if e[0] not in dragged - needed]

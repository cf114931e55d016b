"""#28 item 7: every message or doc line that names Windows' Credential Manager also
names the store on Linux (a Secret Service keyring), in English and in Spanish."""

from __future__ import annotations

import ast
import json
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
WINDOWS_STORE = ("Windows Credential Manager", "Administrador de credenciales de Windows")
LINUX_STORE = "Secret Service"


def code_strings() -> Iterator[tuple[str, str]]:
    for path in sorted((ROOT / "kiosk").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                yield f"{path.relative_to(ROOT)}:{node.lineno}", node.value


def doc_lines() -> Iterator[tuple[str, str]]:
    for path in sorted((ROOT / "docs").rglob("*.md")):
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            yield f"{path.relative_to(ROOT)}:{number}", line


def translations() -> Iterator[tuple[str, str]]:
    catalogue = json.loads((ROOT / "resources/i18n/es_translations.json").read_text("utf-8"))
    for context, entries in catalogue.items():
        for source, spanish in entries.items():
            for text in [source, *(spanish if isinstance(spanish, list) else [spanish])]:
                yield f"es_translations.json [{context}]", text


def test_the_store_on_linux_is_named_wherever_windows_store_is() -> None:
    named = [
        (where, text)
        for where, text in [*code_strings(), *doc_lines(), *translations()]
        if any(store in text for store in WINDOWS_STORE)
    ]
    assert named, "the start-up message and the troubleshooting guide name it"
    wrong = [where for where, text in named if LINUX_STORE not in text]
    assert not wrong, f"names only Windows' store: {wrong}"

"""Fill the Spanish catalogue from the translation mapping, then compile it.

    python build/i18n_fill.py                    # lupdate, fill, lrelease; exit 1 if anything is left
    python build/i18n_fill.py --no-update        # fill the .ts as it is (no lupdate first)
    python build/i18n_fill.py --check            # change nothing; exit 1 if the code has a string
                                                 # the mapping does not translate
    python build/i18n_fill.py --missing new.json # also write what is missing, as a skeleton to translate

The translations live in ``resources/i18n/es_translations.json`` (the source of truth;
``kiosk_es.ts`` is generated from the code by ``pyside6-lupdate`` and filled from it)::

    {
      "*":     {"Delete": "Eliminar"},                            # defaults for any context
      "Rail":  {"Points": "Puntos"},                              # context -> source -> text
      "CounterStatusBar": {"%n pending": ["%n pendiente", "%n pendientes"]}  # plural: 2 forms
    }

A message takes the translation of its own (context, source); else the ``"*"`` default
for its source; else the translation its source has in the other contexts, when they all
agree. When they disagree ("Done" is "Listo" on a button, "Hecho" in the Today table) and
there is no default, the message is reported as ambiguous: give its context an entry.
Placeholders (``%1``, ``%2``, ``%n``) must be the same in the source and the translation,
or the entry is refused. Translations already in the .ts for messages the mapping does not
know are kept. The .ts is written in lupdate's own layout (language ``es_AR``), so running
this script, or it and ``build/i18n.py``, again changes nothing.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import re
import shutil
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Union

ROOT = Path(__file__).resolve().parents[1]
TS = ROOT / "resources" / "i18n" / "kiosk_es.ts"
MAPPING = ROOT / "resources" / "i18n" / "es_translations.json"
LANGUAGE = "es_AR"
PLURAL_FORMS = 2  # Spanish: one, other
ANY_CONTEXT = "*"

Translation = Union[str, list[str]]  # noqa: UP007 (a runtime alias)
Mapping = dict[str, dict[str, Translation]]

PLACEHOLDER = re.compile(r"%L?(\d{1,2}|n)")


def placeholders(text: str) -> Counter[str]:
    """``%1``, ``%2``, ``%n`` (and ``%L1``) in ``text``, counted."""
    return Counter(PLACEHOLDER.findall(text))


def entry_problems(context: str, source: str, value: object) -> list[str]:
    """Why a mapping entry cannot be used (empty list: it can)."""
    where = f"{context}: {source!r}"
    if isinstance(value, str):
        forms = [value]
    elif isinstance(value, list) and all(isinstance(v, str) for v in value):
        forms = list(value)
        if len(forms) != PLURAL_FORMS:
            return [f"{where}: a plural needs {PLURAL_FORMS} forms, got {len(forms)}"]
    else:
        return [f"{where}: a translation is a string or a list of {PLURAL_FORMS} strings"]
    problems: list[str] = []
    wanted = placeholders(source)
    for form in forms:
        if not form.strip():
            problems.append(f"{where}: empty translation")
        elif placeholders(form) != wanted:
            problems.append(f"{where}: placeholders differ in {form!r}")
    return problems


def load_mapping(path: Path) -> Mapping:
    data = json.loads(path.read_text(encoding="utf-8"))
    if not isinstance(data, dict) or not all(isinstance(v, dict) for v in data.values()):
        raise SystemExit(f"{path}: expected {{context: {{source: translation}}}}")
    return data


def usable_entries(mapping: Mapping) -> tuple[Mapping, list[str]]:
    """The mapping without its broken entries, and what is wrong with those."""
    good: Mapping = {}
    problems: list[str] = []
    for context, entries in mapping.items():
        for source, value in entries.items():
            found = entry_problems(context, source, value)
            problems.extend(found)
            if not found:
                good.setdefault(context, {})[source] = value
    return good, problems


def by_source(mapping: Mapping) -> dict[str, list[Translation]]:
    """Every distinct translation of each source, over all contexts."""
    seen: dict[str, list[Translation]] = {}
    for context, entries in mapping.items():
        if context == ANY_CONTEXT:
            continue
        for source, value in entries.items():
            known = seen.setdefault(source, [])
            if value not in known:
                known.append(value)
    return seen


@dataclass
class Report:
    filled: int = 0  # taken from the mapping
    kept: int = 0  # already translated in the .ts, unknown to the mapping
    missing: list[tuple[str, str, bool]] = field(default_factory=list)  # context, source, plural
    ambiguous: list[tuple[str, str]] = field(default_factory=list)
    invalid: list[str] = field(default_factory=list)

    @property
    def complete(self) -> bool:
        return not (self.missing or self.ambiguous or self.invalid)


def resolve(
    mapping: Mapping, alternatives: dict[str, list[Translation]], context: str, source: str
) -> tuple[Translation | None, bool]:
    """The translation for (context, source), and whether other contexts disagree."""
    own = mapping.get(context, {})
    if source in own:
        return own[source], False
    default = mapping.get(ANY_CONTEXT, {})
    if source in default:
        return default[source], False
    options = alternatives.get(source, [])
    if len(options) == 1:
        return options[0], False
    return None, len(options) > 1


def _finished(translation: ET.Element | None, plural: bool) -> bool:
    if translation is None or translation.get("type") in ("unfinished",):
        return False
    if plural:
        forms = translation.findall("numerusform")
        return bool(forms) and all((f.text or "").strip() for f in forms)
    return bool((translation.text or "").strip())


def _write_translation(message: ET.Element, value: Translation, plural: bool) -> None:
    translation = message.find("translation")
    if translation is None:
        translation = ET.SubElement(message, "translation")
    for child in list(translation):
        translation.remove(child)
    translation.attrib.pop("type", None)
    if plural:
        forms = value if isinstance(value, list) else [value] * PLURAL_FORMS
        translation.text = None
        for form in forms:
            ET.SubElement(translation, "numerusform").text = form
    else:
        translation.text = value if isinstance(value, str) else value[-1]


def fill(root: ET.Element, mapping: Mapping) -> Report:
    """Put the mapping's translations into the catalogue ``root`` (in place)."""
    mapping, problems = usable_entries(mapping)
    report = Report(invalid=problems)
    alternatives = by_source(mapping)
    root.set("language", LANGUAGE)
    for context in root.iter("context"):
        name = context.findtext("name") or ""
        for message in context.iter("message"):
            translation = message.find("translation")
            if translation is not None and translation.get("type") in ("vanished", "obsolete"):
                continue
            source = message.findtext("source") or ""
            plural = message.get("numerus") == "yes"
            value, disputed = resolve(mapping, alternatives, name, source)
            usable = value is not None
            if usable and plural and isinstance(value, str):
                usable = False
                report.invalid.append(f"{name}: {source!r}: a plural needs a list of forms")
            if usable and not plural and isinstance(value, list):
                usable = False
                report.invalid.append(f"{name}: {source!r}: not a plural: give one string")
            if usable and value is not None:
                _write_translation(message, value, plural)
                report.filled += 1
            elif _finished(translation, plural):
                report.kept += 1
            elif disputed:
                report.ambiguous.append((name, source))
            else:
                report.missing.append((name, source, plural))
    return report


def _escape(text: str) -> str:
    return (
        text.replace("&", "&amp;")
        .replace("<", "&lt;")
        .replace(">", "&gt;")
        .replace('"', "&quot;")
        .replace("'", "&apos;")
    )


def _element(node: ET.Element, depth: int, out: list[str]) -> None:
    pad = "    " * depth
    attrs = "".join(f' {k}="{_escape(v)}"' for k, v in node.attrib.items())
    children = list(node)
    if children:
        out.append(f"{pad}<{node.tag}{attrs}>")
        for child in children:
            _element(child, depth + 1, out)
        out.append(f"{pad}</{node.tag}>")
    elif node.tag == "location" and not node.text:
        out.append(f"{pad}<{node.tag}{attrs}/>")
    else:
        out.append(f"{pad}<{node.tag}{attrs}>{_escape(node.text or '')}</{node.tag}>")


def serialize(root: ET.Element) -> str:
    """The catalogue in ``pyside6-lupdate``'s own layout, so the two tools agree."""
    attrs = "".join(f' {k}="{_escape(v)}"' for k, v in root.attrib.items())
    out = ['<?xml version="1.0" encoding="utf-8"?>', "<!DOCTYPE TS>", f"<TS{attrs}>"]
    for context in root:
        _element(context, 0, out)
    out.append("</TS>")
    return "\n".join(out) + "\n"


def skeleton(report: Report) -> Mapping:
    """What is left to translate, in the mapping's shape (empty strings to fill in)."""
    todo: Mapping = {}
    for context, source, plural in report.missing:
        todo.setdefault(context, {})[source] = [""] * PLURAL_FORMS if plural else ""
    for context, source in report.ambiguous:
        todo.setdefault(context, {})[source] = ""
    return todo


def _build_i18n() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "kiosk_build_i18n", Path(__file__).with_name("i18n.py")
    )
    if spec is None or spec.loader is None:
        raise SystemExit("build/i18n.py is missing")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ts", type=Path, default=TS)
    parser.add_argument("--mapping", type=Path, default=MAPPING)
    parser.add_argument("--no-update", action="store_true", help="do not run lupdate first")
    parser.add_argument(
        "--check", action="store_true", help="write nothing; check the sources against the mapping"
    )
    parser.add_argument("--missing", type=Path, help="write the untranslated strings here (JSON)")
    args = parser.parse_args(argv)
    build = _build_i18n()
    if args.check:  # the sources as they are now, into a scratch copy
        with tempfile.TemporaryDirectory() as scratch:
            copy = Path(scratch) / args.ts.name
            shutil.copy(args.ts, copy)
            if not args.no_update:
                build.lupdate(copy)
            root = ET.parse(copy).getroot()  # noqa: S314 (our own file)
    else:
        if not args.no_update:
            build.lupdate(args.ts)
        root = ET.parse(args.ts).getroot()  # noqa: S314 (our own file)
    report = fill(root, load_mapping(args.mapping))
    for problem in report.invalid:
        print(f"invalid: {problem}")
    for context, source in report.ambiguous:
        print(f"ambiguous (give {context} its own entry): {context}: {source!r}")
    for context, source, _ in report.missing:
        print(f"untranslated: {context}: {source!r}")
    if args.missing is not None:
        text = json.dumps(skeleton(report), ensure_ascii=False, indent=2)
        args.missing.write_text(text + "\n", encoding="utf-8")
    if not args.check:
        text = serialize(root)
        if args.ts.read_text(encoding="utf-8") != text:
            args.ts.write_text(text, encoding="utf-8")
        qm = args.ts.with_suffix(".qm")
        subprocess.run(  # noqa: S603
            [build.tool("pyside6-lrelease"), str(args.ts), "-qm", str(qm)],
            check=True,
            capture_output=True,
        )
    left = len(report.missing) + len(report.ambiguous)
    print(
        f"{report.filled} from the mapping, {report.kept} kept, {left} untranslated, "
        f"{len(report.invalid)} invalid"
    )
    return 0 if report.complete else 1


if __name__ == "__main__":
    sys.exit(main())

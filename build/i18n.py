"""Refresh and compile the kiosk's translations.

    python build/i18n.py            # lupdate + lrelease; fails if a string is untranslated
    python build/i18n.py --check    # only report untranslated strings (exit 1 if any)

``pyside6-lupdate`` collects every ``tr()`` string of ``kiosk/ui`` into
``resources/i18n/kiosk_es.ts`` (translations already there are kept; edit new ones
with Qt Linguist or by hand), and ``pyside6-lrelease`` compiles ``kiosk_es.qm``, which
the app loads (``kiosk/ui/i18n.py``).
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TS = ROOT / "resources" / "i18n" / "kiosk_es.ts"
QM = TS.with_suffix(".qm")


def tool(name: str) -> str:
    found = shutil.which(name) or shutil.which(name, path=str(Path(sys.executable).parent))
    if found is None:
        raise SystemExit(f"{name} not found: install the project (pip install -e .)")
    return found


def sources() -> list[str]:
    return sorted(str(p.relative_to(ROOT)) for p in (ROOT / "kiosk" / "ui").rglob("*.py"))


def lupdate(target: Path) -> None:
    subprocess.run(  # noqa: S603
        [tool("pyside6-lupdate"), *sources(), "-no-obsolete", "-ts", str(target)],
        cwd=ROOT,
        check=True,
        capture_output=True,
    )


def untranslated(ts: Path) -> list[tuple[str, str]]:
    tree = ET.parse(ts)  # noqa: S314 (our own file)
    missing: list[tuple[str, str]] = []
    for context in tree.getroot().iter("context"):
        name = context.findtext("name") or ""
        for message in context.iter("message"):
            translation = message.find("translation")
            source = message.findtext("source") or ""
            if translation is None:
                missing.append((name, source))
                continue
            numerus = translation.findall("numerusform")
            text = "".join(n.text or "" for n in numerus) if numerus else (translation.text or "")
            if translation.get("type") == "unfinished" or not text.strip():
                missing.append((name, source))
    return missing


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only report untranslated strings")
    args = parser.parse_args()
    TS.parent.mkdir(parents=True, exist_ok=True)
    if not args.check:
        lupdate(TS)
    missing = untranslated(TS)
    for context, source in missing:
        print(f"untranslated: {context}: {source!r}")
    if args.check:
        return 1 if missing else 0
    release = [tool("pyside6-lrelease"), str(TS), "-qm", str(QM)]
    subprocess.run(release, check=True, capture_output=True)  # noqa: S603
    print(f"{QM.relative_to(ROOT)} written; {len(missing)} untranslated")
    return 1 if missing else 0


if __name__ == "__main__":
    raise SystemExit(main())

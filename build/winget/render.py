"""Fill the winget manifest templates of this folder for one release.

    python build/winget/render.py --url https://downloads.example.com/loyalty-kiosk-setup-0.1.0.exe \
        --setup build/out/loyalty-kiosk-setup-0.1.0.exe

Writes ``build/out/winget/<version>/`` (the version is ``kiosk.__version__``, as the
installer's), with the setup's SHA-256. ``docs/deploy.md`` ("Managed updates") says
where the folder goes.
"""

from __future__ import annotations

import argparse
import hashlib
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
TEMPLATES = sorted(HERE.glob("*.yaml"))


def render(text: str, version: str, url: str, sha256: str) -> str:
    filled = (
        text.replace("{{VERSION}}", version)
        .replace("{{INSTALLER_URL}}", url)
        .replace("{{INSTALLER_SHA256}}", sha256.upper())
    )
    if "{{" in filled:
        raise ValueError(f"a placeholder is left: {filled[filled.index('{{') :][:40]}")
    return filled


def main() -> int:
    sys.path.insert(0, str(ROOT))
    from kiosk import __version__

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--url", required=True, help="where the setup .exe is downloaded from")
    parser.add_argument("--setup", type=Path, required=True, help="the setup .exe (hashed)")
    args = parser.parse_args()
    if not args.url.startswith("https://"):
        parser.error("--url must be https")
    sha256 = hashlib.sha256(args.setup.read_bytes()).hexdigest()
    out = ROOT / "build" / "out" / "winget" / __version__
    out.mkdir(parents=True, exist_ok=True)
    for template in TEMPLATES:
        text = render(template.read_text(encoding="utf-8"), __version__, args.url, sha256)
        (out / template.name).write_text(text, encoding="utf-8")
    print(f"winget manifests for {__version__} in {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""The bundle's hashed lock, ``requirements/bundle.lock``: refresh it, check it, audit it.

    python build/lockfile.py lock [--upgrade | --upgrade-package NAME]
    python build/lockfile.py check
    python build/lockfile.py audit [--service pypi|osv]

``lock`` runs ``uv pip compile`` over ``pyproject.toml`` (the runtime dependencies and
the ``build`` extra) for every platform at once (``--universal``: Windows' own pins carry
``sys_platform == 'win32'``), each pin with the sha256 of every file PyPI has for it.
Pins already in the lock are kept unless ``--upgrade`` (all) or ``--upgrade-package``.
``check`` (no network) says whether the lock still satisfies ``pyproject.toml`` and
hashes every pin. ``audit`` asks pip-audit about every pin of every platform and exits
1 on a known vulnerability; when the audit service cannot answer it says
``dependency audit SKIPPED: <why>`` and exits 0. docs/design/dependencies.md has the why.
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import subprocess
import sys
import tempfile
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
LOCK = ROOT / "requirements" / "bundle.lock"
PYPROJECT = ROOT / "pyproject.toml"
LOCK_EXTRAS = ("build",)
PYTHON = "3.11"
COMPILE_COMMAND = "python build/lockfile.py lock"
AUDIT_TIMEOUT_S = 600
SERVICES = {"pypi": "PyPI's JSON API", "osv": "OSV"}
# What pip-audit's traceback says when its service could not be reached at all.
UNREACHABLE = re.compile(
    r"ConnectionError|NameResolution|Failed to resolve|Max retries exceeded|timed out"
    r"|Connection refused|Network is unreachable|ProxyError|SSLError|ServiceError"
)


@dataclass(frozen=True)
class Pin:
    """One requirement of the lock: ``name==version``, its marker, its hashes."""

    name: str  # normalized (PEP 503)
    version: str
    marker: str | None
    hashes: tuple[str, ...]


def normalize(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def read_pins(text: str) -> list[Pin]:
    """The pins of a ``pip-compile`` / ``uv pip compile`` output (``\\`` continuations,
    ``# via`` comments)."""
    logical: list[str] = []
    current = ""
    for raw in text.splitlines():
        line = raw.split(" #", 1)[0].strip() if not raw.lstrip().startswith("#") else ""
        if not line:
            if current:
                logical.append(current)
                current = ""
            continue
        if line.endswith("\\"):
            current += line[:-1] + " "
            continue
        logical.append(current + line)
        current = ""
    if current:
        logical.append(current)
    pins: list[Pin] = []
    for entry in logical:
        hashes = tuple(re.findall(r"--hash=sha256:([0-9a-f]{64})", entry))
        requirement = re.sub(r"--hash=\S+", "", entry).strip()
        spec, _, marker = requirement.partition(";")
        match = re.fullmatch(r"([A-Za-z0-9][A-Za-z0-9._-]*)\s*==\s*(\S+)", spec.strip())
        if match is None:
            raise ValueError(f"not a pinned requirement: {requirement!r}")
        pins.append(Pin(normalize(match[1]), match[2], marker.strip() or None, hashes))
    return pins


def lock_pins(path: Path = LOCK) -> list[Pin]:
    return read_pins(path.read_text(encoding="utf-8"))


def for_this_machine(pins: list[Pin]) -> dict[str, str]:
    """name -> version of the pins whose marker holds here (``packaging`` evaluates it)."""
    from packaging.markers import Marker

    return {p.name: p.version for p in pins if p.marker is None or Marker(p.marker).evaluate()}


# -- lock ------------------------------------------------------------------------------


def uv() -> str:
    found = shutil.which("uv") or shutil.which("uv", path=str(Path(sys.executable).parent))
    if found is None:
        raise SystemExit("uv not found: pip install -e '.[lock]'")
    return found


def compile_command(*, upgrade: bool = False, packages: tuple[str, ...] = ()) -> list[str]:
    command = [
        uv(), "pip", "compile", str(PYPROJECT.relative_to(ROOT)),
        *(arg for extra in LOCK_EXTRAS for arg in ("--extra", extra)),
        "--universal", "--python-version", PYTHON, "--generate-hashes",
        "--custom-compile-command", COMPILE_COMMAND, "--quiet",
        "--output-file", str(LOCK.relative_to(ROOT)),
    ]  # fmt: skip
    if upgrade:
        command.append("--upgrade")
    for package in packages:
        command += ["--upgrade-package", package]
    return command


# -- check -----------------------------------------------------------------------------


def declared() -> list[str]:
    """The requirements the lock is made from: the runtime ones and its extras'."""
    project = tomllib.loads(PYPROJECT.read_text(encoding="utf-8"))["project"]
    extras = project.get("optional-dependencies", {})
    return [*project["dependencies"], *(r for e in LOCK_EXTRAS for r in extras.get(e, []))]


def problems(pins: list[Pin], requirements: list[str]) -> list[str]:
    """Why the lock does not fit ``requirements`` (empty when it does)."""
    from packaging.requirements import Requirement

    found: list[str] = []
    by_name: dict[str, list[Pin]] = {}
    for pin in pins:
        by_name.setdefault(pin.name, []).append(pin)
        if not pin.hashes:
            found.append(f"{pin.name}=={pin.version} has no hash")
    for text in requirements:
        requirement = Requirement(text)
        name = normalize(requirement.name)
        if name not in by_name:
            found.append(f"{requirement} is not in the lock")
            continue
        for pin in by_name[name]:
            if not requirement.specifier.contains(pin.version, prereleases=True):
                found.append(f"{name}=={pin.version} does not satisfy {requirement}")
    return found


# -- audit -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Verdict:
    exit_code: int  # 0: nothing known, or skipped (said); 1: vulnerable; 2: the audit broke
    lines: tuple[str, ...]


def judge(
    report: dict[str, Any] | None, *, returncode: int, stderr: str, total: int, service: str
) -> Verdict:
    """What pip-audit's JSON ``report`` (or its failure) means for CI."""
    if report is None:
        lines = [line.strip() for line in stderr.splitlines() if line.strip()]
        last = lines[-1] if lines else "no output"
        last = last if len(last) <= 160 else last[:159] + "…"
        if UNREACHABLE.search(stderr):
            source = SERVICES.get(service, service)
            return Verdict(
                0, (f"dependency audit SKIPPED: {source} could not be reached ({last})",)
            )
        return Verdict(2, (f"dependency audit ERROR: pip-audit exited {returncode}: {last}",))
    dependencies = report.get("dependencies", [])
    vulnerable = [d for d in dependencies if d.get("vulns")]
    skipped = [d for d in dependencies if d.get("skip_reason")]
    lines: list[str] = []
    if vulnerable:
        count = sum(len(d["vulns"]) for d in vulnerable)
        lines.append(f"dependency audit FAILED: {count} known vulnerabilities in {LOCK.name}")
        for dependency in vulnerable:
            for vuln in dependency["vulns"]:
                aliases = ", ".join(vuln.get("aliases") or [])
                fixed = ", ".join(vuln.get("fix_versions") or []) or "no fix yet"
                lines.append(
                    f"  {dependency['name']} {dependency.get('version', '?')}: {vuln.get('id')}"
                    + (f" ({aliases})" if aliases else "")
                    + f"; fixed in {fixed}"
                )
    audited = total - len(skipped)
    source = SERVICES.get(service, service)
    if skipped:
        why = skipped[0]["skip_reason"]
        if audited <= 0:
            lines.append(
                f"dependency audit SKIPPED: {source} could audit none of the {total} pins"
                f" of {LOCK.name} (first: {why})"
            )
        else:
            names = ", ".join(d["name"] for d in skipped[:8]) + (
                ", ..." if len(skipped) > 8 else ""
            )
            lines.append(
                f"dependency audit SKIPPED for {len(skipped)} of the {total} pins ({names}): {why}"
            )
    if not vulnerable and audited > 0:
        lines.append(f"dependency audit ok: {audited} pins audited by {source}, none vulnerable")
    return Verdict(1 if vulnerable else 0, tuple(lines))


def audit(service: str) -> Verdict:
    """pip-audit over every pin of the lock, every platform's (markers dropped)."""
    pins = lock_pins()
    with tempfile.TemporaryDirectory() as scratch:
        requirements = Path(scratch) / "pins.txt"
        requirements.write_text("".join(f"{p.name}=={p.version}\n" for p in pins), encoding="utf-8")
        report_path = Path(scratch) / "report.json"
        command = [
            sys.executable, "-m", "pip_audit", "-r", str(requirements), "--no-deps",
            "--disable-pip", "--vulnerability-service", service, "--format", "json",
            "--output", str(report_path), "--progress-spinner", "off",
        ]  # fmt: skip
        try:
            done = subprocess.run(  # noqa: S603
                command, capture_output=True, text=True, timeout=AUDIT_TIMEOUT_S, check=False
            )
        except subprocess.TimeoutExpired:
            return Verdict(0, (f"dependency audit SKIPPED: {service} did not answer within"
                               f" {AUDIT_TIMEOUT_S} s",))  # fmt: skip
        if "No module named pip_audit" in done.stderr:
            return Verdict(2, ("dependency audit ERROR: pip-audit is not installed:"
                               " pip install -e '.[audit]'",))  # fmt: skip
        report = None
        if report_path.exists():
            report = json.loads(report_path.read_text(encoding="utf-8"))
    return judge(
        report, returncode=done.returncode, stderr=done.stderr, total=len(pins), service=service
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0], allow_abbrev=False)
    commands = parser.add_subparsers(dest="command", required=True)
    lock = commands.add_parser("lock", help="refresh the lock with uv")
    lock.add_argument("--upgrade", action="store_true", help="take the newest of every pin")
    lock.add_argument("--upgrade-package", action="append", default=[], metavar="NAME")
    commands.add_parser("check", help="the lock fits pyproject.toml; every pin hashed")
    audit_command = commands.add_parser("audit", help="pip-audit the lock's pins")
    audit_command.add_argument("--service", choices=("pypi", "osv"), default="pypi")
    args = parser.parse_args(argv)
    if args.command == "lock":
        command = compile_command(upgrade=args.upgrade, packages=tuple(args.upgrade_package))
        subprocess.run(command, cwd=ROOT, check=True)  # noqa: S603
        found = problems(lock_pins(), declared())
    elif args.command == "check":
        found = problems(lock_pins(), declared())
    else:
        verdict = audit(args.service)
        print("\n".join(verdict.lines))
        return verdict.exit_code
    for problem in found:
        print(f"{LOCK.relative_to(ROOT)}: {problem}", file=sys.stderr)
    if not found:
        print(f"{LOCK.relative_to(ROOT)}: {len(lock_pins())} pins, all hashed, fit pyproject.toml")
    return 1 if found else 0


if __name__ == "__main__":
    raise SystemExit(main())

"""Build the one-folder bundle with PyInstaller (Windows or Linux) and the installer's version file.

    .venv/bin/python build/build_bundle.py [--clean]

The bundle is built from the lock, never from whatever the calling environment holds:
``build/work/lock-venv`` is made from ``requirements/bundle.lock`` with
``pip install --require-hashes --no-deps --only-binary :all:`` (made again when the lock
changes, or with ``--clean``), checked to hold exactly the lock's pins for this machine,
and the build runs in it. Any Python 3.11 starts it (nothing needs to be installed).

Writes ``build/out/version.iss`` (the version for ``installer.iss``), renders the
Windows icon, runs ``build/kiosk.spec`` and checks the result: the two executables
and ``_internal`` (``build/layout.py``), no other Qt binding, no excluded Qt module.
Prints the bundle size and the build time. On Windows, compile the installer after
it with ``iscc installer.iss``.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import layout  # noqa: E402
import lockfile  # noqa: E402
import version_info  # noqa: E402

LOCK_ENV = layout.WORK_DIR / "lock-venv"  # the build's environment, from the lock alone
LOCK_STAMP = "bundle.lock.sha256"  # in LOCK_ENV: the lock it was made from
UNPINNED_OK = frozenset({"pip"})  # the venv's own installer, not bundled

FORBIDDEN = (
    "PyQt5",
    "PyQt6",
    "PySide2",
    "tkinter",
    "_tkinter",
    "QtWebEngine",
    "QtQml",
    "QtQuick",
    "Qt6Pdf",
    "QtMultimedia",
)


def write_version_iss(version: str) -> Path:
    layout.OUT_DIR.mkdir(parents=True, exist_ok=True)
    layout.VERSION_ISS.write_text(version_info.iss_defines(version), encoding="utf-8")
    return layout.VERSION_ISS


def render_icon() -> Path | None:
    """The app icon as .ico (the executables' and the installer's), drawn from our SVG."""
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtCore import QByteArray
    from PySide6.QtGui import QGuiApplication, QImage, QPainter
    from PySide6.QtSvg import QSvgRenderer

    app = QGuiApplication.instance() or QGuiApplication([])
    svg = layout.ICON_SOURCE.read_text(encoding="utf-8").replace("#000000", "#1f5fbf")
    renderer = QSvgRenderer(QByteArray(svg.encode()))
    image = QImage(256, 256, QImage.Format.Format_ARGB32)
    image.fill(0)
    painter = QPainter(image)
    renderer.render(painter)
    painter.end()
    layout.WORK_DIR.mkdir(parents=True, exist_ok=True)
    ok = image.save(str(layout.ICON_ICO), "ICO")  # type: ignore[call-overload]  # the stub says bytes; PySide6 takes str
    del app
    if not ok:
        print("warning: the .ico could not be written (no Qt ico plugin); no icon", file=sys.stderr)
        return None
    return layout.ICON_ICO


def check_translations() -> None:
    """Each shipped ``.qm`` must be exactly what its ``.ts`` compiles to. (Compared by
    content: a fresh clone gives both files checkout-time dates in any order.)"""
    import shutil
    import tempfile

    i18n = layout.ROOT / "resources" / "i18n"
    lrelease = shutil.which("pyside6-lrelease") or str(
        Path(sys.executable).parent / "pyside6-lrelease"
    )
    for ts in sorted(i18n.glob("*.ts")):
        qm = ts.with_suffix(".qm")
        with tempfile.TemporaryDirectory() as scratch:
            fresh = Path(scratch) / qm.name
            subprocess.run([lrelease, str(ts), "-qm", str(fresh)], check=True, capture_output=True)  # noqa: S603
            current = qm.exists() and qm.read_bytes() == fresh.read_bytes()
        if not current:
            raise SystemExit(f"{qm.name} is missing or does not match {ts.name}: run build/i18n.py")
    if not any(i18n.glob("*.qm")):
        print(
            "warning: no compiled translation in resources/i18n: the bundle shows English only",
            file=sys.stderr,
        )


def lock_digest() -> str:
    return hashlib.sha256(lockfile.LOCK.read_bytes()).hexdigest()


def env_python(env: Path) -> Path:
    return env / ("Scripts/python.exe" if sys.platform == "win32" else "bin/python")


def in_lock_env() -> bool:
    return Path(sys.prefix).resolve() == LOCK_ENV.resolve()


def make_lock_env(*, fresh: bool) -> Path:
    """``LOCK_ENV`` with the lock's pins for this machine, each file checked against the
    lock's hashes; kept while the lock is unchanged. Returns its Python."""
    python, stamp, digest = env_python(LOCK_ENV), LOCK_ENV / LOCK_STAMP, lock_digest()
    if not fresh and python.exists() and stamp.exists() and stamp.read_text() == digest:
        return python
    shutil.rmtree(LOCK_ENV, ignore_errors=True)
    print(f"build environment: {LOCK_ENV.relative_to(layout.ROOT)} from {lockfile.LOCK.name}")
    subprocess.run([sys.executable, "-m", "venv", str(LOCK_ENV)], check=True)  # noqa: S603
    install = [
        str(python), "-m", "pip", "install", "--disable-pip-version-check",
        "--require-hashes", "--no-deps", "--only-binary", ":all:", "-r", str(lockfile.LOCK),
    ]  # fmt: skip
    subprocess.run(install, check=True)  # noqa: S603
    stamp.write_text(digest)
    return python


def environment_problems(pinned: dict[str, str], installed: dict[str, str]) -> list[str]:
    """How the installed distributions (normalized name -> version) differ from the
    lock's pins for this machine (empty when they are exactly those)."""
    found = [
        f"{name}: {installed.get(name, 'missing')}, the lock pins {version}"
        for name, version in sorted(pinned.items())
        if installed.get(name) != version
    ]
    found += [
        f"{name} {version} is not in the lock"
        for name, version in sorted(installed.items())
        if name not in pinned and name not in UNPINNED_OK
    ]
    return found


def installed_here() -> dict[str, str]:
    from importlib.metadata import distributions

    return {lockfile.normalize(d.metadata["Name"]): d.version for d in distributions()}


def run_pyinstaller(clean: bool) -> None:
    command = [
        sys.executable,
        "-m",
        "PyInstaller",
        str(layout.SPEC),
        "--noconfirm",
        "--distpath",
        str(layout.OUT_DIR),
        "--workpath",
        str(layout.WORK_DIR),
        "--log-level",
        "WARN",
    ]
    if clean:
        command.append("--clean")
    subprocess.run(command, cwd=layout.ROOT, check=True)  # noqa: S603


def size_on_disk(folder: Path) -> int:
    return sum(p.stat().st_size for p in folder.rglob("*") if p.is_file() and not p.is_symlink())


def check_bundle(bundle: Path) -> list[str]:
    """Problems with the built folder (empty when it is as the spec describes)."""
    problems: list[str] = []
    names = {p.name for p in bundle.iterdir()}
    missing = layout.top_level(windows=sys.platform == "win32") - names
    if missing:
        problems.append(f"missing from {bundle}: {', '.join(sorted(missing))}")
    contents = bundle / layout.CONTENTS_DIR
    for path in contents.rglob("*"):
        relative = path.relative_to(contents).as_posix()
        if any(word in relative for word in FORBIDDEN):
            problems.append(f"should not be bundled: {relative}")
    if not (contents / "resources" / "icons").is_dir():
        problems.append("resources/icons not bundled")
    if not any(contents.glob("keyring-*.dist-info")):
        problems.append("keyring's metadata (entry points) not bundled")
    if not (contents / "certifi" / "cacert.pem").exists():
        problems.append("certifi's CA bundle not bundled")
    return problems


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0], allow_abbrev=False)
    parser.add_argument(
        "--clean",
        action="store_true",
        help="empty PyInstaller's cache and make the build environment anew from the lock",
    )
    args = parser.parse_args(argv)
    if not in_lock_env():
        python = make_lock_env(fresh=args.clean)
        arguments = sys.argv[1:] if argv is None else argv
        return subprocess.run([str(python), __file__, *arguments], check=False).returncode  # noqa: S603
    drift = environment_problems(lockfile.for_this_machine(lockfile.lock_pins()), installed_here())
    if drift:
        for problem in drift:
            print(f"error: {problem}", file=sys.stderr)
        print(f"error: {LOCK_ENV} differs from the lock: build again with --clean", file=sys.stderr)
        return 1
    started = time.perf_counter()
    version = version_info.package_version()
    print(f"version {version}: {write_version_iss(version).relative_to(layout.ROOT)}")
    check_translations()
    render_icon()
    run_pyinstaller(args.clean)
    bundle = layout.OUT_DIR / layout.BUNDLE_NAME
    problems = check_bundle(bundle)
    for problem in problems:
        print(f"error: {problem}", file=sys.stderr)
    size = size_on_disk(bundle)
    elapsed = time.perf_counter() - started
    print(
        f"bundle: {bundle.relative_to(layout.ROOT)}  {size / 1e6:.1f} MB  built in {elapsed:.0f} s"
    )
    return 1 if problems else 0


if __name__ == "__main__":
    raise SystemExit(main())

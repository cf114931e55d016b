"""The installer tried as IT would: install, upgrades, refusals, uninstall; each step checked.

    build/installer_check.sh        (Linux: compiles with build/iscc.sh, runs this under Wine)
    python build/installer_check.py --setup S.exe --next-setup N.exe --bundle DIR
        [--wine-prefix PREFIX --wine-run WINE-RUN]      (without them: this Windows machine)

S is this version's setup, N the next version's (same script, another AppVersion), DIR
the bundle folder they were compiled from (its file list is what must be installed).
After every step it checks Setup's exit code and log, C:\\ProgramData\\LoyaltyKiosk\\kiosk.ini,
the Start-menu and Startup shortcuts, the files in the install folder and the
uninstall entry that IT's detection rule reads (docs/deploy.md). After every install it
checks the data folder's ACL step: on Windows the ACL itself (owner, entries, no
inheritance from ProgramData, read with Get-Acl); under Wine, whose icacls.exe is a
stub that changes nothing, only the icacls calls in Setup's log (it says so). Standard
library only; exit code 0 when every step passed, 1 otherwise.
"""

from __future__ import annotations

import argparse
import configparser
import getpass
import os
import re
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import NamedTuple

ROOT = Path(__file__).resolve().parents[1]
APP = r"C:\Program Files\Loyalty Kiosk"
INI = r"C:\ProgramData\LoyaltyKiosk\kiosk.ini"
# What Setup writes in [lock] when the file has none (installer.iss, DefaultLocks; #22).
DEFAULT_LOCKS = "environment, production_url, qa_url, manager_pin_hash"
DATA = r"C:\ProgramData\LoyaltyKiosk"
PROGRAMS = r"C:\ProgramData\Microsoft\Windows\Start Menu\Programs"
STARTUP = PROGRAMS + r"\StartUp"
UNINSTALL_KEY = r"Software\Microsoft\Windows\CurrentVersion\Uninstall"
# The Start-menu names in each of the installer's languages ([CustomMessages]).
# No self-test shortcut: it ran "cmd /k" for every user (#22); OURS still names the old
# ones, so a leftover of an earlier version shows in the Start menu's check.
SHORTCUTS = {
    "en": {"Loyalty Kiosk", "Loyalty Kiosk (training)"},
    "es": {"Loyalty Kiosk", "Loyalty Kiosk (entrenamiento)"},
}
OURS = set().union(*SHORTCUTS.values()) | {
    "Loyalty Kiosk self-test",
    "Loyalty Kiosk autodiagnóstico",
}
SHUTDOWN_CALL = re.compile(
    r"loyalty-kiosk-cli\.exe --shutdown --all-users --wait 30: exit code (-?\d+)"
)
INSTALLED_TOO = {
    "docs/deploy.md",
    "docs/settings.md",
    "docs/troubleshooting.md",
    "policy/loyaltykiosk.admx",
    "policy/en-us/loyaltykiosk.adml",
    "policy/es-es/loyaltykiosk.adml",
    "unins000.exe",
    "unins000.dat",
}
# The data folder's ACL (installer.iss, LockDataFolder; docs/deploy.md): after kiosk.ini
# is written, Setup makes these icacls calls in this order, each exiting 0. Well-known
# SIDs: 544 Administrators, 18 SYSTEM, 545 Users.
ACL_CALLS = [
    f'"{DATA}" /setowner *S-1-5-32-544 /T /C /Q',
    f'"{DATA}" /reset /T /C /Q',
    f'"{DATA}" /inheritance:r /grant:r *S-1-5-32-544:(OI)(CI)F *S-1-5-18:(OI)(CI)F'
    " *S-1-5-32-545:(OI)(CI)RX /C /Q",
]
ACL_SET = "Data folder ACL: set ("
DIRS_GRANT = f"Setting permissions on directory: {DATA}"  # [Dirs] Permissions, Inno's line
DIRS_FAILED = "Failed to set permissions on directory"
# The ACL that must result (SDDL as Get-Acl gives it): the folder owned by Administrators,
# protected (nothing inherited from ProgramData), with exactly these entries; kiosk.ini
# owned by Administrators, with only what it inherits from the folder.
FULL, READ_EXECUTE = 0x1F01FF, 0x1200A9
FOLDER_ACL = {
    ("A", "CI OI", FULL, "BA"),
    ("A", "CI OI", FULL, "SY"),
    ("A", "CI OI", READ_EXECUTE, "BU"),
}
FILE_ACL = {("A", "ID", FULL, "BA"), ("A", "ID", FULL, "SY"), ("A", "ID", READ_EXECUTE, "BU")}
SID_ALIASES = {"S-1-5-32-544": "BA", "S-1-5-18": "SY", "S-1-5-32-545": "BU"}
RIGHT_ALIASES = {"FA": FULL, "FR": 0x120089, "FX": 0x1200A0, "FW": 0x120116}
WINE_BLIND = (
    "not verified under Wine: the data folder's resulting ACL and owners (Wine's"
    " icacls.exe is a stub that changes nothing) and Inno's [Dirs] Permissions (its 64-bit"
    " helper does not run under Wine: 'Failed to set permissions on directory (31)');"
    " checked instead: the icacls calls, their order after the kiosk.ini write and their"
    " exit codes in Setup's log. On Windows this check reads the ACL (Get-Acl)."
)
QUIET = ["/VERYSILENT", "/SUPPRESSMSGBOXES", "/NORESTART"]
TIMEOUT = 300  # seconds for one Setup run


class Machine:
    """Where the setups run: this Windows machine, or a Wine prefix (subclass)."""

    reads_acl = True  # the ACLs Setup sets are real and readable here

    def local(self, windows_path: str) -> Path:
        return Path(windows_path)

    def run(self, exe: Path, args: list[str]) -> int:
        return subprocess.run([str(exe), *args], timeout=TIMEOUT, check=False).returncode  # noqa: S603

    def local_appdata(self) -> str:
        return os.environ["LOCALAPPDATA"]

    def version(self, app_id: str) -> str | None:
        """DisplayVersion of the uninstall entry (None: no entry)."""
        import winreg  # type: ignore[import-not-found,unused-ignore]

        key = rf"{UNINSTALL_KEY}\{app_id}_is1"
        access = winreg.KEY_READ | winreg.KEY_WOW64_64KEY
        try:
            with winreg.OpenKey(winreg.HKEY_LOCAL_MACHINE, key, 0, access) as opened:
                return str(winreg.QueryValueEx(opened, "DisplayVersion")[0])
        except OSError:
            return None

    def sddl(self, windows_path: str) -> str | None:
        """The security descriptor of a file or folder in SDDL (None: unreadable)."""
        script = f"(Get-Acl -LiteralPath '{windows_path}').Sddl"
        command = ["powershell", "-NoProfile", "-NonInteractive", "-Command", script]
        out = subprocess.run(  # noqa: S603
            command, capture_output=True, text=True, timeout=120, check=False
        )
        sddl = out.stdout.strip()
        return sddl if out.returncode == 0 and sddl else None

    def settle(self, app_id: str) -> None:
        """The uninstaller goes on in a copy of itself: wait until its entry is gone."""
        for _ in range(120):
            if self.version(app_id) is None and not self.local(APP).exists():
                return
            time.sleep(1)

    def stop(self) -> None:
        pass


class Wine(Machine):
    reads_acl = False  # see WINE_BLIND

    def __init__(self, prefix: Path, wine_run: Path) -> None:
        self.prefix, self.wine_run = prefix, wine_run

    def local(self, windows_path: str) -> Path:
        drive, _, rest = windows_path.partition(":\\")
        assert drive.upper() == "C", windows_path
        return self.prefix / "drive_c" / Path(*rest.split("\\"))

    def env(self) -> dict[str, str]:
        return {**os.environ, "WINEPREFIX": str(self.prefix), "WINEDEBUG": "-all"}

    def run(self, exe: Path, args: list[str]) -> int:
        command = [str(self.wine_run), str(exe), *args]
        out = subprocess.run(  # noqa: S603
            command, env=self.env(), timeout=TIMEOUT, check=False, capture_output=True
        )
        return out.returncode

    def local_appdata(self) -> str:
        return rf"C:\users\{getpass.getuser()}\AppData\Local"

    def version(self, app_id: str) -> str | None:
        key = "[" + rf"{UNINSTALL_KEY}\{app_id}_is1".replace("\\", "\\\\").lower() + "]"
        registry = (self.prefix / "system.reg").read_text(encoding="utf-8", errors="replace")
        found = False
        for line in registry.splitlines():
            if line.startswith("["):
                if found:
                    return ""
                found = line.lower().startswith(key)
            elif found and line.startswith('"DisplayVersion"='):
                return unescape(line.partition("=")[2].strip('"'))
        return "" if found else None

    def settle(self, app_id: str) -> None:
        pass  # wine-run waits until every process of the prefix has ended

    def stop(self) -> None:
        subprocess.run(["wineserver", "-k"], env=self.env(), check=False, timeout=60)  # noqa: S607


def unescape(text: str) -> str:
    """A string of Wine's registry file: \\\\, \\", \\xHEX (other characters)."""
    return re.sub(
        r"\\x([0-9a-fA-F]{1,4})|\\(.)",
        lambda m: chr(int(m.group(1), 16)) if m.group(1) else m.group(2),
        text,
    )


def parse_sddl(sddl: str) -> tuple[str, bool, set[tuple[str, str, int, str]]]:
    """(owner, DACL protected, entries) of an SDDL string; each entry is (type, flags as
    sorted two-letter codes, access mask, SID as its alias when it has one)."""

    def sid(text: str) -> str:
        return SID_ALIASES.get(text, text)

    owner = re.search(r"O:(.*?)(?:[GDS]:|$)", sddl)
    dacl = re.search(r"D:([A-Z]*)((?:\([^)]*\))*)", sddl)
    entries: set[tuple[str, str, int, str]] = set()
    for ace in re.findall(r"\(([^)]*)\)", dacl.group(2) if dacl else ""):
        kind, flags, rights, _, _, who = (ace.split(";") + [""] * 6)[:6]
        mask = RIGHT_ALIASES[rights] if rights in RIGHT_ALIASES else int(rights or "0", 16)
        codes = " ".join(sorted(flags[i : i + 2] for i in range(0, len(flags), 2)))
        entries.add((kind, codes, mask, sid(who)))
    return sid(owner.group(1)) if owner else "", bool(dacl and "P" in dacl.group(1)), entries


Ini = dict[str, dict[str, str]]
Snapshot = tuple[object, ...]


class After(NamedTuple):
    """What an install or upgrade must leave."""

    ini: Ini  # kiosk.ini, section by section
    language: str | None  # the Start-menu names' language (None: either, not both)
    startup: bool  # the common Startup folder's shortcut
    version: str  # the uninstall entry's DisplayVersion (IT's detection rule)
    upgrade: bool = True  # over an installed kiosk: closed first, started again


# Bad parameters and the reason Setup must give (exit code 1, nothing changed).
REFUSALS = [
    (["/ENV=prod"], "/ENV= must be production, qa or training"),
    (
        ["/ENV=production", "/BASEURL=http://api.example.com"],
        "/BASEURL= must be an https:// address",
    ),
    (["/ENV=qa"], "/ENV=qa needs /QAURL="),
    (["/BRANCH=abc"], "/BRANCH= must be a branch id"),
    (["/KIOSKMODE=maybe"], "/KIOSKMODE= must be 1 or 0"),
    (["/AUTOSTART=2"], "/AUTOSTART= must be 1 or 0"),
    (["/LANG=fr"], "/LANG= must be auto, en or es"),
]


class Check:
    def __init__(
        self, machine: Machine, setup: Path, next_setup: Path, bundle: Path, logs: str
    ) -> None:
        self.m, self.setup, self.next_setup, self.logs = machine, setup, next_setup, logs
        iss = (ROOT / "installer.iss").read_text(encoding="utf-8-sig")
        found = re.search(r"^AppId=\{(\{[0-9A-F-]+\})", iss, re.MULTILINE)
        assert found, "installer.iss has no AppId"
        self.app_id = found.group(1)
        self.expected_files = {
            p.relative_to(bundle).as_posix().lower() for p in bundle.rglob("*") if not p.is_dir()
        }
        self.expected_files |= INSTALLED_TOO
        self.passed = self.failed = self.step_no = 0
        self.problems: list[str] = []

    # -- what is on the machine -----------------------------------------------------------
    def ini(self) -> Ini | None:
        path = self.m.local(INI)
        if not path.exists():
            return None
        parser = configparser.ConfigParser(interpolation=None)
        parser.read_string(path.read_text(encoding="utf-8", errors="replace"))
        return {s: dict(parser[s]) for s in parser.sections()}

    def shortcuts(self, folder: str) -> set[str]:
        path = self.m.local(folder)
        return {p.stem for p in path.glob("*.lnk")} & OURS if path.is_dir() else set()

    def installed_files(self) -> set[str]:
        app = self.m.local(APP)
        if not app.is_dir():
            return set()
        return {p.relative_to(app).as_posix().lower() for p in app.rglob("*") if not p.is_dir()}

    def version(self) -> str | None:
        return self.m.version(self.app_id)

    def snapshot(self) -> Snapshot:
        return (
            self.ini(),
            self.shortcuts(PROGRAMS),
            self.shortcuts(STARTUP),
            self.installed_files(),
            self.version(),
        )

    # -- one step -------------------------------------------------------------------------
    def expect(self, condition: bool, problem: str) -> None:
        if not condition:
            self.problems.append(problem)

    def same(self, what: str, got: object, wanted: object) -> None:
        self.expect(got == wanted, f"{what}: {got!r}, expected {wanted!r}")

    def step(
        self, title: str, exe: Path, args: list[str], code: int, checks: Callable[[str], None]
    ) -> None:
        """Run a setup (or the uninstaller) with /LOG, then check its exit code and the machine."""
        self.step_no += 1
        self.problems = []
        log_name = f"{self.logs}\\{self.step_no:02d}.log"
        started = time.monotonic()
        try:
            got: int | None = self.m.run(exe, [*args, f"/LOG={log_name}"])
        except subprocess.TimeoutExpired:
            self.m.stop()
            got = None
            self.problems.append(f"still running after {TIMEOUT} s (stopped)")
        if got == 0 and exe.name.startswith("unins"):
            self.m.settle(self.app_id)
        log_path = self.m.local(log_name)
        log = log_path.read_text(encoding="utf-8", errors="replace") if log_path.exists() else ""
        if got is not None:
            self.expect(got == code, f"exit code {got}, expected {code}")
            checks(log)
        shown = " ".join(a for a in args if a not in QUIET) or "(no parameter)"
        head = (
            f"{self.step_no:2d} {title}: {exe.name} {shown}  [{time.monotonic() - started:.0f} s]"
        )
        if self.problems:
            self.failed += 1
            print(f"FAIL  {head}")
            for problem in self.problems:
                print(f"        - {problem}")
        else:
            self.passed += 1
            print(f"ok    {head}")
        sys.stdout.flush()

    def installed(self, after: After) -> None:
        """The state after a successful install or upgrade."""
        self.same("kiosk.ini", self.ini(), after.ini)
        names = self.shortcuts(PROGRAMS)
        if after.language is None:  # Setup's own choice: one language, whichever
            self.expect(names in SHORTCUTS.values(), f"Start menu: {sorted(names)}, mixed")
        else:
            self.same("Start menu", sorted(names), sorted(SHORTCUTS[after.language]))
        self.same("Startup shortcut", "Loyalty Kiosk" in self.shortcuts(STARTUP), after.startup)
        files, wanted = self.installed_files(), self.expected_files
        missing, extra = sorted(wanted - files)[:5], sorted(files - wanted)[:5]
        self.expect(files == wanted, f"install folder: missing {missing}, extra {extra}")
        self.same("the uninstall entry's DisplayVersion", self.version(), after.version)

    def data_folder_locked(self, log: str) -> None:
        """kiosk.ini written first, then the data folder's ACL set (issue 17, item 11)."""
        lines = log.splitlines()

        def first(text: str) -> int | None:
            return next((i for i, line in enumerate(lines) if text in line), None)

        calls = [first(f"Data folder ACL: icacls {args}: exit code 0") for args in ACL_CALLS]
        for args, at in zip(ACL_CALLS, calls, strict=True):
            self.expect(at is not None, f"icacls {args}: not called, or did not exit 0")
        found = [at for at in calls if at is not None]
        self.expect(found == sorted(found), "the icacls calls are out of order")
        self.expect(first(ACL_SET) is not None, f"the log does not say '{ACL_SET}...'")
        writes = [i for i, line in enumerate(lines) if re.search(r"\skiosk\.ini: ", line)]
        if found and writes:
            self.expect(max(writes) < found[0], "kiosk.ini was written after the ACL step")
        self.expect(first(DIRS_GRANT) is not None, "[Dirs] Permissions: not applied")
        if not self.m.reads_acl:
            return
        self.expect(first(DIRS_FAILED) is None, "[Dirs] Permissions: failed (see the log)")
        for what, path, acl, protected in (
            ("the data folder", DATA, FOLDER_ACL, True),
            ("kiosk.ini", INI, FILE_ACL, False),
        ):
            sddl = self.m.sddl(path)
            if sddl is None:
                self.problems.append(f"the ACL of {path} cannot be read")
                continue
            owner, is_protected, entries = parse_sddl(sddl)
            self.same(f"{what}'s owner", owner, "BA")
            self.same(f"{what}'s inheritance cut", is_protected, protected)
            self.same(f"{what}'s ACL ({sddl})", sorted(entries), sorted(acl))

    def closed_and_started_again(self, log: str) -> None:
        """An upgrade asks the installed kiosk to close; one that was closed is started again."""
        call = SHUTDOWN_CALL.search(log)
        self.expect(call is not None, "loyalty-kiosk-cli.exe --shutdown was not called first")
        if call is not None and call.group(1) == "0":  # 0: a kiosk was running and closed
            self.expect(
                "The kiosk was running: started it again" in log,
                "the kiosk closed was not started again",
            )

    def removed(self, log: str) -> None:
        """The state after a successful uninstall (data kept or not)."""
        self.same("files left in the install folder", sorted(self.installed_files())[:5], [])
        self.expect(not self.m.local(APP).exists(), "the install folder is still there")
        self.same("shortcuts left", self.shortcuts(PROGRAMS) | self.shortcuts(STARTUP), set())
        self.same("the uninstall entry's DisplayVersion", self.version(), None)
        self.expect(SHUTDOWN_CALL.search(log) is not None, "--shutdown was not called first")

    def install(self, title: str, exe: Path, args: list[str], after: After) -> None:
        """A successful install (or upgrade: ``after.upgrade``) and the state it leaves."""

        def checks(log: str) -> None:
            self.installed(after)
            self.data_folder_locked(log)
            if after.upgrade:
                self.closed_and_started_again(log)

        self.step(title, exe, [*QUIET, *args], 0, checks)

    def refuse(self, exe: Path, args: list[str], message: str) -> None:
        before = self.snapshot()

        def checks(log: str) -> None:
            said = f"Parameter refused: {message}"
            self.expect(said in log, f"the log does not say '{said}'")
            self.expect(self.snapshot() == before, "something changed although it refused")
            self.expect("Data folder ACL" not in log, "the ACL step ran although it refused")

        self.step("refuse a bad parameter", exe, args, 1, checks)

    # -- the scenario -----------------------------------------------------------------------
    def run(self, version: str, next_version: str) -> int:
        self.m.local(self.logs).mkdir(parents=True, exist_ok=True)
        uninstaller = self.m.local(APP + r"\unins000.exe")
        user_data = self.m.local(self.m.local_appdata() + r"\LoyaltyKiosk\kiosk.sqlite3")
        stray = self.m.local(APP + r"\_internal\left-by-the-previous-version.pyd")
        full: Ini = {
            "connection": {"environment": "training", "branch_id": "12"},
            "kiosk": {"kiosk_mode": "true", "autostart": "true"},
            "display": {"language": "es"},
            # IT's locks, written when the file has none (#22).
            "lock": {"locked": "environment, production_url, qa_url, manager_pin_hash"},
        }
        manual = {**full, "kiosk": {"kiosk_mode": "true", "autostart": "false"}}
        every = ["/ENV=training", "/BRANCH=12", "/KIOSKMODE=1", "/AUTOSTART=1", "/LANG=es"]

        self.install(
            "install with every parameter",
            self.setup,
            every,
            After(full, "es", True, version, False),
        )
        # A file the next version does not have (the upgrade's file-list check sees it if it
        # stays), and the kiosk user's data (kept by an uninstall, deleted by /PURGE=1).
        for path, content in ((stray, b""), (user_data, b"queued credits")):
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(content)
        # Issue 18, defect 1: an upgrade without parameters deleted the Startup shortcut.
        self.install(
            "upgrade to the next version",
            self.next_setup,
            [],
            After(full, "es", True, next_version),
        )
        for args, message in REFUSALS:
            self.refuse(self.next_setup, [*QUIET, *args], message)
        # Issue 18, defect 2: both languages' Start-menu names after a change of language.
        upgrades = [
            (
                "upgrade in English, autostart off",
                ["/LANG=en", "/AUTOSTART=0"],
                After({**manual, "display": {"language": "en"}}, "en", False, next_version),
            ),
            (
                "upgrade in Spanish after English",
                ["/LANG=es"],
                After(manual, "es", False, next_version),
            ),
            (
                "upgrade, autostart on again",
                ["/AUTOSTART=yes"],
                After(full, "es", True, next_version),
            ),
        ]
        for title, args, after in upgrades:
            self.install(title, self.next_setup, args, after)
        self.refuse(uninstaller, [*QUIET[:2], "/PURGE=maybe"], "/PURGE= must be 1 or 0")

        def kept_data(log: str) -> None:
            self.removed(log)
            self.same("kiosk.ini", self.ini(), full)
            self.expect(user_data.exists(), f"{user_data.parent} was deleted")

        self.step("uninstall (keeps the data)", uninstaller, QUIET[:2], 0, kept_data)
        # kiosk.ini was kept: its settings, autostart too, come back. The Start-menu names are
        # in Setup's language (Windows' display language: no /LANG=, no previous install).
        self.install(
            "reinstall, no parameter", self.setup, [], After(full, None, True, version, False)
        )

        def purged(log: str) -> None:
            self.removed(log)
            self.expect(not self.m.local(DATA).exists(), f"{DATA} is still there")
            self.expect(not user_data.parent.exists(), f"{user_data.parent} is still there")

        self.step("uninstall /PURGE=1", uninstaller, [*QUIET[:2], "/PURGE=1"], 0, purged)
        # Issue 17, item 11: no parameter on a clean machine still writes kiosk.ini (no
        # setting in it but IT's default locks, #22), so that no user can create it first.
        self.install(
            "install on a clean machine, no parameter",
            self.setup,
            [],
            After({"lock": {"locked": DEFAULT_LOCKS}}, None, False, version, False),
        )
        self.step("uninstall /PURGE=1 again", uninstaller, [*QUIET[:2], "/PURGE=1"], 0, purged)
        print(f"installer: {self.passed} passed, {self.failed} failed")
        if not self.m.reads_acl:
            print(f"installer: {WINE_BLIND}")
        return 1 if self.failed else 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--setup", type=Path, required=True)
    parser.add_argument("--next-setup", type=Path, required=True)
    parser.add_argument(
        "--bundle", type=Path, required=True, help="the folder the setups were compiled from"
    )
    parser.add_argument("--wine-prefix", type=Path, help="a throw-away Wine prefix (Linux)")
    parser.add_argument("--wine-run", type=Path, help="build/iscc.sh's wine-run wrapper")
    args = parser.parse_args(argv)
    machine = Wine(args.wine_prefix, args.wine_run) if args.wine_prefix else Machine()
    version, next_version = (
        re.sub(r"^loyalty-kiosk-setup-(.*)\.exe$", r"\1", s.name)
        for s in (args.setup, args.next_setup)
    )
    logs = (
        r"C:\installer-check" if args.wine_prefix else tempfile.mkdtemp(prefix="installer-check-")
    )
    print(f"installer check: {args.setup.name} then {args.next_setup.name}, logs in {logs}")
    return Check(machine, args.setup, args.next_setup, args.bundle, logs).run(version, next_version)


if __name__ == "__main__":
    raise SystemExit(main())

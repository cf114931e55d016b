"""``installer.iss`` against what IT is told and what the bundle holds (issue 18).

- every parameter ``docs/deploy.md`` documents (``/ENV=``, ``/BRANCH=``, ...,
  ``/PURGE=``) is read by the [Code] section (``ParamValue('NAME', ...)``) and
  validated before anything is installed or removed: the function that runs first
  (``CheckParameters`` for Setup, ``InitializeUninstall`` for the uninstaller) reads it
  and has a refusal naming it (``'/NAME= must be ...'``);
- every file ``build/kiosk.spec`` produces (each EXE's name, the COLLECT folder and its
  contents folder) is installed by [Files], from the folder installer.iss compiles from;
- the data folder (``{commonappdata}\\LoyaltyKiosk``, where kiosk.ini lives) gets its ACL
  (issue 17, item 11): its [Dirs] entry grants Administrators and SYSTEM full control and
  Users read, and after every install, once kiosk.ini is written (always, a header alone
  when no parameter sets anything), [Code] runs icacls to make those three the only
  entries (owner Administrators, each file's own entries reset, inheritance cut).

``problems(iss, doc, spec)`` lists what is wrong; the negative tests break copies of
the three files in a temporary folder and check that each break is reported.
"""

from __future__ import annotations

import ast
import importlib.util
import re
import tomllib
from pathlib import Path, PureWindowsPath
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[2]
ISS = ROOT / "installer.iss"
DOC = ROOT / "docs" / "deploy.md"
SPEC = ROOT / "build" / "kiosk.spec"
# Inno Setup's own command-line switches (not the kiosk's parameters).
INNO_SWITCHES = {
    "LOG", "DIR", "GROUP", "TASKS", "MERGETASKS", "COMPONENTS", "TYPE", "LOADINF",
    "SAVEINF", "PASSWORD", "RESTARTEXITCODE", "SL5",
}  # fmt: skip
KNOWN = {"ENV", "BASEURL", "QAURL", "BRANCH", "KIOSKMODE", "AUTOSTART", "LANG", "PURGE"}
FIRST = ("CheckParameters", "InitializeUninstall")  # run before anything is changed
# The data folder's ACL: [Dirs] Permissions (added to the inherited entries), then icacls
# (by well-known SID: 544 Administrators, 18 SYSTEM, 545 Users) for the whole ACL.
DIRS_PERMISSIONS = {"admins-full", "system-full", "users-readexec"}
ACL_GRANTS = "*S-1-5-32-544:(OI)(CI)F *S-1-5-18:(OI)(CI)F *S-1-5-32-545:(OI)(CI)RX"
ACL_STEPS = ("' /setowner '", "' /reset /T /C /Q'", "' /inheritance:r /grant:r '")


def load_layout() -> ModuleType:
    path = ROOT / "build" / "layout.py"
    spec = importlib.util.spec_from_file_location("build_layout_for_spec", path)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


# -- reading the three files ------------------------------------------------------------


def iss_sections(text: str) -> dict[str, str]:
    """The script's sections, with ``{#Name}`` replaced by its ``#define`` (the first one:
    the default inside an ``#ifndef``)."""
    defines: dict[str, str] = {}
    for name, value in re.findall(r'^#define (\w+) "([^"]*)"$', text, re.MULTILINE):
        defines.setdefault(name, value)
    text = re.sub(r"\{#(\w+)\}", lambda m: defines.get(m.group(1), m.group(0)), text)
    parts = re.split(r"^\[(\w+)\]\s*$", text, flags=re.MULTILINE)
    sections = {parts[i]: parts[i + 1] for i in range(1, len(parts) - 1, 2)}
    sections["#define"] = "\n".join(f"{k}={v}" for k, v in defines.items())
    return sections


def pascal_routines(code: str) -> dict[str, str]:
    """[Code]'s functions and procedures by name (header to the next header)."""
    pieces = re.split(r"^(?:function|procedure) (\w+)", code, flags=re.MULTILINE)
    return {pieces[i]: pieces[i + 1] for i in range(1, len(pieces) - 1, 2)}


def entries(section: str) -> list[dict[str, str]]:
    """``Source: "a"; DestDir: "b"; Flags: c d`` lines as dicts."""
    rows = []
    for line in section.splitlines():
        if re.match(r"^\w+:", line):
            pairs = re.findall(r'(\w+): ("(?:[^"]|"")*"|[^;]*)', line)
            rows.append({k: v.strip().strip('"') for k, v in pairs})
    return rows


def documented_parameters(doc: str) -> set[str]:
    return set(re.findall(r"`/([A-Z]+)=", doc)) - INNO_SWITCHES


def spec_outputs(spec: str, layout: ModuleType) -> tuple[list[str], list[str], list[str]]:
    """(executable names, COLLECT names, contents folders) that the spec builds.

    An EXE named by a variable is a helper's (``def executable(name, console)``): the
    helper's callers name the executables. ``layout.X`` is read from build/layout.py.
    """

    def value(node: ast.expr | None) -> str:
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            return node.value
        if (
            isinstance(node, ast.Attribute)
            and isinstance(node.value, ast.Name)
            and node.value.id == "layout"
            and isinstance(getattr(layout, node.attr, None), str)
        ):
            return str(getattr(layout, node.attr))
        raise AssertionError(f"{SPEC.name}: cannot read {ast.unparse(node) if node else None}")

    def calls(tree: ast.AST, name: str) -> list[ast.Call]:
        return [
            n for n in ast.walk(tree)
            if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == name
        ]  # fmt: skip

    def keyword(call: ast.Call, name: str) -> ast.expr | None:
        return next((k.value for k in call.keywords if k.arg == name), None)

    tree = ast.parse(spec)
    helpers = [f.name for f in ast.walk(tree) if isinstance(f, ast.FunctionDef) and calls(f, "EXE")]
    exes, contents = [], []
    for call in calls(tree, "EXE"):
        name = keyword(call, "name")
        if not isinstance(name, ast.Name):  # a helper's EXE is named by its callers
            exes.append(value(name))
        folder = keyword(call, "contents_directory")
        contents.append(value(folder) if folder is not None else "_internal")
    for helper in helpers:
        exes += [value(c.args[0] if c.args else keyword(c, "name")) for c in calls(tree, helper)]
    collected = [value(keyword(call, "name")) for call in calls(tree, "COLLECT")]
    return exes, collected, contents


# -- the rules --------------------------------------------------------------------------


def parameter_problems(iss: str, doc: str) -> list[str]:
    documented = documented_parameters(doc)
    problems = [f"docs/deploy.md no longer documents /{n}=" for n in sorted(KNOWN - documented)]
    routines = pascal_routines(iss_sections(iss)["Code"])
    if not re.search(r"Result := CheckParameters\(", routines.get("InitializeSetup", "")):
        problems.append("InitializeSetup does not stop Setup when CheckParameters refuses")
    for name in sorted(documented):
        reads = [r for r, body in routines.items() if f"ParamValue('{name}'" in body]
        refusal = re.compile(rf"'(?:Parameter refused: )?/{name}=[^']*'")
        checked = [r for r in FIRST if r in reads and refusal.search(routines[r])]
        if not reads:
            problems.append(f"/{name}= is documented but [Code] never reads it")
        elif not checked:
            problems.append(f"/{name}= is read but not validated in {' or '.join(FIRST)}")
    return problems


def file_problems(iss: str, spec: str, layout: ModuleType) -> list[str]:
    try:
        exes, collected, contents = spec_outputs(spec, layout)
    except AssertionError as error:
        return [str(error)]
    problems: list[str] = []
    sections = iss_sections(iss)
    defines = dict(line.split("=", 1) for line in sections["#define"].splitlines())
    bundle = PureWindowsPath(defines.get("Bundle", ""))
    files = {
        (PureWindowsPath(e["Source"]), e.get("DestDir", ""), e.get("Flags", ""))
        for e in entries(sections["Files"])
        if "Source" in e
    }
    for name in collected:
        if bundle != PureWindowsPath("build", "out", name):
            problems.append(f"installer.iss compiles from {bundle}, the spec builds {name}")
    for exe in exes:
        wanted = bundle / f"{exe}.exe"
        if not any(src == wanted and dest == "{app}" for src, dest, _ in files):
            problems.append(f"{exe}.exe (an EXE of the spec) is not installed into {{app}}")
    for folder in sorted(set(contents)):
        wanted = bundle / folder / "*"
        if not any(
            src == wanted and dest == f"{{app}}\\{folder}" and "recursesubdirs" in flags
            for src, dest, flags in files
        ):
            problems.append(f"{folder}\\ (the bundle's contents) is not installed whole")
    if not exes or not collected:
        problems.append("the spec builds no EXE or no COLLECT that this test can read")
    return problems


def data_folder() -> str:
    """The settings file's folder as installer.iss names it (the app's machine-wide file)."""
    from kiosk.core.settings.paths import machine_settings_path

    path = PureWindowsPath(machine_settings_path("win32", program_data=lambda: "C:\\ProgramData"))
    return "{commonappdata}\\" + path.parent.name


def acl_problems(iss: str) -> list[str]:
    """The data folder's ACL: [Dirs] Permissions, kiosk.ini always written, then icacls."""
    problems: list[str] = []
    sections = iss_sections(iss)
    folder = data_folder()
    dirs = [e for e in entries(sections.get("Dirs", "")) if e.get("Name") == folder]
    if not dirs:
        problems.append(f"[Dirs] no longer creates {folder}")
    for entry in dirs:
        granted = set(entry.get("Permissions", "").split())
        if granted != DIRS_PERMISSIONS:
            problems.append(
                f"[Dirs] {folder}: Permissions {sorted(granted)}, not {sorted(DIRS_PERMISSIONS)}"
            )
        if "uninsneveruninstall" not in entry.get("Flags", "").split():
            problems.append(f"[Dirs] {folder}: not kept on uninstall (uninsneveruninstall)")
    code = sections["Code"]
    routines = pascal_routines(code)
    if f"'{ACL_GRANTS}'" not in code:
        problems.append(f"[Code] never grants {ACL_GRANTS} (the data folder's whole ACL)")
    if "ExpandConstant('{sys}\\icacls.exe')" not in code:
        problems.append("[Code] never runs {sys}\\icacls.exe")
    steps = [
        name
        for name, body in routines.items()
        if f"ExpandConstant('{folder}')" in body and all(step in body for step in ACL_STEPS)
    ]
    if not steps:
        problems.append(
            f"the ACL step is gone: no routine runs icacls {' '.join(ACL_STEPS)} on {folder}"
        )
    after_install = routines.get("CurStepChanged", "")
    written = after_install.find("WriteSettings();")
    locked = [after_install.find(f"{name}();") for name in steps]
    if written < 0 or not any(at > written for at in locked):
        problems.append("CurStepChanged does not run the ACL step after WriteSettings")
    settings = routines.get("WriteSettings", "")
    if not re.search(
        r"if not FileExists\(IniPath\(\)\) then\s+begin\s+if SaveStringToFile\(", settings
    ):
        problems.append("WriteSettings does not write kiosk.ini when no parameter sets anything")
    return problems


def problems(iss: Path, doc: Path, spec: Path) -> list[str]:
    layout = load_layout()
    iss_text = iss.read_text(encoding="utf-8-sig")
    found = parameter_problems(iss_text, doc.read_text(encoding="utf-8"))
    found += acl_problems(iss_text)
    return found + file_problems(iss_text, spec.read_text(encoding="utf-8"), layout)


# -- the tests ----------------------------------------------------------------------------


def test_installer_reads_validates_and_installs_what_it_must() -> None:
    assert problems(ISS, DOC, SPEC) == []


def test_the_spec_is_read_as_the_bundle_layout_says() -> None:
    layout = load_layout()
    exes, collected, contents = spec_outputs(SPEC.read_text(encoding="utf-8"), layout)
    assert sorted(exes) == sorted([layout.GUI_NAME, layout.CLI_NAME])
    assert collected == [layout.BUNDLE_NAME]
    assert set(contents) == {layout.CONTENTS_DIR}
    assert documented_parameters(DOC.read_text(encoding="utf-8")) >= KNOWN


def broken(tmp_path: Path, path: Path, old: str, new: str) -> Path:
    """A copy of ``path`` in ``tmp_path`` with every ``old`` (there must be one) replaced."""
    text = path.read_text(encoding="utf-8-sig")
    assert old in text, f"{path.name} no longer has {old!r}: update this test"
    copy = tmp_path / path.name
    copy.write_text(text.replace(old, new), encoding="utf-8")
    return copy


@pytest.mark.parametrize(
    ("which", "old", "new", "expected"),
    [
        # a parameter read but no longer refused when wrong
        (
            "iss",
            "Problem := '/BRANCH= must be a branch id (a whole number)';",
            "Log('branch');",
            "/BRANCH= is read but not validated",
        ),
        ("iss", "/PURGE= must be 1 or 0", "bad value", "/PURGE= is read but not validated"),
        ("iss", "Result := CheckParameters(Problem);", "Result := True;", "InitializeSetup"),
        # a parameter documented that the script does not know
        (
            "doc",
            "| `/LANG=es` |",
            "| `/TIMEZONE=UTC` | `[display] timezone` | a zone |\n| `/LANG=es` |",
            "/TIMEZONE= is documented but [Code] never reads it",
        ),
        ("doc", "/KIOSKMODE=", "/KIOSK=", "no longer documents /KIOSKMODE="),
        # a file of the bundle not installed
        (
            "iss",
            'Source: "{#Bundle}\\{#CliExe}"; DestDir: "{app}"; Flags: ignoreversion\n',
            "",
            "loyalty-kiosk-cli.exe (an EXE of the spec) is not installed",
        ),
        ("iss", "ignoreversion recursesubdirs", "ignoreversion", "_internal\\ (the bundle's"),
        # the data folder's ACL (issue 17, item 11)
        (
            "iss",
            "Permissions: admins-full system-full users-readexec; ",
            "",
            "[Dirs] {commonappdata}\\LoyaltyKiosk: Permissions []",
        ),
        ("iss", "system-full users-readexec", "system-full users-modify", "Permissions ["),
        ("iss", "; Flags: uninsneveruninstall\n", "\n", "not kept on uninstall"),
        ("iss", "  LockDataFolder();\n", "", "does not run the ACL step after WriteSettings"),
        (
            "iss",
            "  WriteSettings();\n  LockDataFolder();",
            "  LockDataFolder();\n  WriteSettings();",
            "does not run the ACL step after WriteSettings",
        ),
        ("iss", "' /inheritance:r /grant:r '", "' /grant:r '", "the ACL step is gone"),
        ("iss", "' /reset /T /C /Q'", "' /T /C /Q'", "the ACL step is gone"),
        ("iss", "(OI)(CI)RX'", "(OI)(CI)M'", "[Code] never grants"),
        ("iss", "{sys}\\icacls.exe", "icacls.exe", "[Code] never runs"),
        (
            "iss",
            "if not FileExists(IniPath()) then",
            "if False then",
            "does not write kiosk.ini when no parameter",
        ),
        # the spec builds something installer.iss does not install
        ("spec", "name=layout.BUNDLE_NAME", 'name="kiosk-app"', "the spec builds kiosk-app"),
        (
            "spec",
            "cli = executable(layout.CLI_NAME, console=True)",
            "cli = executable(layout.CLI_NAME, console=True)\n"
            'updater = executable("loyalty-kiosk-updater", console=True)',
            "loyalty-kiosk-updater.exe (an EXE of the spec) is not installed",
        ),
    ],
)
def test_each_break_is_reported(
    tmp_path: Path, which: str, old: str, new: str, expected: str
) -> None:
    files = {"iss": ISS, "doc": DOC, "spec": SPEC}
    files[which] = broken(tmp_path, files[which], old, new)
    found = problems(files["iss"], files["doc"], files["spec"])
    assert any(expected in problem for problem in found), found


def test_version_on_both_executables(capsys: pytest.CaptureFixture[str]) -> None:
    """``--version``, what a script reads to know what is installed. Both executables
    (pyproject's scripts, build/entry.py in the bundle) run ``kiosk.__main__.main``."""
    from kiosk import __version__
    from kiosk.__main__ import main

    scripts = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert scripts["project"]["scripts"] == {
        "loyalty-kiosk": "kiosk.__main__:main",
        "loyalty-kiosk-cli": "kiosk.__main__:main",
    }
    assert "from kiosk.__main__ import main" in (ROOT / "build" / "entry.py").read_text()
    with pytest.raises(SystemExit) as exited:
        main(["--version"])
    assert exited.value.code == 0
    assert capsys.readouterr().out == f"loyalty-kiosk {__version__}\n"

"""``installer.iss`` against the tree (compiled and tried by build/installer_check.sh).

- every ``Source:`` is a file of the repository or a name of the bundle's layout
  (``build/layout.py``, which ``build/kiosk.spec`` builds from);
- the version comes from the package (``build/out/version.iss``, written by the
  build script from ``kiosk.__version__``), as does the Windows version resource;
- every parameter documented in ``docs/deploy.md`` is read by the [Code] section and
  written to the INI section and key that ``kiosk/core/settings/layers.py`` declares;
- names shared with the app (mutex, ``--shutdown`` arguments and exit codes, the
  settings file's place, value lists) agree with the code.
"""

from __future__ import annotations

import ast
import importlib.util
import re
import sys
import tomllib
import xml.etree.ElementTree as ET
from collections.abc import Callable
from pathlib import Path, PurePath, PureWindowsPath
from types import ModuleType

import pytest

from kiosk import __version__
from kiosk.__main__ import parse_args
from kiosk.cli import args as cli_args
from kiosk.cli.instance import MUTEX_NAME
from kiosk.core.settings.layers import SETTINGS, Environment, Language
from kiosk.core.settings.paths import machine_settings_path

ROOT = Path(__file__).resolve().parents[2]
ISS = ROOT / "installer.iss"
DEPLOY_DOC = ROOT / "docs" / "deploy.md"


def load(name: str) -> ModuleType:
    path = ROOT / "build" / f"{name}.py"
    spec = importlib.util.spec_from_file_location(f"build_{name}", path)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.path.insert(0, str(path.parent))
    try:
        spec.loader.exec_module(module)
    finally:
        sys.path.remove(str(path.parent))
    return module


layout = load("layout")
version_info = load("version_info")


def script() -> str:
    text = ISS.read_text(encoding="utf-8-sig")
    defines = dict(re.findall(r'^#define (\w+) "([^"]*)"$', text, re.MULTILINE))
    return re.sub(r"\{#(\w+)\}", lambda m: defines.get(m.group(1), m.group(0)), text)


def section(name: str) -> str:
    parts = re.split(r"^\[(\w+)\]\s*$", script(), flags=re.MULTILINE)
    bodies = {parts[i]: parts[i + 1] for i in range(1, len(parts) - 1, 2)}
    return bodies[name]


def directive(name: str) -> str:
    found = re.search(rf"^{name}=(.*)$", section("Setup"), re.MULTILINE)
    assert found, name
    return found.group(1).strip()


def sources() -> list[str]:
    return re.findall(r'^Source: "([^"]+)"', section("Files"), re.MULTILINE)


def test_every_source_is_in_the_bundle_layout_or_the_tree() -> None:
    bundle = PureWindowsPath("build", "out", layout.BUNDLE_NAME)
    names = layout.top_level(windows=True)
    assert {layout.GUI_NAME + ".exe", layout.CLI_NAME + ".exe", layout.CONTENTS_DIR} == names
    seen: set[str] = set()
    for source in sources():
        path = PureWindowsPath(source)
        if path.is_relative_to(bundle):
            first = path.relative_to(bundle).parts[0]
            assert first in names, f"{source}: not in the bundle ({sorted(names)})"
            seen.add(first)
        else:
            assert (ROOT / Path(*path.parts)).is_file(), f"{source}: no such file"
    assert seen == names, "the whole bundle is installed"


def test_the_spec_builds_that_layout() -> None:
    spec = layout.SPEC.read_text(encoding="utf-8")
    for name in ("GUI_NAME", "CLI_NAME", "BUNDLE_NAME", "CONTENTS_DIR", "EXCLUDED_MODULES"):
        assert f"layout.{name}" in spec
    assert "console=False" in spec
    assert "console=True" in spec
    assert 'copy_metadata("keyring")' in spec
    assert 'collect_submodules("keyring.backends")' in spec
    built = layout.OUT_DIR / layout.BUNDLE_NAME
    if built.is_dir():  # after build/build_bundle.py: the real folder too
        assert {p.name for p in built.iterdir()} >= layout.top_level(sys.platform == "win32")


def test_icons_and_runs_point_into_the_bundle() -> None:
    names = layout.top_level(windows=True)
    for body in (section("Icons"), section("Run")):
        for target in re.findall(r'Filename: "\{app\}\\([^"]+)"', body):
            assert target in names


def test_version_comes_from_the_package(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert pyproject["project"]["version"] == __version__
    text = ISS.read_text(encoding="utf-8-sig")
    assert '#include "build\\out\\version.iss"' in text
    assert directive("AppVersion") == "{#AppVersion}"
    assert directive("VersionInfoVersion") == "{#AppFileVersion}"
    assert "{#AppVersion}" in directive("OutputBaseFilename")
    build_bundle = load("build_bundle")
    monkeypatch.setattr(build_bundle.layout, "OUT_DIR", tmp_path)
    monkeypatch.setattr(build_bundle.layout, "VERSION_ISS", tmp_path / "version.iss")
    written = build_bundle.write_version_iss(version_info.package_version())
    defines = dict(re.findall(r'^#define (\w+) "([^"]*)"$', written.read_text(), re.MULTILINE))
    assert defines["AppVersion"] == __version__
    assert defines["AppFileVersion"] == ".".join(map(str, version_info.file_version(__version__)))


@pytest.mark.parametrize(
    ("version", "numbers"),
    [
        ("0.1.0", (0, 1, 0, 0)),
        ("1.2", (1, 2, 0, 0)),
        ("2.3.4.5", (2, 3, 4, 5)),
        ("1.0.0rc2", (1, 0, 0, 0)),
        ("1.4.0.dev3+g12ab", (1, 4, 0, 0)),
    ],
)
def test_windows_version_numbers(version: str, numbers: tuple[int, ...]) -> None:
    assert version_info.file_version(version) == numbers


def test_windows_version_resource_carries_the_package_version(tmp_path: Path) -> None:
    path = version_info.write_version_file(
        tmp_path, __version__, layout.CLI_NAME, "cli", "Co", "Prod"
    )
    text = path.read_text(encoding="utf-8")
    numbers = version_info.file_version(__version__)
    assert f"filevers={numbers}, prodvers={numbers}" in text
    assert f"StringStruct('ProductVersion', '{__version__}')" in text
    assert f"StringStruct('OriginalFilename', '{layout.CLI_NAME}.exe')" in text
    # PyInstaller evaluates the file with the classes of its versioninfo module (which
    # imports pefile, installed on Windows only): evaluate it with stand-ins that take
    # the same parameters, read from that module's source.
    pyinstaller = importlib.util.find_spec("PyInstaller")
    assert pyinstaller is not None
    assert pyinstaller.origin is not None
    source = Path(pyinstaller.origin).parent
    tree = ast.parse((source / "utils" / "win32" / "versioninfo.py").read_text(encoding="utf-8"))
    accepted = {
        node.name: [a.arg for a in init.args.args[1:]]
        for node in tree.body
        if isinstance(node, ast.ClassDef)
        for init in node.body
        if isinstance(init, ast.FunctionDef) and init.name == "__init__"
    }

    def stand_in(name: str) -> Callable[..., dict[str, object]]:
        def build(*args: object, **kwargs: object) -> dict[str, object]:
            assert len(args) <= len(accepted[name])
            assert set(kwargs) <= set(accepted[name])
            return {"class": name, **dict(zip(accepted[name], args, strict=False)), **kwargs}

        return build

    resource = eval(text, {name: stand_in(name) for name in accepted})
    assert resource["class"] == "VSVersionInfo"
    assert resource["ffi"]["filevers"] == numbers


def documented_parameters() -> dict[str, tuple[str, str]]:
    """``| `/ENV=` | `[connection] environment` | ...`` rows of docs/deploy.md."""
    rows = re.findall(
        r"^\|\s*`/(\w+)=[^`]*`\s*\|\s*`\[(\w+)\] (\w+)`", DEPLOY_DOC.read_text(), re.MULTILINE
    )
    return {name: (sec, key) for name, sec, key in rows}


def written_parameters() -> dict[str, tuple[str, str, bool]]:
    rows = re.findall(r"WriteParam\('(\w+)', '(\w+)', '(\w+)', (True|False)\)", section("Code"))
    return {name: (sec, key, flag == "True") for name, sec, key, flag in rows}


def test_every_documented_parameter_is_read_and_written_to_its_setting() -> None:
    documented, written = documented_parameters(), written_parameters()
    assert set(documented) >= {
        "ENV",
        "BASEURL",
        "QAURL",
        "BRANCH",
        "KIOSKMODE",
        "AUTOSTART",
        "LANG",
    }
    assert {n: (s, k) for n, (s, k, _) in written.items()} == documented
    code = section("Code")
    for name, (sec, key, boolean) in written.items():
        assert f"ParamValue('{name}', V)" in code, f"/{name}= is not checked before installing"
        setting = SETTINGS[key]
        assert setting.section == sec, f"{key} belongs in [{setting.section}]"
        assert boolean == isinstance(setting.default, bool)


def test_uninstall_purge_parameter_is_documented_and_read() -> None:
    assert "`/PURGE=1`" in DEPLOY_DOC.read_text()
    assert "ParamValue('PURGE', V)" in section("Code")


def test_value_lists_match_the_settings() -> None:
    code = section("Code")
    env = re.search(r"EnvValues = '\|([^']*)\|';", code)
    lang = re.search(r"LangValues = '\|([^']*)\|';", code)
    assert env
    assert set(env.group(1).split("|")) == {e.value for e in Environment}
    assert lang
    assert set(lang.group(1).split("|")) == {v.value for v in Language}
    names = set(re.findall(r'^Name: "(\w+)"', section("Languages"), re.MULTILINE))
    assert names <= {v.value for v in Language}, "/LANG= names the installer's language too"


def test_settings_file_is_the_one_the_app_reads() -> None:
    code = section("Code")
    found = re.search(r"ExpandConstant\('\{commonappdata\}\\([^']+)'\)", code)
    assert found
    expected = machine_settings_path("win32", program_data=lambda: r"C:\ProgramData")
    assert PureWindowsPath(r"C:\ProgramData", found.group(1)) == PureWindowsPath(expected)


def test_shutdown_before_replacing_files_agrees_with_the_cli() -> None:
    code = section("Code")
    found = re.search(r"ShutdownArgs = '([^']+)';", code)
    assert found
    parsed = parse_args(found.group(1).split())
    assert parsed.shutdown
    assert parsed.all_users
    assert parsed.wait == 30
    constants = dict(re.findall(r"^\s+(Shutdown\w+) = (\d+);", code, re.MULTILINE))
    assert int(constants["ShutdownClosed"]) == cli_args.EXIT_OK
    assert int(constants["ShutdownFailed"]) == cli_args.EXIT_FAILED
    assert int(constants["ShutdownNotRunning"]) == cli_args.EXIT_NOT_RUNNING
    assert f"CheckForMutexes('{MUTEX_NAME},Global\\{MUTEX_NAME}')" in code
    assert "function PrepareToInstall" in code
    assert "CloseKiosks(" in code
    assert "function InitializeUninstall" in code


def test_setup_directives() -> None:
    assert re.fullmatch(r"\{\{[0-9A-F]{8}(-[0-9A-F]{4}){3}-[0-9A-F]{12}\}", directive("AppId"))
    assert directive("DefaultDirName").startswith("{autopf}\\")
    assert directive("PrivilegesRequired") == "admin"
    assert directive("CloseApplications") == "no"
    # AppMutex would cancel a silent upgrade instead of closing the kiosk (see the script)
    assert not re.search(r"^AppMutex=", section("Setup"), re.MULTILINE)
    assert "{commonstartup}" in section("Icons")
    assert "Check: WantAutostart" in section("Icons")


def test_prune_keeps_what_the_kiosk_uses() -> None:
    plugins = "PySide6/Qt/plugins"
    assert layout.keep(f"{plugins}/platforms/libqxcb.so")
    assert layout.keep("PySide6\\Qt\\plugins\\platforms\\qwindows.dll")
    assert layout.keep(f"{plugins}/imageformats/libqsvg.so")
    assert not layout.keep(f"{plugins}/imageformats/libqpdf.so")
    assert not layout.keep(f"{plugins}/tls/libqopensslbackend.so")
    assert not layout.keep(f"{plugins}/platformthemes/libqgtk3.so")
    assert layout.keep("PySide6/Qt/translations/qtbase_es.qm")
    assert not layout.keep("PySide6/Qt/translations/qtbase_de.qm")
    assert not layout.keep("PySide6/Qt/lib/libQt6Qml.so.6")
    assert layout.keep("PySide6/Qt/lib/libQt6Widgets.so.6")
    assert layout.keep("PySide6\\Qt6Network.dll")


def test_resources_are_bundled_without_translation_sources() -> None:
    bundled = {
        PurePath(folder, Path(source).name).as_posix() for source, folder in layout.resource_datas()
    }
    icons = {f"resources/icons/{p.name}" for p in (ROOT / "resources" / "icons").glob("*.svg")}
    assert icons
    assert icons <= bundled
    assert not [name for name in bundled if name.endswith((".ts", ".json"))]
    for qm in (ROOT / "resources" / "i18n").glob("*.qm"):
        assert f"resources/i18n/{qm.name}" in bundled


def test_libraries_only_a_refused_plugin_needed_are_dropped() -> None:
    gtk = "PySide6/Qt/plugins/platformthemes/libqgtk3.so"
    entries = [
        (d, d, "BINARY")
        for d in (
            gtk,
            "libgtk-3.so.0",
            "libcairo.so.2",
            "libglib-2.0.so.0",
            "PySide6/Qt/lib/libQt6Core.so.6",
            "PySide6/Qt/plugins/platforms/libqxcb.so",
        )
    ]
    links = {
        gtk: ["libgtk-3.so.0", "libglib-2.0.so.0"],
        "libgtk-3.so.0": ["libcairo.so.2"],
        "PySide6/Qt/lib/libQt6Core.so.6": ["libglib-2.0.so.0"],
        "PySide6/Qt/plugins/platforms/libqxcb.so": ["libQt6Core.so.6"],
    }
    kept = [e[0] for e in layout.prune_binaries(entries, lambda src: links.get(src, []))]
    assert kept == [
        "libglib-2.0.so.0",
        "PySide6/Qt/lib/libQt6Core.so.6",
        "PySide6/Qt/plugins/platforms/libqxcb.so",
    ]


def test_no_shortcut_gives_a_command_prompt_and_old_ones_are_removed() -> None:
    """#22 item 6: the self-test shortcut ran "cmd /k" for every user (a shell as the
    kiosk's account on a counter): no shortcut runs a shell, and an upgrade removes the
    old one in both languages."""
    icons = section("Icons")
    assert "{cmd}" not in icons
    assert "/k" not in icons
    assert "--self-test" not in icons
    for target in re.findall(r'Filename: "([^"]+)"', icons):
        assert target == "{app}\\loyalty-kiosk.exe", target
    removed = section("InstallDelete")
    for name in ("Loyalty Kiosk self-test", "Loyalty Kiosk autodiagnóstico"):
        line = next(x for x in removed.splitlines() if f"\\{name}.lnk" in x)
        assert "Languages:" not in line  # whatever language upgrades


def test_the_uninstall_purge_unprovisions_and_the_cli_knows_it() -> None:
    """#22 item 7: the uninstaller's purge runs "unprovision" while the program is there."""
    code = section("Code")
    assert "Exec(Cli, 'unprovision'" in code
    uninstall = code[code.index("function InitializeUninstall") :]
    assert "Unprovision(ExpandConstant('{app}\\loyalty-kiosk-cli.exe'))" in uninstall
    assert parse_args(["unprovision"]).command == "unprovision"


def test_a_kiosk_ini_planted_before_the_first_install_is_set_aside_and_locks_written() -> None:
    """#22 items 1 and 7: a first install never builds on a kiosk.ini it did not write
    (set aside, not read), and writes IT's locks when the file has none."""
    code = section("Code")
    assert "InstalledBefore := RegKeyExists(HKLM, UninstallKey);" in code
    app_id = directive("AppId")[1:]  # {{GUID} -> {GUID}
    assert (
        f"UninstallKey = 'Software\\Microsoft\\Windows\\CurrentVersion\\Uninstall\\{app_id}_is1';"
        in code
    )
    setup = code[code.index("function InitializeSetup") :]
    assert setup.index("InstalledBefore :=") < setup.index("end;")
    write = code[code.index("procedure WriteSettings") :]
    assert write.index("SetAsidePlantedIni();") < write.index("SaveStringToFile")
    assert "RenameFile(IniPath(), Aside)" in code
    locks = re.search(r"DefaultLocks = '([^']+)';", code)
    assert locks
    named = {key.strip() for key in locks.group(1).split(",")}
    assert named == {"environment", "production_url", "qa_url", "manager_pin_hash"}
    assert all(key in SETTINGS for key in named)
    assert "if GetIniString('lock', 'locked', '', IniPath()) = '' then" in write


def test_a_kiosk_ini_kept_by_an_uninstall_is_its_own_at_the_next_install() -> None:
    """The installer check's "reinstall, no parameter" (Wine): an uninstall that keeps the
    data notes it in HKLM (no user writes there), and the next install keeps that
    kiosk.ini as IT's instead of setting it aside as planted; a purge forgets the note."""
    code = section("Code")
    assert "DataKept := RegValueExists(HKLM, KeptDataKey, KeptDataValue);" in code
    aside = code[code.index("procedure SetAsidePlantedIni") :]
    assert "if InstalledBefore or DataKept or not FileExists(IniPath()) then" in aside
    uninstall = code[code.index("procedure CurUninstallStepChanged") :]
    purge = uninstall.index("RegDeleteKeyIncludingSubkeys(HKLM, KeptDataKey);")
    kept = uninstall.index("RegWriteDWordValue(HKLM, KeptDataKey, KeptDataValue, 1)")
    assert uninstall.index("PurgeData") < purge < kept
    assert re.search(r"KeptDataKey = 'Software\\LoyaltyKiosk';", code)


def tree_files() -> dict[str, str]:
    """Each file of the repository that [Files] installs: its place under {app}."""
    found = {}
    for source, dest in re.findall(
        r'^Source: "([^"{]+)"; DestDir: "\{app\}\\?([^"]*)"', section("Files"), re.MULTILINE
    ):
        if PureWindowsPath(source).is_relative_to(PureWindowsPath("build", "out")):
            continue  # the bundle
        found[source] = PureWindowsPath(dest, PureWindowsPath(source).name).as_posix()
    return found


def test_it_gets_the_troubleshooting_guide_and_the_policy_templates() -> None:
    """#28 items 1 and 7: troubleshooting.md beside deploy.md and settings.md (their links
    to it work there), the ADMX/ADML templates in {app}\\policy; the installer check on
    Wine expects exactly these."""
    installed = tree_files()
    assert installed == {
        "docs\\deploy.md": "docs/deploy.md",
        "docs\\settings.md": "docs/settings.md",
        "docs\\troubleshooting.md": "docs/troubleshooting.md",
        "resources\\policy\\LoyaltyKiosk.admx": "policy/LoyaltyKiosk.admx",
        "resources\\policy\\en-US\\LoyaltyKiosk.adml": "policy/en-US/LoyaltyKiosk.adml",
        "resources\\policy\\es-ES\\LoyaltyKiosk.adml": "policy/es-ES/LoyaltyKiosk.adml",
    }
    templates = {
        p.relative_to(ROOT / "resources").as_posix()
        for p in (ROOT / "resources" / "policy").rglob("*.adm?")
    }
    assert templates == {place for place in installed.values() if place.startswith("policy/")}
    check = ast.parse((ROOT / "build" / "installer_check.py").read_text(encoding="utf-8"))
    expected = next(
        ast.literal_eval(node.value)
        for node in check.body
        if isinstance(node, ast.Assign)
        and [getattr(t, "id", None) for t in node.targets] == ["INSTALLED_TOO"]
    )
    assert expected - {"unins000.exe", "unins000.dat"} == {p.lower() for p in installed.values()}
    doc = DEPLOY_DOC.read_text(encoding="utf-8")
    assert "`docs\\` | this file, `settings.md` and `troubleshooting.md`" in doc
    assert "`policy\\`" in doc


def test_the_event_log_source_is_registered_for_the_kiosks_events() -> None:
    """Issue #28, item 2: the source the kiosk writes to, in the Application log, with
    Windows' generic message file (it shows ids 1-1000 as the text written)."""
    from kiosk.core.fleet.events import SOURCE
    from tests.core.fleet.event_ids import documented_ids

    registry = section("Registry")
    key = rf"SYSTEM\CurrentControlSet\Services\EventLog\Application\{SOURCE}"
    lines = [line for line in registry.splitlines() if f'Subkey: "{key}"' in line]
    assert any(
        'ValueType: expandsz; ValueName: "EventMessageFile"; '
        r'ValueData: "%SystemRoot%\System32\EventCreate.exe"; Flags: uninsdeletekey' in line
        for line in lines
    ), registry
    assert any('ValueName: "TypesSupported"; ValueData: "7"' in line for line in lines)
    assert all("Root: HKLM;" in line for line in lines)
    assert all(1 <= event <= 1000 for event in documented_ids())


# -- an upgrade run as SYSTEM starts the closed kiosk again (issue #28, item 5) ----------


def pascal_function(name: str) -> str:
    """The body of the [Code] routine ``name`` (up to the ``end;`` closing it)."""
    code = section("Code")
    start = re.search(rf"^(function|procedure) {name}\b.*$", code, re.MULTILINE)
    assert start, name
    end = re.search(r"^end;$", code[start.end() :], re.MULTILINE)
    assert end, name
    return code[start.start() : start.end() + end.end()]


def pascal_constants() -> dict[str, str]:
    return dict(re.findall(r"^\s+(\w+) = '([^']*)';", section("Code"), re.MULTILINE))


def restart_task_xml() -> ET.Element:
    """The task definition ``RestartTaskXml`` builds, evaluated from its literals."""
    body = pascal_function("RestartTaskXml")
    expression = body.split("Result :=", 1)[1].rsplit("end;", 1)[0].strip().removesuffix(";")
    constants = pascal_constants()
    text = ""
    for token in re.findall(r"'(?:[^']|'')*'|#\d+|ExpandConstant\('[^']*'\)|\w+", expression):
        if token.startswith("ExpandConstant("):
            text += token[len("ExpandConstant('") : -2].replace("{app}", r"C:\Program Files\X")
        elif token.startswith("'"):
            text += token[1:-1].replace("''", "'")
        elif token.startswith("#"):
            text += chr(int(token[1:]))
        else:
            text += constants[token]
    return ET.fromstring(text.split("?>", 1)[1])


def test_an_upgrade_as_system_starts_the_kiosk_again_as_the_signed_in_user() -> None:
    post = pascal_function("CurStepChanged")
    system = post.split("if RunsAsSystem() then", 1)[1].split("else if ExecAsOriginalUser", 1)[0]
    # The task first; a restart only when it could not run.
    assert "if StartKioskForSignedInUsers() then" in system
    assert system.index("StartKioskForSignedInUsers") < system.index("RestartNeeded := True")
    assert re.search(r"else\s+RestartNeeded := True", system)
    start = pascal_function("StartKioskForSignedInUsers")
    assert "SaveStringsToUTF8File(" in start
    assert re.search(r"Schtasks\('/Create /F /TN \"' \+ RestartTaskName \+ '\" /XML", start)
    assert re.search(r"Schtasks\('/Run /TN \"' \+ RestartTaskName", start)
    assert start.index("/Create") < start.index("/Run")
    assert "{sys}\\schtasks.exe" in pascal_function("Schtasks")


def test_the_restart_task_runs_the_kiosk_once_as_each_signed_in_user_never_elevated() -> None:
    ns = {"t": "http://schemas.microsoft.com/windows/2004/02/mit/task"}
    task = restart_task_xml()
    principal = task.find("t:Principals/t:Principal", ns)
    assert principal is not None
    assert principal.findtext("t:GroupId", namespaces=ns) == "S-1-5-4"  # INTERACTIVE
    assert principal.findtext("t:RunLevel", namespaces=ns) == "LeastPrivilege"
    assert task.find("t:Triggers", ns) is None  # on demand only: Setup runs it once
    # No time limit: the default (72 h) would end the counter three days later.
    assert task.findtext("t:Settings/t:ExecutionTimeLimit", namespaces=ns) == "PT0S"
    actions = task.find("t:Actions", ns)
    assert actions is not None
    assert actions.get("Context") == principal.get("id")
    command = actions.findtext("t:Exec/t:Command", namespaces=ns)
    assert command == f'"C:\\Program Files\\X\\{layout.GUI_NAME}.exe"'
    assert actions.find("t:Exec/t:Arguments", ns) is None


def test_the_uninstaller_deletes_the_restart_task() -> None:
    uninstall = pascal_function("CurUninstallStepChanged")
    assert "CurUninstallStep = usUninstall" in uninstall
    assert "'/Delete /F /TN \"' + RestartTaskName" in uninstall

"""The winget manifest templates (``build/winget/``) agree with ``installer.iss``.

The ProductCode is Inno Setup's uninstall key name (``AppId`` + ``_is1``), the
switches are the installer's silent ones, the version is the package's (as the
installer's is), the exit codes mapped are the ones ``docs/deploy.md`` documents, and
``docs/deploy.md`` ("Managed updates") gives the same ProductCode and commands.
"""

from __future__ import annotations

import importlib.util
import re
from types import ModuleType

import pytest

from kiosk import __version__
from tests.deploy.test_installer_script import DEPLOY_DOC, ROOT, directive, pascal_constants

WINGET = ROOT / "build" / "winget"
ID = "LoyaltyKiosk.LoyaltyKiosk"
URL = "https://downloads.example.com/loyalty-kiosk-setup.exe"


def renderer() -> ModuleType:
    spec = importlib.util.spec_from_file_location("winget_render", WINGET / "render.py")
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def manifests() -> dict[str, str]:
    render = renderer().render
    return {
        path.name: render(path.read_text(encoding="utf-8"), __version__, URL, "ab" * 32)
        for path in sorted(WINGET.glob("*.yaml"))
    }


def scalars(text: str) -> dict[str, str]:
    """Top-level ``key: value`` lines (quotes removed)."""
    found = re.findall(r"^(\w+): *(.+)$", text, re.MULTILINE)
    return {key: value.strip().strip('"') for key, value in found}


def product_code() -> str:
    app_id = directive("AppId")
    assert app_id.startswith("{{")
    return app_id[1:] + "_is1"  # "{{" is Inno Setup's escaped "{"


def test_three_manifests_of_one_package_and_version() -> None:
    found = manifests()
    assert set(found) == {f"{ID}.yaml", f"{ID}.installer.yaml", f"{ID}.locale.en-US.yaml"}
    kinds = set()
    for text in found.values():
        fields = scalars(text)
        assert fields["PackageIdentifier"] == ID
        assert fields["PackageVersion"] == __version__
        assert fields["ManifestVersion"] == "1.6.0"
        kinds.add(fields["ManifestType"])
    assert kinds == {"version", "installer", "defaultLocale"}
    assert scalars(found[f"{ID}.yaml"])["DefaultLocale"] == "en-US"


def test_the_installer_manifest_is_the_inno_setup_for_the_machine() -> None:
    text = manifests()[f"{ID}.installer.yaml"]
    fields = scalars(text)
    assert fields["InstallerType"] == "inno"
    assert fields["Scope"] == "machine"
    assert fields["UpgradeBehavior"] == "install"  # in place: same AppId, no uninstall first
    assert directive("PrivilegesRequired") == "admin"
    assert fields["ElevationRequirement"] == "elevatesSelf"
    # Inno Setup's uninstall key, as the script's own UninstallKey and the detection rule.
    assert fields["ProductCode"] == product_code()
    assert pascal_constants()["UninstallKey"].endswith("\\" + product_code())
    assert f'ProductCode: "{product_code()}"' in text.split("AppsAndFeaturesEntries:")[1]
    assert f'DisplayVersion: "{__version__}"' in text
    assert f'InstallerUrl: "{URL}"' in text
    assert 'InstallerSha256: "' + "AB" * 32 + '"' in text
    assert "Architecture: x64" in text
    assert directive("ArchitecturesAllowed") == "x64compatible"


def switches(text: str, name: str) -> list[str]:
    found = re.search(rf"^  {name}: (.+)$", text, re.MULTILINE)
    assert found, name
    return found.group(1).split()


def test_the_switches_are_the_installers_silent_ones() -> None:
    text = manifests()[f"{ID}.installer.yaml"]
    iss = (ROOT / "installer.iss").read_text(encoding="utf-8-sig")
    unattended = re.search(r"^;\s+loyalty-kiosk-setup-\S+\.exe (/VERYSILENT[^\n]*)$", iss, re.M)
    assert unattended
    documented = [s for s in unattended.group(1).split() if not s.startswith("/ENV")]
    silent = switches(text, "Silent")
    assert silent[: len(documented)] == documented  # /VERYSILENT /SUPPRESSMSGBOXES /NORESTART
    assert "/RESTARTEXITCODE=3010" in silent
    progress = switches(text, "SilentWithProgress")
    assert progress == ["/SILENT", *silent[1:]]
    assert switches(text, "Log") == ['/LOG="<LOGPATH>"']
    # Only the switches Setup knows: the kiosk's own parameters stay IT's (kiosk.ini kept).
    assert not [s for s in silent if s.split("=")[0] in ("/ENV", "/BASEURL", "/BRANCH")]


def test_the_exit_codes_mapped_are_the_documented_ones() -> None:
    text = manifests()[f"{ID}.installer.yaml"]
    codes = dict(re.findall(r"InstallerReturnCode: (\d+)\n\s+ReturnResponse: (\w+)", text))
    assert codes == {"7": "packageInUse", "3010": "rebootRequiredToFinish"}
    doc = DEPLOY_DOC.read_text(encoding="utf-8")
    assert "| `7` | the running kiosk could not be closed" in doc
    assert "| `3010` |" in doc


def test_a_placeholder_left_unfilled_is_refused() -> None:
    with pytest.raises(ValueError, match="placeholder"):
        renderer().render("PackageVersion: {{VERSION}}\nX: {{OTHER}}", "1.0", URL, "00")


def test_the_managed_updates_section_agrees() -> None:
    doc = DEPLOY_DOC.read_text(encoding="utf-8")
    section = doc.split("## Managed updates", 1)[1].split("\n## ", 1)[0]
    assert product_code() in section
    assert "build/winget/" in section
    assert f"winget install --id {ID}" in section
    assert f"winget upgrade --id {ID}" in section
    assert "DisplayVersion" in section  # the version-aware detection rule
    assert "supersed" in section.lower()
    assert "Loyalty Kiosk restart after upgrade" in section  # the task Setup runs as SYSTEM
    assert pascal_constants()["RestartTaskName"] == "Loyalty Kiosk restart after upgrade"

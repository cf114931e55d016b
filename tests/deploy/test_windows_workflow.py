"""#22 item 7: the Windows workflow gives the signing secrets only to the steps that sign,
and installs nothing unpinned before them (read as text: no YAML library needed); #28
item 1: it installs the policy templates and shows that a policy set by registry is read."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from kiosk.cli.diagnostics import settings_summary
from kiosk.core.settings import policy
from kiosk.core.settings.paths import KioskPaths

ROOT = Path(__file__).resolve().parents[2]
WORKFLOW = ROOT / ".github" / "workflows" / "windows.yml"
NS = {"p": "http://schemas.microsoft.com/GroupPolicy/2006/07/PolicyDefinitions"}
SIGNING = {
    "Is signing configured (the secret's presence only, never its value)",
    "Sign the executables (only with the signing secrets)",
    "Compile installer.iss (this version; the next one, for the upgrade test)",
}


def steps() -> list[tuple[str, str]]:
    """(name, text) of each step, in order."""
    text = WORKFLOW.read_text(encoding="utf-8")
    body = text[text.index("    steps:\n") :]
    chunks = re.split(r"\n(?=      - (?:name|uses): )", body)[1:]
    found = []
    for chunk in chunks:
        name = re.match(r"      - (?:name|uses): (.+)", chunk)
        assert name
        found.append((name.group(1).strip(), chunk))
    return found


def test_the_signing_secrets_reach_only_the_signing_steps() -> None:
    text = WORKFLOW.read_text(encoding="utf-8")
    job_head = text[: text.index("    steps:\n")]
    assert "secrets." not in job_head  # not in the job's environment
    with_secrets = {name for name, chunk in steps() if "secrets." in chunk}
    assert with_secrets == SIGNING
    for name, chunk in steps():
        if name not in SIGNING:
            assert "SIGNING_CERT" not in chunk, name
        for line in chunk.splitlines():  # a secret never goes into the later steps' environment
            assert not ("GITHUB_ENV" in line and "SIGNING_" in line), line


def test_nothing_unpinned_is_installed_before_the_signing() -> None:
    before = []
    for name, chunk in steps():
        if name in SIGNING:
            break
        before.append(chunk)
    installs = [
        line
        for chunk in before
        for line in chunk.splitlines()
        if re.match(r"\s*(python -m pip install|choco install) ", line)
    ]
    assert installs, "the project is installed before the signing"
    for line in installs:
        pinned = ("--require-hashes", "--no-deps --no-build-isolation", "--version $env:INNO")
        assert any(p in line for p in pinned), line
    assert not any('".[build]"' in line or "[build]" in line for line in installs)


POLICY_STEP = (
    "Policies - the templates into PolicyDefinitions, one policy by registry, read by the kiosk"
)


def test_the_policy_step_sets_a_policy_the_templates_declare_and_checks_the_kiosk_read_it(
    home: KioskPaths, monkeypatch: pytest.MonkeyPatch
) -> None:
    """#28 item 1: the installed templates go into PolicyDefinitions; one policy is set
    with ``reg add`` under the key the kiosk reads, a value the ADMX allows; the line the
    step looks for is what ``--diagnostics`` writes for it."""
    chunk = dict(steps())[POLICY_STEP]
    for template in ("LoyaltyKiosk.admx", "$lang\\LoyaltyKiosk.adml"):
        assert f'"$env:APP\\policy\\{template}"' in chunk
    assert '"en-US", "es-ES"' in chunk
    added = re.search(r'reg add "HKLM\\([^"]+)" /v (\w+) /t (REG_\w+) /d (\S+) /f', chunk)
    assert added, "no reg add"
    key, name, kind, data = added.groups()
    assert key == policy.POLICY_KEY
    element = ET.parse(ROOT / "resources" / "policy" / "LoyaltyKiosk.admx").find(
        f".//p:policy[@name='{name}']/p:elements/*", NS
    )
    assert element is not None, name
    assert element.tag.endswith("}decimal")
    assert kind == "REG_DWORD"
    assert int(element.get("minValue", "")) <= int(data) <= int(element.get("maxValue", ""))
    shown = re.search(r'-notcontains "([^"]+)"\) \{ throw "the policy was not read" \}', chunk)
    assert shown, "the step does not check the diagnostics' line"
    monkeypatch.setattr(policy, "system_policy", lambda: policy.MappingPolicy({name: int(data)}))
    assert shown.group(1) in settings_summary(home).splitlines()
    assert chunk.index("reg add") < chunk.index("--self-test") < chunk.index("--diagnostics")

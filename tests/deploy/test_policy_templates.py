"""#28 item 1: the ADMX/ADML templates are written from the settings' declarations, are
what Intune's ADMX import accepts, and every value they write is one the kiosk reads."""

from __future__ import annotations

import importlib.util
import re
import sys
import xml.etree.ElementTree as ET
from pathlib import Path
from types import ModuleType

import pytest

from kiosk.core.settings import policy as p
from kiosk.core.settings.layers import SETTINGS, Layer, Settings

ROOT = Path(__file__).resolve().parents[2]
FOLDER = ROOT / "resources" / "policy"
NS = {"p": "http://schemas.microsoft.com/GroupPolicy/2006/07/PolicyDefinitions"}
LEGAL = re.compile(r"[A-Za-z0-9_]+")


def _generator() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "policy_templates", ROOT / "build" / "policy_templates.py"
    )
    assert spec
    assert spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("policy_templates", module)
    spec.loader.exec_module(module)
    return module


gen = _generator()


def parse(relative: str) -> ET.Element:
    return ET.parse(FOLDER / relative).getroot()  # well-formed, or it raises


ADMX = "LoyaltyKiosk.admx"
ADMLS = ("en-US/LoyaltyKiosk.adml", "es-ES/LoyaltyKiosk.adml")


def test_the_committed_templates_are_what_the_declarations_write() -> None:
    written = gen.templates()
    assert {path.as_posix() for path in written} == {ADMX, *ADMLS}
    for relative, text in written.items():
        committed = (FOLDER / relative).read_text(encoding="utf-8")
        assert committed == text, f"{relative} is stale: run build/policy_templates.py"
    assert gen.main(["--check"]) == 0


def policies() -> list[ET.Element]:
    return parse(ADMX).findall("p:policies/p:policy", NS)


def test_one_machine_policy_per_setting_it_may_set_under_the_vendors_key() -> None:
    found = policies()
    assert [x.get("name") for x in found] == [k for k, s in SETTINGS.items() if s.policy]
    assert {"environment", "production_url", "branch_id", "kiosk_mode", "language"} <= {
        x.get("name") for x in found
    }
    assert {"idle_timeout_seconds", "manager_idle_timeout_seconds", "locked"} <= {
        x.get("name") for x in found
    }
    for policy in found:
        assert policy.get("class") == "Machine"
        key = policy.get("key") or ""
        assert key == p.POLICY_KEY == "Software\\Policies\\Loyalty\\LoyaltyKiosk"
        assert not key.lower().startswith("software\\policies\\microsoft")


def test_every_id_is_legal_and_every_reference_resolves() -> None:
    admx = (FOLDER / ADMX).read_text(encoding="utf-8")
    tree = parse(ADMX)
    for element in tree.iter():
        for attribute in ("name", "id", "ref", "refId", "prefix"):
            value = element.get(attribute)
            if value is not None:
                assert LEGAL.fullmatch(value), f"{attribute}={value!r}"
    defined = {d.get("name") for d in tree.iterfind(".//p:supportedOn/p:definitions/*", NS)}
    assert {r.get("ref") for r in tree.iterfind(".//p:policy/p:supportedOn", NS)} <= defined
    assert "windows:" not in admx
    assert "<using" not in admx
    categories = {c.get("name") for c in tree.iterfind(".//p:category", NS)}
    assert {r.get("ref") for r in tree.iterfind(".//p:parentCategory", NS)} <= categories
    wanted_strings = set(re.findall(r"\$\(string\.([^)]*)\)", admx))
    wanted_presentations = set(re.findall(r"\$\(presentation\.([^)]*)\)", admx))
    for adml in ADMLS:
        text = (FOLDER / adml).read_text(encoding="utf-8")
        root = parse(adml)
        strings = {s.get("id") for s in root.iterfind(".//p:stringTable/p:string", NS)}
        shown = {s.get("id"): s for s in root.iterfind(".//p:presentationTable/*", NS)}
        assert strings == wanted_strings, adml
        assert set(shown) == wanted_presentations, adml
        assert all(LEGAL.fullmatch(sid or "") for sid in strings | set(shown))
        assert "comboBox" not in text  # Intune's import refuses combo boxes
        for presentation in shown.values():
            for control in presentation:
                ref = control.get("refId")
                assert tree.find(f".//p:elements/*[@id='{ref}']", NS) is not None, ref


def test_spanish_titles_are_spanish() -> None:
    def titles(adml: str) -> dict[str | None, str | None]:
        root = parse(adml)
        return {s.get("id"): s.text for s in root.iterfind(".//p:string", NS)}

    english, spanish = titles(ADMLS[0]), titles(ADMLS[1])
    assert english["idle_timeout_seconds"] == "Counter idle time (seconds)"
    assert spanish["idle_timeout_seconds"] == "Inactividad del mostrador (segundos)"
    assert "Lo define su organización" in (spanish["branch_id_Help"] or "")
    assert "Set by your organization" in (english["branch_id_Help"] or "")


def written_values(policy: ET.Element) -> list[object]:
    """Every registry value this policy can write, as Group Policy writes it."""
    if policy.find("p:enabledValue", NS) is not None:
        return [
            int(policy.find(f"p:{which}/p:decimal", NS).get("value"))  # type: ignore[union-attr, arg-type]
            for which in ("enabledValue", "disabledValue")
        ]
    (element,) = policy.find("p:elements", NS) or []
    tag = element.tag.split("}")[1]
    if tag == "enum":
        return [s.text for s in element.iterfind(".//p:string", NS)]
    if tag == "decimal":
        return [int(element.get("minValue", "")), int(element.get("maxValue", ""))]
    assert tag == "text"
    return []


TEXT_SAMPLES = {
    "production_url": "https://api.loyalty.example.com",
    "qa_url": "https://qa.loyalty.example.com",
    "point_items": "12, 37, 5",
    "locked": "branch_id, language",
    "heartbeat_url": "https://hc-ping.example.com/5a1f0c2e-kiosk-17",
    "crash_report_dsn": "https://0123456789abcdef@o1.ingest.example.com/42",
}


@pytest.mark.parametrize("policy", policies(), ids=lambda x: x.get("name"))
def test_every_value_a_policy_writes_is_read_by_the_kiosk(policy: ET.Element) -> None:
    name = policy.get("name") or ""
    value_name = policy.get("valueName") or policy.find(".//p:elements/*", NS).get("valueName")  # type: ignore[union-attr]
    assert value_name == name
    values = written_values(policy) or [TEXT_SAMPLES[name]]
    for value in values:
        settings = Settings(policy=dict(p.MappingPolicy({name: value}).read().values))
        assert settings.problems == [], (name, value)
        assert settings.source(name) is Layer.POLICY
        assert settings.is_locked(name)


def test_the_default_in_each_presentation_is_the_settings_default() -> None:
    root = parse(ADMLS[0])
    tree = parse(ADMX)
    for box in root.iterfind(".//p:decimalTextBox", NS):
        setting = SETTINGS[box.get("refId") or ""]
        assert box.get("defaultValue") == (
            None if setting.default is None else str(setting.default)
        )
    for box in root.iterfind(".//p:dropdownList", NS):
        key = box.get("refId") or ""
        items = [s.text for s in tree.iterfind(f".//p:enum[@id='{key}']//p:string", NS)]
        assert items[int(box.get("defaultItem") or "")] == str(SETTINGS[key].default)

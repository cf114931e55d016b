"""#28 items 1 and 7: what docs/deploy.md tells IT about policies and the manager PIN is
what the code does: the policy key and precedence, the ``reg add`` examples (values the
kiosk reads), and ``hash-pin`` / ``reset-pin`` with their prompts, output and refusals."""

from __future__ import annotations

import io
import re
from pathlib import Path

from kiosk.cli import pin
from kiosk.core.security.lock import PIN_MAX, REAL_PIN_MIN
from kiosk.core.settings import policy
from kiosk.core.settings.layers import SETTINGS, Layer, Settings
from kiosk.core.settings.paths import KioskPaths

DOC = (Path(__file__).resolve().parents[2] / "docs" / "deploy.md").read_text(encoding="utf-8")
WINDOWS_INI = "C:\\ProgramData\\LoyaltyKiosk\\kiosk.ini"
PIN = "4718290365"


def section(title: str) -> str:
    start = DOC.index(f"\n## {title}\n")
    return DOC[start : DOC.index("\n## ", start + 1)]


def test_policies_say_where_and_which_value_wins() -> None:
    text = section("Policies (Group Policy, Intune)")
    assert policy.POLICY_PLACE in text
    assert "policy > `kiosk.ini` > the manager's settings" in text
    assert '"Set by your organization" ("Lo define su organización")' in text
    for name in ("LoyaltyKiosk.admx", "en-US\\LoyaltyKiosk.adml", "es-ES\\LoyaltyKiosk.adml"):
        assert name in text
    assert "#policies-group-policy-intune" in DOC  # in the contents
    not_policies = {k for k, s in SETTINGS.items() if not s.policy}
    assert not_policies == {"manager_pin_hash", "autostart"}
    for key in not_policies:
        assert f"`{key}`" in text


def test_every_reg_add_example_sets_a_value_the_kiosk_reads() -> None:
    added = re.findall(
        r'^reg add "HKLM\\([^"]+)" /v (\w+) /t (REG_SZ|REG_DWORD) /d ("[^"]*"|\S+) /f$',
        section("Policies (Group Policy, Intune)"),
        re.MULTILINE,
    )
    assert len(added) == 3
    for key, name, kind, data in added:
        assert key == policy.POLICY_KEY
        value: object = int(data) if kind == "REG_DWORD" else data.strip('"')
        settings = Settings(policy=dict(policy.MappingPolicy({name: value}).read().values))
        assert settings.problems == [], name
        assert settings.source(name) is Layer.POLICY


def test_hash_pin_example_is_what_it_prints() -> None:
    text = section("The manager PIN: hash-pin and reset-pin")
    out, err = io.StringIO(), io.StringIO()
    assert pin.print_pin_hash(io.StringIO(PIN + "\n"), out, err) == 0
    printed = out.getvalue().splitlines()
    assert printed[0] == "[kiosk]"
    assert printed[1].startswith("manager_pin_hash = scrypt$")
    example = re.search(r"\[kiosk\]\nmanager_pin_hash = (scrypt\$[^\n]+)\n", text)
    assert example, "no hash-pin example"
    assert example.group(1).count("$") == printed[1].count("$")
    prompt = f"New manager PIN ({REAL_PIN_MIN} to {PIN_MAX} digits, not shown):"
    assert text.count(prompt) == 2
    assert text.count("The same PIN again:") == 2
    assert "hash-pin" in text
    assert "reset-pin --new-pin" in text


def test_reset_pin_examples_are_what_it_prints(home: KioskPaths) -> None:
    text = section("The manager PIN: hash-pin and reset-pin")
    for new_pin in (True, False):
        out = io.StringIO()
        stdin = io.StringIO(PIN + "\n")
        assert pin.reset_pin(home, new_pin=new_pin, stdin=stdin, out=out, err=io.StringIO()) == 0
        for line in out.getvalue().splitlines():
            assert line.replace(str(home.machine_settings), WINDOWS_INI) in text, line


def test_the_refusals_in_the_table_are_the_commands_own() -> None:
    text = section("The manager PIN: hash-pin and reset-pin")
    for pin_text, said in (
        ("12345", "a manager PIN has 10 to 12 digits"),
        ("1111111111", "this PIN is among the first anyone tries"),
    ):
        err = io.StringIO()
        assert pin.print_pin_hash(io.StringIO(pin_text + "\n"), io.StringIO(), err) == 2
        assert said in err.getvalue()
        assert f"| 2 | `{said}" in text or f"`{said}" in text
    assert "the two PINs do not match" in Path(pin.__file__).read_text(encoding="utf-8")
    assert "`the two PINs do not match`" in text

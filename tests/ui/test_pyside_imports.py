"""Python's own import back after PySide6 loads (``kiosk.ui.pyside_imports``)."""

from __future__ import annotations

import builtins
import re
import sys
from pathlib import Path

import pytest

from kiosk.ui.pyside_imports import plain_imports

KIOSK = Path(__file__).resolve().parents[2] / "kiosk"
FEATURE_IMPORT = re.compile(r"^\s*(from __feature__ import|import __feature__)", re.MULTILINE)


def _feature_dict() -> dict[str, int]:
    feature = sys.modules.get("shibokensupport.feature")
    if feature is None or not hasattr(feature, "pyside_feature_dict"):
        pytest.skip("this PySide6 has no __feature__ bookkeeping")
    table: dict[str, int] = feature.pyside_feature_dict
    return table


def test_the_test_process_imports_as_the_kiosk_does() -> None:
    # tests/conftest.py took the hook out, as kiosk.app does at the start.
    assert builtins.__import__ is builtins.__orig_import__  # type: ignore[attr-defined]
    assert plain_imports() is False  # nothing left to do


def test_the_hook_is_taken_out_and_modules_are_no_longer_read(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    table = _feature_dict()
    hook = getattr(builtins, "__feature_import__", None)
    if hook is None:
        pytest.skip("this PySide6 installs no import hook")
    original = builtins.__import__
    monkeypatch.setattr(builtins, "__import__", hook)  # as PySide6 leaves it
    monkeypatch.syspath_prepend(str(tmp_path))
    for name in ("kiosk_probe_hooked", "kiosk_probe_plain"):
        (tmp_path / f"{name}.py").write_text("VALUE = 1\n", encoding="utf-8")
        monkeypatch.delitem(sys.modules, name, raising=False)
    try:
        exec("import kiosk_probe_hooked", {"__name__": "probe"})
        assert "kiosk_probe_hooked" in table  # PySide6 read its source to decide

        assert plain_imports() is True
        assert builtins.__import__ is original
        exec("import kiosk_probe_plain", {"__name__": "probe"})
        assert "kiosk_probe_plain" not in table  # imported by Python alone
    finally:
        table.pop("kiosk_probe_hooked", None)
        sys.modules.pop("kiosk_probe_hooked", None)
        sys.modules.pop("kiosk_probe_plain", None)


def test_without_pyside_hook_nothing_changes(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delattr(builtins, "__orig_import__", raising=False)
    before = builtins.__import__
    assert plain_imports() is False
    assert builtins.__import__ is before


def test_no_kiosk_module_selects_a_pyside_feature() -> None:
    # ``from __feature__ import snake_case`` needs the hook the kiosk takes out.
    users = [
        path.relative_to(KIOSK).as_posix()
        for path in KIOSK.rglob("*.py")
        if FEATURE_IMPORT.search(path.read_text(encoding="utf-8"))
    ]
    assert users == []

"""#28 item 1: a setting set by IT's policy (Group Policy, Intune) shows read-only on the
manager's settings with "Set by your organization" (in the person's language); one IT
locked in kiosk.ini still says "Set by IT"; the rest stays the manager's."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot
from starlette.types import ASGIApp

from kiosk.core.admin.manager_settings import Field
from kiosk.core.settings import policy as policies
from kiosk.core.settings.policy import MappingPolicy
from tests.qt_async import until
from tests.ui.manager.manager_support import themed
from tests.ui.manager.settings_support import Rig, language

WORDS = {
    "en": ("Set by your organization", "Set by IT"),
    "es": ("Lo define su organización", "Lo define soporte técnico"),
}


@pytest.fixture(autouse=True)
def _themed(qapp: QApplication) -> Iterator[None]:
    with themed(qapp):
        yield


@pytest.fixture
def rig(qtbot: QtBot, sim_app: ASGIApp, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Rig:
    policy = MappingPolicy({"theme": "dark", "idle_timeout_seconds": 300})
    monkeypatch.setattr(policies, "system_policy", lambda: policy)
    return Rig(qtbot, sim_app, tmp_path / "home", monkeypatch)


@pytest.mark.parametrize("lang", ["en", "es"])
def test_a_policy_value_is_read_only_and_set_by_your_organization(
    rig: Rig, arun: Callable[..., Any], qapp: QApplication, lang: str
) -> None:
    organization, it = WORDS[lang]
    rig.machine(
        "[display]\ntheme = light\n[counter]\nidle_timeout_seconds = 60\n[lock]\nlocked = branch_id\n"
    )
    with language(qapp, lang):
        screen = rig.open()
    screen.resize(1024, 768)
    rows = screen._rows()

    async def scenario() -> None:
        await until(lambda: not screen.tasks.running("branches"))
        await until(lambda: not screen.tasks.running("choices"))
        for which in (Field.THEME, Field.IDLE_TIMEOUT):
            assert rows[which].locked_note.isVisible(), which
            assert rows[which].locked_text.text() == organization
        assert not screen.counter.theme.isEnabled()
        assert screen.counter.theme.currentData() == "dark"  # the policy's, over kiosk.ini's
        assert rows[Field.BRANCH].locked_text.text() == it  # kiosk.ini's lock
        assert rows[Field.BRANCH].locked_note.isVisible()
        assert not rows[Field.LANGUAGE].locked_note.isVisible()
        screen.counter.language.setCurrentIndex(screen.counter.language.findData("es"))
        rig.click(screen.save_button)
        await until(lambda: screen.banner.kind == "success")
        assert rig.overrides() == {"language": "es"}  # the policy's values are not copied

    arun(scenario())

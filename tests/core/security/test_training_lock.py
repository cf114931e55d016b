"""#22 item 5: training (``--demo``, the Start menu's training icon) keeps its own
settings and manager lock: after IT's ``reset-pin``, whoever opens training chooses a
PIN there, and it opens nothing of the real kiosk nor writes its ``settings.json``."""

from __future__ import annotations

import asyncio
from pathlib import Path

from kiosk.core.security.lock import ManagerLock, ScryptParams, reset_marker
from kiosk.core.settings import layers as S
from kiosk.core.settings.layers import load_settings
from kiosk.core.settings.paths import KioskPaths

FAST = ScryptParams(n=2**4, r=1, p=1)


def test_a_pin_chosen_in_training_opens_nothing_of_the_real_kiosk(tmp_path: Path) -> None:
    real = KioskPaths(
        tmp_path / "machine" / "kiosk.ini", tmp_path / "config", tmp_path / "data", tmp_path / "log"
    )
    real.machine_settings.parent.mkdir(parents=True)
    real.machine_settings.write_text(
        "[connection]\nenvironment = qa\nqa_url = https://qa.example.test\n"
        f"[kiosk]\nmanager_pin_hash = {reset_marker()}\n"
    )
    training = real.for_training()
    training_settings = load_settings(training)
    trainee = ManagerLock.for_paths(
        training_settings, training, training=True, seal=None, params=FAST
    )
    assert trainee.may_choose_pin()
    asyncio.run(trainee.set_pin("5820"))
    training_settings.set_override(S.THEME, "dark")  # what training's manager mode saves
    assert not real.overrides.exists()
    assert not (real.config_dir / "manager-pin.json").exists()
    assert not (real.data_dir / "manager-lockout.json").exists()
    kiosk = ManagerLock.for_paths(load_settings(real), real, seal=None, params=FAST)
    assert not kiosk.has_pin()
    assert kiosk.needs_it()
    assert load_settings(real).get(S.THEME) is S.Theme.LIGHT

"""A reward form follows the program's levels (issue #21, item 8): what changed since
the form was built, and the form again for the levels now with what was typed."""

from __future__ import annotations

from kiosk.api.models.catalog import Level
from kiosk.core.admin.rewards import (
    LevelPrice,
    RewardForm,
    follow_levels,
    levels_change,
    new_reward_form,
)

BRONCE, PLATA, ORO = Level(1, 0, "Bronce"), Level(2, 5000, "Plata"), Level(3, 15000, "Oro")


def test_nothing_changed() -> None:
    form = new_reward_form([BRONCE, PLATA, ORO])
    assert not levels_change(form, [BRONCE, PLATA, ORO])


def test_added_deleted_and_renamed_levels_are_told_and_typed_prices_stay() -> None:
    form = RewardForm(
        name="Taza",
        base_price="2000",
        level_prices=(
            LevelPrice(1, "Bronce", "1800"),
            LevelPrice(2, "Plata", "1700"),
            LevelPrice(3, "Oro", "1400"),
        ),
    )
    diamante, platino = Level(9, 50000, "Diamante"), Level(3, 15000, "Platino")
    now = [BRONCE, platino, diamante]
    change = levels_change(form, now)
    assert change.added == (diamante,)
    assert change.removed == (LevelPrice(2, "Plata", "1700"),)
    assert change.renamed == (("Oro", platino),)
    followed = follow_levels(form, now)
    assert followed.name == "Taza"
    assert followed.base_price == "2000"
    assert followed.level_prices == (
        LevelPrice(1, "Bronce", "1800"),
        LevelPrice(3, "Platino", "1400"),
        LevelPrice(9, "Diamante", ""),
    )
    assert not levels_change(followed, now)

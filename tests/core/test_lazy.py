"""``Lazy``: a value given, or made once by a function at its first use."""

from __future__ import annotations

from kiosk.core.lazy import Lazy


def test_a_maker_is_called_once_at_the_first_get() -> None:
    calls: list[int] = []

    def make() -> str:
        calls.append(1)
        return "client"

    lazy = Lazy(make)
    assert not lazy.made
    assert calls == []
    assert lazy.get() == "client"
    assert lazy.get() == "client"
    assert lazy.made
    assert calls == [1]


def test_a_value_is_made_already_even_none() -> None:
    given: Lazy[object] = Lazy(42)
    assert given.made
    assert given.get() == 42
    nothing: Lazy[None] = Lazy(None)
    assert nothing.made
    assert nothing.get() is None


def test_import_ahead_says_whether_the_module_came_in() -> None:
    from kiosk.core.lazy import import_ahead

    assert import_ahead("json") is True
    assert import_ahead("kiosk.no_such_module") is False  # its user's import will say why

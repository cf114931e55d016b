"""``kiosk.core.events.Event``: listeners go with their owners (issue #14, defect 12), and
the catalogue changes a manager announces reach a loaded point-item catalogue."""

from __future__ import annotations

import gc
import logging
from collections.abc import Callable

import pytest

from kiosk.core.events import Event


class Owner:
    def __init__(self) -> None:
        self.heard: list[int] = []

    def hear(self, value: int) -> None:
        self.heard.append(value)


def test_a_plain_bound_method_is_held_strongly_by_default() -> None:
    event: Event[int] = Event()
    event.connect(Owner().hear)  # nobody else holds the owner: the event keeps it
    gc.collect()
    assert event.listeners == 1


def test_a_weak_listener_goes_with_its_owner() -> None:
    event: Event[int] = Event()
    owner = Owner()
    event.connect(owner.hear, weak=True)
    event.emit(1)
    assert owner.heard == [1]
    del owner
    gc.collect()
    event.emit(2)  # nobody left to hear it, no error
    assert event.listeners == 0


def test_disconnect_finds_a_weak_listener() -> None:
    event: Event[int] = Event()
    owner = Owner()
    event.connect(owner.hear, weak=True)
    event.disconnect(owner.hear)
    event.emit(1)
    assert owner.heard == []


def test_a_listener_of_a_deleted_qt_object_is_dropped_without_an_error(
    caplog: pytest.LogCaptureFixture,
) -> None:
    event: Event[int] = Event()

    def deleted(_: int) -> None:
        raise RuntimeError("Internal C++ object (PointItemsSection) already deleted.")

    heard: list[int] = []
    event.connect(deleted)
    event.connect(heard.append)
    with caplog.at_level(logging.DEBUG):
        event.emit(1)
        event.emit(2)
    assert heard == [1, 2]
    assert event.listeners == 1
    assert "event listener failed" not in caplog.text


def test_another_failure_is_still_logged_and_the_others_still_hear(
    caplog: pytest.LogCaptureFixture, expect_log: Callable[[str], None]
) -> None:
    expect_log(r"event listener failed")
    event: Event[int] = Event()

    def broken(_: int) -> None:
        raise RuntimeError("something else")

    heard: list[int] = []
    event.connect(broken)
    event.connect(heard.append)
    with caplog.at_level(logging.ERROR):
        event.emit(1)
    assert heard == [1]
    assert "event listener failed" in caplog.text
    assert event.listeners == 2

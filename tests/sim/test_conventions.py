"""Conventions shared by every endpoint: unknown routes and authentication."""

from __future__ import annotations

from typing import Any


def test_unknown_route_is_a_404_error_body(api: Any) -> None:
    r = api.get("/external/nothing-here")
    assert r.status_code == 404
    body = r.json()
    assert set(body) == {"statusCode", "timestamp", "path", "method", "message", "errors", "data"}
    assert body["statusCode"] == 404
    assert body["message"] == "Cannot GET /external/nothing-here"
    assert body["method"] == "GET"

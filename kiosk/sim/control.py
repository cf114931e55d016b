"""Test controls: ``/_sim/*`` routes (only with ``create_app(..., controls=True)``) and
``SimControl``, the same actions for in-process tests.

| Method | Path | Does |
|---|---|---|
| GET | /_sim/health | ``{ok, time, iso, frozen, faults, requests}`` |
| POST | /_sim/reset | reseed the world, reset the clock and settings, clear log and faults |
| GET/POST | /_sim/clock | ``{"advance": s}``, ``{"freeze": true, "at"?}``, ``{"unfreeze": true}``, ``{"reset": true}`` |
| GET/POST/DELETE | /_sim/faults | list / add (one rule, a list, or ``{"faults": [...]}``) / clear |
| GET | /_sim/ledger?merchant=1 | the point operations of a merchant |
| GET/DELETE | /_sim/requests?since=&path=&method= | the request log / clear it |
| POST | /_sim/jobs/run | run deferred jobs now (``{"force": false}``: only the due ones) |
| GET/POST | /_sim/settings | ``{"rate_limits": bool, "level_delay_seconds": float}`` |

Controls need no API key; they are never logged nor faulted. Every mutating
control saves the world (``world.changed()``), so ``--db`` keeps it.
"""

from __future__ import annotations

import json
import re
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from kiosk.sim.clock import iso, parse_iso
from kiosk.sim.faultbook import FaultError, state_of
from kiosk.sim.seed import (
    DEFAULT_API_KEY,
    DEFAULT_OTHER_API_KEY,
    MAIN_MERCHANT_ID,
    OTHER_MERCHANT_ID,
    seed_world,
)
from kiosk.sim.world import Record, World, public


class ControlError(ValueError):
    """A refused control request (400 over HTTP)."""


class SimControl:
    """Drive a simulated world from a test: clock, faults, ledger, request log, reset.

    ``seed_keys`` (``{"api_key", "other_api_key"}``) are the keys a reset seeds;
    by default the keys the merchants have now.
    """

    def __init__(self, world: World, seed_keys: dict[str, str] | None = None) -> None:
        self.world = world
        self.state = state_of(world)
        self.seed_keys = seed_keys

    # -- health and reset ------------------------------------------------------
    def health(self) -> Record:
        return {
            "ok": True,
            **self.clock(),
            "faults": len(self.state.faults),
            "requests": len(self.world.request_log),
        }

    def reset(self) -> Record:
        """Back to the seed data, real time and the start settings; log and faults cleared."""
        world = self.world
        keys = self.seed_keys or {
            "api_key": self._key(MAIN_MERCHANT_ID, DEFAULT_API_KEY),
            "other_api_key": self._key(OTHER_MERCHANT_ID, DEFAULT_OTHER_API_KEY),
        }
        world.clock.reset()
        for name, value in vars(self.state.initial_settings).items():
            setattr(world.settings, name, value)
        world.random.setstate(World().random.getstate())
        seed_world(world, api_key=keys["api_key"], other_api_key=keys["other_api_key"])
        world.request_log.clear()
        self.state.clear_faults()
        world.changed()
        return self.health()

    def _key(self, merchant_id: int, default: str) -> str:
        merchant = self.world.merchants.get(merchant_id)
        return merchant.api_key if merchant is not None else default

    # -- clock -------------------------------------------------------------------
    def clock(self) -> Record:
        now = self.world.clock.time()
        return {"time": now, "iso": iso(now), "frozen": self.world.clock.frozen}

    def set_clock(
        self,
        *,
        advance: float | None = None,
        freeze: bool = False,
        at: float | None = None,
        unfreeze: bool = False,
        reset: bool = False,
    ) -> Record:
        """Reset, then freeze or unfreeze, then advance; deferred jobs that fell due run."""
        clock = self.world.clock
        if reset:
            clock.reset()
        if freeze:
            clock.freeze(at)
        elif at is not None:
            raise ControlError("at needs freeze: true")
        if unfreeze:
            clock.unfreeze()
        if advance is not None:
            if advance < 0:
                raise ControlError("advance must not be negative (the clock never goes back)")
            clock.advance(advance)
        self.world.run_due()
        self.world.changed()
        return self.clock()

    def advance(self, seconds: float) -> Record:
        return self.set_clock(advance=seconds)

    def freeze(self, at: float | None = None) -> Record:
        return self.set_clock(freeze=True, at=at)

    def unfreeze(self) -> Record:
        return self.set_clock(unfreeze=True)

    # -- faults ------------------------------------------------------------------
    def add_fault(
        self,
        kind: str,
        path: str,
        *,
        method: str | None = None,
        count: int | None = 1,
        **params: Any,
    ) -> int:
        """Add one rule (see ``kiosk.sim.faultbook``); returns its id."""
        match: Record = {"path": path} if method is None else {"path": path, "method": method}
        return self.add_faults([{"match": match, "kind": kind, "count": count, **params}])[0]

    def add_faults(self, specs: list[Any]) -> list[int]:
        return self.state.add_faults(specs)

    def faults(self) -> list[Record]:
        return self.state.list_faults()

    def clear_faults(self) -> int:
        return self.state.clear_faults()

    # -- ledger, request log, jobs, settings -------------------------------------
    def ledger(self, merchant_id: int = MAIN_MERCHANT_ID) -> list[Record]:
        """The merchant's point operations, oldest first (``KeyError`` if no merchant)."""
        merchant = self.world.merchants[merchant_id]
        rows = []
        for op_id in sorted(merchant.tables["operations"]):
            op = public(merchant.tables["operations"][op_id])
            points = op.get("points")
            total = points.get("totalPointsToGive") if isinstance(points, dict) else points
            rows.append({"pointOperationId": op_id, **op, "totalPoints": total})
        return rows

    def requests(
        self, *, since: int = 0, path: str | None = None, method: str | None = None
    ) -> list[Record]:
        """Logged ``/external`` requests after ``since`` (a ``seq``), filtered by path regex."""
        pattern = re.compile(path) if path else None
        wanted = method.upper() if method else None
        return [
            dict(entry)
            for entry in list(self.world.request_log)
            if entry["seq"] > since
            and (pattern is None or pattern.search(entry["path"]))
            and (wanted is None or entry["method"] == wanted)
        ]

    def clear_requests(self) -> int:
        count = len(self.world.request_log)
        self.world.request_log.clear()
        return count

    def run_jobs(self, *, force: bool = True) -> int:
        ran = self.world.run_due(force=force)
        if ran:
            self.world.changed()
        return ran

    def settings(
        self, *, rate_limits: bool | None = None, level_delay_seconds: float | None = None
    ) -> Record:
        settings = self.world.settings
        if rate_limits is not None:
            settings.rate_limits = rate_limits
        if level_delay_seconds is not None:
            if level_delay_seconds < 0:
                raise ControlError("level_delay_seconds must not be negative")
            settings.level_delay_seconds = level_delay_seconds
        return {
            "rate_limits": settings.rate_limits,
            "level_delay_seconds": settings.level_delay_seconds,
        }


# ---------------------------------------------------------------- HTTP routes


def _control(request: Request) -> SimControl:
    world: World = request.app.state.world
    return SimControl(world, getattr(request.app.state, "seed_keys", None))


def _refuse(message: str, status: int = 400) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status)


async def _body(request: Request) -> Any:
    raw = await request.body()
    if not raw.strip():
        return {}
    try:
        return json.loads(raw)
    except ValueError:
        raise ControlError("the body must be JSON") from None


def _object(value: Any) -> Record:
    if not isinstance(value, dict):
        raise ControlError("the body must be a JSON object")
    return value


def _opt_number(body: Record, name: str) -> float | None:
    value = body.get(name)
    if value is None:
        return None
    if isinstance(value, str) and name == "at":
        try:
            return parse_iso(value)
        except ValueError:
            raise ControlError("at must be epoch seconds or an ISO 8601 date-time") from None
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ControlError(f"{name} must be a number")
    return float(value)


def _opt_bool(body: Record, name: str) -> bool | None:
    value = body.get(name)
    if value is not None and not isinstance(value, bool):
        raise ControlError(f"{name} must be true or false")
    return value


def _guarded(handler: Any) -> Any:
    async def run(request: Request) -> Response:
        try:
            result = await handler(request, _control(request))
        except (ControlError, FaultError, re.error) as error:
            return _refuse(str(error))
        return result if isinstance(result, Response) else JSONResponse(result)

    run.__name__ = handler.__name__
    return run


async def health(request: Request, control: SimControl) -> Any:
    return control.health()


async def reset(request: Request, control: SimControl) -> Any:
    return control.reset()


async def clock(request: Request, control: SimControl) -> Any:
    if request.method == "GET":
        return control.clock()
    body = _object(await _body(request))
    unknown = set(body) - {"advance", "freeze", "at", "unfreeze", "reset"}
    if unknown:
        raise ControlError(f"unknown clock fields: {', '.join(sorted(unknown))}")
    return control.set_clock(
        advance=_opt_number(body, "advance"),
        freeze=bool(_opt_bool(body, "freeze")),
        at=_opt_number(body, "at"),
        unfreeze=bool(_opt_bool(body, "unfreeze")),
        reset=bool(_opt_bool(body, "reset")),
    )


async def faults(request: Request, control: SimControl) -> Any:
    if request.method == "GET":
        return control.faults()
    if request.method == "DELETE":
        return {"cleared": control.clear_faults()}
    body = await _body(request)
    if isinstance(body, dict) and "faults" in body:
        body = body["faults"]
    specs = body if isinstance(body, list) else [body]
    return JSONResponse({"ids": control.add_faults(specs)}, status_code=201)


async def ledger(request: Request, control: SimControl) -> Any:
    raw = request.query_params.get("merchant", str(MAIN_MERCHANT_ID))
    try:
        return control.ledger(int(raw))
    except (ValueError, KeyError):
        return _refuse(f"no merchant {raw}", 404)


async def requests(request: Request, control: SimControl) -> Any:
    if request.method == "DELETE":
        return {"cleared": control.clear_requests()}
    params = request.query_params
    try:
        since = int(params.get("since", "0"))
    except ValueError:
        raise ControlError("since must be an integer (a seq)") from None
    return control.requests(since=since, path=params.get("path"), method=params.get("method"))


async def run_jobs(request: Request, control: SimControl) -> Any:
    body = _object(await _body(request))
    force = _opt_bool(body, "force")
    return {"ran": control.run_jobs(force=True if force is None else force)}


async def settings(request: Request, control: SimControl) -> Any:
    if request.method == "GET":
        return control.settings()
    body = _object(await _body(request))
    unknown = set(body) - {"rate_limits", "level_delay_seconds"}
    if unknown:
        raise ControlError(f"unknown settings: {', '.join(sorted(unknown))}")
    return control.settings(
        rate_limits=_opt_bool(body, "rate_limits"),
        level_delay_seconds=_opt_number(body, "level_delay_seconds"),
    )


routes: list[BaseRoute] = [
    Route("/_sim/health", _guarded(health), methods=["GET"]),
    Route("/_sim/reset", _guarded(reset), methods=["POST"]),
    Route("/_sim/clock", _guarded(clock), methods=["GET", "POST"]),
    Route("/_sim/faults", _guarded(faults), methods=["GET", "POST", "DELETE"]),
    Route("/_sim/ledger", _guarded(ledger), methods=["GET"]),
    Route("/_sim/requests", _guarded(requests), methods=["GET", "DELETE"]),
    Route("/_sim/jobs/run", _guarded(run_jobs), methods=["POST"]),
    Route("/_sim/settings", _guarded(settings), methods=["GET", "POST"]),
]

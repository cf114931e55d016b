"""Fault rules and the per-world test state (fault queue, request sequence).

A rule, as given to ``POST /_sim/faults`` or ``SimControl.add_fault``::

    {"match": {"method": "POST", "path": "^/external/tags/add$"},
     "kind": "drop", "count": 1, ...params}

- ``match.path`` is a regular expression searched in the request path (required;
  ``path`` and ``method`` may also be given at the top level);
- ``count``: how many matching requests the rule hits (default 1; ``null`` for
  no limit); the rule disappears when it reaches 0;
- ``probability`` (0..1): hit only that share of matching requests, drawn from a
  generator seeded with ``seed`` (default 0), so a soak run is repeatable;
- ``skip``: let the first N matching requests through before hitting;
- kind parameters: ``latency`` ``seconds``; ``status`` ``status``, ``body``,
  ``headers``, ``apply`` (default false); ``timeout`` ``seconds`` (default 3600),
  ``apply`` (default false); ``malformed`` ``variant`` (``html``, ``truncated``,
  ``wrong_types``, ``empty``), ``apply`` (default true); ``drop`` ``apply``
  (default true).

The state lives beside the world (a weak map keyed by it), so the middleware, the
HTTP controls and ``SimControl`` share it without a field on ``World``.
"""

from __future__ import annotations

import random
import re
import threading
import weakref
from dataclasses import dataclass, field, replace
from typing import Any

from kiosk.sim.world import Record, SimSettings, World

KINDS = ("latency", "status", "timeout", "malformed", "drop")
VARIANTS = ("html", "truncated", "wrong_types", "empty")
METHODS = ("GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS")
_MATCH_KEYS = ("match", "path", "method", "kind", "count", "probability", "seed", "skip")
_PARAM_KEYS = ("seconds", "status", "body", "headers", "apply", "variant")
_KNOWN_KEYS = frozenset((*_MATCH_KEYS, *_PARAM_KEYS))


class FaultError(ValueError):
    """An invalid fault rule (the control API answers 400 with this text)."""


@dataclass
class FaultRule:
    id: int
    kind: str
    path: re.Pattern[str]
    method: str | None
    remaining: int | None
    probability: float | None
    seed: int
    skip: int
    params: Record
    rng: random.Random
    hits: int = 0
    seen: int = 0

    def matches(self, method: str, path: str) -> bool:
        return (self.method is None or self.method == method) and self.path.search(path) is not None

    def public(self) -> Record:
        return {
            "id": self.id,
            "kind": self.kind,
            "match": {"method": self.method, "path": self.path.pattern},
            "count": self.remaining,
            "probability": self.probability,
            "seed": self.seed,
            "skip": self.skip,
            "hits": self.hits,
            "seen": self.seen,
            **self.params,
        }


def _number(
    spec: Record, name: str, default: float, *, low: float = 0.0, high: float | None = None
) -> float:
    value = spec.get(name, default)
    if isinstance(value, bool) or not isinstance(value, int | float) or value < low:
        raise FaultError(f"{name} must be a number >= {low:g}")
    if high is not None and value > high:
        raise FaultError(f"{name} must be a number <= {high:g}")
    return float(value)


def _integer(spec: Record, name: str, default: int | None, *, low: int) -> int | None:
    value = spec.get(name, default)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value < low:
        raise FaultError(f"{name} must be an integer >= {low}")
    return value


def _kind_params(kind: str, spec: Record) -> Record:
    if kind == "latency":
        return {"seconds": _number(spec, "seconds", 1.0)}
    if kind == "timeout":
        return {"seconds": _number(spec, "seconds", 3600.0), "apply": _flag(spec, "apply", False)}
    if kind == "drop":
        return {"apply": _flag(spec, "apply", True)}
    if kind == "malformed":
        variant = spec.get("variant", "html")
        if variant not in VARIANTS:
            raise FaultError(f"variant must be one of {', '.join(VARIANTS)}")
        return {"variant": variant, "apply": _flag(spec, "apply", True)}
    status = _integer(spec, "status", 500, low=100)
    if status is None or status > 599:
        raise FaultError("status must be an HTTP status (100..599)")
    params: Record = {"status": status, "apply": _flag(spec, "apply", False)}
    if "body" in spec:
        params["body"] = spec["body"]
    headers = spec.get("headers")
    if headers is not None:
        if not isinstance(headers, dict) or not all(
            isinstance(k, str) and isinstance(v, str | int) for k, v in headers.items()
        ):
            raise FaultError("headers must be an object of strings")
        params["headers"] = {k: str(v) for k, v in headers.items()}
    return params


def _flag(spec: Record, name: str, default: bool) -> bool:
    value = spec.get(name, default)
    if not isinstance(value, bool):
        raise FaultError(f"{name} must be true or false")
    return value


def parse_rule(spec: Any, rule_id: int) -> FaultRule:
    """A validated rule from its JSON form; ``FaultError`` says what is wrong."""
    if not isinstance(spec, dict):
        raise FaultError("a fault rule must be an object")
    unknown = set(spec) - _KNOWN_KEYS
    if unknown:
        raise FaultError(f"unknown fault fields: {', '.join(sorted(unknown))}")
    match = spec.get("match", {})
    if not isinstance(match, dict) or set(match) - {"method", "path"}:
        raise FaultError("match must be an object with path and optional method")
    raw_path = match.get("path", spec.get("path"))
    raw_method = match.get("method", spec.get("method"))
    if not isinstance(raw_path, str) or not raw_path:
        raise FaultError("match.path (a regular expression) is required")
    try:
        pattern = re.compile(raw_path)
    except re.error as error:
        raise FaultError(f"match.path is not a valid regular expression: {error}") from None
    method = raw_method.upper() if isinstance(raw_method, str) else None
    if raw_method is not None and method not in METHODS:
        raise FaultError(f"match.method must be one of {', '.join(METHODS)}")
    kind = spec.get("kind")
    if kind not in KINDS:
        raise FaultError(f"kind must be one of {', '.join(KINDS)}")
    probability = (
        None if spec.get("probability") is None else _number(spec, "probability", 1.0, high=1.0)
    )
    seed = _integer(spec, "seed", 0, low=0) or 0
    return FaultRule(
        id=rule_id,
        kind=kind,
        path=pattern,
        method=method,
        remaining=_integer(spec, "count", 1, low=1),
        probability=probability,
        seed=seed,
        skip=_integer(spec, "skip", 0, low=0) or 0,
        params=_kind_params(kind, spec),
        rng=random.Random(seed),
    )


@dataclass
class SimState:
    """Test machinery beside one world: fault queue, request sequence, start settings."""

    initial_settings: SimSettings
    faults: list[FaultRule] = field(default_factory=list)
    seq: int = 0
    next_fault_id: int = 1
    lock: threading.Lock = field(default_factory=threading.Lock)

    def next_seq(self) -> int:
        with self.lock:
            self.seq += 1
            return self.seq

    def add_faults(self, specs: list[Any]) -> list[int]:
        """Validate every rule first; add them all or none."""
        with self.lock:
            rules = [parse_rule(spec, self.next_fault_id + i) for i, spec in enumerate(specs)]
            self.next_fault_id += len(rules)
            self.faults.extend(rules)
            return [rule.id for rule in rules]

    def clear_faults(self) -> int:
        with self.lock:
            count = len(self.faults)
            self.faults.clear()
            return count

    def list_faults(self) -> list[Record]:
        with self.lock:
            return [rule.public() for rule in self.faults]

    def take(self, method: str, path: str) -> FaultRule | None:
        """The first rule that hits this request (counted down), or ``None``."""
        with self.lock:
            for rule in self.faults:
                if not rule.matches(method, path):
                    continue
                rule.seen += 1
                if rule.seen <= rule.skip:
                    continue
                if rule.probability is not None and rule.rng.random() >= rule.probability:
                    continue
                rule.hits += 1
                if rule.remaining is not None:
                    rule.remaining -= 1
                    if rule.remaining <= 0:
                        self.faults.remove(rule)
                return rule
            return None


_STATES: weakref.WeakKeyDictionary[World, SimState] = weakref.WeakKeyDictionary()
_STATES_LOCK = threading.Lock()


def state_of(world: World) -> SimState:
    """The test state of ``world`` (created on first use; settings captured then)."""
    with _STATES_LOCK:
        state = _STATES.get(world)
        if state is None:
            state = SimState(initial_settings=replace(world.settings))
            _STATES[world] = state
        return state

"""The manager's settings screen without Qt: what may change, field checks, the API key,
the branch binding, and applying everything at once.

- A setting IT locked (``Settings.is_locked``) cannot change: the screen shows it
  read-only, and a draft that changes it anyway is refused (``Problem.LOCKED``).
- The API key is typed once, checked with ``GET /external/branch`` against the
  environment's base URL, and stored in the OS keyring (``kiosk.core.security.secrets``);
  never in a file, never shown again. No usable keyring: refused, never plain text.
- Environment, server address, key and branch decide where credits go. Changing
  any of them while the outbox still holds credits bound to the current ones is
  refused (``PendingWork.check_switch`` raises ``SwitchRefused``).
- ``apply`` validates the whole draft, then ``Settings.set_overrides`` saves every
  change together or none, and returns the keys that changed.

Problems are codes (``Problem``), not sentences: the screen words them.
"""

from __future__ import annotations

import logging
import re
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Protocol, TypeVar

import httpx

from kiosk.api.client import LoyaltyClient
from kiosk.api.errors import ApiError, ErrorKind
from kiosk.api.models.catalog import PointItem
from kiosk.api.models.staff import Branch
from kiosk.api.models.validation import ValidationQr
from kiosk.api.retry import RetryPolicy
from kiosk.api.transport import Timeouts
from kiosk.core.security import secrets
from kiosk.core.settings import layers as S
from kiosk.core.settings.binding import Binding
from kiosk.core.settings.layers import Environment, Language, Settings, Theme
from kiosk.core.settings.values import MAX_POINT_ITEMS

T = TypeVar("T")
log = logging.getLogger(__name__)
KEY_PATTERN = re.compile(r"[\x21-\x7e]{8,512}")  # as ``provision`` accepts it
IDLE_RANGE = (15, 3600)
MANAGER_IDLE_RANGE = (60, 900)  # PCI DSS 8.2.8: at most 15 minutes
QUICK = Timeouts(default=10.0, operation=15.0, connect=5.0)
NO_RETRY = RetryPolicy(delays=())

TransportFactory = Callable[[Environment, str], httpx.AsyncBaseTransport | None]
"""The transport for an environment and base URL (None: the network)."""


class Field(StrEnum):
    """A field of the screen; the value is the setting's key (the key is no setting)."""

    ENVIRONMENT = "environment"
    PRODUCTION_URL = "production_url"
    QA_URL = "qa_url"
    API_KEY = "api_key"
    BRANCH = "branch_id"
    VALIDATION_QR = "validation_qr_id"
    POINT_ITEMS = "point_items"
    IDLE_TIMEOUT = "idle_timeout_seconds"
    MANAGER_IDLE_TIMEOUT = "manager_idle_timeout_seconds"
    LANGUAGE = "language"
    THEME = "theme"


SETTING_OF: dict[Field, S.Setting[Any]] = {
    f: S.SETTINGS[f.value] for f in Field if f is not Field.API_KEY
}
CONNECTION = frozenset({Field.ENVIRONMENT, Field.PRODUCTION_URL, Field.QA_URL, Field.BRANCH})


class Problem(StrEnum):
    LOCKED = "locked"  # set by IT
    REQUIRED = "required"
    BAD_URL = "bad_url"
    OUT_OF_RANGE = "out_of_range"
    TOO_MANY = "too_many"
    NO_KEY = "no_key"  # no key stored for this environment
    KEY_FORMAT = "key_format"
    KEY_REFUSED = "key_refused"  # the API knows no merchant with it
    NO_KEYRING = "no_keyring"
    UNKNOWN_BRANCH = "unknown_branch"
    UNKNOWN_QR = "unknown_qr"
    INVALID = "invalid"


@dataclass(frozen=True)
class FieldProblem:
    problem: Problem
    low: int | None = None
    high: int | None = None


class SettingsRefused(Exception):
    """The draft was not applied (nothing changed): the problems, field by field."""

    def __init__(self, problems: Mapping[Field, FieldProblem]) -> None:
        self.problems = dict(problems)
        super().__init__(", ".join(f"{f.value}: {p.problem.value}" for f, p in problems.items()))


class KeyState(StrEnum):
    NOT_NEEDED = "not_needed"  # training: the simulator
    STORED = "stored"
    MISSING = "missing"
    NO_URL = "no_url"
    NO_KEYRING = "no_keyring"


class PendingWork(Protocol):
    """What the outbox (``kiosk.core.outbox.queue.Outbox``) offers to guard a switch."""

    @property
    def binding(self) -> Binding: ...

    async def check_switch(self, new: Binding) -> None: ...


@dataclass(frozen=True)
class TrainingLink:
    """How this kiosk reaches its built-in simulator (``kiosk.wiring``)."""

    base_url: str
    api_key: str = field(repr=False)


@dataclass(frozen=True)
class KeyDestination:
    """Where a new API key is checked and stored: IT's environment and base URL, and
    where that value came from (``Settings.origin``), to be shown before it is sent."""

    environment: Environment
    base_url: str | None
    origin: str


@dataclass(frozen=True)
class Draft:
    environment: Environment
    production_url: str | None
    qa_url: str | None
    branch_id: int | None
    validation_qr_id: int | None
    point_items: tuple[int, ...]
    idle_timeout_seconds: int
    manager_idle_timeout_seconds: int
    language: Language
    theme: Theme

    def value(self, which: Field) -> object:
        return getattr(self, which.value)

    def base_url(self, training: TrainingLink) -> str | None:
        if self.environment is Environment.TRAINING:
            return training.base_url
        url = self.production_url if self.environment is Environment.PRODUCTION else self.qa_url
        return url.rstrip("/") if url else None


@dataclass(frozen=True)
class BranchChoices:
    qrs: tuple[ValidationQr, ...]
    items: tuple[PointItem, ...]


class ManagerSettings:
    def __init__(
        self,
        settings: Settings,
        *,
        transport_for: TransportFactory,
        training: TrainingLink,
        pending: PendingWork | None = None,
    ) -> None:
        self.settings = settings
        self.training = training
        self.pending = pending
        self._transport_for = transport_for

    # -- reading -------------------------------------------------------------------
    def training_transport(self) -> object | None:
        """The training simulator's road when the kiosk runs one in process (its
        ``unreachable``: training's "Simulate no connection"); None: the network."""
        return self._transport_for(Environment.TRAINING, self.training.base_url)

    def draft(self) -> Draft:
        """The effective settings, as a draft to edit."""
        values = {f.value: self.settings.get(s) for f, s in SETTING_OF.items()}
        return Draft(**values)

    def is_locked(self, which: Field) -> bool:
        setting = SETTING_OF.get(which)
        return setting is not None and self.settings.is_locked(setting)

    def stored_key(self, environment: Environment, base_url: str | None) -> str | None:
        """The key the kiosk would use; ``KeyringUnavailable`` when none can be read."""
        if environment is Environment.TRAINING:
            return self.training.api_key
        if not base_url:
            return None
        return secrets.load_api_key(environment.value, base_url)

    def key_state(self, draft: Draft) -> KeyState:
        if draft.environment is Environment.TRAINING:
            return KeyState.NOT_NEEDED
        url = draft.base_url(self.training)
        if not url:
            return KeyState.NO_URL
        try:
            return KeyState.STORED if self.stored_key(draft.environment, url) else KeyState.MISSING
        except secrets.KeyringUnavailable:
            return KeyState.NO_KEYRING

    @asynccontextmanager
    async def _client(
        self, environment: Environment, base_url: str, key: str, branch_id: int | None = None
    ) -> AsyncIterator[LoyaltyClient]:
        api = LoyaltyClient(
            base_url,
            key,
            branch_id=branch_id,
            transport=self._transport_for(environment, base_url),
            timeouts=QUICK,
            retry=NO_RETRY,
        )
        try:
            yield api
        finally:
            await api.aclose()

    def _connection(self, draft: Draft) -> tuple[str, str]:
        url = draft.base_url(self.training)
        if not url:
            raise SettingsRefused({_url_field(draft.environment): FieldProblem(Problem.REQUIRED)})
        try:
            key = self.stored_key(draft.environment, url)
        except secrets.KeyringUnavailable:
            raise SettingsRefused({Field.API_KEY: FieldProblem(Problem.NO_KEYRING)}) from None
        if not key:
            raise SettingsRefused({Field.API_KEY: FieldProblem(Problem.NO_KEY)})
        return url, key

    async def branches(self, draft: Draft) -> tuple[Branch, ...]:
        """The branches the draft's environment and stored key open."""
        url, key = self._connection(draft)
        async with self._client(draft.environment, url, key) as api:
            return await _keyed(api.list_branches())

    async def branch_choices(self, draft: Draft, branch_id: int) -> BranchChoices:
        """The branch's validation QRs and the point items it may show."""
        url, key = self._connection(draft)
        async with self._client(draft.environment, url, key, branch_id) as api:
            qrs = await _keyed(api.list_validation_qrs(branch_id=branch_id))
            items = [item async for item in api.iter_point_items(branch_id=branch_id)]
        return BranchChoices(
            tuple(q for q in qrs if q.branch_id in (None, branch_id)), tuple(items)
        )

    # -- the key -----------------------------------------------------------------------
    def destination(self) -> KeyDestination:
        """Where a key typed on the screen is checked and for which environment: IT's
        environment and base URL, never the draft's (the screen shows them read-only)."""
        environment = self.settings.get(S.ENVIRONMENT)
        if environment is Environment.TRAINING:
            return KeyDestination(environment, None, self.settings.origin(S.ENVIRONMENT))
        setting = S.PRODUCTION_URL if environment is Environment.PRODUCTION else S.QA_URL
        url = self.settings.get(setting)
        return KeyDestination(
            environment, url.rstrip("/") if url else None, self.settings.origin(setting)
        )

    async def replace_key(self, draft: Draft, key: str) -> tuple[Branch, ...]:
        """Check ``key`` at IT's base URL (``destination``) and store it; its branches.

        The draft's environment and addresses are not used: they are IT's, and a key
        only ever goes where IT's machine-wide file says. ``SettingsRefused`` (format,
        no keyring, refused by the API), ``SwitchRefused`` (it replaces the key credits
        still wait on), ``ApiError`` (cannot check now). Nothing is stored unless
        everything passed.
        """
        key = key.strip()
        target = self.destination()
        if target.environment is Environment.TRAINING:
            raise SettingsRefused({Field.ENVIRONMENT: FieldProblem(Problem.REQUIRED)})
        if not KEY_PATTERN.fullmatch(key):
            raise SettingsRefused({Field.API_KEY: FieldProblem(Problem.KEY_FORMAT)})
        url = target.base_url
        if not url:
            raise SettingsRefused({_url_field(target.environment): FieldProblem(Problem.REQUIRED)})
        log.info("checking a new API key at %s (%s)", url, target.origin)
        try:
            secrets.usable_backend()  # never check a key that cannot be kept
        except secrets.KeyringUnavailable:
            raise SettingsRefused({Field.API_KEY: FieldProblem(Problem.NO_KEYRING)}) from None
        pending = self.pending
        active = pending.binding if pending is not None else None
        same_server = active is not None and (active.environment, active.base_url) == (
            target.environment.value,
            url,
        )
        if pending is not None and active is not None and same_server:
            await pending.check_switch(
                Binding.of(target.environment.value, url, key, active.branch_id)
            )
        async with self._client(target.environment, url, key) as api:
            try:
                branches = await api.list_branches()
            except ApiError as error:
                if error.kind is ErrorKind.AUTH:
                    raise SettingsRefused(
                        {Field.API_KEY: FieldProblem(Problem.KEY_REFUSED)}
                    ) from None
                raise
        try:
            secrets.store_api_key(target.environment.value, url, key)
        except secrets.KeyringUnavailable:
            raise SettingsRefused({Field.API_KEY: FieldProblem(Problem.NO_KEYRING)}) from None
        return branches

    # -- checking and applying ---------------------------------------------------------
    def validate(
        self,
        draft: Draft,
        *,
        branches: tuple[Branch, ...] | None = None,
        qrs: tuple[ValidationQr, ...] | None = None,
    ) -> dict[Field, FieldProblem]:
        """Field problems of ``draft`` (empty: it can be applied). ``branches`` and
        ``qrs``, when known, are the choices the API offered."""
        problems: dict[Field, FieldProblem] = {}
        current = self.draft()
        for which in SETTING_OF:
            if self.is_locked(which) and draft.value(which) != current.value(which):
                problems[which] = FieldProblem(Problem.LOCKED)
        for which in (Field.PRODUCTION_URL, Field.QA_URL):
            value = draft.value(which)
            try:
                S.PRODUCTION_URL.parse(value)
            except ValueError:
                problems.setdefault(which, FieldProblem(Problem.BAD_URL))
        training = draft.environment is Environment.TRAINING
        if not training:
            url_field = _url_field(draft.environment)
            if not draft.value(url_field):
                problems.setdefault(url_field, FieldProblem(Problem.REQUIRED))
            elif url_field not in problems:
                state = self.key_state(draft)
                if state is KeyState.NO_KEYRING:
                    problems[Field.API_KEY] = FieldProblem(Problem.NO_KEYRING)
                elif state is not KeyState.STORED:
                    problems[Field.API_KEY] = FieldProblem(Problem.NO_KEY)
            if draft.branch_id is None:
                problems.setdefault(Field.BRANCH, FieldProblem(Problem.REQUIRED))
        known_branches = {b.id for b in branches or ()}
        if branches is not None and draft.branch_id not in (None, *known_branches):
            problems.setdefault(Field.BRANCH, FieldProblem(Problem.UNKNOWN_BRANCH))
        known_qrs = {q.id for q in qrs or ()}
        if qrs is not None and draft.validation_qr_id not in (None, *known_qrs):
            problems.setdefault(Field.VALIDATION_QR, FieldProblem(Problem.UNKNOWN_QR))
        if len(draft.point_items) > MAX_POINT_ITEMS:
            problems.setdefault(
                Field.POINT_ITEMS, FieldProblem(Problem.TOO_MANY, high=MAX_POINT_ITEMS)
            )
        for which, (low, high) in (
            (Field.IDLE_TIMEOUT, IDLE_RANGE),
            (Field.MANAGER_IDLE_TIMEOUT, MANAGER_IDLE_RANGE),
        ):
            number = draft.value(which)
            if not isinstance(number, int) or not low <= number <= high:
                problems.setdefault(which, FieldProblem(Problem.OUT_OF_RANGE, low, high))
        return problems

    def changes(self, draft: Draft) -> dict[str, object]:
        """The settings ``draft`` changes, by key, as ``set_overrides`` takes them."""
        current = self.draft()
        return {
            which.value: _plain(draft.value(which))
            for which in SETTING_OF
            if draft.value(which) != current.value(which)
        }

    async def apply(
        self,
        draft: Draft,
        *,
        branches: tuple[Branch, ...] | None = None,
        qrs: tuple[ValidationQr, ...] | None = None,
    ) -> tuple[str, ...]:
        """Save ``draft``: all of it or nothing. The keys that changed.

        ``SettingsRefused`` (field problems), ``SwitchRefused`` (credits pending)."""
        problems = self.validate(draft, branches=branches, qrs=qrs)
        if problems:
            raise SettingsRefused(problems)
        changes = self.changes(draft)
        if not changes:
            return ()
        if self.pending is not None and any(Field(k) in CONNECTION for k in changes):
            url, key = self._connection(draft)
            await self.pending.check_switch(
                Binding.of(draft.environment.value, url, key, draft.branch_id)
            )
        try:
            self.settings.set_overrides(changes)
        except S.SettingLockedError as error:
            raise SettingsRefused({Field(error.key): FieldProblem(Problem.LOCKED)}) from None
        except S.SettingsValidationError as error:
            raise SettingsRefused(
                {Field(key): FieldProblem(Problem.INVALID) for key in error.errors}
            ) from None
        return tuple(changes)


def _url_field(environment: Environment) -> Field:
    return Field.PRODUCTION_URL if environment is Environment.PRODUCTION else Field.QA_URL


def _plain(value: object) -> object:
    if isinstance(value, StrEnum):
        return value.value
    if isinstance(value, tuple):
        return list(value)
    return value


async def _keyed(call: Awaitable[T]) -> T:
    """An AUTH failure with the stored key reads as "no usable key" on the screen."""
    try:
        return await call
    except ApiError as error:
        if error.kind is ErrorKind.AUTH:
            raise SettingsRefused({Field.API_KEY: FieldProblem(Problem.KEY_REFUSED)}) from None
        raise

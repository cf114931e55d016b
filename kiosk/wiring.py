"""Builds a working counter from settings: API client (real, or the in-process
simulator for training), the database, the session and the screens.

This is the composition root: the only module (with the CLI) that knows every
layer, and the only one outside tests that imports the simulator.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import sys
from collections.abc import Awaitable, Callable, Coroutine, Sequence
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from kiosk.api.errors import ApiError, ErrorKind
from kiosk.core.amounts import as_locale
from kiosk.core.counter.tickets import load_kiosk_id
from kiosk.core.db import DatabaseWorker
from kiosk.core.journal import AsyncJournal
from kiosk.core.lazy import Lazy, import_ahead
from kiosk.core.outbox.queue import Binding, Outbox
from kiosk.core.retention import Retention, Upkeep
from kiosk.core.session import BranchInfo, CounterSession, SessionConfig
from kiosk.core.settings import layers as S
from kiosk.core.settings.branch_memory import recall_branch, remember_branch
from kiosk.core.settings.layers import Environment, Settings
from kiosk.core.settings.paths import KioskPaths
from kiosk.core.setup_errors import KeyRefused, NoApiKey, NotConfigured

if TYPE_CHECKING:  # httpx, the API client and the sender load after "ready"
    import httpx

    from kiosk.api.client import LoyaltyClient
    from kiosk.core.outbox.sender import Sender

log = logging.getLogger(__name__)

TRAINING_URL = "http://training.sim"
BRANCH_MEMORY = "branch.json"
CONFIRM_RETRY_SECONDS = 30.0
# The service answered and said no: the key or the branch is wrong (a manager must act).
REFUSED_KINDS = frozenset({ErrorKind.AUTH, ErrorKind.FORBIDDEN, ErrorKind.NOT_FOUND})
TRAINING_DB = "training-simulator.sqlite3"


def account_name() -> str:
    """The account whose keyring the kiosk reads (for IT's messages)."""
    import getpass

    try:
        return getpass.getuser()
    except (OSError, KeyError, ImportError):
        return "this account"


@dataclass
class Counter:
    session: CounterSession
    worker: DatabaseWorker
    extra_closers: list[object]
    # The in-process simulator's transport in training mode (manager settings reuse
    # it), made when first asked for.
    training: Callable[[], httpx.AsyncBaseTransport | None] | None = None
    # The store-and-forward outbox (issue #5), attached to the session from the start,
    # and its sender, made and started by ``start_checks`` and running for the
    # counter's life (rows stored before it starts are sent by its first step).
    outbox: Outbox | None = None
    sender: Sender | None = None
    make_sender: Callable[[], Sender] | None = None

    # The branch recalled from the last start, to check with the service once the
    # counter is up (``start_checks``); None: the service confirmed it at the start.
    unconfirmed: Callable[[], Coroutine[Any, Any, None]] | None = None
    confirming: asyncio.Task[None] | None = None
    # The database's retention (journal days, settled and dead outbox rows), applied
    # by ``start_checks`` at once and then daily for the counter's life.
    upkeep: Upkeep | None = None
    tidying: asyncio.Task[None] | None = None
    # The client's modules imported off the event loop (``start_checks``).
    importing: asyncio.Future[None] | None = None
    # The fleet watch (events, heartbeat, crash upload), started by the app after
    # "ready" (``kiosk.core.fleet.counter_watch``).
    watching: asyncio.Task[None] | None = None

    @property
    def transport(self) -> httpx.AsyncBaseTransport | None:
        return self.training() if self.training is not None else None

    def start_checks(self) -> None:
        """Begin the background work (after "ready": the counter does not wait for it,
        nor for the training simulator it wakes): the outbox's sender, which resumes
        the rows left waiting, the check of a recalled branch, and the retention. The
        first two call the service: the API client's modules (and the training
        simulator's) are imported first, off the event loop (``modules_ahead``)."""
        ahead: asyncio.Future[None] | None = None
        if self.make_sender is not None or self.unconfirmed is not None:
            modules = CLIENT_MODULES + (TRAINING_MODULES if self.training else ())
            ahead = self.importing = asyncio.ensure_future(modules_ahead(modules))
        if self.sender is None and self.make_sender is not None:
            self.sender = self.make_sender()
            self.sender.start(asyncio.shield(ahead) if ahead is not None else None)
        if self.unconfirmed is not None and self.confirming is None:
            self.confirming = asyncio.create_task(_after(ahead, self.unconfirmed))
        if self.upkeep is not None and self.tidying is None:
            self.tidying = asyncio.create_task(self.upkeep.run())

    async def stop_background(self) -> None:
        """Stop the work that writes by itself (the sender, the branch check, the
        retention) and let the journal's last changes be announced, while the screens
        still listen; ``close`` closes the rest (``kiosk.app.stop_counter``)."""
        for task in (self.watching, self.importing, self.confirming, self.tidying):
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
        if self.sender is not None:
            await self.sender.stop()  # a row caught mid-send is resent at the next start
        await self.session.changes_announced()

    async def close(self) -> None:
        await self.stop_background()  # (nothing left to stop when the app did it first)
        if self.sender is not None and self.sender.api_made:
            aclose = getattr(self.sender.api, "aclose", None)
            if aclose is not None:
                await aclose()
        if self.session.api_made:
            await self.session.api.aclose()
        await self.worker.close()
        for closer in self.extra_closers:
            close = getattr(closer, "close", None)
            if close is not None:
                close()


# Imported off the event loop before the background work's first call: ~100 ms for the
# API client (httpx, its models) and ~65 ms for the training simulator (Starlette, its
# routes), which would otherwise hold the first turns after "ready" (a cashier's first
# tap meanwhile waited for them).
CLIENT_MODULES = ("kiosk.api.client", "kiosk.api.retry")
TRAINING_MODULES = ("kiosk.sim", "kiosk.sim.persist", "kiosk.sim.transport")


async def modules_ahead(modules: Sequence[str]) -> None:
    """Import ``modules`` in a worker thread (the interpreter hands the GIL over every
    5 ms: the event loop keeps turning); one that fails is left to its user's import."""
    missing = [name for name in modules if name not in sys.modules]
    if missing:
        await asyncio.to_thread(lambda: [import_ahead(name) for name in missing])


async def _after(
    ahead: Awaitable[None] | None, work: Callable[[], Coroutine[Any, Any, None]]
) -> None:
    if ahead is not None:
        await asyncio.shield(ahead)
    await work()


def training_transport(
    paths: KioskPaths | None, closers: list[object] | None = None
) -> tuple[httpx.AsyncBaseTransport, list[object]]:
    """The simulator in process; its state kept in the data folder so training history
    stays. It is built at its first request (Starlette, the resource modules and the
    saved world: ~80 ms a restarted counter does not wait for, see ``BRANCH_MEMORY``)."""
    from kiosk.sim.transport import DeferredSimTransport

    closers = [] if closers is None else closers

    def make_app() -> Any:
        from kiosk.sim import create_app

        if paths is None:
            return create_app()
        from kiosk.sim.persist import open_world

        world, store = open_world(paths.data_dir / TRAINING_DB)
        closers.append(store)
        return create_app(world)

    return DeferredSimTransport(make_app), closers


async def build_counter(
    settings: Settings,
    paths: KioskPaths,
    *,
    demo: bool,
    transport: httpx.AsyncBaseTransport | None = None,
    api_key: str | None = None,
) -> Counter:
    environment = Environment.TRAINING if demo else settings.get(S.ENVIRONMENT)
    closers: list[object] = []
    paths.ensure_dirs()
    shared: Lazy[httpx.AsyncBaseTransport | None] = Lazy(transport)  # one for every client
    if environment is Environment.TRAINING:
        from kiosk.sim.keys import DEFAULT_API_KEY

        base_url = TRAINING_URL
        key = api_key or DEFAULT_API_KEY
        if transport is None:
            shared = Lazy(lambda: training_transport(paths, closers)[0])
    else:
        from kiosk.core.security.secrets import load_api_key  # keyring: not needed in training

        base_url = settings.base_url() or ""
        stored = api_key or load_api_key(environment.value, base_url)
        if not stored:
            raise NoApiKey(environment.value, account_name())
        key = stored
    transport_for = shared.get
    branch_id = settings.get(S.BRANCH_ID)
    memory = paths.data_dir / BRANCH_MEMORY
    recalled = recall_branch(memory, environment.value, base_url, branch_id)
    if recalled is None and environment is Environment.TRAINING and transport is None:
        recalled = _fresh_training_branch(paths, branch_id)
    if recalled is not None:
        branch, confirmed = BranchInfo(*recalled), False  # checked after the start
    else:
        from kiosk.api.client import LoyaltyClient
        from kiosk.api.retry import NO_RETRY

        asking = LoyaltyClient(
            base_url, key, branch_id=branch_id, transport=transport_for(), retry=NO_RETRY
        )
        try:
            branch, confirmed = await _branch(
                asking, branch_id, training=environment is Environment.TRAINING
            )
        except ApiError as error:
            if error.kind is ErrorKind.AUTH and environment is not Environment.TRAINING:
                raise KeyRefused(environment.value, account_name()) from None
            raise
        finally:
            await asking.aclose()
        if confirmed and branch.id is not None:
            remember_branch(memory, environment.value, base_url, branch_id, branch.id, branch.name)

    def make_api() -> LoyaltyClient:
        from kiosk.api.client import LoyaltyClient

        return LoyaltyClient(base_url, key, branch_id=branch.id, transport=transport_for())

    worker = DatabaseWorker(paths.database_for(environment.value))  # training's own file
    await worker.start()
    journal = AsyncJournal(worker)
    point_items: tuple[int, ...] = settings.get(S.POINT_ITEMS)  # (a list in an override file)
    config = SessionConfig(
        environment=environment.value,
        branch=branch,
        kiosk_id=load_kiosk_id(paths.kiosk_id),
        locale=as_locale(settings.get(S.AMOUNT_LOCALE)),
        validation_qr_id=settings.get(S.VALIDATION_QR_ID),
        point_item_ids=tuple(point_items),
        idle_timeout_seconds=settings.get(S.IDLE_TIMEOUT),
        extra={"on_screen_keyboard": str(settings.get(S.ON_SCREEN_KEYBOARD))},
    )
    session = CounterSession(make_api, journal, config)  # the client is made at its first call
    outbox, make_sender = await start_outbox(
        session, worker, Binding.of(environment.value, base_url, key, branch.id), key, transport_for
    )
    counter = Counter(
        session,
        worker,
        closers,
        transport_for if environment is Environment.TRAINING else None,
        outbox,
        make_sender=make_sender,
        upkeep=Upkeep(worker, Retention(journal_days=settings.get(S.JOURNAL_RETENTION_DAYS))),
    )

    def sender_api() -> LoyaltyClient:
        assert counter.sender is not None  # started by start_checks, before the check
        return cast("LoyaltyClient", counter.sender.api)

    if not confirmed:
        counter.unconfirmed = partial(
            confirm_branch,
            session,
            sender_api,
            memory,
            environment.value,
            base_url,
            branch_id,
        )
    return counter


async def start_outbox(
    session: CounterSession,
    worker: DatabaseWorker,
    binding: Binding,
    api_key: str,
    transport_for: Callable[[], httpx.AsyncBaseTransport | None],
) -> tuple[Outbox, Callable[[], Sender]]:
    """The outbox in the kiosk's database, attached to the session, and what makes its
    sender (``Counter.start_checks`` starts it after "ready"; it resumes rows caught
    mid-send). The sender's own client makes one attempt per call (the sender owns the
    retries) and shares the counter's rate limiter; it is made when the first row is
    sent. Old settled rows go with the retention (``kiosk.core.retention``)."""
    outbox = Outbox(worker, binding)

    def make_sender_api() -> LoyaltyClient:
        from kiosk.api.client import LoyaltyClient
        from kiosk.api.retry import NO_RETRY

        return LoyaltyClient(
            session.api.base_url,
            api_key,
            branch_id=binding.branch_id,
            transport=transport_for(),
            retry=NO_RETRY,
            limiter=session.api.limiter,
        )

    def make_sender() -> Sender:
        from kiosk.core.outbox.sender import Sender

        sender = Sender(outbox, make_sender_api)
        sender.reached.connect(session.report_online)  # background sends show on the bar
        return sender

    session.attach_outbox(outbox)  # (its status is read by the counter's load)
    return outbox, make_sender


def _fresh_training_branch(paths: KioskPaths, branch_id: int | None) -> tuple[int, str] | None:
    """The training branch of a first start, known without building the simulator: no
    saved training world yet means the seed's (``kiosk.sim.seed_branches``). Checked
    with the simulator after the start, like a recalled branch; a saved world (its
    branches may have been renamed in manager mode) is asked as before."""
    if (paths.data_dir / TRAINING_DB).exists():
        return None
    from kiosk.sim.seed_branches import fresh_branches

    seeded = fresh_branches()
    if branch_id is None:
        return seeded[0]
    return next((pair for pair in seeded if pair[0] == branch_id), None)


async def _branch(
    api: LoyaltyClient, branch_id: int | None, *, training: bool
) -> tuple[BranchInfo, bool]:
    """The branch to bind the counter to, and whether the service confirmed it.

    The service unreachable (or answering with errors of its own): the counter opens
    anyway, bound to the configured id, and the name is fetched when it answers.
    The service refusing the key or the branch: not configured (the manager's
    settings screen shows instead, nothing crashes)."""
    try:
        if branch_id is not None:
            branch = await api.get_branch(branch_id)
            return BranchInfo(branch.id, branch.name or ""), True
        if not training:
            raise NotConfigured("no branch")
        branches = await api.list_branches()
    except ApiError as error:
        if error.kind is ErrorKind.AUTH and not training:
            raise  # the key itself: ``KeyRefused``, a start-up error
        if error.kind in REFUSED_KINDS:
            raise NotConfigured(
                f"the service refused the key or the branch ({error.kind})"
            ) from None
        if branch_id is None:
            raise
        log.warning(
            "branch: the service cannot be reached (%s); the counter starts offline", error.kind
        )
        return BranchInfo(branch_id, ""), False
    if not branches:
        raise NotConfigured("no branch")
    first = branches[0]
    return BranchInfo(first.id, first.name or ""), True


async def confirm_branch(
    session: CounterSession,
    client: Callable[[], LoyaltyClient],
    memory: Path,
    environment: str,
    base_url: str,
    configured: int | None,
) -> None:
    """Check the recalled branch with the service after the start; while it cannot be
    reached, try again every ``CONFIRM_RETRY_SECONDS`` (with the sender's client: one
    attempt per call, the counter's rate limiter)."""
    branch_id = session.config.branch.id
    if branch_id is None:
        return
    while True:
        try:
            branch = await client().get_branch(branch_id)
        except ApiError as error:
            if error.kind in REFUSED_KINDS:
                session.report_online(True)
                log.error("branch %s: the service refused it (%s)", branch_id, error.kind)
                if error.kind is ErrorKind.AUTH:  # the key itself: IT's event
                    from kiosk.core.fleet.running import fleet_events

                    fleet_events().key_refused(environment)
                return
            session.report_online(False)
            await asyncio.sleep(CONFIRM_RETRY_SECONDS)
            continue
        session.report_online(True)
        name = branch.name or ""
        if name != session.config.branch.name:
            session.set_branch(BranchInfo(branch.id, name))
        remember_branch(memory, environment, base_url, configured, branch.id, name)
        return

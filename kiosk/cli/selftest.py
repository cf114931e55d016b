"""``loyalty-kiosk --self-test``: the checks of ``kiosk.core.selfcheck``, printed one per line.

::

    Loyalty Kiosk 0.1.0 self-test, 2025-05-02 10:14:03, user kiosk on CAJA-01, environment production
    OK    settings       C:\\ProgramData\\LoyaltyKiosk\\kiosk.ini; environment production; ...
    OK    storage        C:\\Users\\kiosk\\AppData\\Local\\LoyaltyKiosk writable, 41,210 MB free; ...
    OK    keyring        keyring.backends.Windows.WinVaultKeyring: a key is stored for production in the keyring of kiosk
    FAIL  api            cannot reach https://api.example.com: its name is not found (DNS): ...
    SKIP  branch         needs the API
    ...
    result: FAIL (1 of 8 failed: api)

Exit 0 when nothing failed, 1 otherwise. In training (``--demo``, or
``environment = training``) the checks run against the simulator in process, with
no keyring and no network.

After them, ``manager-pin`` says whether the kiosk has a manager PIN (never the hash):
outside training mode it fails without IT's ``manager_pin_hash``, since Manager,
cancels and discards are then refused; with ``environment = training`` the first
person at Manager chooses it.
"""

from __future__ import annotations

import asyncio
import logging

import httpx

from kiosk.core.security.pin_hash import is_pin_hash
from kiosk.core.selfcheck import Check, Report, Status, run_checks
from kiosk.core.settings import layers as S
from kiosk.core.settings.layers import (
    Environment,
    Layer,
    Settings,
    SettingsError,
    load_settings,
    machine_file,
)
from kiosk.core.settings.paths import KioskPaths

log = logging.getLogger(__name__)


def configured_training(paths: KioskPaths) -> bool:
    """Whether the settings choose training (unreadable settings: no, the check says why)."""
    try:
        return load_settings(paths).get(S.ENVIRONMENT) is Environment.TRAINING
    except SettingsError:
        return False


async def self_test(
    paths: KioskPaths, *, demo: bool, transport: httpx.AsyncBaseTransport | None = None
) -> Report:
    training = demo or configured_training(paths)
    training_key: str | None = None
    if training:
        from kiosk.sim import DEFAULT_API_KEY
        from kiosk.wiring import training_transport

        training_key = DEFAULT_API_KEY
        if transport is None:
            # A fresh seeded simulator, not the training database: the self-test
            # reads, it never changes what the trainees see.
            transport, _ = training_transport(None)
    report = await run_checks(
        paths,
        training=training,
        transport=transport,
        training_key=training_key,
        require_file=not demo,
    )
    report.checks.append(check_manager_pin(paths))
    return report


def check_manager_pin(paths: KioskPaths) -> Check:
    """Whether the kiosk has a manager PIN, by the rule its lock follows (the
    ``environment`` setting, whatever ``--demo`` says). Read from IT's file alone, as
    the kiosk's account sees it: never from the ``settings.json`` of whoever runs the
    self-test (an administrator's own, or one the kiosk's account wrote)."""
    try:
        load_settings(paths)  # refuses what the kiosk refuses (an unsafe file too)
        settings = Settings.load(machine_file(paths), None)
    except SettingsError:
        return Check("manager-pin", Status.SKIP, "needs valid settings")
    if is_pin_hash(settings.get(S.MANAGER_PIN_HASH)) and (
        settings.source(S.MANAGER_PIN_HASH) is Layer.MACHINE
    ):
        origin = settings.origin(S.MANAGER_PIN_HASH)
        if settings.listed_in_locks(S.MANAGER_PIN_HASH):
            return Check("manager-pin", Status.OK, f"{origin}, locked")
        return Check(
            "manager-pin",
            Status.OK,
            f"{origin}; a manager may change it on the kiosk "
            "(add manager_pin_hash to [lock] locked to prevent it)",
        )
    if settings.get(S.ENVIRONMENT) is Environment.TRAINING:
        return Check("manager-pin", Status.OK, "training: the first person at Manager chooses it")
    return Check(
        "manager-pin",
        Status.FAIL,
        "no manager PIN: Manager, cancels and discards are refused. Set one with "
        "'loyalty-kiosk-cli reset-pin --new-pin' (administrator), or put the line "
        "'loyalty-kiosk-cli hash-pin' prints under [kiosk]",
    )


def run_self_test(paths: KioskPaths, *, demo: bool) -> tuple[int, str]:
    """(exit code, report text); the report also goes to the kiosk's log."""
    report = asyncio.run(self_test(paths, demo=demo))
    text = report.text()
    if report.ok:
        log.info("self-test passed:\n%s", text)
    else:
        log.warning("self-test failed:\n%s", text)
    return (0 if report.ok else 1), text

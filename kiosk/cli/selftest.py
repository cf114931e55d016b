"""``loyalty-kiosk --self-test``: the checks of ``kiosk.core.selfcheck``, printed one per line.

::

    Loyalty Kiosk 0.1.0 self-test, 2025-05-02 10:14:03, user kiosk on CAJA-01, environment production
    OK    settings       C:\\ProgramData\\LoyaltyKiosk\\kiosk.ini; environment production; ...
    OK    keyring        keyring.backends.Windows.WinVaultKeyring: a key is stored for production
    FAIL  api            cannot reach https://api.example.com: check the network, proxy and firewall (...)
    SKIP  branch         needs the API
    ...
    result: FAIL (1 of 6 failed: api)

Exit 0 when nothing failed, 1 otherwise. In training (``--demo``, or
``environment = training``) the checks run against the simulator in process, with
no keyring and no network.
"""

from __future__ import annotations

import asyncio
import logging

import httpx

from kiosk.core.selfcheck import Report, run_checks
from kiosk.core.settings import layers as S
from kiosk.core.settings.layers import Environment, SettingsError, load_settings
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
    return await run_checks(
        paths,
        training=training,
        transport=transport,
        training_key=training_key,
        require_file=not demo,
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

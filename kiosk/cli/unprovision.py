"""``loyalty-kiosk-cli unprovision``: delete this account's keyring entries of the kiosk.

Run it as the account the kiosk runs under (the keyring is per account), before an
uninstall that removes the kiosk for good; the uninstaller runs it for the account
that started it when it deletes the kiosk's data (``/PURGE=1``, or Yes). Deleted:

- the API key of each environment at the address IT's machine-wide file gives
  (``production_url``, ``qa_url``), whatever the environment in use;
- the manager lock's seal keys (``manager-lock:<folders>``) of the kiosk's folders and
  of training's.

Nothing else is touched: keys stored for an address IT has since changed stay (the
output lists what it looked for), and nothing is printed of any value. Exit 0 when
the keyring answered (even with nothing to delete), 1 when it could not.
"""

from __future__ import annotations

import logging
from typing import TextIO

from kiosk.cli.args import EXIT_FAILED, EXIT_OK
from kiosk.core.security.lock import LOCKOUT_FILE, PIN_FILE
from kiosk.core.security.seal import KeyringVault
from kiosk.core.security.secrets import KeyringUnavailable, entry_name, forget
from kiosk.core.settings import layers as S
from kiosk.core.settings.layers import Settings, SettingsError, machine_file
from kiosk.core.settings.paths import KioskPaths

log = logging.getLogger(__name__)


def kiosk_entries(paths: KioskPaths) -> list[tuple[str, str]]:
    """(what, keyring entry) of every entry this kiosk may have stored for the account."""
    entries: list[tuple[str, str]] = []
    try:
        settings = Settings.load(machine_file(paths), None)
    except SettingsError as error:
        log.warning(
            "unprovision: IT's settings cannot be read (%s): API keys not looked for", error
        )
        settings = None
    if settings is not None:
        for environment, setting in (("production", S.PRODUCTION_URL), ("qa", S.QA_URL)):
            url = settings.get(setting)
            if url:
                entries.append((f"API key for {environment} ({url})", entry_name(environment, url)))
    for where, folders in (("the kiosk", paths), ("training", paths.for_training())):
        vault = KeyringVault.for_files(
            folders.config_dir / PIN_FILE, folders.data_dir / LOCKOUT_FILE
        )
        entries.append((f"manager lock seal of {where}", vault.entry))
    return entries


def unprovision(paths: KioskPaths, *, out: TextIO | None, err: TextIO | None) -> int:
    try:
        for what, entry in kiosk_entries(paths):
            found = forget(entry)
            _say(out, f"{'deleted' if found else 'none   '}  {what}")
    except KeyringUnavailable as error:
        _say(err, f"unprovision failed: {error}")
        return EXIT_FAILED
    log.info("unprovision: this account's kiosk entries were deleted from the keyring")
    return EXIT_OK


def _say(stream: TextIO | None, text: str) -> None:
    if stream is not None:
        stream.write(text + "\n")
        stream.flush()

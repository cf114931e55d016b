"""#22 item 7: the kiosk's keyring entries are this machine's, and ``unprovision``
deletes them (the API keys of IT's addresses, the manager lock's seal keys)."""

from __future__ import annotations

import io
from collections.abc import Iterator

import keyring
import pytest

from kiosk.__main__ import main
from kiosk.cli.args import EXIT_OK
from kiosk.core.security.lock import ManagerLock
from kiosk.core.security.secrets import SERVICE, entry_name, store_api_key
from kiosk.core.settings.layers import load_settings
from kiosk.core.settings.paths import KioskPaths
from tests.conftest import MAIN_KEY, OTHER_KEY
from tests.deploy.conftest import MemoryKeyring, write_ini

pytestmark = pytest.mark.usefixtures("home")
PROD, QA = "https://api.example.test", "https://qa.example.test"


class WindowsLikeKeyring(MemoryKeyring):
    """Keyring's Windows backend keeps a ``persist`` attribute (enterprise by default)."""

    persist: object = "enterprise"


@pytest.fixture
def windows_like() -> Iterator[WindowsLikeKeyring]:
    previous = keyring.get_keyring()
    backend = WindowsLikeKeyring()
    keyring.set_keyring(backend)
    try:
        yield backend
    finally:
        keyring.set_keyring(previous)


def test_keys_are_stored_for_this_machine_only(windows_like: WindowsLikeKeyring) -> None:
    store_api_key("production", PROD, MAIN_KEY)
    assert windows_like.persist == "local machine"  # CRED_PERSIST_LOCAL_MACHINE, not roaming


def test_unprovision_deletes_the_kiosks_entries_and_nothing_else(
    home: KioskPaths,
    memory_keyring: MemoryKeyring,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    write_ini(
        home, f"[connection]\nenvironment = production\nproduction_url = {PROD}\nqa_url = {QA}\n"
    )
    store_api_key("production", PROD, MAIN_KEY)
    store_api_key("qa", QA, OTHER_KEY)
    memory_keyring.set_password("someone-else", "their-entry", "kept")
    lock = ManagerLock.for_paths(load_settings(home), home)  # its seal key, in the keyring
    assert lock.failures == 0
    training = home.for_training()
    ManagerLock.for_paths(load_settings(training), training, training=True)
    assert len(memory_keyring.entries) == 5
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    assert main(["unprovision"]) == EXIT_OK
    assert memory_keyring.entries == {("someone-else", "their-entry"): "kept"}
    out = capsys.readouterr().out
    assert f"deleted  API key for production ({PROD})" in out
    assert f"deleted  API key for qa ({QA})" in out
    assert "deleted  manager lock seal of the kiosk" in out
    assert MAIN_KEY not in out
    assert OTHER_KEY not in out
    assert (SERVICE, entry_name("production", PROD)) not in memory_keyring.entries
    assert main(["unprovision"]) == EXIT_OK  # again: nothing left, still fine
    assert "none     API key for production" in capsys.readouterr().out

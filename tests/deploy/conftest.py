"""Deployment fixtures: a kiosk home of its own, a test keyring, settings files.

- ``home``: ``LOYALTY_KIOSK_HOME`` set to a temporary folder (machine file, config,
  data, logs all inside), and the resolved ``KioskPaths``;
- ``memory_keyring``: an in-memory keyring backend set explicitly with
  ``keyring.set_keyring`` (restored after the test): provision and the self-test
  use the real ``kiosk.core.security.secrets`` code on it;
- ``write_ini(paths, text)``: the machine-wide file as the installer writes it;
- ``read_only_folder(tmp_path)``: a folder this account cannot write (a chmod'ed one;
  as root, whom no mode stops, sysfs), or the test is skipped.
"""

from __future__ import annotations

import contextlib
import logging
import os
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path

import keyring
import pytest
from keyring.backend import KeyringBackend

from kiosk.core.settings.paths import ENV_HOME, KioskPaths, resolve_paths

ExpectLog = Callable[[str], None]


class MemoryKeyring(KeyringBackend):
    """A keyring in a dict: what the tests stored, and nothing else."""

    priority = 1

    def __init__(self) -> None:
        super().__init__()  # type: ignore[no-untyped-call]
        self.entries: dict[tuple[str, str], str] = {}

    def get_password(self, service: str, username: str) -> str | None:
        return self.entries.get((service, username))

    def set_password(self, service: str, username: str, password: str) -> None:
        self.entries[(service, username)] = password

    def delete_password(self, service: str, username: str) -> None:
        self.entries.pop((service, username), None)


@pytest.fixture
def memory_keyring() -> Iterator[MemoryKeyring]:
    previous = keyring.get_keyring()
    backend = MemoryKeyring()
    keyring.set_keyring(backend)
    try:
        yield backend
    finally:
        keyring.set_keyring(previous)


@pytest.fixture
def home(tmp_path: object, monkeypatch: pytest.MonkeyPatch) -> Iterator[KioskPaths]:
    monkeypatch.setenv(ENV_HOME, str(tmp_path))
    root = logging.getLogger()
    level, handlers = root.level, list(root.handlers)
    yield resolve_paths()
    root.setLevel(level)
    for handler in root.handlers[:]:
        if handler not in handlers:
            root.removeHandler(handler)
            handler.close()


def write_ini(paths: KioskPaths, text: str) -> None:
    paths.machine_settings.parent.mkdir(parents=True, exist_ok=True)
    paths.machine_settings.write_text(text, encoding="utf-8")


def _writable(folder: Path) -> bool:
    try:
        with tempfile.TemporaryFile(dir=folder):
            return True
    except OSError:
        return False


@contextlib.contextmanager
def read_only_folder(tmp_path: Path) -> Iterator[Path]:
    """A folder that exists and that this account cannot write into."""
    folder = tmp_path / "read-only"
    folder.mkdir()
    folder.chmod(0o555)
    try:
        if not _writable(folder):
            yield folder
            return
        sysfs = Path("/sys/kernel")  # root ignores modes; sysfs refuses new files to all
        if os.name == "posix" and sysfs.is_dir() and not _writable(sysfs):
            yield sysfs
            return
        pytest.skip("no folder this account cannot write")
    finally:
        folder.chmod(0o755)

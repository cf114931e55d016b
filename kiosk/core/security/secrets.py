"""The API key, kept only in the OS keyring of the account the kiosk runs under.

Never in a settings file, a log line or a command line. The keyring entry is named
after the environment and base URL, so a production key is never sent to QA.

The same keyring keeps the manager lock's seal (``LOCK_ENTRY``: a random key and the
number of the last write of each lock record, ``kiosk.core.security.seal``), so the
kiosk's own account cannot reset the wrong-PIN count by deleting or copying a file.
"""

from __future__ import annotations

import hashlib
import logging

import keyring
import keyring.errors
from keyring.backend import KeyringBackend

log = logging.getLogger(__name__)

SERVICE = "loyalty-kiosk"
LOCK_ENTRY = "manager-lock"


class KeyringUnavailable(RuntimeError):
    """No usable keyring backend: the key cannot be stored safely (never in plain text)."""


def entry_name(environment: str, base_url: str) -> str:
    digest = hashlib.sha256(base_url.rstrip("/").encode()).hexdigest()[:12]
    return f"{environment}:{digest}"


def usable_backend() -> KeyringBackend:
    backend = keyring.get_keyring()
    name = type(backend).__module__ + "." + type(backend).__name__
    if "fail" in name.lower() or "null" in name.lower() or "plaintext" in name.lower():
        raise KeyringUnavailable(f"no secure keyring backend ({type(backend).__name__})")
    return backend


def load_api_key(environment: str, base_url: str) -> str | None:
    """The stored key, or ``None`` when this kiosk has none for that environment."""
    backend = usable_backend()
    try:
        return backend.get_password(SERVICE, entry_name(environment, base_url))
    except keyring.errors.KeyringError as error:
        raise KeyringUnavailable(f"the keyring could not be read: {type(error).__name__}") from None


def store_api_key(environment: str, base_url: str, key: str) -> None:
    backend = usable_backend()
    try:
        backend.set_password(SERVICE, entry_name(environment, base_url), key)
    except keyring.errors.KeyringError as error:
        raise KeyringUnavailable(
            f"the keyring could not be written: {type(error).__name__}"
        ) from None
    log.info("API key stored in the keyring for %s", environment)


def load_secret(name: str) -> str | None:
    """The keyring entry ``name`` of this kiosk (``KeyringUnavailable`` without a keyring)."""
    backend = usable_backend()
    try:
        return backend.get_password(SERVICE, name)
    except keyring.errors.KeyringError as error:
        raise KeyringUnavailable(f"the keyring could not be read: {type(error).__name__}") from None


def store_secret(name: str, value: str) -> None:
    backend = usable_backend()
    try:
        backend.set_password(SERVICE, name, value)
    except keyring.errors.KeyringError as error:
        raise KeyringUnavailable(
            f"the keyring could not be written: {type(error).__name__}"
        ) from None

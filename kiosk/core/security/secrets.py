"""The API key, kept only in the OS keyring of the account the kiosk runs under.

Never in a settings file, a log line or a command line. The keyring entry is named
after the environment and base URL, so a production key is never sent to QA.

Entries are this machine's (``for_this_machine``: on Windows ``CRED_PERSIST_LOCAL_MACHINE``,
never roaming with the profile), and ``loyalty-kiosk-cli unprovision`` deletes them.

The same keyring keeps the manager lock's seal (``LOCK_ENTRY``: a random key and the
number of the last write of each lock record, ``kiosk.core.security.seal``), so
deleting or copying a file back does not reset the wrong-PIN count (code running as
the account could still read the key: docs/security.md).
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
    for_this_machine(backend)
    return backend


def for_this_machine(backend: KeyringBackend) -> None:
    """Windows' Credential Manager keeps what keyring writes as
    ``CRED_PERSIST_ENTERPRISE`` by default: it roams with a domain profile to every
    machine the account logs on to. The kiosk's entries are this machine's alone
    (``CRED_PERSIST_LOCAL_MACHINE``: keyring's ``persist`` attribute). Other backends
    have no such attribute and keep their own rule."""
    if "persist" in dir(type(backend)):
        try:
            backend.persist = "local machine"  # type: ignore[attr-defined]
        except (AttributeError, ValueError) as error:
            log.warning("the keyring's entries may roam with the profile: %s", error)


def forget(name: str) -> bool:
    """Delete this kiosk's keyring entry ``name``; whether there was one."""
    backend = usable_backend()
    try:
        if backend.get_password(SERVICE, name) is None:
            return False
        backend.delete_password(SERVICE, name)
    except keyring.errors.PasswordDeleteError:
        return False
    except keyring.errors.KeyringError as error:
        raise KeyringUnavailable(
            f"the keyring could not be changed: {type(error).__name__}"
        ) from None
    return True


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

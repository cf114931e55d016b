"""Why the kiosk cannot start crediting, in words for whoever must act: a manager (the
branch) or IT (the key). Raised while the counter is composed (``kiosk.wiring``),
shown by the start-up card (``kiosk.ui.startup_error``) before any PIN."""

from __future__ import annotations


class NotConfigured(RuntimeError):
    """The kiosk cannot start crediting: says what a manager or IT must do."""


class NoApiKey(NotConfigured):
    """No API key for this environment and URL in this account's keyring: only IT's
    ``provision`` fixes it (the start-up error screen says so, before any PIN)."""

    def __init__(self, environment: str, account: str) -> None:
        super().__init__(
            f"No API key for {environment} in this account's keyring ({account}): run "
            "`loyalty-kiosk-cli provision` as this account"
        )
        self.environment = environment


class KeyRefused(NotConfigured):
    """The service refused the stored API key (401): only a new key fixes it."""

    def __init__(self, environment: str, account: str) -> None:
        super().__init__(
            f"The service refused the API key for {environment} stored in this account's "
            f"keyring ({account}): store a valid key with `loyalty-kiosk-cli provision` "
            "as this account"
        )
        self.environment = environment

"""The connection's identity: environment, server address, the API key's fingerprint
and the branch. The outbox binds every row to it (a row never goes to another server,
key or branch than the one it was taken for); the manager's settings check a switch
against it."""

from __future__ import annotations

from dataclasses import dataclass

from kiosk.api.redact import key_fingerprint


@dataclass(frozen=True)
class Binding:
    """Where a row must go: environment, base URL, key fingerprint, branch."""

    environment: str
    base_url: str
    key_fingerprint: str
    branch_id: int | None

    @classmethod
    def of(cls, environment: str, base_url: str, api_key: str, branch_id: int | None) -> Binding:
        """From the key itself (only its fingerprint is kept)."""
        return cls(environment, base_url.rstrip("/"), key_fingerprint(api_key), branch_id)

    def differences(self, other: Binding) -> list[str]:
        names = {
            "environment": "environment",
            "base_url": "server address",
            "key_fingerprint": "API key",
            "branch_id": "branch",
        }
        return [text for attr, text in names.items() if getattr(self, attr) != getattr(other, attr)]

    def describe(self) -> str:
        branch = "no branch" if self.branch_id is None else f"branch {self.branch_id}"
        return f"{self.environment} ({self.base_url}, {branch}, key sha:{self.key_fingerprint})"

"""The crash-report endpoint's setting: a Sentry DSN, and the addresses it names."""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import urlsplit

from kiosk.core.settings.values import _LOOPBACK, _text

EXAMPLE = "must be a Sentry DSN like https://KEY@o1.ingest.sentry.io/42"


def sentry_dsn(raw: object) -> str | None:
    """A Sentry DSN: ``https://PUBLIC_KEY@HOST/PROJECT_ID`` (the public key only: a DSN
    with a secret part, a query or no project id is refused)."""
    if raw is None or _text(raw) == "":
        return None
    text = _text(raw)
    if text is None:
        raise ValueError(EXAMPLE)
    parts = urlsplit(text)
    project = parts.path.rstrip("/").rsplit("/", 1)[-1]
    if parts.scheme not in ("https", "http") or not parts.hostname or not parts.username:
        raise ValueError(EXAMPLE)
    if parts.scheme == "http" and parts.hostname not in _LOOPBACK:
        raise ValueError("must use https (plain http only for localhost)")
    if parts.password or parts.query or parts.fragment or not project.isdigit():
        raise ValueError(EXAMPLE)
    return text


@dataclass(frozen=True)
class Dsn:
    public_key: str
    envelope_url: str  # https://HOST[:PORT][/PATH]/api/PROJECT_ID/envelope/
    project_id: str

    @classmethod
    def parse(cls, text: str) -> Dsn:
        checked = sentry_dsn(text)
        if checked is None:
            raise ValueError(EXAMPLE)
        parts = urlsplit(checked)
        path, _, project = parts.path.rstrip("/").rpartition("/")
        host = parts.hostname or ""
        netloc = f"[{host}]" if ":" in host else host
        if parts.port is not None:
            netloc += f":{parts.port}"
        url = f"{parts.scheme}://{netloc}{path}/api/{project}/envelope/"
        return cls(parts.username or "", url, project)

    def auth_header(self, client: str) -> str:
        return f"Sentry sentry_version=7, sentry_key={self.public_key}, sentry_client={client}"

"""The handler-side redaction: secrets, secret URLs, emails and documents."""

from __future__ import annotations

import io
import logging
from collections.abc import Callable, Iterator

import pytest

from kiosk.api import logsafety
from kiosk.api.session import ApiKey

SECRET = "k3y-" + "x" * 20
URL = "https://registro.example.test/r/ABCDEF123456"


@pytest.fixture
def stream_logger() -> Iterator[tuple[logging.Logger, io.StringIO]]:
    stream = io.StringIO()
    handler = logsafety.install(logging.StreamHandler(stream))
    handler.setFormatter(logging.Formatter("%(name)s %(message)s"))
    logger = logging.getLogger("kiosk.test_logsafety")
    child = logging.getLogger("kiosk.test_logsafety.child")
    logger.addHandler(handler)
    logger.setLevel(logging.DEBUG)
    logsafety.register_secret(SECRET)
    logsafety.register_secret_url(URL)
    try:
        yield child, stream
    finally:
        logger.removeHandler(handler)
        logger.setLevel(logging.NOTSET)
        logsafety.forget_secret(SECRET)


def test_secret_url_email_and_document_are_masked_in_child_records(
    stream_logger: tuple[logging.Logger, io.StringIO],
) -> None:
    logger, stream = stream_logger
    logger.info("key=%s url=%s, mail %s dni %s", SECRET, URL, "ana.perez@gmail.com", "30.123.456")
    logger.info("GET /search?query=ana.perez%%40gmail.com -> 200")
    text = stream.getvalue()
    assert SECRET not in text
    assert URL not in text
    assert "ABCDEF123456" not in text
    assert "ana.perez" not in text
    assert "30.123.456" not in text
    assert "30123456" not in text
    assert "<secret url>," in text
    assert "a***@gmail.com" in text
    assert "****3456" in text
    assert text.count("kiosk.test_logsafety.child") == 2


def test_tracebacks_are_redacted_too(
    stream_logger: tuple[logging.Logger, io.StringIO], expect_log: Callable[[str], None]
) -> None:
    expect_log("^failed$")
    logger, stream = stream_logger
    try:
        raise RuntimeError(f"boom {SECRET} {URL} juan.perez@example.com")
    except RuntimeError:
        logger.exception("failed")
    text = stream.getvalue()
    assert "RuntimeError" in text
    assert "Traceback" in text
    assert SECRET not in text
    assert URL not in text
    assert "juan.perez" not in text


def test_other_urls_and_short_values_are_left_alone() -> None:
    logsafety.register_secret("abc")  # too short to be a key: would mask ordinary words
    assert logsafety.redact("abc https://example.test/ok") == "abc https://example.test/ok"


def test_formatter_wrapper_redacts_whole_lines() -> None:
    record = logging.LogRecord("x", logging.INFO, __file__, 1, "%s", (SECRET,), None)
    logsafety.register_secret(SECRET)
    try:
        out = logsafety.RedactingFormatter(logging.Formatter("%(message)s")).format(record)
    finally:
        logsafety.forget_secret(SECRET)
    assert out == logsafety.MASK


def test_install_is_idempotent() -> None:
    handler = logging.NullHandler()
    logsafety.install(handler)
    logsafety.install(handler)
    assert sum(isinstance(f, logsafety.RedactingFilter) for f in handler.filters) == 1


def test_api_key_holder_never_shows_or_pickles_the_key() -> None:
    import pickle

    key = ApiKey(SECRET)
    assert SECRET not in repr(key)
    assert SECRET not in str(key)
    assert key.reveal() == SECRET
    with pytest.raises(TypeError):
        pickle.dumps(key)
    with pytest.raises(ValueError, match="API key is needed"):
        ApiKey("  ")


def test_log_safety_loads_without_the_http_client() -> None:
    """The app installs the filter before its first paint: no httpx on that path."""
    import subprocess
    import sys

    code = "import sys, kiosk.api.logsafety; print('httpx' in sys.modules)"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "False"


def test_package_exports_every_lazy_name() -> None:
    import kiosk.api

    assert sorted(kiosk.api.__all__) == sorted(kiosk.api._WHERE)
    for name in kiosk.api.__all__:
        assert getattr(kiosk.api, name) is not None

"""Keys and personal data in messages (issue #17, item 12), and what ``provision`` says
on a bad day (issue #18): the real commands, their console output and ``kiosk.log``.

- argparse never echoes a value that could be a key, never takes an abbreviation
  (``--key KEY`` is not ``--key-file KEY``), and says to rotate a key typed on a
  command line;
- ``kiosk.log`` (which ships in the diagnostics zip) never keeps a key, whole, cut
  short or in the ``lk_live_…`` shape, nor a manager's client search term;
- the key file is deleted only once the key is stored, and the output says which;
- a network failure names the server and the likely cause.
"""

from __future__ import annotations

import io
import logging
import zipfile
from pathlib import Path

import pytest

from kiosk.__main__ import main
from kiosk.api import logsafety
from kiosk.cli.args import EXIT_FAILED, EXIT_OK, EXIT_USAGE
from kiosk.cli.diagnostics import write_diagnostics
from kiosk.core.logs import setup_logging
from kiosk.core.settings.paths import KioskPaths
from tests.conftest import MAIN_KEY
from tests.deploy.conftest import ExpectLog, MemoryKeyring, write_ini

pytestmark = pytest.mark.usefixtures("home")

LIVE_KEY = "lk_live_7Qx2Vb9Kp4Lm8Nz3Rt6Wy1Hs5"  # 30 characters, as the issue's
ROTATE = "rotate this key"


def shown(capsys: pytest.CaptureFixture[str], paths: KioskPaths) -> str:
    captured = capsys.readouterr()
    logs = "".join(p.read_text() for p in paths.log_dir.glob("kiosk.log*"))
    return captured.out + captured.err + logs


def run(argv: list[str], stdin: str = "", monkeypatch: pytest.MonkeyPatch | None = None) -> int:
    if monkeypatch is not None:
        monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
    try:
        return main(argv)
    except SystemExit as exit_info:  # argparse's own exit
        return int(exit_info.code or 0)


def no_piece_of(key: str, text: str) -> bool:
    """Not even a third of the key, anywhere in ``text``."""
    piece = max(8, len(key) // 3)
    return not any(key[i : i + piece] in text for i in range(len(key) - piece + 1))


@pytest.mark.parametrize(
    "argv",
    [
        ["provision", f"--api-key={LIVE_KEY}"],
        ["provision", "--key", LIVE_KEY],
        ["provision", "--branch", LIVE_KEY],
        ["provision", "--environment", LIVE_KEY],
        [f"--api-key={LIVE_KEY}", "--self-test"],
        ["--shutdown", "--wait", LIVE_KEY],
    ],
    ids=["api-key=", "key", "branch", "environment", "top-level", "wait"],
)
def test_argparse_never_echoes_a_key_and_says_to_rotate_it(
    home: KioskPaths,
    memory_keyring: MemoryKeyring,
    capsys: pytest.CaptureFixture[str],
    argv: list[str],
) -> None:
    assert run(argv) == EXIT_USAGE
    everything = shown(capsys, home)
    assert no_piece_of(LIVE_KEY, everything), everything
    assert ROTATE in everything
    assert memory_keyring.entries == {}


@pytest.mark.parametrize(
    "argv",
    [
        ["--self"],
        ["--diag"],
        ["--shut"],
        ["provision", "--key-f", "k.txt"],
        ["provision", "--br", "3"],
    ],
)
def test_options_are_never_abbreviated(capsys: pytest.CaptureFixture[str], argv: list[str]) -> None:
    assert run(argv) == EXIT_USAGE
    assert "unrecognized arguments" in capsys.readouterr().err


def test_short_values_and_paths_are_still_shown(capsys: pytest.CaptureFixture[str]) -> None:
    """What cannot be a key (shorter than any) is shown, so IT sees its typo."""
    assert run(["provision", "--environment", "prod"]) == EXIT_USAGE
    err = capsys.readouterr().err
    assert "invalid choice: 'prod'" in err
    assert ROTATE not in err


def test_a_key_given_as_the_key_file_is_never_shown(
    home: KioskPaths,
    memory_keyring: MemoryKeyring,
    capsys: pytest.CaptureFixture[str],
    expect_log: ExpectLog,
) -> None:
    expect_log("provision failed")
    write_ini(home, "[connection]\nenvironment = production\nproduction_url = https://x.test\n")
    assert run(["provision", "--key-file", LIVE_KEY]) == EXIT_USAGE
    everything = shown(capsys, home)
    assert no_piece_of(LIVE_KEY, everything), everything
    assert "key file <not shown> not found" in everything
    assert ROTATE in everything


def test_a_missing_key_file_path_is_shown(
    home: KioskPaths, tmp_path: Path, capsys: pytest.CaptureFixture[str], expect_log: ExpectLog
) -> None:
    expect_log("provision failed")
    missing = tmp_path / "share" / "kiosk-07.key"
    assert run(["provision", "--key-file", str(missing)]) == EXIT_USAGE
    assert f"key file {missing} not found" in capsys.readouterr().err


def test_the_log_never_keeps_a_key_whole_cut_or_shaped_like_one(
    home: KioskPaths, expect_log: ExpectLog
) -> None:
    expect_log("provision failed")
    handlers = setup_logging(home.log_dir)
    try:
        registered = "Zq8-1c0ffee2d00d3beef4cafe5babe6"  # a key the kiosk read (registered)
        logsafety.register_secret(registered)
        log = logging.getLogger("kiosk.cli.commands")
        log.warning("provision failed: key file %s not found", LIVE_KEY)  # never registered
        log.warning("provision failed: key file %s… not found", LIVE_KEY[:25])  # cut
        log.warning("provision failed: %s and %s", registered[:20], registered[-16:])
        log.warning("provision failed: sk_test_51HxYz… was refused")
    finally:
        for handler in handlers:
            logging.getLogger().removeHandler(handler)
            handler.close()
        logsafety.forget_secret(registered)
    text = (home.log_dir / "kiosk.log").read_text(encoding="utf-8")
    assert no_piece_of(LIVE_KEY, text), text
    assert no_piece_of(registered, text), text
    assert "sk_test_51HxYz" not in text
    assert "lk_live_***" in text


def test_a_client_search_term_is_masked_in_the_log_and_the_diagnostics(
    home: KioskPaths, tmp_path: Path
) -> None:
    home.log_dir.mkdir(parents=True)
    # A line an older version wrote, then the counter's search as the API client logs it.
    (home.log_dir / "kiosk.log.1").write_text(
        "INFO kiosk.api.session: GET /external/clients?page=1&query=Santiago -> 200\n",
        encoding="utf-8",
    )
    handlers = setup_logging(home.log_dir)
    try:
        logging.getLogger("kiosk.api.session").info(
            "GET %s -> 200", "/external/clients/search?query=Santiago%20Ram%C3%ADrez"
        )
    finally:
        for handler in handlers:
            logging.getLogger().removeHandler(handler)
            handler.close()
    assert "Santiago" not in (home.log_dir / "kiosk.log").read_text(encoding="utf-8")
    assert "query=S***" in (home.log_dir / "kiosk.log").read_text(encoding="utf-8")
    target, _ = write_diagnostics(home, demo=True, out=str(tmp_path / "d.zip"))
    with zipfile.ZipFile(target) as archive:
        logs = "".join(archive.read(n).decode() for n in archive.namelist() if "logs/" in n)
    assert "Santiago" not in logs
    assert "Ram" not in logs
    assert logs.count("query=S***") == 2


# --- provision on a bad day -----------------------------------------------------------


def test_the_key_file_is_kept_when_the_key_was_never_checked(
    home: KioskPaths,
    memory_keyring: MemoryKeyring,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    expect_log: ExpectLog,
) -> None:
    """The file may be the only copy of the key: a failed check keeps it, and says so."""
    expect_log("provision failed")
    expect_log("GET /external/branch")
    write_ini(
        home,
        "[connection]\nenvironment = production\n"
        "production_url = https://loyalty-api.invalid\nbranch_id = 1\n",
    )
    key_file = tmp_path / "kiosk-07.key"
    key_file.write_text(MAIN_KEY + "\n", encoding="utf-8")
    assert run(["provision", "--key-file", str(key_file)], monkeypatch=monkeypatch) == EXIT_FAILED
    assert key_file.read_text(encoding="utf-8") == MAIN_KEY + "\n"
    assert memory_keyring.entries == {}
    err = shown(capsys, home)
    assert f"nothing was stored, the key file {key_file} was kept" in err
    # The network failure names the server and the likely cause, not only httpx's words.
    assert "cannot reach https://loyalty-api.invalid: its name is not found (DNS)" in err
    assert MAIN_KEY not in err


def test_the_key_file_is_deleted_once_the_key_is_stored_and_the_output_says_so(
    home: KioskPaths,
    sim_url: str,
    memory_keyring: MemoryKeyring,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
) -> None:
    write_ini(
        home, f"[connection]\nenvironment = production\nproduction_url = {sim_url}\nbranch_id = 1\n"
    )
    key_file = tmp_path / "kiosk-07.key"
    key_file.write_text(MAIN_KEY, encoding="utf-8")
    assert run(["provision", "--key-file", str(key_file)], monkeypatch=monkeypatch) == EXIT_OK
    assert not key_file.exists()
    out = capsys.readouterr().out
    assert out.index("is stored") < out.index(f"the key file {key_file} was deleted")

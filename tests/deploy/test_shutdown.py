"""One kiosk per user, and ``--shutdown`` through its local server.

A stand-in kiosk (``tests/deploy/instance_child.py``: the real ``claim`` in a
``QCoreApplication``) runs as a separate process; ``--shutdown`` must close it and
wait for its exit, a second start must bring it to the front. The server side is
also driven in process on the qasync loop, as the counter app runs it.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import IO, Any

import pytest
from PySide6.QtCore import QDir

from kiosk.__main__ import main
from kiosk.cli import instance, shutdown
from kiosk.cli.args import EXIT_FAILED, EXIT_NOT_RUNNING, EXIT_OK
from kiosk.core.settings.paths import KioskPaths
from tests.qt_async import until, wait_signal

ROOT = Path(__file__).resolve().parents[2]


def child(mode: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "tests.deploy.instance_child", mode],
        cwd=ROOT,
        env=dict(os.environ),
        stdout=subprocess.PIPE,
        text=True,
    )


def line(stream: IO[str] | None) -> str:
    assert stream is not None
    return stream.readline().strip()


@pytest.fixture
def kiosk(home: KioskPaths) -> Iterator[subprocess.Popen[str]]:
    process = child("serve")
    try:
        assert line(process.stdout) == f"listening {instance.server_name(home)}"
        yield process
    finally:
        if process.poll() is None:
            process.kill()
        process.wait(10)
        if process.stdout:
            process.stdout.close()


def test_shutdown_closes_the_kiosk_and_waits_for_its_exit(
    kiosk: subprocess.Popen[str], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["--shutdown", "--wait", "20"]) == EXIT_OK
    assert f"kiosk closed (process {kiosk.pid})" in capsys.readouterr().out
    assert kiosk.wait(10) == 0
    assert line(kiosk.stdout) == "closed"


def test_shutdown_with_no_kiosk_running(
    home: KioskPaths, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["--shutdown"]) == EXIT_NOT_RUNNING
    assert "no kiosk is running" in capsys.readouterr().out


def test_a_second_start_brings_the_first_to_the_front(kiosk: subprocess.Popen[str]) -> None:
    second = child("claim")
    out, _ = second.communicate(timeout=30)
    assert second.returncode == 0
    assert out.strip() == "already running"
    assert line(kiosk.stdout) == "activated"
    assert kiosk.poll() is None


def test_all_users_reaches_every_kiosk_found(
    kiosk: subprocess.Popen[str],
    home: KioskPaths,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    name = instance.server_name(home)
    found = instance.find_servers()
    assert any(Path(f).name == name for f in found), found
    # Only this test's kiosk: never other kiosks that may run on this machine.
    monkeypatch.setattr(shutdown, "find_servers", lambda: [f for f in found if name in f])
    assert shutdown.shutdown(home, all_users=True, wait=20, out=sys.stdout, err=sys.stderr) == 0
    assert kiosk.wait(10) == 0


def test_the_server_in_the_apps_loop_answers_and_asks_to_close(
    home: KioskPaths, arun: Callable[..., Any]
) -> None:
    server = instance.claim(home)
    assert server is not None
    client = subprocess.Popen(
        [sys.executable, "-m", "kiosk", "--shutdown", "--wait", "0.3"],
        cwd=ROOT,
        env=dict(os.environ),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )

    async def scenario() -> None:
        await wait_signal(server.shutdown_requested, timeout=30)
        await until(lambda: client.poll() is not None, timeout=30)

    try:
        arun(scenario())
    finally:
        server.close()
        if client.poll() is None:
            client.kill()
    # This process did not exit (it is the test): the client says so.
    assert client.returncode == EXIT_FAILED
    assert f"(process {os.getpid()}) still running" in client.communicate(timeout=10)[1]


@pytest.mark.skipif(sys.platform == "win32", reason="Unix sockets only")
def test_a_socket_left_by_a_crashed_kiosk_is_replaced(home: KioskPaths, qapp: Any) -> None:
    path = Path(QDir.tempPath()) / instance.server_name(home)
    stale = socket.socket(socket.AF_UNIX)
    stale.bind(str(path))
    stale.close()  # the file stays, nobody listens: as after a crash
    assert path.exists()
    server = instance.claim(home)
    try:
        assert server is not None
        assert server._server.isListening()
    finally:
        assert server is not None
        server.close()


def test_a_stranger_at_the_name_is_not_taken_for_a_kiosk(home: KioskPaths, qapp: Any) -> None:
    from PySide6.QtNetwork import QLocalServer

    impostor = QLocalServer()
    assert impostor.listen(instance.server_name(home) + "-x")
    try:
        with pytest.raises(instance.InstanceError):
            # Nothing greets: the client gives up instead of hanging.
            instance.send_command(impostor.fullServerName(), instance.SHUTDOWN, timeout_ms=300)
    finally:
        impostor.close()

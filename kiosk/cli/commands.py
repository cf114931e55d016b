"""Runs the IT commands (``kiosk.cli.args``) and turns their outcome into an exit code.

Messages go to standard output (results) and standard error (failures). The
windowed executable has neither on Windows: the outcome is then only in the exit
code and the kiosk's log, which is why the console companion exists.
"""

from __future__ import annotations

import logging
import sys
from argparse import Namespace
from typing import TextIO

from kiosk.cli.args import EXIT_FAILED, EXIT_OK, EXIT_USAGE
from kiosk.core.settings.paths import KioskPaths, resolve_paths

log = logging.getLogger(__name__)


def run_command(
    args: Namespace,
    *,
    paths: KioskPaths | None = None,
    stdin: TextIO | None = None,
    out: TextIO | None = None,
    err: TextIO | None = None,
) -> int:
    paths = paths or resolve_paths()
    stdin = stdin if stdin is not None else sys.stdin
    out = out if out is not None else sys.stdout
    err = err if err is not None else sys.stderr
    if args.shutdown:
        from kiosk.cli.shutdown import shutdown

        return shutdown(paths, all_users=args.all_users, wait=args.wait, out=out, err=err)
    root = logging.getLogger()
    level = root.level
    handlers = _start_logging(paths, err)
    try:
        return _run(args, paths, stdin, out, err)
    finally:
        root.setLevel(level)
        for handler in handlers:
            root.removeHandler(handler)
            handler.close()


def _start_logging(paths: KioskPaths, err: TextIO | None) -> list[logging.Handler]:
    from kiosk.core.logs import setup_logging

    try:
        return setup_logging(paths.log_dir)
    except OSError as error:
        _say(err, f"warning: no log file ({paths.log_dir}: {error.strerror})")
        return []


def _run(
    args: Namespace, paths: KioskPaths, stdin: TextIO | None, out: TextIO | None, err: TextIO | None
) -> int:
    if args.command == "provision":
        import asyncio

        from kiosk.cli.provision import ProvisionError, provision

        try:
            return asyncio.run(provision(args, paths, stdin=stdin, out=out))
        except ProvisionError as error:
            log.warning("provision failed: %s", error)
            _say(err, f"provision failed: {error}")
            return error.code
    if args.command == "unprovision":
        from kiosk.cli.unprovision import unprovision

        return unprovision(paths, out=out, err=err)
    if args.command == "reset-pin":
        from kiosk.cli.pin import reset_pin

        return reset_pin(paths, new_pin=args.new_pin, stdin=stdin, out=out, err=err)
    if args.command == "hash-pin":
        from kiosk.cli.pin import print_pin_hash

        return print_pin_hash(stdin, out, err)
    if args.self_test:
        from kiosk.cli.selftest import run_self_test

        code, text = run_self_test(paths.for_training() if args.demo else paths, demo=args.demo)
        _say(out, text.rstrip("\n"))
        return code
    if args.status:
        from kiosk.cli.status import print_status

        return print_status(
            paths.for_training() if args.demo else paths, as_json=args.json, out=out
        )
    if args.diagnostics:
        from kiosk.cli.diagnostics import write_diagnostics

        try:
            where = paths.for_training() if args.demo else paths  # training's own folders
            target, passed = write_diagnostics(where, demo=args.demo, out=args.out)
        except OSError as error:
            _say(err, f"diagnostics not written: {error}")
            return EXIT_FAILED
        _say(
            out,
            f"diagnostics written: {target}"
            + ("" if passed else " (the self-test failed: see self-test.txt inside)"),
        )
        return EXIT_OK
    _say(err, "no command given")
    return EXIT_USAGE


def _say(stream: TextIO | None, text: str) -> None:
    if stream is not None:
        stream.write(text + "\n")
        stream.flush()

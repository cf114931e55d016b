"""The IT commands' arguments, added to ``loyalty-kiosk``'s parser (``kiosk.__main__``).

::

    loyalty-kiosk [--demo] --self-test
    loyalty-kiosk [--demo] --diagnostics [--out PATH]
    loyalty-kiosk --shutdown [--all-users] [--wait SECONDS]
    loyalty-kiosk provision [--key-file PATH] [--branch ID] [--environment production|qa]

Only ``argparse`` here: this runs before the window's first paint. A command line
is never echoed back whole: argparse's error messages quote what they refuse, so
long tokens (a key typed on the command line by mistake) are masked in them.
"""

from __future__ import annotations

import argparse
import re
import sys
from typing import NoReturn

EXIT_OK = 0
EXIT_FAILED = 1  # a check failed, the key was refused, the kiosk did not close in time
EXIT_USAGE = 2  # wrong arguments or a configuration that must be fixed first
EXIT_NOT_RUNNING = 3  # --shutdown: no kiosk was running

_LONG_TOKEN = re.compile(r"(?<![\w-])[\w+/=.:~-]{16,}")


def mask_tokens(message: str) -> str:
    """``message`` with every long token (what a key looks like) replaced."""
    return _LONG_TOKEN.sub(
        lambda m: m.group(0) if m.group(0).startswith("-") else "<not shown>", message
    )


def _fail(parser: argparse.ArgumentParser, message: str) -> NoReturn:
    parser.print_usage(sys.stderr)
    parser.exit(EXIT_USAGE, f"{parser.prog}: error: {mask_tokens(message)}\n")


class QuietParser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        _fail(self, message)


def _quiet(parser: argparse.ArgumentParser) -> None:
    def error(message: str) -> NoReturn:
        _fail(parser, message)

    parser.error = error  # type: ignore[method-assign]


def add_commands(parser: argparse.ArgumentParser) -> None:
    _quiet(parser)
    it = parser.add_argument_group("IT commands (console companion: loyalty-kiosk-cli)")
    command = it.add_mutually_exclusive_group()
    command.add_argument(
        "--self-test",
        action="store_true",
        help="check settings, keyring, API key, branch, validation QR and outbox; "
        "one line per check, exit 1 if any fails",
    )
    command.add_argument(
        "--diagnostics",
        action="store_true",
        help="write a zip for support: logs, settings, versions, self-test (never the key)",
    )
    command.add_argument(
        "--shutdown",
        action="store_true",
        help="close the running kiosk cleanly (exit 3 if none was running)",
    )
    it.add_argument("--out", metavar="PATH", help="--diagnostics: the zip file or its folder")
    it.add_argument(
        "--all-users",
        action="store_true",
        help="--shutdown: every kiosk on this machine (the installer uses it)",
    )
    it.add_argument(
        "--wait",
        type=float,
        default=30.0,
        metavar="SECONDS",
        help="--shutdown: how long to wait for the kiosk to exit (default 30)",
    )
    subcommands = parser.add_subparsers(
        dest="command", metavar="{provision,reset-pin,hash-pin}", parser_class=QuietParser
    )
    provision = subcommands.add_parser(
        "provision",
        help="check the API key and store it in this account's keyring",
        description="Reads the API key from standard input (or --key-file, deleted after "
        "reading), checks it against the configured environment (GET /external/branch), "
        "optionally binds the branch, and stores it in the keyring of the account running "
        "this command. The key is never accepted on the command line and never printed.",
    )
    provision.add_argument(
        "--key-file", metavar="PATH", help="read the key from this file, then delete it"
    )
    provision.add_argument(
        "--branch", type=int, metavar="ID", help="bind the kiosk to this branch (checked first)"
    )
    provision.add_argument(
        "--environment",
        choices=("production", "qa"),
        help="store the key for this environment instead of the configured one",
    )
    provision.add_argument(
        "--force",
        action="store_true",
        help="store the key even though credits bound to the old key wait "
        "in the outbox (only when the old key is revoked)",
    )
    provision.add_argument("stray", nargs="*", help=argparse.SUPPRESS)
    reset = subcommands.add_parser(
        "reset-pin",
        help="clear the manager PIN and its lockout (administrator rights)",
        description="Clears the manager PIN in the machine-wide settings and the lockout, so "
        "the next manager sets a new PIN. With --new-pin, reads a new PIN from standard "
        "input instead (never from the command line). The running kiosk reads it at its "
        "next start.",
    )
    reset.add_argument("--new-pin", action="store_true", help="read a new PIN from standard input")
    subcommands.add_parser(
        "hash-pin",
        help="print the manager_pin_hash line for kiosk.ini from a PIN read on standard input",
    )


def is_command(args: argparse.Namespace) -> bool:
    """Whether the arguments ask for an IT command rather than the counter app."""
    return bool(
        getattr(args, "command", None)
        or getattr(args, "self_test", False)
        or getattr(args, "diagnostics", False)
        or getattr(args, "shutdown", False)
    )

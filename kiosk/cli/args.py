"""The IT commands' arguments, added to ``loyalty-kiosk``'s parser (``kiosk.__main__``).

::

    loyalty-kiosk [--demo] --self-test
    loyalty-kiosk [--demo] --diagnostics [--out PATH]
    loyalty-kiosk --shutdown [--all-users] [--wait SECONDS]
    loyalty-kiosk provision [--key-file PATH] [--branch ID] [--environment production|qa]
    loyalty-kiosk unprovision

Only ``argparse`` here: this runs before the window's first paint. A command line
is never echoed back whole: argparse's error messages quote what they refuse, so
every value given that could be a key (8 characters or more, not an option's name
or choice) is masked in them, and the message then says to rotate a key typed
there. Options are never abbreviated (``allow_abbrev=False``): ``--key KEY`` is
not ``--key-file KEY``.
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Iterator, Sequence
from typing import Any, NoReturn

EXIT_OK = 0
EXIT_FAILED = 1  # a check failed, the key was refused, the kiosk did not close in time
EXIT_USAGE = 2  # wrong arguments or a configuration that must be fixed first
EXIT_NOT_RUNNING = 3  # --shutdown: no kiosk was running

NOT_SHOWN = "<not shown>"
SECRET_MIN = 8  # the shortest API key provision accepts: shorter values are shown
ROTATE = (
    "if this command line held an API key, rotate this key (a command line stays in "
    "the shell history and the process list) and pipe the new one into "
    "'loyalty-kiosk-cli provision'"
)
_LONG_TOKEN = re.compile(r"(?<![\w-])[\w+/=.:~-]{16,}")


def mask_tokens(message: str) -> str:
    """``message`` with every long token (what a key looks like) replaced; an option
    keeps its name (``--api-key=<not shown>``)."""

    def mask(match: re.Match[str]) -> str:
        token = match.group(0)
        if not token.startswith("-"):
            return NOT_SHOWN
        name, equals, value = token.partition("=")
        return f"{name}={NOT_SHOWN}" if equals and value else token

    return _LONG_TOKEN.sub(mask, message)


def _actions(parser: argparse.ArgumentParser) -> Iterator[argparse.Action]:
    """Every action of ``parser`` and of its commands' parsers."""
    for action in parser._actions:
        yield action
        if isinstance(action, argparse._SubParsersAction):
            for command in action.choices.values():
                yield from _actions(command)


def secret_values(parser: argparse.ArgumentParser, given: list[str]) -> tuple[list[str], bool]:
    """(the values of ``given`` that could be a key, longest first; whether one of them
    stands where no option takes a value: a key typed by mistake, exposed)."""
    known: set[str] = set()
    takes_value: set[str] = set()
    for action in _actions(parser):
        known.update(action.option_strings)
        if action.choices:
            known.update(str(choice) for choice in action.choices)
        if action.option_strings and action.nargs != 0:
            takes_value.update(action.option_strings)
    found: set[str] = set()
    exposed = False
    previous = ""
    for token in given:
        if token not in known:
            option, equals, value = (
                token.partition("=") if token.startswith("-") else ("", "", token)
            )
            if len(value.strip()) >= SECRET_MIN:
                found.add(value)
                exposed = exposed or (
                    option not in takes_value if equals else previous not in takes_value
                )
        previous = token
    return sorted(found, key=len, reverse=True), exposed


def masked_error(parser: argparse.ArgumentParser, message: str, given: list[str]) -> str:
    """argparse's ``message`` without any value of ``given`` that could be a key, and
    the advice to rotate it when one was masked or stood where no option takes it."""
    values, exposed = secret_values(parser, given)
    for value in values:
        message = message.replace(value, NOT_SHOWN)
    masked = mask_tokens(message)
    if exposed or NOT_SHOWN in masked:
        return f"{masked}\n{parser.prog}: {ROTATE}"
    return masked


def _fail(parser: argparse.ArgumentParser, message: str, given: list[str]) -> NoReturn:
    parser.print_usage(sys.stderr)
    parser.exit(EXIT_USAGE, f"{parser.prog}: error: {masked_error(parser, message, given)}\n")


class QuietParser(argparse.ArgumentParser):
    """An ``ArgumentParser`` whose errors never echo a value that could be a key, and
    that never takes an abbreviation for an option."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs["allow_abbrev"] = False
        super().__init__(*args, **kwargs)
        self._given: list[str] = []

    def parse_known_args(  # type: ignore[override]
        self, args: Sequence[str] | None = None, namespace: Any = None
    ) -> tuple[argparse.Namespace, list[str]]:
        self._given = list(sys.argv[1:] if args is None else args)
        return super().parse_known_args(args, namespace)

    def error(self, message: str) -> NoReturn:
        _fail(self, message, self._given)


def _quiet(parser: argparse.ArgumentParser) -> None:
    """The same for a parser made elsewhere (it must not allow abbreviations)."""
    parser.allow_abbrev = False

    def error(message: str) -> NoReturn:
        _fail(parser, message, sys.argv[1:])

    parser.error = error  # type: ignore[method-assign]


def add_commands(parser: argparse.ArgumentParser) -> None:
    if not isinstance(parser, QuietParser):
        _quiet(parser)
    it = parser.add_argument_group("IT commands (console companion: loyalty-kiosk-cli)")
    command = it.add_mutually_exclusive_group()
    command.add_argument(
        "--self-test",
        action="store_true",
        help="check settings, folders and free space, keyring, API key, branch, validation "
        "QR and outbox; one line per check, exit 1 if any fails",
    )
    command.add_argument(
        "--diagnostics",
        action="store_true",
        help="write a zip for support: logs, settings, versions, self-test (never the key)",
    )
    command.add_argument(
        "--status",
        action="store_true",
        help="the kiosk's health: version, environment, branch, online, credits waiting, "
        "free disk (with --json: one JSON line for Intune or a script); exit 1 if unhealthy",
    )
    command.add_argument(
        "--shutdown",
        action="store_true",
        help="close the running kiosk cleanly (exit 3 if none was running)",
    )
    it.add_argument("--out", metavar="PATH", help="--diagnostics: the zip file or its folder")
    it.add_argument("--json", action="store_true", help="--status: one JSON line")
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
        dest="command",
        metavar="{provision,unprovision,reset-pin,hash-pin}",
        parser_class=QuietParser,
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
    subcommands.add_parser(
        "unprovision",
        help="delete this account's keyring entries of the kiosk (API keys, lock seal)",
        description="Deletes the API keys stored for IT's production and QA addresses and "
        "the manager lock's seal keys from the keyring of the account running this "
        "command. Run it as the kiosk's account before removing the kiosk for good.",
    )
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
        or getattr(args, "status", False)
        or getattr(args, "shutdown", False)
    )

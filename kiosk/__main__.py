"""``loyalty-kiosk`` / ``python -m kiosk``: the counter app and its commands."""

from __future__ import annotations

import argparse
import time

from kiosk import __version__

STARTED = time.perf_counter()


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    # argparse only: IT commands (kiosk/cli). A parser that never takes an abbreviation
    # and never echoes a value that could be a key in its errors.
    from kiosk.cli.args import QuietParser, add_commands

    parser = QuietParser(
        prog="loyalty-kiosk",
        description="Loyalty Kiosk: the counter app of the merchant's loyalty-points program.",
    )
    parser.add_argument(
        "--demo",
        action="store_true",
        help="training mode: the embedded simulator, no API key and no network",
    )
    parser.add_argument(
        "--smoke",
        action="store_true",
        help="start, paint, load the data, print the time to first paint and to ready, exit",
    )
    parser.add_argument(
        "--version",
        action="version",
        version=f"%(prog)s {__version__}",
        help="print the version (what is installed) and exit",
    )
    add_commands(parser)
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    from kiosk.cli.args import is_command

    if is_command(args):
        from kiosk.cli.commands import run_command

        return run_command(args)
    from kiosk.app import run

    return run(args, STARTED)


if __name__ == "__main__":
    raise SystemExit(main())

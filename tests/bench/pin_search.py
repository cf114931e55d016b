"""How long an offline search of the manager PIN's hash takes, at the kiosk's scrypt cost.

Run: ``.venv/bin/python tests/bench/pin_search.py [-n 5]``

``kiosk.ini`` is readable by every user and holds ``manager_pin_hash``. Whoever copies
it can try PINs against it on their own machine, with no lockout: what stops them is
the cost of one try (``kiosk.core.security.pin_hash.OWASP``: scrypt N=2^17, r=8, p=1,
128 MiB) times the number of PINs of the allowed length. This times ``-n`` checks on
one core (``verify_pin``, as a search would call it) and prints the median, then the
time to try every PIN of 4, 6, 8, 10 and 12 digits on one core and on 100 cores
(memory-hard: each core needs its 128 MiB; a GPU gains little). The numbers quoted in
``docs/security.md`` come from this script.
"""

from __future__ import annotations

import argparse
import statistics
import time

from kiosk.core.security.pin_hash import OWASP, hash_pin, verify_pin

YEAR = 365.25 * 86400


def spoken(seconds: float) -> str:
    for unit, size in (("years", YEAR), ("days", 86400.0), ("hours", 3600.0), ("min", 60.0)):
        if seconds >= size:
            return f"{seconds / size:,.1f} {unit}"
    return f"{seconds:.1f} s"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-n", type=int, default=5, help="checks to time (default 5)")
    args = parser.parse_args()
    stored = hash_pin("48213957", OWASP)
    times = []
    for candidate in range(args.n):
        started = time.perf_counter()
        verify_pin(f"{candidate:08d}", stored)
        times.append(time.perf_counter() - started)
    each = statistics.median(times)
    print(f"scrypt N={OWASP.n} r={OWASP.r} p={OWASP.p}: {each:.3f} s per try (median of {args.n})")
    for digits in (4, 6, 8, 10, 12):
        space = 10**digits
        print(
            f"{digits:>2} digits: every PIN in {spoken(space * each)} on one core, "
            f"{spoken(space * each / 100)} on 100 cores (half that on average)"
        )


if __name__ == "__main__":
    main()

"""``python -m kiosk.cli ...``: the same program as ``python -m kiosk``."""

from kiosk.__main__ import main

if __name__ == "__main__":
    raise SystemExit(main())

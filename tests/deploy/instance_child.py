"""A stand-in kiosk process for the single-instance tests (no window, no counter).

    python -m tests.deploy.instance_child serve   # claim, print "listening", serve until shutdown
    python -m tests.deploy.instance_child claim   # claim once: "claimed" or "already running"

It uses the same ``kiosk.cli.instance.claim`` as the counter app, with the kiosk
paths of ``LOYALTY_KIOSK_HOME``.
"""

from __future__ import annotations

import sys

from PySide6.QtCore import QCoreApplication

from kiosk.cli.instance import claim
from kiosk.core.settings.paths import resolve_paths


def main(mode: str) -> int:
    app = QCoreApplication(sys.argv[:1])
    server = claim(resolve_paths())
    if server is None:
        print("already running", flush=True)
        return 0
    if mode == "claim":
        print("claimed", flush=True)
        server.close()
        return 0
    server.activate_requested.connect(lambda: print("activated", flush=True))
    server.shutdown_requested.connect(app.quit)
    print(f"listening {server.name}", flush=True)
    code = app.exec()
    server.close()
    print("closed", flush=True)
    return code


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1]))

"""The frozen bundle's entry point (both executables): ``kiosk.__main__.main``.

The windowed ``loyalty-kiosk`` and the console ``loyalty-kiosk-cli`` run this same
script; only the console flag of the executable differs (see ``build/kiosk.spec``).
"""

from kiosk.__main__ import main

raise SystemExit(main())

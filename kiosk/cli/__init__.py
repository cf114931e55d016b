"""The kiosk's commands for IT, run from the console companion (``loyalty-kiosk-cli``)
or ``python -m kiosk``: ``provision``, ``--self-test``, ``--diagnostics``,
``--shutdown``; and the single-instance server the counter app starts
(``kiosk.cli.instance``).

Importing this package imports nothing: ``kiosk.__main__`` reads its arguments
(``kiosk.cli.args``) before the window's first paint.
"""

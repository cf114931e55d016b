"""What IT's fleet tools see of a kiosk: the events it writes for the Windows Event
Log (``events``), the status its heartbeat posts and ``--status --json`` prints
(``status``, ``heartbeat``) and the crash records kept offline (``crashes``).

None of it carries a client's data or the API key; none of it may disturb the
counter (every failure is logged once and forgotten)."""

"""Manager mode (issue #6): the PIN lock, kiosk mode, and the manager's settings.

- ``gate.ManagerScreen``: the rail's "Manager" entry; ``gate.ManagerGate``: the lock
  panel (``lock_panel``, ``pin_pad``) until the PIN opens it, then the manager view.
- ``manager_view.ManagerView``: the sections (``Section(title, icon_name, factory)``):
  "Settings" (``settings_screen``) and the program-administration screens.
- ``kiosk_mode.KioskModeGuard``: full screen, frameless, no close without the PIN.
- ``assemble``: one call that builds all of it for the counter window.

The logic lives in ``kiosk.core.security.lock`` and ``kiosk.core.admin.manager_settings``.
"""

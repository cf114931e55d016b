"""Which hash the manager PIN is checked against.

In this order:

1. ``manager_pin_hash`` from the settings (IT's machine-wide file) when IT also
   locked that key: the manager cannot change it.
2. The PIN a manager set on the kiosk (``manager-pin.json`` in the config folder,
   sealed: ``kiosk.core.security.seal``), but only while IT's value is the one it
   was set under: each file records a fingerprint of ``manager_pin_hash`` at the
   time. A new IT hash, or ``reset-pin`` (which writes a ``reset$...`` marker in the
   machine-wide file, administrator rights needed), makes it stale, so IT's last
   word always wins. A file that is not this kiosk's own write (forged, changed, an
   older copy put back) is never used.
3. IT's ``manager_pin_hash`` when it is a hash.
4. None. In training mode the first person at Manager then chooses one on screen.
   Outside training a PIN always starts from IT's hash: a PIN set on the kiosk counts
   only under one, and without one Manager, cancels and discards are refused.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from kiosk.core.security.pin_hash import fingerprint, is_pin_hash
from kiosk.core.security.seal import Seal, SealedFile, Verdict
from kiosk.core.settings import layers as S
from kiosk.core.settings.layers import Environment, Settings

log = logging.getLogger(__name__)

PIN_KIND = "manager-pin"


@dataclass(frozen=True)
class Provisioned:
    """``manager_pin_hash`` as the settings give it, whether IT locked it, and whether
    the kiosk runs in training mode (where the first PIN may be chosen on screen)."""

    value: str | None
    locked: bool
    training: bool = False

    @property
    def it_hash(self) -> str | None:
        return self.value if is_pin_hash(self.value) else None


class PinStore:
    """Which hash the manager PIN is checked against (see the module doc)."""

    def __init__(
        self,
        pin_file: Path,
        provisioned: Callable[[], Provisioned],
        seal: Seal | None = None,
    ) -> None:
        self.pin_file = pin_file
        self._provisioned = provisioned
        self._file = SealedFile(pin_file, PIN_KIND, seal)
        self._noted: set[str] = set()
        # Why the last read found a file this kiosk did not write ("": it did).
        self.tampered = ""

    @classmethod
    def from_settings(
        cls,
        settings: Settings,
        pin_file: Path,
        seal: Seal | None = None,
        *,
        training: bool | None = None,
    ) -> PinStore:
        """``training``: the kiosk's mode (default: the ``environment`` setting)."""

        def provisioned() -> Provisioned:
            in_training = (
                settings.get(S.ENVIRONMENT) is Environment.TRAINING
                if training is None
                else training
            )
            return Provisioned(
                settings.get(S.MANAGER_PIN_HASH),
                settings.listed_in_locks(S.MANAGER_PIN_HASH),
                in_training,
            )

        return cls(pin_file, provisioned, seal)

    def provisioned(self) -> Provisioned:
        return self._provisioned()

    @property
    def training(self) -> bool:
        return self._provisioned().training

    def _note(self, level: int, message: str, *args: object) -> None:
        if message not in self._noted:
            self._noted.add(message)
            log.log(level, message, *args)

    def _saved(self) -> dict[str, object]:
        reading = self._file.load()
        self.tampered = reading.why if reading.verdict is Verdict.TAMPERED else ""
        if reading.verdict is Verdict.TAMPERED:
            self._note(
                logging.WARNING,
                "%s was not written by this kiosk (%s): not used",
                self.pin_file.name,
                reading.why,
            )
            return {}
        if reading.verdict is Verdict.LEGACY:
            self._file.save(reading.fields)  # signed from now on
        return reading.fields

    def current(self) -> str | None:
        provisioned = self._provisioned()
        it_hash = provisioned.it_hash
        if provisioned.locked and it_hash:
            return it_hash
        if not provisioned.training and it_hash is None:
            return None  # outside training a PIN starts from IT's hash
        saved = self._saved()
        stored = saved.get("hash")
        under = saved.get("under") == fingerprint(provisioned.value)
        if under and isinstance(stored, str) and is_pin_hash(stored):
            return stored
        if saved:
            self._note(logging.INFO, "the manager PIN set on this kiosk predates IT's last change")
        return it_hash

    def can_change(self) -> bool:
        """False when IT provisioned the PIN and locked it."""
        provisioned = self._provisioned()
        return not (provisioned.locked and provisioned.it_hash)

    def save(self, stored: str) -> None:
        under = fingerprint(self._provisioned().value)
        self._file.save({"hash": stored, "under": under})

    def clear(self) -> None:
        """IT's new word: the PIN set on this kiosk under IT's previous value (stale now,
        or not this kiosk's own) is replaced by an empty record of this kiosk's own."""
        if self._file.load().verdict is not Verdict.FRESH:
            self._file.save({"hash": None, "under": fingerprint(self._provisioned().value)})
        self.tampered = ""

    def forget(self) -> bool:
        """Delete the PIN set on this kiosk. Whether there was one."""
        return self._file.remove()

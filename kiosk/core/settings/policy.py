"""IT's policies: the top layer of the settings, written by Group Policy or Intune.

The ADMX/ADML templates (``build/policy_templates.py`` writes them from the settings'
declarations into ``resources/policy``) put each policy's value under
``HKLM\\Software\\Policies\\Loyalty\\LoyaltyKiosk``, named by the setting's key: text
(``REG_SZ``) or a number (``REG_DWORD``). Never under ``Software\\Policies\\Microsoft``:
Intune refuses those keys. Only administrators (Group Policy, Intune's agent, ``reg add``
as administrator) may write there; every account may read it.

The kiosk reads the key once, at load (``system_policy``); on other systems there is no
policy store (``NoPolicy``). Tests give their own ``PolicySource`` (``MappingPolicy``).
A value of another registry type, or longer than ``MAX_TEXT``, is reported and ignored;
what the values mean is checked by the settings layer like any other file's.
"""

from __future__ import annotations

import logging
import sys
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

_log = logging.getLogger(__name__)

VENDOR = "Loyalty"
PRODUCT = "LoyaltyKiosk"
POLICY_KEY = f"Software\\Policies\\{VENDOR}\\{PRODUCT}"
"""Under HKEY_LOCAL_MACHINE; each value is named by a setting's key."""
POLICY_PLACE = f"HKLM\\{POLICY_KEY}"
MAX_TEXT = 4096  # characters; longer values are refused, never cut
MAX_VALUES = 256  # values read from the key at most


class PolicySource(Protocol):
    """Where IT's policies are read from."""

    @property
    def where(self) -> str:
        """The place, in words for IT (``HKLM\\Software\\Policies\\...``)."""
        ...

    def read(self) -> PolicyValues:
        """The values found (text or whole numbers, by setting key) and what was ignored."""
        ...


@dataclass(frozen=True)
class PolicyValues:
    values: Mapping[str, str | int] = field(default_factory=dict)
    ignored: tuple[tuple[str, str], ...] = ()  # (value name, why)


@dataclass(frozen=True)
class NoPolicy:
    """No policy store on this system (the kiosk's settings start at ``kiosk.ini``)."""

    where: str = "no policy store on this system"

    def read(self) -> PolicyValues:
        return PolicyValues()


@dataclass(frozen=True)
class MappingPolicy:
    """Policies given as a mapping (tests; what a registry read returns)."""

    values: Mapping[str, object]
    where: str = POLICY_PLACE

    def read(self) -> PolicyValues:
        return checked(self.values.items())


def checked(items: Iterable[tuple[str, object]]) -> PolicyValues:
    """Keep text and whole numbers of a bounded size; say why anything else is ignored."""
    values: dict[str, str | int] = {}
    ignored: list[tuple[str, str]] = []
    for count, (name, value) in enumerate(items):
        if count >= MAX_VALUES:
            ignored.append(("*", f"more than {MAX_VALUES} values; the rest is ignored"))
            break
        key = str(name).strip().lower()
        if isinstance(value, bool) or not isinstance(value, str | int):
            ignored.append((key, "must be text (REG_SZ) or a number (REG_DWORD)"))
        elif isinstance(value, str) and len(value) > MAX_TEXT:
            ignored.append((key, f"longer than {MAX_TEXT} characters"))
        else:
            values[key] = value
    return PolicyValues(values, tuple(ignored))


@dataclass(frozen=True)
class RegistryPolicy:
    """``HKLM\\Software\\Policies\\Loyalty\\LoyaltyKiosk`` in the 64-bit registry view.
    ``registry``: the ``winreg`` module (tests give a stand-in)."""

    key: str = POLICY_KEY
    where: str = POLICY_PLACE
    registry: Any = None

    def read(self) -> PolicyValues:
        registry = self.registry
        if registry is None:
            if sys.platform == "win32":
                import winreg

                registry = winreg
            else:
                return PolicyValues()
        return read_registry(registry, self.key, self.where)


def read_registry(registry: Any, key: str, where: str) -> PolicyValues:
    """The values under ``HKLM\\<key>``: text (REG_SZ, REG_EXPAND_SZ) and numbers
    (REG_DWORD); a value of another type is reported by ``checked``. No key: no policy."""
    text_types = {registry.REG_SZ, registry.REG_EXPAND_SZ}
    found: list[tuple[str, object]] = []
    try:
        handle = registry.OpenKey(
            registry.HKEY_LOCAL_MACHINE, key, 0, registry.KEY_READ | registry.KEY_WOW64_64KEY
        )
    except FileNotFoundError:
        return PolicyValues()  # no policy set: the usual case
    except OSError as error:
        _log.warning("policy: cannot read %s (%s); no policy applies", where, error)
        return PolicyValues()
    with handle:
        for index in range(MAX_VALUES + 1):
            try:
                name, value, kind = registry.EnumValue(handle, index)
            except OSError:
                break  # no more values
            usable = kind == registry.REG_DWORD or kind in text_types
            found.append((name, value if usable else None))
    return checked(found)


def system_policy() -> PolicySource:
    """The policy store the kiosk reads on this system."""
    if sys.platform == "win32":
        return RegistryPolicy()
    return NoPolicy()

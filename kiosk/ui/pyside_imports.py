"""Python's own ``import`` back, once PySide6 is loaded.

Importing PySide6 replaces ``builtins.__import__`` with shiboken's
``__feature_import__`` (PYSIDE-1019), the hook behind ``from __feature__ import
snake_case, true_property``. Since PYSIDE-2029 it also runs a Python function on
every ``import`` statement and, for each module imported for the first time,
reads the module's whole source file (``inspect.getsource``) to look for the word
"PySide6". At the kiosk's start that was 197 source files read, 18-22 ms of the
time between the first paint and "ready" and about 10 ms before the first paint
(``docs/benchmarks.md``), and every lazy import inside a function paid the
Python-level hook again.

The kiosk selects no ``__feature__`` (its code uses Qt's own names and
properties; ``tests/ui/test_pyside_imports.py`` keeps it that way), so the
original import goes back. Without a feature selected, shiboken's per-module
lookup falls back to "no feature" for modules it has not seen, which is what
each of them would have been given.
"""

from __future__ import annotations

import builtins


def plain_imports() -> bool:
    """Put Python's import back if PySide6 replaced it; says whether it did."""
    original = getattr(builtins, "__orig_import__", None)
    if original is None or builtins.__import__ is original:
        return False
    builtins.__import__ = original
    return True

"""The words of the settings screen for the codes of ``kiosk.core.admin.manager_settings``.

Marked with ``QT_TRANSLATE_NOOP("ManagerSettings", ...)`` so ``pyside6-lupdate``
collects them; ``problem_text`` translates at run time.
"""

from __future__ import annotations

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication

from kiosk.core.admin.manager_settings import Field, FieldProblem, Problem
from kiosk.core.settings.layers import Environment, Language, Theme

CONTEXT = "ManagerSettings"


def _t(text: object) -> str:
    return QCoreApplication.translate(CONTEXT, str(text))


PROBLEMS = {
    Problem.LOCKED: QT_TRANSLATE_NOOP(
        "ManagerSettings", "Set by IT: it cannot be changed on the kiosk."
    ),
    Problem.REQUIRED: QT_TRANSLATE_NOOP("ManagerSettings", "Needed for this environment."),
    Problem.BAD_URL: QT_TRANSLATE_NOOP(
        "ManagerSettings",
        "Not a valid address: it must start with https:// (for example https://api.example.com).",
    ),
    Problem.OUT_OF_RANGE: QT_TRANSLATE_NOOP("ManagerSettings", "Choose between %1 and %2."),
    Problem.TOO_MANY: QT_TRANSLATE_NOOP(
        "ManagerSettings", "At most %2 buttons: uncheck some items."
    ),
    Problem.NO_KEY: QT_TRANSLATE_NOOP(
        "ManagerSettings",
        "No API key is stored for this environment yet: enter it above before saving.",
    ),
    Problem.KEY_FORMAT: QT_TRANSLATE_NOOP(
        "ManagerSettings",
        "That does not look like an API key (8 to 512 characters, no spaces). "
        "Copy it again from the merchant panel: Configuration, Integrations.",
    ),
    Problem.KEY_REFUSED: QT_TRANSLATE_NOOP(
        "ManagerSettings",
        "The service does not accept this API key. Check that it is the current key of "
        "this environment (merchant panel: Configuration, Integrations). Nothing was saved.",
    ),
    Problem.NO_KEYRING: QT_TRANSLATE_NOOP(
        "ManagerSettings",
        "This computer has no secure keyring, so the API key cannot be stored. The kiosk "
        "never keeps the key in a plain file. Ask IT to enable the system's credential store.",
    ),
    Problem.UNKNOWN_BRANCH: QT_TRANSLATE_NOOP(
        "ManagerSettings", "This key does not open that branch: choose one from the list."
    ),
    Problem.UNKNOWN_QR: QT_TRANSLATE_NOOP(
        "ManagerSettings", "That QR does not belong to the chosen branch: choose another."
    ),
    Problem.INVALID: QT_TRANSLATE_NOOP("ManagerSettings", "This value cannot be used."),
}

FIELD_NAMES = {
    Field.ENVIRONMENT: QT_TRANSLATE_NOOP("ManagerSettings", "Environment"),
    Field.PRODUCTION_URL: QT_TRANSLATE_NOOP("ManagerSettings", "Production address"),
    Field.QA_URL: QT_TRANSLATE_NOOP("ManagerSettings", "QA address"),
    Field.API_KEY: QT_TRANSLATE_NOOP("ManagerSettings", "API key"),
    Field.BRANCH: QT_TRANSLATE_NOOP("ManagerSettings", "Branch"),
    Field.VALIDATION_QR: QT_TRANSLATE_NOOP("ManagerSettings", "Validation QR"),
    Field.POINT_ITEMS: QT_TRANSLATE_NOOP("ManagerSettings", "Counter buttons"),
    Field.IDLE_TIMEOUT: QT_TRANSLATE_NOOP("ManagerSettings", "Counter idle time"),
    Field.MANAGER_IDLE_TIMEOUT: QT_TRANSLATE_NOOP("ManagerSettings", "Manager mode idle time"),
    Field.LANGUAGE: QT_TRANSLATE_NOOP("ManagerSettings", "Language"),
    Field.THEME: QT_TRANSLATE_NOOP("ManagerSettings", "Theme"),
}

ENVIRONMENTS = {
    Environment.PRODUCTION: QT_TRANSLATE_NOOP("ManagerSettings", "Production"),
    Environment.QA: QT_TRANSLATE_NOOP("ManagerSettings", "QA"),
    Environment.TRAINING: QT_TRANSLATE_NOOP("ManagerSettings", "Training"),
}

ENVIRONMENT_NOTES = {
    Environment.PRODUCTION: QT_TRANSLATE_NOOP("ManagerSettings", "Real points for real clients."),
    Environment.QA: QT_TRANSLATE_NOOP(
        "ManagerSettings", "The merchant's test service: points are not real."
    ),
    Environment.TRAINING: QT_TRANSLATE_NOOP(
        "ManagerSettings",
        "The simulator built into the kiosk: no API key, no network, no real points.",
    ),
}

LANGUAGES = {
    Language.AUTO: QT_TRANSLATE_NOOP("ManagerSettings", "Same as the computer"),
    Language.EN: "English",
    Language.ES: "Español",
}

THEMES = {
    Theme.LIGHT: QT_TRANSLATE_NOOP("ManagerSettings", "Light"),
    Theme.DARK: QT_TRANSLATE_NOOP("ManagerSettings", "Dark"),
}


def text(value: object) -> str:
    return _t(value)


def problem_text(found: FieldProblem) -> str:
    words = _t(PROBLEMS[found.problem])
    return words.replace("%1", str(found.low or "")).replace("%2", str(found.high or ""))

"""Write the Group Policy / Intune templates from the settings' declarations.

    python build/policy_templates.py          -> resources/policy/LoyaltyKiosk.admx,
                                                 en-US/LoyaltyKiosk.adml, es-ES/LoyaltyKiosk.adml
    python build/policy_templates.py --check  -> exit 1 when the committed files differ

One policy per setting declared in ``kiosk/core/settings/layers.py`` with ``policy=True``
(its key is the registry value's name, its type and bounds the element's), every one
under ``HKLM\\Software\\Policies\\Loyalty\\LoyaltyKiosk`` (``kiosk.core.settings.policy``).
What Intune's ADMX import accepts: ids of ``[A-Za-z0-9_]`` only, no combo box (choices
are drop-down lists), supportedOn defined here (no ``Windows.admx``), an en-US ADML;
es-ES is for Group Policy. A setting without its titles below stops this script, and
``tests/deploy/test_policy_templates.py`` fails when the files are not what it writes.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path
from xml.sax.saxutils import escape, quoteattr

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from kiosk.core.settings import values as v  # noqa: E402
from kiosk.core.settings.dsn import sentry_dsn  # noqa: E402
from kiosk.core.settings.layers import SETTINGS, Setting  # noqa: E402
from kiosk.core.settings.policy import POLICY_KEY, PRODUCT, VENDOR  # noqa: E402

OUT = ROOT / "resources" / "policy"
NAME = "LoyaltyKiosk"
LANGUAGES = ("en-US", "es-ES")
NAMESPACE = f"{VENDOR}.Policies.{PRODUCT}"
SUPPORTED = "SUPPORTED_LoyaltyKiosk"
ROOT_CATEGORY = "LoyaltyKiosk"
TEXT_LENGTH = 1023

# Per language: (the product's category, supportedOn, "not configured" note, default word).
COMMON = {
    "en-US": (
        "Loyalty Kiosk",
        "Loyalty Kiosk on Windows 10 or later",
        "When this policy is set, the kiosk uses its value over kiosk.ini and the "
        "manager's settings, and the manager screen shows it read-only, \"Set by your "
        "organization\". Not configured: kiosk.ini or the manager's setting applies.",
        "Default",
    ),
    "es-ES": (
        "Loyalty Kiosk",
        "Loyalty Kiosk en Windows 10 o posterior",
        "Con esta directiva establecida, la terminal usa su valor antes que kiosk.ini y "
        "que los ajustes del encargado, y la pantalla del encargado lo muestra de solo "
        'lectura, "Lo define su organización". Sin configurar: se aplica '
        "kiosk.ini o el ajuste del encargado.",
        "Predeterminado",
    ),
}
CATEGORIES = {
    "connection": ("Connection", "Conexión"),
    "counter": ("Counter", "Mostrador"),
    "display": ("Display", "Pantalla"),
    "kiosk": ("Kiosk", "Terminal"),
    "journal": ("Journal", "Registro de operaciones"),
    "lock": ("Locks", "Bloqueos"),
    "fleet": ("Fleet health", "Salud de la flota"),
}
# Each policy's title in English and Spanish, and its Spanish explanation (the English
# one is the declaration's ``doc``).
TEXTS = {
    "heartbeat_url": (
        "Health heartbeat URL",
        "URL del latido de salud",
        "Dónde la terminal envía (POST) su estado de salud (https; Healthchecks, Uptime Kuma).",
    ),
    "heartbeat_interval_seconds": (
        "Health heartbeat interval (seconds)",
        "Intervalo del latido de salud (segundos)",
        "Segundos entre dos latidos (60-3600).",
    ),
    "outbox_stuck_minutes": (
        "Outbox stuck after (minutes)",
        "Cola trabada después de (minutos)",
        "Minutos que una acreditación puede esperar antes del evento de cola trabada (5-1440).",
    ),
    "crash_report_dsn": (
        "Crash report endpoint (Sentry DSN)",
        "Destino de los informes de fallas (DSN de Sentry)",
        "Un DSN de Sentry al que se suben los informes de fallas guardados (https; "
        "ninguno: solo se guardan).",
    ),
    "environment": (
        "Environment",
        "Entorno",
        "Adónde van las acreditaciones: production, qa o training (el simulador incluido).",
    ),
    "production_url": (
        "Production API URL",
        "URL de la API de producción",
        "URL base de la API de producción (https).",
    ),
    "qa_url": ("QA API URL", "URL de la API de QA", "URL base de la API de QA (https)."),
    "branch_id": (
        "Branch",
        "Sucursal",
        "La sucursal de esta terminal (un id de GET /external/branch).",
    ),
    "validation_qr_id": (
        "Validation QR",
        "QR de validación",
        "El QR de validación cuyo código rotativo muestra la pantalla Código.",
    ),
    "point_items": (
        "Counter buttons (point items)",
        "Botones del mostrador (ítems de puntos)",
        "Ítems de puntos que se muestran como botones del mostrador, en orden "
        "(ids separados por comas).",
    ),
    "idle_timeout_seconds": (
        "Counter idle time (seconds)",
        "Inactividad del mostrador (segundos)",
        "Segundos de inactividad tras los que el mostrador borra al cliente (15-3600).",
    ),
    "amount_locale": (
        "Amount format",
        "Formato de importes",
        "Cómo se escriben y muestran los importes: es-AR (1.234,56) o en-US (1,234.56).",
    ),
    "on_screen_keyboard": (
        "On-screen keyboard",
        "Teclado en pantalla",
        "El teclado propio de la terminal: auto (dispositivos táctiles), always o never.",
    ),
    "language": ("Language", "Idioma", "auto (según el sistema), en o es."),
    "theme": ("Theme", "Tema", "light (claro) o dark (oscuro)."),
    "kiosk_mode": (
        "Kiosk mode",
        "Modo kiosco",
        "Pantalla completa, sin marco; no se sale sin el PIN del encargado.",
    ),
    "manager_idle_timeout_seconds": (
        "Manager mode idle time (seconds)",
        "Inactividad del modo encargado (segundos)",
        "Segundos de inactividad tras los que el modo encargado se vuelve a bloquear "
        "(60-900; PCI DSS 8.2.8: 15 min).",
    ),
    "journal_retention_days": (
        "Journal retention (days)",
        "Conservación del registro (días)",
        "Días que el registro de operaciones conserva sus filas (1-366).",
    ),
    "locked": (
        "Settings the manager cannot change",
        "Ajustes que el encargado no puede cambiar",
        "Ajustes que el encargado no puede cambiar (claves separadas por comas, o * para "
        "todos). Se suman a los bloqueos de kiosk.ini.",
    ),
}


@dataclass(frozen=True)
class Kind:
    """How a setting is presented and stored: boolean (a REG_DWORD 1/0 on the policy),
    enum (a drop-down list, REG_SZ), decimal (REG_DWORD, bounded) or text (REG_SZ)."""

    name: str
    items: tuple[str, ...] = ()
    low: int = 0
    high: int = 0


def kind_of(setting: Setting[object]) -> Kind:
    default, parse = setting.default, setting.parse
    if isinstance(default, StrEnum):
        return Kind("enum", tuple(member.value for member in type(default)))
    if isinstance(default, bool) and parse is v.boolean:
        return Kind("boolean")
    if isinstance(parse, v.Integer):
        return Kind("decimal", low=parse.low, high=parse.high)
    if parse is v.optional_id:
        return Kind("decimal", low=1, high=v.MAX_ID)
    if parse in (v.url, v.id_list, v.key_list, sentry_dsn):
        return Kind("text")
    raise SystemExit(f"{setting.key}: no policy element for this type; add it to kind_of")


def policies() -> list[Setting[object]]:
    chosen = [s for s in SETTINGS.values() if s.policy]
    missing = [s.key for s in chosen if s.key not in TEXTS] + [
        s.section for s in chosen if s.section not in CATEGORIES
    ]
    if missing:
        raise SystemExit(f"titles missing in build/policy_templates.py for: {missing}")
    return chosen


def _id(text: str) -> str:
    return "".join(c if c.isascii() and (c.isalnum() or c == "_") else "_" for c in text)


def _default(setting: Setting[object]) -> str | None:
    default = setting.default
    if default is None or default == ():
        return None
    if isinstance(default, bool):
        return "1" if default else "0"
    return str(default)


def admx() -> str:
    lines = [
        '<?xml version="1.0" encoding="utf-8"?>',
        "<!-- Written by build/policy_templates.py from kiosk/core/settings/layers.py:"
        " do not edit. -->",
        '<policyDefinitions xmlns:xsd="http://www.w3.org/2001/XMLSchema"'
        ' xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" revision="1.0"'
        ' schemaVersion="1.0"'
        ' xmlns="http://schemas.microsoft.com/GroupPolicy/2006/07/PolicyDefinitions">',
        "  <policyNamespaces>",
        f'    <target prefix="loyaltykiosk" namespace="{NAMESPACE}" />',
        "  </policyNamespaces>",
        '  <resources minRequiredRevision="1.0" />',
        "  <supportedOn>",
        "    <definitions>",
        f'      <definition name="{SUPPORTED}" displayName="$(string.{SUPPORTED})" />',
        "    </definitions>",
        "  </supportedOn>",
        "  <categories>",
        f'    <category name="{ROOT_CATEGORY}" displayName="$(string.{ROOT_CATEGORY})" />',
    ]
    chosen = policies()
    for section in dict.fromkeys(s.section for s in chosen):
        lines += [
            f'    <category name="Cat_{section}" displayName="$(string.Cat_{section})">',
            f'      <parentCategory ref="{ROOT_CATEGORY}" />',
            "    </category>",
        ]
    lines += ["  </categories>", "  <policies>"]
    for setting in chosen:
        key, kind = setting.key, kind_of(setting)
        head = (
            f'    <policy name="{key}" class="Machine" displayName="$(string.{key})"'
            f' explainText="$(string.{key}_Help)"'
        )
        if kind.name != "boolean":
            head += f' presentation="$(presentation.{key})"'
        head += f" key={quoteattr(POLICY_KEY)}"
        if kind.name == "boolean":
            head += f' valueName="{key}"'
        lines += [
            head + ">",
            f'      <parentCategory ref="Cat_{setting.section}" />',
            f'      <supportedOn ref="{SUPPORTED}" />',
        ]
        if kind.name == "boolean":
            lines += [
                '      <enabledValue><decimal value="1" /></enabledValue>',
                '      <disabledValue><decimal value="0" /></disabledValue>',
            ]
        else:
            lines.append("      <elements>")
            if kind.name == "enum":
                lines.append(f'        <enum id="{key}" valueName="{key}" required="true">')
                for item in kind.items:
                    lines += [
                        f'          <item displayName="$(string.{key}_{_id(item)})">',
                        f"            <value><string>{escape(item)}</string></value>",
                        "          </item>",
                    ]
                lines.append("        </enum>")
            elif kind.name == "decimal":
                lines.append(
                    f'        <decimal id="{key}" valueName="{key}" required="true"'
                    f' minValue="{kind.low}" maxValue="{kind.high}" />'
                )
            else:
                lines.append(
                    f'        <text id="{key}" valueName="{key}" required="true"'
                    f' maxLength="{TEXT_LENGTH}" />'
                )
            lines.append("      </elements>")
        lines.append("    </policy>")
    lines += ["  </policies>", "</policyDefinitions>", ""]
    return "\n".join(lines)


def adml(language: str) -> str:
    spanish = language == "es-ES"
    product, supported, note, default_word = COMMON[language]
    chosen = policies()
    strings: list[tuple[str, str]] = [(ROOT_CATEGORY, product), (SUPPORTED, supported)]
    for section in dict.fromkeys(s.section for s in chosen):
        strings.append((f"Cat_{section}", CATEGORIES[section][spanish]))
    presentations: list[str] = []
    for setting in chosen:
        key, kind = setting.key, kind_of(setting)
        title_en, title_es, explain_es = TEXTS[key]
        title = title_es if spanish else title_en
        explain = explain_es if spanish else setting.doc
        default = _default(setting)
        if kind.name == "boolean":
            on, off = ("Habilitada", "deshabilitada") if spanish else ("Enabled", "disabled")
            explain += f" {on}: 1; {off}: 0."
        if default is not None:
            explain += f" {default_word}: {default}."
        strings += [(key, title), (f"{key}_Help", f"{explain}\n\n{note}")]
        if kind.name == "enum":
            strings += [(f"{key}_{_id(item)}", item) for item in kind.items]
            chosen_item = kind.items.index(default) if default in kind.items else 0
            control = (
                f'<dropdownList refId="{key}" noSort="true" defaultItem="{chosen_item}">'
                f"{escape(title)}</dropdownList>"
            )
        elif kind.name == "decimal":
            start = f' defaultValue="{default}"' if default is not None else ""
            control = (
                f'<decimalTextBox refId="{key}"{start} spinStep="1">'
                f"{escape(title)}</decimalTextBox>"
            )
        elif kind.name == "text":
            control = f'<textBox refId="{key}"><label>{escape(title)}</label></textBox>'
        else:
            continue
        presentations += [
            f'      <presentation id="{key}">',
            f"        {control}",
            "      </presentation>",
        ]
    lines = [
        '<?xml version="1.0" encoding="utf-8"?>',
        "<!-- Written by build/policy_templates.py from kiosk/core/settings/layers.py:"
        " do not edit. -->",
        '<policyDefinitionResources xmlns:xsd="http://www.w3.org/2001/XMLSchema"'
        ' xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" revision="1.0"'
        ' schemaVersion="1.0"'
        ' xmlns="http://schemas.microsoft.com/GroupPolicy/2006/07/PolicyDefinitions">',
        f"  <displayName>{escape(product)}</displayName>",
        f"  <description>{escape(product)}</description>",
        "  <resources>",
        "    <stringTable>",
        *(f'      <string id="{sid}">{escape(text)}</string>' for sid, text in strings),
        "    </stringTable>",
        "    <presentationTable>",
        *presentations,
        "    </presentationTable>",
        "  </resources>",
        "</policyDefinitionResources>",
        "",
    ]
    return "\n".join(lines)


def templates() -> dict[Path, str]:
    """Each file's path under ``resources/policy`` and its text."""
    files = {Path(f"{NAME}.admx"): admx()}
    for language in LANGUAGES:
        files[Path(language, f"{NAME}.adml")] = adml(language)
    return files


def main(argv: list[str]) -> int:
    check = "--check" in argv
    stale = []
    for relative, text in templates().items():
        path = OUT / relative
        if check:
            if not path.is_file() or path.read_text(encoding="utf-8") != text:
                stale.append(str(relative))
            continue
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8", newline="\n")
        print(f"wrote {path.relative_to(ROOT)}")
    if stale:
        print(f"stale policy templates (run build/policy_templates.py): {stale}")
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))

"""#22 item 7: the Windows workflow gives the signing secrets only to the steps that sign,
and installs nothing unpinned before them (read as text: no YAML library needed)."""

from __future__ import annotations

import re
from pathlib import Path

WORKFLOW = Path(__file__).resolve().parents[2] / ".github" / "workflows" / "windows.yml"
SIGNING = {
    "Is signing configured (the secret's presence only, never its value)",
    "Sign the executables (only with the signing secrets)",
    "Compile installer.iss (this version; the next one, for the upgrade test)",
}


def steps() -> list[tuple[str, str]]:
    """(name, text) of each step, in order."""
    text = WORKFLOW.read_text(encoding="utf-8")
    body = text[text.index("    steps:\n") :]
    chunks = re.split(r"\n(?=      - (?:name|uses): )", body)[1:]
    found = []
    for chunk in chunks:
        name = re.match(r"      - (?:name|uses): (.+)", chunk)
        assert name
        found.append((name.group(1).strip(), chunk))
    return found


def test_the_signing_secrets_reach_only_the_signing_steps() -> None:
    text = WORKFLOW.read_text(encoding="utf-8")
    job_head = text[: text.index("    steps:\n")]
    assert "secrets." not in job_head  # not in the job's environment
    with_secrets = {name for name, chunk in steps() if "secrets." in chunk}
    assert with_secrets == SIGNING
    for name, chunk in steps():
        if name not in SIGNING:
            assert "SIGNING_CERT" not in chunk, name
        for line in chunk.splitlines():  # a secret never goes into the later steps' environment
            assert not ("GITHUB_ENV" in line and "SIGNING_" in line), line


def test_nothing_unpinned_is_installed_before_the_signing() -> None:
    before = []
    for name, chunk in steps():
        if name in SIGNING:
            break
        before.append(chunk)
    installs = [
        line
        for chunk in before
        for line in chunk.splitlines()
        if re.match(r"\s*(python -m pip install|choco install) ", line)
    ]
    assert installs, "the project is installed before the signing"
    for line in installs:
        pinned = ("--require-hashes", "--no-deps --no-build-isolation", "--version $env:INNO")
        assert any(p in line for p in pinned), line
    assert not any('".[build]"' in line or "[build]" in line for line in installs)

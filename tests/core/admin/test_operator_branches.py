"""An operator is never saved without a branch (issue #14, defect 13): refused when
created without one, and when an edit takes every branch away."""

from __future__ import annotations

from dataclasses import replace

from kiosk.core.admin.forms import Problem
from kiosk.core.admin.operators import (
    BRANCHES,
    BranchChoice,
    OperatorForm,
    problems_of_clearing,
    validate_operator,
)

BRANCHES_SHOWN = (BranchChoice(1, "Sucursal Centro"), BranchChoice(2, "Sucursal Palermo"))
FORM = OperatorForm(
    first_name="Camila", last_name="Suárez", email="camila@example.com", branches=BRANCHES_SHOWN
)


def test_a_new_operator_without_a_branch_is_refused() -> None:
    assert validate_operator(FORM, creating=True) == {BRANCHES: Problem.NO_BRANCH}


def test_a_new_operator_with_a_branch_passes() -> None:
    chosen = replace(FORM, branches=(replace(BRANCHES_SHOWN[0], chosen=True), BRANCHES_SHOWN[1]))
    assert validate_operator(chosen, creating=True) == {}


def test_an_edit_that_takes_every_branch_away_is_refused() -> None:
    before = replace(FORM, branches=(replace(BRANCHES_SHOWN[0], chosen=True), BRANCHES_SHOWN[1]))
    assert validate_operator(FORM, creating=False) == {}
    assert problems_of_clearing(before, FORM) == {BRANCHES: Problem.NO_BRANCH}
    # An operator that never had one (an administrator) keeps being editable.
    assert problems_of_clearing(FORM, FORM) == {}

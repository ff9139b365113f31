"""The one-pass area census answers exactly what the per-unit rules answer (9.22-2/-3)."""

import random

import pytest

from djebel import algeria
from djebel.algeria.board import ALGERIA, GOV_UNITS
from djebel.algeria.rules.combat import any_eligible, could_fly, eligible
from djebel.algeria.rules.common import Census


@pytest.mark.parametrize("scenario", algeria.SCENARIOS)
def test_census_matches_unit_by_unit_eligibility(scenario):
    checked = 0
    for seed in range(6):
        g = algeria.new_game(scenario, seed=seed, log=False)
        rng = random.Random(seed)
        while not g.is_over():
            if g.decision() in ("ops_gov", "ops_fln"):
                s = g.state
                c = Census(s)
                for a in ALGERIA:
                    slow = any(eligible(s, u, a, ()) or could_fly(s, u, a, ()) for u in GOV_UNITS)
                    assert c.can_flush_or_react(a) == slow
                    assert any_eligible(s, a) == slow
                    checked += 1
            g.apply(rng.choice(g.legal_actions()))
    assert checked > 100


def _by_checks(s, checks, subjects, arg) -> list:
    """The mission menu built the slow way: every check for every subject."""
    from djebel.core.actions import Action
    return [Action(verb, (arg(x),)) for x in subjects for verb, check in checks.items()
            if check(s, x) is None]


@pytest.mark.parametrize("scenario", algeria.SCENARIOS)
def test_mission_menus_match_the_why_not_checks(scenario):
    """The one-pass mission menus offer exactly what the per-mission checks allow (9.1, 9.2)."""
    from djebel.algeria.board import AREA_IDS, FLN_UNITS, UNIT_NAMES
    from djebel.algeria.rules import missions_fln, missions_gov
    gov_checks = {verb: (lambda s, a, check=check: check(s, a, Census(s)))
                  for verb, check in missions_gov.CHECKS.items()}
    checked = 0
    for seed in range(4):
        options = {"slow_french_reaction": seed % 2 == 1} if scenario == "1954" else {}
        g = algeria.new_game(scenario, seed=seed, options=options, log=False)
        rng = random.Random(seed)
        while not g.is_over():
            s = g.state
            if g.decision() == "ops_fln":
                assert missions_fln.options(s) == _by_checks(
                    s, missions_fln.CHECKS, FLN_UNITS, UNIT_NAMES.__getitem__)
                checked += 1
            elif g.decision() == "ops_gov":
                assert missions_gov.options(s) == _by_checks(
                    s, gov_checks, ALGERIA, AREA_IDS.__getitem__)
                checked += 1
            g.apply(rng.choice(g.legal_actions()))
    assert checked > 100

"""The one-pass area census answers exactly what the per-unit rules answer (9.22-2/-3)."""

import random

import pytest

from djebel import algeria
from djebel.algeria.board import ALGERIA, GOV_UNITS
from djebel.algeria.rules.combat import could_fly, eligible
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
                    checked += 1
            g.apply(rng.choice(g.legal_actions()))
    assert checked > 100

"""Every refusal says its reason and the rule it breaks: one case per decision kind
(combat, React and Flush selection, Air Points, PSP share-out, Government
reinforcement, mobilization, deployment, the FLN mission helpers, events, the OAS, the
coup, the set-up), and a sweep of random games checking that no refusal of an action
with a legal verb falls back to the bare "not a legal choice now"."""

import random
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
import helpers as h  # noqa: E402

from djebel.algeria import new_game  # noqa: E402
from djebel.algeria.board import AREA_IDS, UNIT_NAMES  # noqa: E402
from djebel.core.actions import Action  # noqa: E402
from djebel.core.errors import IllegalAction  # noqa: E402


def refused(g, action: str) -> tuple[str, str]:
    before = g.state_hash()
    with pytest.raises(IllegalAction) as exc:
        g.validate(action)
    assert g.state_hash() == before
    return exc.value.rule, exc.value.reason


def react_select(air: int = 1):
    """The GOV's React choice after a Propaganda in II-1 (8-6, 9.23)."""
    g = h.empty()
    h.put(g, "cadre1", "II-1")
    h.put(g, "police1", "II-1", "PTL")
    h.put(g, "fr_x1", "II-1", "PTL")
    h.put(g, "al_x1", "II-1", "PTL")
    h.put(g, "fr_x2", "II-1", "PTL", neut=True)
    h.put(g, "fr_x3", "II-2", "OPS", airmobile=True)
    h.put(g, "fr_x4", "II-2", "OC")
    g.state.ap, g.state.air_avail, g.state.helo_avail = 4, air, 0
    h.script(g, 6)                      # Propaganda 6 - 3 patrols: "1", 1 PSP to share
    h.ops(g)
    g.apply("propaganda cadre1")
    g.apply("psp 1")
    assert g.decision() == "select"
    return g


def test_react_and_flush_selection_refusals():
    """9.22-2 mobile units in OPS/PTL; 2.3-3 neutralized; 11.12-4 / DIS-16 flying in;
    9.22-3 grouping; 11.12-1 airmobilizing costs Helo points."""
    g = react_select()
    assert refused(g, "add police1") == ("9.22-2", "only mobile units react; police1 is "
                                                   "Police")
    assert refused(g, "add fr_x2") == ("2.3-3", "fr_x2 is neutralized and cannot act")
    assert refused(g, "add fr_x4") == ("9.22-2", "fr_x4 is in the OC box (OPS or PTL "
                                                 "needed)")
    assert refused(g, "add fr_x3") == ("11.12-4", "fr_x3 may fly in only if elite or a "
                                                  "French division is in II-1 (DIS-16)")
    assert refused(g, "add fr_xx2") == ("9.22-2", "fr_xx2 is not on the map")
    assert refused(g, "airmobilize fr_x1") == ("11.12-1", "fr_x1 needs 2 Helo point(s); "
                                                          "0 available")
    assert refused(g, "go") == ("9.22-2", "choose at least one unit for the react first "
                                          "(or no-react)")
    g.apply("add fr_x1")
    assert refused(g, "add al_x1") == ("9.22-3", "several units only if all are elite or "
                                                 "a French division is in II-1")
    assert refused(g, "add fr_x1") == ("9.22-2", "fr_x1 is chosen already")
    assert refused(g, "no-react") == ("9.23", "units are chosen: go (the React is then "
                                              "made)")


def test_air_points_hits_and_share_refusals():
    """11.11-2 only the Available Air Points; 9-6.3 hits go to the units involved;
    9-4 psp K between 0 and N."""
    g = react_select(air=1)
    g.apply("add fr_x1")
    g.apply("go")
    assert refused(g, "air 2") == ("11.11-2", "2 Air Points asked, 1 available (air 0 to "
                                              "air 1)")
    # React: the cadre rolls 6 (no evasion, 9.23-3); FLN fire 1 rolls 1, GOV fire 6 + 1d6
    h.script(g, 6, 3, 1, 6)
    g.apply("air 1")
    assert g.decision() == "take_hit"
    g.apply("hit cadre1")                   # eliminated: the GOV shares out its PSP
    assert g.decision() == "share"
    n = g.state.stack[-1][2]
    assert refused(g, f"psp {n + 1}") == (
        "9-4", f"{n + 1} is not between 0 and {n}: psp K raises your PSL by K and lowers "
               f"the other side's by {n}-K")


def test_take_hit_refusal_names_the_units_involved():
    """9-6.3: a hit goes to one of the FLN units in the combat."""
    g = h.empty()
    h.put(g, "band1", "II-1")
    h.put(g, "band2", "II-1")
    h.put(g, "cadre1", "II-1")
    h.put(g, "el_x1", "II-1", "PTL")
    g.state.combat = {"mission": "flush", "area": h.A("II-1"), "fln": [h.U("band1"),
                      h.U("band2")], "gov": [h.U("el_x1")], "to_apply": 2}
    h.at(g, ("take_hit", "fln"))
    assert refused(g, "hit cadre1") == ("9-6.3", "cadre1 is not in this combat: a hit goes "
                                                 "to one of the FLN units involved (band1, "
                                                 "band2)")


def test_government_reinforcement_refusals():
    """6.3-2 never below PSL 1; 6.33-1 no Border Zone before independence; 6.32-2
    Algerian brigades need no activation; 6.31-4 only Police leave; 11.3-6 the OAS; 6.31-2
    a new unit goes to an Algerian area; 13.1-2 Slow French Reaction."""
    g = h.empty("1954")
    h.put(g, "al_x1", "II-1", active=False)
    h.put(g, "fr_x1", "II-1", "OC", active=False)
    h.at(g, ("gov_reinf", "gov"))
    g.state.gov_psl = 3
    assert refused(g, "mobilize fr_xx") == ("6.3-2", "a fr_xx costs 5 PSP (B.1): the GOV "
                                                     "PSL (3) may not fall below 1")
    g.state.gov_psl = 60
    assert refused(g, "border-zone") == ("6.33-1", "no Border Zone before Morocco and "
                                                   "Tunisia are independent")
    assert refused(g, "activate al_x1") == ("6.32-2", "only French mobile units are "
                                                      "activated (al_x1 needs none)")
    assert refused(g, "activate fr_x1") == ("6.32-1", "fr_x1 is in OC: only units in OPS "
                                                      "are activated")
    assert refused(g, "remove al_x1") == ("6.31-4", "only Police leave the map here (al_x1 "
                                                    "is not Police)")
    assert refused(g, "remove-oas") == ("11.3-6", "the OAS is not active")
    assert refused(g, "mobilize band") == ("6.31-1", "the Government mobilizes its own "
                                                     "units; band is an FLN type")
    g.state.slow_french, g.state.gov_allowance_used = True, True
    assert refused(g, "buy air") == ("13.1-2", "Slow French Reaction: one mobile unit or "
                                               "one point per turn, already taken")
    g.state.slow_french = False
    g.apply("mobilize fr_x")
    assert refused(g, "at TUNISIA") == ("6.31-2", "a new fr_x goes to an Algerian area, "
                                                  "not TUNISIA")


def test_government_deployment_refusals():
    """7-1 active mobile units in OPS deploy once, elsewhere in Algeria; 11.7-2 one mode
    change per division; 11.12-1 only brigades are airmobilized."""
    g = h.empty()
    h.put(g, "police1", "II-1", "PTL")
    h.put(g, "fr_x1", "II-1")
    h.put(g, "fr_x2", "II-1", active=False)
    h.put(g, "fr_xx1", "II-2")
    h.at(g, ("gov_deploy", "gov"))
    assert refused(g, "deploy police1") == ("7-1", "only mobile units deploy; police1 is "
                                                   "Police (always on Patrol)")
    assert refused(g, "deploy fr_x2") == ("6.32-1", "fr_x2 was not activated this turn and "
                                                    "cannot deploy")
    assert refused(g, "deploy band1") == (
        "7", "'deploy' takes a Government unit here and band1 is an FLN unit (for example "
             "'deploy fr_xx1') (GOV deployment: deploy units, set division modes, "
             "airmobilize, or done)")
    assert refused(g, "airmobilize fr_xx1") == ("11.12-1", "only brigades are airmobilized "
                                                           "(fr_xx1 is not one)")
    assert refused(g, "mode fr_xx1 concentrated") == ("7-2", "fr_xx1 is concentrated "
                                                             "already")
    g.apply("mode fr_xx1 dispersed")
    assert refused(g, "mode fr_xx1 concentrated") == ("11.7-2", "fr_xx1 has changed mode "
                                                                "already this phase (once)")
    g.apply("deploy fr_x1")
    assert refused(g, "to II-1") == ("7-1", "fr_x1 is in II-1 already: stay, or to PTL to "
                                            "patrol there")
    assert refused(g, "to TUNISIA") == ("7-1", "a unit deploys to the PTL box of its area "
                                               "or to the OPS box of another Algerian area")
    g.apply("stay")
    assert refused(g, "deploy fr_x1") == ("7-1", "fr_x1 has deployed already this phase "
                                                 "(once each)")


def test_fln_mission_helper_refusals():
    """9.12-1 Cadres of the same OPS box assist a Strike; 9.14-1 Bands and Faileks join a
    Raid; 9.15-2 / DIS-19 only a Failek lets others join a Harass; 9.15-3 the target is a
    Government unit in the area."""
    g = h.empty()
    for unit, area, box in (("front1", "ALGIERS", "OPS"), ("cadre1", "ALGIERS", "UG"),
                            ("cadre2", "II-1", "OPS"), ("band1", "ALGIERS", "OPS"),
                            ("band2", "II-1", "OPS"), ("band3", "II-1", "OPS"),
                            ("police1", "II-1", "PTL"), ("police2", "II-2", "PTL")):
        h.put(g, unit, area, box)
    g.state.ap = 9
    h.ops(g)
    g.apply("strike front1")
    assert refused(g, "assist band1") == ("9.12-1", "only Cadres assist a Strike (band1 is "
                                                    "not one)")
    assert refused(g, "assist cadre1") == ("2.2-3", "cadre1 must be in the OPS box to "
                                                    "conduct a mission")
    assert refused(g, "assist cadre2") == ("9.12-1", "cadre2 is in II-1: only units in "
                                                     "ALGIERS join")
    h.ops(g)
    g.apply("raid band2")
    assert refused(g, "add cadre2") == ("9.14-1", "only Bands and Faileks raid (cadre2 is "
                                                  "not one)")
    assert refused(g, "add band1") == ("9.14-1", "band1 is in ALGIERS: only units in II-1 "
                                                 "join")
    h.ops(g)
    g.apply("harass band2")
    assert refused(g, "add band3") == ("9.15-2", "units harass singly unless a Failek "
                                                 "harasses: add a Failek first (DIS-19)")
    g.apply("go")
    assert refused(g, "target police2") == ("9.15-3", "police2 is in II-2: the target is a "
                                                      "Government unit in II-1")
    assert refused(g, "target band3") == ("9.15-3", "the target is a Government unit (band3 "
                                                    "is FLN)")


def test_event_oas_coup_and_set_up_refusals():
    """C.2 UN debate, Factional Purge and NATO pressure; 11.3-2 the OAS sites; 11.4-3 the
    coup's free budget; 3-4 the set-up order and wilaya."""
    g = h.empty()
    h.put(g, "fr_x1", "II-1")
    h.put(g, "el_x1", "II-1")
    h.at(g, ("un_debate", "fln"))
    assert refused(g, "un raise-gov") == ("C.2", "the UN debate (43-44): un raise-fln, or "
                                                 "un lower-gov (each 1d6)")
    h.at(g, ("purge_wilaya", "gov"))
    assert refused(g, "purge VII")[0] == "C.2"
    assert "names a wilaya: purge I, II" in refused(g, "purge VII")[1]
    h.at(g, ("nato_remove", "gov", 2))
    assert refused(g, "remove el_x1") == ("C.2", "NATO pressure (55-56, INT-07) takes "
                                                 "French brigades and divisions in Algeria; "
                                                 "not el_x1 in II-1")
    h.at(g, ("oas_place", "gov"))
    assert refused(g, "oas II-1") == ("11.3-2", "the OAS goes to an Urban area "
                                                "(Constantine, Algiers, Oran) or France, "
                                                "not II-1")
    h.at(g, ("coup_mobilize", "gov", 4))
    assert refused(g, "mobilize fr_xx") == ("11.4-3", "a fr_xx costs 5 PSP (B.1); 4 PSP of "
                                                      "free mobilization are left")
    assert refused(g, "mobilize air") == ("11.4-3", "the coup mobilizes units only (no "
                                                    "points or Border Zone, INT-52)")
    s = new_game("1958", seed=1)
    t, wilaya = s.state.stack[-1][2][0]
    other = "I-1" if wilaya != "I" else "II-1"
    from djebel.algeria.board import TYPE_KEYS
    key = TYPE_KEYS[t]
    assert refused(s, f"place {key} {other}") == (
        "3-4", f"{other} is not in wilaya {wilaya}, where this {key} goes")
    wrong = "police" if key != "police" else "fr_x"
    assert refused(s, f"place {wrong} {other}") == (
        "3-4", f"the next unit to place is a {key} of wilaya {wilaya} (the set-up is "
               "placed in its listed order)")


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_no_refusal_of_a_legal_verb_is_left_generic(seed):
    """Random games; at each decision, legal actions with one argument swapped for a unit,
    an area or a number: every refusal names its reason, never the bare list."""
    g = new_game(["1954", "1958", "1960"][seed], seed=seed)
    rng = random.Random(seed)
    for _ in range(300):
        if g.is_over():
            break
        legal = g.legal_actions()
        for a in legal[:6]:
            for i in range(len(a.args)):
                for w in [*rng.sample(UNIT_NAMES, 3), *rng.sample(AREA_IDS, 2), 7]:
                    b = Action(a.verb, tuple(w if j == i else x for j, x in enumerate(a.args)))
                    if b in legal:
                        continue
                    rule, reason = refused(g, str(b))
                    assert "not a legal choice now" not in reason, (g.decision(), str(b))
                    assert rule and reason
        g.apply(rng.choice(legal))

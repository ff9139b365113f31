"""The gauntlet: simple, one-idea strategies that every real bot must beat.

Each class plays one fixed idea for its main decisions (reinforcement, deployment,
missions) and leaves the forced small choices (set-up, sharing out PSP, taking hits,
random events) to the plain heuristic policy, so that what is tested is the idea
itself. A bot that loses to one of these has a hole a human player can find by not
playing, or by playing one mission over and over (``djebel tournament gauntlet``).
"""

from __future__ import annotations

from djebel.algeria.board import ALGERIA, BAND, CADRE, FAILEK, FRONT, OPS, UNIT_INDEX, UTYPE
from djebel.algeria.bots.heuristic import HeuristicAgent
from djebel.algeria.bots.heuristic_base import _listed, _u
from djebel.algeria.bots.view import view_of
from djebel.core.actions import Action

_QUIET = ("done", "pass", "stay", "no-react", "go")


# The heuristic's FLN setup weights when the gauntlet was first measured (see
# HeuristicAgent.SETUP): the strategies stay the fixed yardstick they were.
OLD_SETUP = (1.5, 1.5, 3.0)


def _quiet(legal: list[Action]) -> Action | None:
    """The do-nothing answer among ``legal``, if there is one."""
    for verb in _QUIET:
        for act in legal:
            if act.verb == verb:
                return act
    return None


def simple_share(agent: HeuristicAgent, s, legal: list[Action]) -> Action:
    """9-4 as the strategies share out PSP: each side raises its own PSL, and lowers the
    enemy's only when that wins now or, for the FLN, once the Government's PSL is at
    FLN_FINISH or less (the heuristic's rule before it learned to push the side nearer
    0: the strategies stay the fixed yardstick they were)."""
    _, side, n, _, _ = s.stack[-1]
    enemy = s.gov_psl if side == "fln" else s.fln_psl
    if n >= enemy or (side == "fln" and enemy <= agent.FLN_FINISH):
        return _listed(legal, "psp", 0)
    return _listed(legal, "psp", n)


class Yardstick(HeuristicAgent):
    """The heuristic's play as it was when the gauntlet was first measured, beside each
    strategy's one idea: no hunt with elite brigades by helicopter (``hunt=0``), no
    units kept underground for fear of one (``wary=False``), PSP shared out by
    ``simple_share``, the setup of then (``OLD_SETUP``), no Strike valued for a
    React the Government cannot make (``strike_free``), a unit's whole worth at
    risk in a race (``race_loss``), no city guarded against a Strike
    (``city_guard``), no race at the full mean against a spent FLN
    (``spent_race``) nor by its odds (``race_odds``, ``last_race``), no higher hold line
    against an FLN that lies still (``quiet_hold``), no reading of the Government's
    React record (``read_reacts``), no Cadres massed for a city Strike
    (``strike_plan``). With no hunt its denial of Propaganda is the old one
    (``GovPolicies._denying``)."""

    SETUP = OLD_SETUP
    strike_free = False
    race_loss = 1.0
    city_guard = False
    spent_race = False
    race_odds = None
    last_race = False
    quiet_hold = 0
    read_reacts = False
    strike_plan = False

    def __init__(self, side: str, seed: int = 0):
        super().__init__(side, seed, hunt=0, wary=False)

    def _share(self, s, legal):
        return simple_share(self, s, legal)


class GauntletAgent(Yardstick):
    """Base: the heuristic policy as it was (``Yardstick``) except for the decision
    kinds in ``OVERRIDE`` (kind -> method name); a method returning None falls back to
    doing nothing."""

    OVERRIDE: dict[str, str] = {}

    def choose(self, game) -> Action:
        legal = game.legal_actions()
        if len(legal) == 1:
            return legal[0]
        name = self.OVERRIDE.get(game.decision())
        if name is None:
            return super().choose(game)
        act = getattr(self, name)(game.state, legal)
        return act if act is not None else (_quiet(legal) or legal[0])

    def nothing(self, s, legal) -> Action | None:
        return _quiet(legal)


class PassAgent(GauntletAgent):
    """Does nothing: builds and mobilizes nothing, never surfaces or deploys, passes
    every mission and never reacts. Both sides."""

    OVERRIDE = dict.fromkeys(("fln_reinf", "fln_deploy", "ops_fln", "gov_reinf",
                              "gov_deploy", "ops_gov", "select"), "nothing")


# ------------------------------------------------------------------ FLN


class PropagandaAgent(GauntletAgent):
    """FLN: Propaganda only. Builds Cadres with the AP it does not need for this
    turn's Propaganda, surfaces every Cadre and
    Front outside the Remote areas, and runs Propaganda (9.11) wherever it may;
    never Strikes, Raids, Harasses or Moves."""

    OVERRIDE = {"fln_reinf": "build_cadre", "fln_deploy": "surface_propagandists",
                "ops_fln": "propagandize"}

    def build_cadre(self, s, legal):
        """A Cadre (3 AP, 6.2-1) while the AP for one Propaganda in every area that can
        run one (1 AP each, 9.11-2) is kept."""
        v = view_of(s)
        areas = sum(1 for a in ALGERIA if not v.remote[a]
                    and any(UTYPE[u] in (CADRE, FRONT) for u in v.fln[a]))
        if s.ap - 3 < areas:
            return None
        builds = [a for a in legal if a.verb == "build" and a.args[0] == "cadre"]
        return builds[0] if builds else None

    def surface_propagandists(self, s, legal):
        v = view_of(s)
        for act in legal:
            if act.verb == "surface" and act.args[0] != "all":
                u = UNIT_INDEX[act.args[0]]
                if UTYPE[u] in (CADRE, FRONT) and s.loc[u] in ALGERIA and not v.remote[s.loc[u]]:
                    return act
        return None

    def propagandize(self, s, legal):
        acts = [a for a in legal if a.verb == "propaganda"]
        return self._best([(1.0 + (1.0 if view_of(s).urban[s.loc[_u(a.args[0])]] else 0.0), a)
                           for a in acts])


class ReinforceAllAgent(Yardstick):
    """FLN: everything spent at once. Every AP goes on building and converting units in
    the Reinforcement Phase, none kept for missions; the rest is the heuristic's play.
    Government: every PSP goes on mobilizing units (the most expensive first) and
    activating them until nothing more can be paid; on both sides the rest is the
    heuristic's play as it was (``Yardstick``)."""

    def _fln_reinf(self, s, legal):
        for verb in ("build", "convert"):
            for act in legal:
                if act.verb == verb and (verb == "build" or act.args[1] != "band"):
                    return act
        return _listed(legal, "done")

    def _gov_reinf(self, s, legal):
        order = ("fr_xx", "el_x", "fr_x", "al_x", "police")
        for key in order:
            for act in legal:
                if act.verb == "mobilize" and act.args == (key,):
                    return act
        for act in legal:
            if act.verb == "activate" and act.args == ("all",):
                return act
        for act in legal:
            if act.verb in ("activate", "buy"):
                return act
        return _listed(legal, "done")


class BandsAgent(GauntletAgent):
    """FLN: Bands only. Builds Bands (and converts Cadres to Bands) with the AP it
    does not need for this turn's Raids, surfaces every
    Band and Failek, and Raids (9.14) or Harasses (9.15) whenever it can, taking the
    heuristic's best of those two; never Propaganda, Strike or Move."""

    OVERRIDE = {"fln_reinf": "build_band", "fln_deploy": "surface_bands",
                "ops_fln": "raid_or_harass"}

    def build_band(self, s, legal):
        """A Band (3 AP, 6.2-1; a Cadre converted, 1 AP) while the AP for one Raid in
        every area with Bands (1 AP each, 9.14-2) is kept."""
        v = view_of(s)
        areas = sum(1 for a in ALGERIA if not v.remote[a]
                    and any(UTYPE[u] in (BAND, FAILEK) for u in v.fln[a]))
        if s.ap - 3 < areas:
            return None
        for act in legal:
            if act.verb == "build" and act.args[0] == "band":
                return act
        for act in legal:
            if act.verb == "convert" and act.args[1] == "band":
                return act
        return None

    def surface_bands(self, s, legal):
        for act in legal:
            if (act.verb == "surface" and act.args[0] != "all"
                    and UTYPE[UNIT_INDEX[act.args[0]]] in (BAND, FAILEK)):
                return act
        return None

    def raid_or_harass(self, s, legal):
        scored = [(sc, a) for sc, a in self._fln_mission_scores(s, view_of(s), legal)
                  if a.verb in ("raid", "harass")]
        return self._best(scored)


class HideRaidAgent(BandsAgent):
    """FLN: lie low and Raid. Builds Bands, keeps every unit underground except the
    Bands of areas with no Government unit, which surface and Raid there (9.14);
    never Harass, Propaganda, Strike or Move."""

    OVERRIDE = {"fln_reinf": "build_band", "fln_deploy": "surface_safe_bands",
                "ops_fln": "raid"}

    def surface_safe_bands(self, s, legal):
        v = view_of(s)
        for act in legal:
            if act.verb == "surface" and act.args[0] != "all":
                u = UNIT_INDEX[act.args[0]]
                a = s.loc[u]
                if (UTYPE[u] in (BAND, FAILEK) and a in ALGERIA and not v.gov[a]
                        and not v.remote[a]):
                    return act
        return None

    def raid(self, s, legal):
        return next((a for a in legal if a.verb == "raid"), None)


# ------------------------------------------------------------------ Government


class CivilAffairsAgent(GauntletAgent):
    """Government: Civil Affairs only. Mobilizes Police (1 PSP) where a new one opens
    a Civil Affairs while its PSL is above 20, runs Civil Affairs (9.25) in every area
    it can, and otherwise passes; no mobile unit is bought, activated or deployed."""

    OVERRIDE = {"gov_reinf": "police", "gov_deploy": "nothing", "ops_gov": "civil_affairs",
                "select": "nothing"}

    def police(self, s, legal):
        if s.gov_psl > 20 and self._civil_site(view_of(s)) is not None:
            for act in legal:
                if act.verb == "mobilize" and act.args == ("police",):
                    return act
        return None

    def civil_affairs(self, s, legal):
        return next((a for a in legal if a.verb == "civil-affairs"), None)


class PatrolAgent(GauntletAgent):
    """Government: patrol only. Buys and activates nothing; every unit that can
    deploy goes on Patrol in its own area (9.21) and no mission is ever run."""

    OVERRIDE = {"gov_reinf": "nothing", "gov_deploy": "deploy_all", "deploy_to": "patrol",
                "ops_gov": "nothing", "select": "nothing"}

    def deploy_all(self, s, legal):
        for act in legal:
            if act.verb == "deploy" and s.box[_u(act.args[0])] == OPS:
                return act
        return None

    def patrol(self, s, legal):
        return _listed(legal, "to", "PTL")


class FlushAgent(GauntletAgent):
    """Government: Flush only. Activates every unit it can while its PSL is above 20,
    keeps them in OPS and Flushes (9.22) wherever the FLN is in the open, with the
    heuristic's choice of units; no Civil Affairs, Intelligence or Suppression."""

    OVERRIDE = {"gov_reinf": "activate_all", "gov_deploy": "nothing", "ops_gov": "flush"}

    def activate_all(self, s, legal):
        if s.gov_psl <= 20:
            return None
        for act in legal:
            if act.verb == "activate" and act.args[0] not in ("all", "border-zone"):
                return act
        return None

    def flush(self, s, legal):
        scored = [(sc, a) for sc, a in self._gov_mission_scores(s, view_of(s), legal)
                  if a.verb == "flush" and sc > 0]
        return self._best(scored)


GAUNTLET: dict[str, dict[str, type[HeuristicAgent]]] = {
    "fln": {"pass": PassAgent, "propaganda": PropagandaAgent, "all-in": ReinforceAllAgent,
            "bands": BandsAgent, "hide-raid": HideRaidAgent},
    "gov": {"pass": PassAgent, "civil-affairs": CivilAffairsAgent,
            "all-in": ReinforceAllAgent, "patrol": PatrolAgent, "flush": FlushAgent},
}

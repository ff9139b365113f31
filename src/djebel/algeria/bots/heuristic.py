"""HeuristicAgent: one hand-written policy per decision kind.

Every policy looks at the legal actions and the board and picks what a
competent player would: the FLN surfaces only what should act, does Propaganda,
Strikes and Raids where they pay, harasses at good odds and, first of all, the
Police that would run Civil Affairs; the Government puts Police wherever Civil
Affairs can run, runs it there every turn and renews neutralized Police, sends
the units it does not need where they stand to the areas they win (its control
bonus pays for the activations), buys other units only from a small budget above
a safety reserve, and patrols and flushes where the FLN acts. The agent's own
``random.Random`` breaks ties; the game's dice are never touched.

The FLN's policies are in ``fln_policy``; the Government's in ``gov_policy``
(reinforcement, the choice of mission) with ``gov_race`` (Civil Affairs, the hold
line and the race of PSLs), ``gov_hunt`` (Flush, React, Intelligence, the hunting
group) and ``gov_control`` (control, patrols, deployment).
"""

from __future__ import annotations

import random
from operator import itemgetter

from djebel.algeria.board import (
    BAND,
    CADRE,
    FAILEK,
    FR_XX,
    FRONT,
    NEUT,
    OC,
    POLICE,
    TYPE_INDEX,
    UTYPE,
)
from djebel.algeria.bots.fln_policy import FlnPolicies
from djebel.algeria.bots.gov_policy import GovPolicies
from djebel.algeria.bots.heuristic_base import (  # noqa: F401  (re-exported)
    FLN_SAFE,
    GOV_RESERVE,
    _a,
    _listed,
    _u,
    expected_hits,
)
from djebel.algeria.bots.view import (
    FLN_VALUE,
    view_of,
)
from djebel.algeria.state import FLN_CONTROL, GOV_CONTROL
from djebel.core.actions import Action

# The style settings of each side (HeuristicAgent keyword arguments) and their types:
# what `--fln-style` / `--gov-style` accept on the command line.
STYLE_SETTINGS: dict[str, dict[str, type]] = {
    "fln": {"propaganda": float, "cross": bool, "cadres_move": bool, "fronts": bool,
            "fln_finish": int, "harass_police": float, "cadre_build": float,
            "move": float, "wary": bool},
    "gov": {"spend": float, "gov_keep": int, "patrol_stay": float, "control_buy": bool,
            "deny": float, "adapt": bool, "air_guard": int,
            "hunt": int, "hunt_group": int, "hunt_floor": int, "control_move": float,
            "ca_floor": int, "ca_finish": float, "ca_hold": int,
            "harass_free": int},
}
_UNSEEN = object()


class HeuristicAgent(FlnPolicies, GovPolicies):
    """Plays either side of Algeria by fixed, readable rules."""

    # FLN setup weights (_fln_setup_score): per Government control point for a Front or
    # Band, and for a Cadre; against a Cadre in a Remote area. Measured against (1.5,
    # 1.5, 3), 400 games a cell, FLN wins: 1960 against the heuristic Government 26.3%
    # -> 42.0%, against ``civil-affairs`` 79.5% -> 93.0%; 1958 95.3% -> 98.0%; 1954
    # 90.7% -> 89.7%. Its Cadres start where they can propagandize.
    SETUP = (0.8, 0.5, 6.0)

    FLN_FINISH = 12     # the FLN lowers a Government PSL this low instead of raising its own
    GOV_KEEP = 99       # the Government keeps the PSP it shares out (see _share)

    def __init__(self, side: str, seed: int = 0, spend: float = 1.0,
                 gov_keep: int | None = None, patrol_stay: float = 1.0,
                 control_buy: bool = True, deny: float = 0.0, adapt: bool = True,
                 propaganda: float = 1.0,
                 cross: bool = False, cadres_move: bool = True, fronts: bool = True,
                 fln_finish: int | None = None, harass_police: float = 2.0,
                 cadre_build: float = 0.0, move: float = 0.0, wary: bool = True,
                 air_guard: int = 1,
                 hunt: int = 2, hunt_group: int = 0, hunt_floor: int = 6,
                 control_move: float = 5.0, ca_floor: int = 4, ca_finish: float = 0.8,
                 ca_hold: int = 31, harass_free: int = 3):
        """Style settings, which the search agent switches between:

        * Government: ``spend`` scales its budget for units other than Police (0:
          Police only); ``gov_keep`` overrides GOV_KEEP; a unit patrols where it is
          when the FLN there is worth ``patrol_stay`` (else it looks for an area
          worth more: higher values send more units where the FLN gathers);
          ``control_buy=False`` buys no brigade for the control it gives; ``deny``
          weighs, when units deploy, what a patrol takes from FLN Propaganda;
          ``adapt=False`` keeps its plain play against an FLN that builds no Front
          (which it otherwise meets with ``deny`` and Police placed to cut Propaganda);
          ``air_guard`` Air Points (1 by default) are bought early and kept for the
          return fire of a harassed unit (1d6 each, 11.11), never spent on a Flush or
          React: the Bands then seldom harass outside the Urban areas; ``hunt`` elite brigades
          are kept active (0.5 PSP each a turn) and Flush together, flown in by
          helicopter, wherever the FLN has surfaced most (``hunt_group`` elites a Flush,
          default ``hunt``; no activation at a PSL of ``hunt_floor`` or less);
          ``control_move`` (5 by default, 0 for none) is the most a turn's control
          plan pays, in halves of a PSP of activation per point of difference in
          controlled areas, to send units the Government does not need where they
          stand to the areas they win (10.1; the plan's units then buy no brigade
          for control except against a Propaganda FLN); ``ca_hold`` (31): Civil
          Affairs that would take the PSL to this or lower are paid only while a race
          by Civil Affairs, ``ca_finish`` times their mean each, is expected to bring
          the FLN's PSL to 0 first, or holding there does not win the long war (0: no
          hold; against an FLN that lies still the line is ``quiet_hold``, 36,
          GovPolicies._quiet); ``ca_floor``: at or below this PSL only for that race, or, when
          holding loses, for one with a chance of LAST_RACE_ODDS or more (_last_race);
          Police are taken off a non-Urban area where more than ``harass_free``
          (3 by default, 0 never) Bands or Faileks stand, whose Harass of them earns
          the FLN more than their Civil Affairs take.
        * FLN: ``propaganda`` (1 by default) is added to every Propaganda's score
          (eagerness to propagandize rather than move or raid); ``cross=False`` keeps the units in
          Morocco and Tunisia out of Algeria (no border-crossing Moves, 9.13: the
          default, measured better in the gauntlet; ``True`` lets them cross);
          ``cadres_move=False`` keeps Cadres where they are, for Propaganda;
          ``fronts=False`` converts no Cadre into a Front (the AP and the Cadre go
          to Propaganda instead); ``fln_finish`` overrides FLN_FINISH; ``harass_police``
          weighs neutralizing Police by Harass before they run Civil Affairs (and
          brings Bands where Police are); ``cadre_build`` is added to the score of
          building a Cadre in Algeria (Cadres for Propaganda rather than Bands) and
          ``move`` to every Move's (below 0 the units stay put more); ``wary=False``
          brings units up as if no hunting group could fly (HUNT_RISK)."""
        self.side = side
        self.rng = random.Random(seed)
        self.spend = spend
        if gov_keep is not None:
            self.GOV_KEEP = gov_keep
        self.patrol_stay = patrol_stay
        self.control_buy = control_buy
        self.deny = deny
        self.adapt = adapt
        self.air_guard = air_guard
        self.hunt = hunt
        self.hunt_group = hunt_group
        self.hunt_floor = hunt_floor
        self.control_move = control_move
        self.ca_floor = ca_floor
        self.ca_finish = ca_finish
        self.ca_hold = ca_hold
        self.harass_free = harass_free
        self.propaganda = propaganda
        self.cross = cross
        self.cadres_move = cadres_move
        self.fronts = fronts
        self.harass_police = harass_police
        self.cadre_build = cadre_build
        self.move = move
        self.wary = wary
        if fln_finish is not None:
            self.FLN_FINISH = fln_finish
        self._policies: dict = {}      # decision kind -> its policy method (or None)
        self._budget_key: tuple = ()
        self._budget_start = 0

    # ------------------------------------------------------------ entry point
    def choose(self, game) -> Action:
        legal = game.legal_actions()
        if len(legal) == 1:
            return legal[0]
        if self.side == "fln" and self.read_reacts:
            self._watch_reacts(game.state)      # (a forced choice needs no reading)
        kind = game.decision()
        policy = self._policies.get(kind, _UNSEEN)
        if policy is _UNSEEN:
            policy = self._policies[kind] = getattr(self, "_" + kind, None)
        if policy is not None:
            action = policy(game.state, legal)
            if action is not None:
                if self.side == "gov":
                    self._note_spend(action)
                return action
        return self._fallback(legal)

    def ranked(self, game) -> list[tuple[float, Action]]:
        """Scored candidates for the decisions the search agent branches on."""
        s = game.state
        legal = game.legal_actions()
        kind = game.decision()
        if kind == "ops_fln":
            return self._fln_mission_scores(s, view_of(s), legal)
        if kind == "ops_gov":
            return self._gov_mission_scores(s, view_of(s), legal)
        best = self.choose(game)
        return [(1.0, best)]

    def _fallback(self, legal: list[Action]) -> Action:
        for verb in ("done", "go", "pass", "stay", "no-react"):
            for a in legal:
                if a.verb == verb:
                    return a
        return legal[0]

    def _best(self, scored: list[tuple[float, Action]]) -> Action | None:
        if not scored:
            return None
        top = max(map(itemgetter(0), scored))
        ties = [a for sc, a in scored if sc >= top - 1e-9]
        return ties[0] if len(ties) == 1 else self.rng.choice(ties)

    # ------------------------------------------------------------ set-up (3-4)
    def _setup_place(self, s, legal):
        v = view_of(s)
        scored = []
        for act in legal:
            if act.args == ("auto",):
                continue
            key, area = act.args[0], _a(act.args[1])
            t = TYPE_INDEX[key]
            sc = 0.0
            if self.side == "gov":
                sc = v.threat[area] * 2 - len(v.gov[area]) * 1.5
                sc += 2 if v.urban[area] else 0 if not v.remote[area] else -2
                if t == FR_XX:
                    sc += 1 if len(act.args) > 2 else 0
            else:
                sc = self._fln_setup_score(v, t, area)
            scored.append((sc, act))
        return self._best(scored)

    def _fln_setup_score(self, v, t: int, area: int) -> float:
        """Where an FLN counter is placed at the start (3-4): away from Government
        control points and from other FLN counters; a Front in an Urban area, a Cadre
        where no Front is and never in a Remote area, where it can run no Propaganda
        (9.11-1), a Band or Failek rather in one. ``SETUP`` weighs the Government's
        points for Fronts and Bands, for Cadres, and the Remote area for a Cadre."""
        gov_w, cadre_gov_w, remote_w = self.SETUP
        sc = -v.gov_cp[area] * (cadre_gov_w if t == CADRE else gov_w) - len(v.fln[area]) * 0.8
        if t == FRONT:
            sc += 4 if v.urban[area] else 0
        elif t == CADRE:
            sc += (3 if v.fronts[area] is None else 0) - (remote_w if v.remote[area] else 0)
            sc += 1.5 if v.urban[area] and v.fronts[area] is not None else 0
        elif v.remote[area]:
            sc += 1
        return sc

    # ------------------------------------------------------------ random events
    def _un_debate(self, s, legal):
        if self.side == "fln":
            return Action("un", ("raise-fln" if s.fln_psl < 15 else "lower-gov",))
        return Action("un", ("raise-fln" if s.gov_psl - 6 <= GOV_RESERVE - 4 else "lower-gov",))

    def _purge_wilaya(self, s, legal):
        v = view_of(s)
        from djebel.algeria.board import WILAYA_AREAS
        scored = []
        for act in legal:
            areas = WILAYA_AREAS[act.args[0]]
            sc = sum(v.fln_cp[a] for a in areas)
            scored.append((sc, act))
        return self._best(scored)

    def _nato_remove(self, s, legal):
        v = view_of(s)
        scored = []
        for act in legal:
            u = _u(act.args[0])
            a = s.loc[u]
            sc = -v.threat[a] - (3 if UTYPE[u] == FR_XX else 0) + (2 if s.box[u] == OC else 0)
            scored.append((sc, act))
        return self._best(scored)

    def _pick(self, s, legal):
        side, effect = s.stack[-1][1], s.stack[-1][3]
        scored = []
        for act in legal:
            u = _u(act.args[0])
            t = UTYPE[u]
            if side == "fln" and effect == "neutralize" and t != POLICE:
                # Own units to neutralize: the ones that already acted and matter least.
                sc = -FLN_VALUE.get(t, 1) + (2 if s.box[u] == OC else 0)
                sc -= 3 if t == FRONT else 0
            elif effect in ("suez", "remove_elite"):
                sc = (2 if s.box[u] == OC else 0) + (3 if s.flags[u] & NEUT else 0)
            else:
                sc = 1 if not s.flags[u] & NEUT else 0
            scored.append((sc, act))
        return self._best(scored)

    def _oas_place(self, s, legal):
        side = s.stack[-1][1]
        if side == "fln":
            return Action("oas", ("FRANCE",))
        v = view_of(s)
        scored = [(v.threat[_a(act.args[0])] if act.args[0] != "FRANCE" else -5, act)
                  for act in legal]
        return self._best(scored)

    # ------------------------------------------------------------ PSP (9-4)
    def _share(self, s, legal):
        """9-4: the FLN raises its own PSL (its AP income, 6.1-2, and its life) while the
        Government's is above its own, and lowers the Government's once it is not (or is
        at FLN_FINISH or less): the side nearer 0 is the one to push. Measured against
        the heuristic Government (300 games a cell, seed 2026): always raising won 90.3%
        / 20.7% / 7.3% of 1954 / 1958 / 1960 games, this rule 89.7% / 46.0% / 15.0%;
        against the Government without the hunt, 86.0% to 93.7% in 1958 and 20.7% to
        34.0% in 1960. The Government keeps its points up to GOV_KEEP (all of
        them by default): a point kept pays for one more Civil Affairs (9.25), CA_MEAN
        (1.67) FLN PSL on average, where a point shared out takes only 1 (measured, 200
        games a cell, against keeping them only up to a PSL of 33: 1958 against
        ``bands`` 92.5% to 99.5%, 1954 against ``propaganda`` 92.5% to 96%). Either
        side takes the win when the points reach the enemy's PSL."""
        _, side, n, _, _ = s.stack[-1]
        own, enemy = (s.fln_psl, s.gov_psl) if side == "fln" else (s.gov_psl, s.fln_psl)
        if n >= enemy:
            return _listed(legal, "psp", 0)      # lowering the enemy to 0 wins now
        if side == "fln":
            if enemy <= self.FLN_FINISH or enemy <= own:
                return _listed(legal, "psp", 0)
            return _listed(legal, "psp", n)
        keep = max(0, min(n, self.GOV_KEEP - own))
        if self.side == "gov":
            self._blows += n - keep     # FLN PSL taken: see GovPolicies._gains
        return _listed(legal, "psp", keep)

    # ------------------------------------------------------------ combat (9-6)
    def _take_hit(self, s, legal):
        order = {CADRE: 0, BAND: 1, FAILEK: 2, FRONT: 3}
        scored = []
        for act in legal:
            u = _u(act.args[0])
            sc = -order.get(UTYPE[u], 0) + (0.5 if s.flags[u] & NEUT else 0)
            scored.append((sc, act))
        return self._best(scored)

    def _air_commit(self, s, legal):
        k = max(a.args[0] for a in legal)
        if k == 0:
            return legal[0]
        c = s.combat
        targets = c.get("fln") or c.get("targets") or []
        want = 1 + sum(1 for u in targets if UTYPE[u] in (FRONT, FAILEK))
        if c.get("mission") == "flush":
            want += 1
        if c.get("mission") != "harass":
            # ``air_guard`` points wait for the Police's return fire in a Harass.
            k = min(k, s.air_avail - self.air_guard)
        return _listed(legal, "air", max(0, min(k, want)))

    # ------------------------------------------------------------ helpers for search
    @staticmethod
    def control_counts(s) -> tuple[int, int]:
        return s.control.count(FLN_CONTROL), s.control.count(GOV_CONTROL)

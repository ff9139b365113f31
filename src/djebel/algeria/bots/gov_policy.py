"""Government policies of the HeuristicAgent: reinforcement, deployment, operations."""

from __future__ import annotations

from djebel.algeria.board import (
    ACTIVE,
    AL_X,
    ALGERIA,
    AREA_IDS,
    BAND,
    CADRE,
    EL_X,
    FAILEK,
    FLN_SLICE,
    FR_X,
    FR_XX,
    FRONT,
    NEUT,
    OC,
    POLICE,
    TYPE_UNITS,
    UTYPE,
)
from djebel.algeria.bots.gov_control import GovDeployment, control_site, patrol_denial
from djebel.algeria.bots.gov_hunt import MASS_UNITS, GovHunt
from djebel.algeria.bots.gov_race import GovRace
from djebel.algeria.bots.heuristic_base import (
    ALGERIA_SET,
    GOV_RESERVE,
    POLICE_FLOOR,
    _a,
    _listed,
    _u,
    same_turn,
    turn_key,
)
from djebel.algeria.bots.view import (
    CONTACT,
    EVASION,
    FLN_VALUE,
    FP,
    View,
    is_gov_mobile,
    mst_odds,
    view_of,
)
from djebel.algeria.state import DONE_PROPAGANDA, DONE_STRIKE
from djebel.core.actions import Action


def activation_cost(u: int) -> float:
    """PSP to activate French unit ``u`` for the turn (B.1): 1 a division, 0.5 a brigade."""
    return 1.0 if UTYPE[u] == FR_XX else 0.5


FRONTS = TYPE_UNITS[FRONT]
MASSED = 5.0            # a new Police unit's site: less worth per Band beyond MASS_FREE
MASS_FREE = 2
DIVISION_FLOOR = 25     # no division bought for a mass Flush at this PSL or less
RELOCATE = 3        # Police moved a turn against a Propaganda FLN
CITY_FLOOR = 20     # no unit activated to guard a city against a Strike at this PSL or less


class GovPolicies(GovRace, GovHunt, GovDeployment):
    """Mixin: one method per Government decision kind. The long war's Civil Affairs
    (GovRace), the hunt (GovHunt) and deployment (GovDeployment) have modules of their
    own; reinforcement and the choice of mission are here."""

    control_buy = True      # style setting (see HeuristicAgent.__init__)
    adapt = True            # style setting (see HeuristicAgent.__init__)
    air_guard = 0           # style setting (see HeuristicAgent.__init__)
    harass_free = 3         # style setting (see HeuristicAgent.__init__)
    city_guard = True       # guard the cities where a Front could Strike (_city_to_guard)
    deny_hunting = False    # deny Propaganda even with a hunting group to fly (_denying)
    _fronts_base: int | None = None     # FLN Fronts in Algeria when first seen
    _fronts_grew = False                # the FLN has built a Front since
    _relocated: tuple[int, int] = (0, 0)    # (turn, Police moved that turn)
    _propaganda_seen = False                # the FLN has run Propaganda in Algeria
    _strike_seen = False                    # the FLN has Struck (9.12)

    # ------------------------------------------------------------ Government budget
    def _gov_budget(self, s) -> float:
        """PSP the Government may still spend on units in this Reinforcement Phase.

        Measured in bot-v-bot play: the war is a race of PSLs, and Civil Affairs (1 PSP
        for 1d6 on the Mission Success Table, 1.67 FLN PSL on average) is what wins it;
        brigades and divisions bought with PSP rarely earn their cost back, so the
        budget for them is small (at most 5, a fifth of the PSL above 40), times the
        agent's ``spend``."""
        if not same_turn(self._budget_key, s):
            self._budget_key = turn_key(s)
            self._budget_start = s.gov_psl
        cap = max(0.0, min(5.0, (self._budget_start - 40) * 0.2) * self.spend)
        spent = self._budget_start - s.gov_psl + s.gov_half * 0.5
        return min(cap - spent, s.gov_psl - GOV_RESERVE - s.gov_half * 0.5)

    # ------------------------------------------------------------ reading the FLN
    def _watch_fronts(self, s) -> None:
        """Note whether the FLN has built a Front in Algeria since the agent first
        looked (at a Reinforcement or Deployment Phase, before any Operations losses)."""
        loc = s.loc
        n = sum(1 for u in FRONTS if loc[u] in ALGERIA_SET)
        if self._fronts_base is None:
            self._fronts_base = n
        elif n > self._fronts_base:
            self._fronts_grew = True

    def _denying(self, s) -> bool:
        """True from turn 2 against an FLN that has built no Front and has run
        Propaganda: it lives on Propaganda by Cadres, so Police and patrols go where
        they cut it (``adapt``). Against an FLN that only hides, moving Police (1 PSP
        each, 6.31-4) buys nothing. Not while the Government has the Helo points to
        fly a hunting group (11.12; ``deny_hunting`` off): the hunt finds the
        propagandists, and Police moved and patrols sent after Propaganda leave the
        Civil Affairs and the control plan. Measured (1,000 games, 1960, against the
        heuristic FLN): the Government's wins 43.4% -> 60.0% (55.4% -> 68.5% against
        the FLN without its city Strike); 1958 strategies of our own, 200 games:
        ``france`` 59.0% -> 89.0%, ``all-in+shares`` 73.0% -> 93.0%; 1954, where no
        Helo point exists, unchanged."""
        return (self.adapt and s.turn >= 2 and self._fronts_base is not None
                and self._propaganda_seen
                and not self._fronts_grew
                and (self.deny_hunting or not self.hunt or s.helo_max < self.hunt))

    def _police_to_relocate(self, s, v: View, legal) -> Action | None:
        """Against a Propaganda FLN: remove a Police unit whose area gives no denial,
        to mobilize it again where Cadres propagandize (6.31-4, 1 PSP each), at most
        RELOCATE a turn."""
        turn, moved = self._relocated
        if turn != s.turn:
            moved = 0
        site = self._civil_site(v)
        if (moved >= RELOCATE or s.gov_psl <= POLICE_FLOOR + 5 or site is None
                or patrol_denial(s, v, site, v.patrol[site]) <= 0.5):
            return None
        for act in legal:
            if act.verb == "remove":
                a = s.loc[_u(act.args[0])]
                if patrol_denial(s, v, a, v.patrol[a] - 1) < 0.05:
                    self._relocated = (s.turn, moved + 1)
                    return act
        return None


    # ------------------------------------------------------------ Government reinforcement
    @staticmethod
    def _police_to_renew(s, legal) -> Action | None:
        """A neutralized Police unit to take off the map and mobilize again (6.31-4,
        1 PSP): it runs no Civil Affairs until it recovers (10.2, a 5 or more), and an
        FLN that harasses Police neutralizes them faster than they recover."""
        if s.gov_psl <= POLICE_FLOOR:
            return None
        for act in legal:
            if act.verb == "remove" and s.flags[_u(act.args[0])] & NEUT:
                return act
        return None

    def _police_to_withdraw(self, s, legal) -> Action | None:
        """A Police unit to take off the map (6.31-4, free) from a non-Urban area where
        more than ``harass_free`` Bands or Faileks stand: each may Harass it before its
        Civil Affairs (9.15), for about 0.67 PSP to the FLN a time, so a Band stack
        earns more from one Police unit than its Civil Affairs (1.67 FLN PSL for 1 PSP)
        takes away. Its PSP are spent on a Police unit where few Bands are
        (_civil_site)."""
        if not self.harass_free:
            return None
        v = view_of(s)
        loc = s.loc
        for act in legal:
            if act.verb == "remove":
                a = loc[_u(act.args[0])]
                if not v.urban[a] and self._bands(v, a) > self.harass_free:
                    return act
        return None

    @staticmethod
    def _strike_city(s, v: View, a: int) -> bool:
        """Whether ``a`` is an Urban area where a non-neutralized Front stands: a Strike
        may come there (9.12-1, one a turn, 9.12-2)."""
        front = v.fronts[a]
        return v.urban[a] and front is not None and not s.flags[front] & NEUT

    def _strike_cities(self, s, v: View) -> list[int]:
        """The areas where a Strike may come (``_strike_city``)."""
        return [a for a in ALGERIA if self._strike_city(s, v, a)]

    @staticmethod
    def _guards(s, v: View, a: int) -> list[int]:
        """The Government mobile units in ``a`` that could React or Flush there this
        turn: Algerian brigades (active free, 6.32-2) and active French units, not
        neutralized (2.3-3)."""
        flags = s.flags
        return [u for u in v.gov[a] if is_gov_mobile(u) and not flags[u] & NEUT
                and (UTYPE[u] == AL_X or flags[u] & ACTIVE)]

    def _guarding(self, s) -> bool:
        """Whether the cities are guarded this turn (``_city_to_guard``): in the first
        turn, and after it once the FLN has Struck."""
        return self.city_guard and (self._strike_seen or s.turn <= 1)

    def _city_to_guard(self, s, legal) -> Action | None:
        """The cheapest activation (B.1) of a French unit in a city where a Front could
        Strike and no unit could React: a Strike with no React costs 1d6 PSL more
        (9.12-7), and one that is Reacted to risks its Front and helpers (9.23). In the
        first turn always: the Government's Reinforcement Phase comes before the FLN
        has shown what it does, and the 1954 FLN opens with a city Strike; the city's
        only guard then stays there to React if a Cadre has come to help the Front
        (``_deploy_target``). After it only once the FLN has Struck (``_strike_seen``),
        since against an FLN that never Strikes the PSP buy nothing; the guard then
        goes on Patrol (-1 to every FLN mission there, 9.12-3, 9.21). None at a PSL of
        CITY_FLOOR or less, nor with ``spend=0``.
        Measured in 1954, 1,000 games a cell, Government wins: against the heuristic
        FLN 4.9% -> 13.5%; against an FLN that builds its Cadres in a city and Strikes
        there every turn (docs/gauntlet.md) 32.4% -> 42.1%; the gauntlet's 1954 cells
        within a point of before. The first turn's guard staying with or without a
        Cadre: 13.5%, 39.8%, `bands` 98.5% -> 96.2%; free to leave: 7.5%, 42.1%;
        guarded every turn: 13.9%, 42.3%, `bands` 95.5%."""
        if not self._guarding(s) or s.gov_psl <= CITY_FLOOR or not self.spend:
            return None
        v = view_of(s)
        open_cities = [a for a in self._strike_cities(s, v) if not self._guards(s, v, a)]
        if not open_cities:
            return None
        loc = s.loc
        best, best_cost = None, 9.0
        for act in legal:
            if act.verb != "activate" or act.args[0] in ("all", "border-zone"):
                continue
            u = _u(act.args[0])
            cost = activation_cost(u)
            if (loc[u] in open_cities and cost < best_cost
                    and s.gov_psl - s.gov_half * 0.5 - cost > CITY_FLOOR):
                best, best_cost = act, cost
        return best

    def _air_to_guard(self, s, legal) -> Action | None:
        """An Air Point to buy (6.31-5, 2 PSP) while fewer than ``air_guard`` are on
        hand (none with ``spend=0``, Police only). Kept off Flush and React, they wait
        to add 1d6 each to the return fire of a harassed unit outside the Urban areas
        (11.11, DIS-12), which keeps the Bands from harassing Police before their Civil
        Affairs. None is bought while no Band or Failek shares a non-Urban area with
        Police (against an FLN of Cadres the 2 PSP buy nothing)."""
        if s.air_max >= self.air_guard or s.gov_psl <= POLICE_FLOOR or not self.spend:
            return None
        v = view_of(s)
        exposed = v.memo.get("exposed police")
        if exposed is None:
            exposed = v.memo["exposed police"] = any(
                v.police[a] and not v.urban[a] and self._bands(v, a) for a in ALGERIA)
        if not exposed:
            return None     # no Band or Failek where it could harass Police
        for act in legal:
            if act.verb == "buy" and act.args[0] == "air":
                return act
        return None

    def _gov_reinf(self, s, legal):
        self._watch_fronts(s)
        guard = self._air_to_guard(s, legal)
        if guard is not None:
            return guard
        renew = self._police_to_renew(s, legal) or self._police_to_withdraw(s, legal)
        if renew is not None:
            return renew
        v = view_of(s)
        if self._denying(s):
            act = self._police_to_relocate(s, v, legal)
            if act is not None:
                return act
        budget = self._gov_budget(s)
        verbs = {}
        for act in legal:
            verbs.setdefault(act.verb, []).append(act)
        mob = {a.args[0]: a for a in verbs.get("mobilize", ())}
        buy = {a.args[0]: a for a in verbs.get("buy", ())}
        if "police" in mob and s.gov_psl > POLICE_FLOOR and self._civil_site(v) is not None:
            return mob["police"]
        guard = self._city_to_guard(s, legal)
        if guard is not None:
            return guard
        if self._hunting(s):
            act = self._hunt_activation(s, verbs)
            if act is not None:
                return act
        if ("fr_xx" in mob and s.gov_psl > DIVISION_FLOOR
                and self._division_site(s, v) is not None):
            return mob["fr_xx"]
        if "remove-oas" in verbs:
            return verbs["remove-oas"][0]
        if self.control_move:
            plan = self._control_plan(s, v)
            for act in verbs.get("activate", ()):
                if act.args[0] not in ("all", "border-zone") and _u(act.args[0]) in plan:
                    return act
        if any(a.args == ("border-zone",) for a in verbs.get("activate", ())) \
                and len(v.fln_mobile_abroad()) >= 2 and budget >= 1:
            return _listed(legal, "activate", "border-zone")
        # Activation: elites and brigades near the FLN, divisions where it is strong.
        best, best_sc = None, 0.0
        hot = max(v.threat[b] for b in ALGERIA)
        for act in verbs.get("activate", ()):
            if act.args[0] in ("all", "border-zone"):
                continue
            u = _u(act.args[0])
            a = s.loc[u]
            t = UTYPE[u]
            cost = activation_cost(u)
            if budget < cost:
                continue
            value = v.threat[a] * 1.5 + hot * 0.3 + (2.5 if t == EL_X else 0)
            if value / cost > best_sc:
                best, best_sc = act, value / cost
        if best is not None and best_sc >= 2.0:
            return best
        if "naval" in buy and budget >= 3 and s.naval < 2 and s.gov_psl >= 50:
            return buy["naval"]
        if "el_x" in mob and budget >= 3 and s.gov_psl >= 55:
            return mob["el_x"]
        if "fr_xx" in mob and budget >= 5 and s.gov_psl >= 60:
            return mob["fr_xx"]
        if "air" in buy and budget >= 2 and s.air_max < 3 and s.gov_psl >= 60:
            return buy["air"]
        return self._control_brigade(s, v, mob) or _listed(legal, "done")


    def _control_brigade(self, s, v: View, mob: dict[str, Action]) -> Action | None:
        """A brigade bought for the control it gives (10.1): 2 PSP for one control point
        that counts even when the unit is never activated (6.32-4). Bought only while the
        Government's PSL is at least the FLN's and stays above the reserve once this
        turn's Civil Affairs are paid (one PSP each, ``View.civil_sites``), and only
        where one more point changes who controls an area. Measured against the
        heuristic FLN in 1954 it raises the Government's win rate from about 40% to 60%;
        when the Government trails (1958) the PSP are worth more as Civil Affairs.
        Civil Affairs first, measured (1,000 games a cell): against ``all-in`` in 1954
        93.4% to 96.7%, unchanged against the heuristic FLN."""
        if not self.control_buy or s.gov_psl < s.fln_psl:
            return None
        if s.gov_psl - 2 - v.civil_sites() <= GOV_RESERVE:
            return None
        if self.control_move and not self._denying(s):
            return None     # the control plan moves the units already on the map
        if control_site(v, 1) is None:
            return None
        return mob.get("al_x") or mob.get("fr_x")

    def _civil_site(self, v: View) -> int | None:
        """Where a new Police unit opens one more Civil Affairs a turn (9.25: a Police
        unit in a non-Remote area), the most threatened (and Urban) first, or against
        a Propaganda FLN where its patrol cuts Propaganda most; None when every such
        area has Police."""
        denying = self._denying(v.s)
        best, best_sc = None, -1e9
        for a in ALGERIA:
            if v.police[a] or v.remote[a]:
                continue
            if denying:
                sc = (3 * patrol_denial(v.s, v, a, v.patrol[a]) + 0.2 * v.threat[a]
                      + (1 if v.urban[a] else 0))
            else:
                sc = v.threat[a] + (2 if v.urban[a] else 0)
            sc -= MASSED * max(0, self._bands(v, a) - MASS_FREE)
            if sc > best_sc:
                best, best_sc = a, sc
        return best

    @staticmethod
    def _bands(v: View, a: int) -> int:
        """Non-neutralized Bands and Faileks in ``a``: each may Harass a Police unit there
        before its Civil Affairs (8-2, 9.15), for 0.67 PSP to the FLN on average."""
        flags = v.s.flags
        return sum(1 for u in v.fln[a] if UTYPE[u] in (BAND, FAILEK) and not flags[u] & NEUT)

    def _mobilize_where(self, s, legal):
        v = view_of(s)
        t = s.stack[-1][2]
        if t == FR_XX:
            a = self._division_site(s, v)
            if a is not None:
                return _listed(legal, "at", AREA_IDS[a])
        if t == POLICE:
            a = self._civil_site(v)
            if a is not None:
                return _listed(legal, "at", AREA_IDS[a])
        if t in (AL_X, FR_X) and self.control_buy:
            a = control_site(v, 1)
            if a is not None:
                return _listed(legal, "at", AREA_IDS[a])
        scored = [(v.threat[_a(act.args[0])] - v.gov_cp[_a(act.args[0])] * 0.7, act)
                  for act in legal]
        return self._best(scored)

    def _coup_mobilize(self, s, legal):
        prefer = ("fr_xx", "el_x", "fr_x", "al_x", "police")
        for key in prefer:
            for act in legal:
                if act.args == (key,):
                    return act
        return _listed(legal, "done")


    # ------------------------------------------------------------ Government operations
    def _gov_mission_scores(self, s, v: View, legal) -> list[tuple[float, Action]]:
        spare = s.gov_psl - GOV_RESERVE
        flags = s.flags
        ca_ok = hunting = None
        out = []
        for act in legal:
            verb = act.verb
            if verb == "pass":
                out.append((0.0, act))
                continue
            a = _a(act.args[0])
            if verb == "flush":
                sc = self._flush_value(s, v, a)
                if hunting is None:
                    hunting = self._hunting(s)
                if hunting:
                    sc = max(sc, self._hunt_value(s, v, a))
                out.append((sc, act))
            elif verb == "civil-affairs":
                sc = 1.67 + (0.4 if s.terror[a] else 0) - 1.0 + (0.5 if v.fln[a] else 0)
                if ca_ok is None:
                    ca_ok = self._civil_affordable(s, legal)
                out.append((sc if ca_ok else -1, act))
            elif verb == "suppression":
                if spare <= 0:
                    out.append((-1, act))
                    continue
                bands = cf = 0
                for u in v.fln[a]:
                    if not flags[u] & NEUT:
                        t = UTYPE[u]
                        if t in (BAND, FAILEK):
                            bands += 1
                        elif t in (CADRE, FRONT):
                            cf += 1
                drm = min(v.elites[a], 3) + (1 if s.amnesty else 0)
                n, plus, at = mst_odds(drm)
                sc = min(n, bands) * 1.2 + at * cf * 1.2 - plus * 4.5 - 1.0
                out.append((sc, act))
            elif verb == "intelligence":
                if spare <= 0:
                    out.append((-1, act))
                    continue
                out.append((self._intelligence_value(s, v, a) - 1.0, act))
            else:
                out.append((-5.0, act))     # Resettlement: FLN +3d6, never worth it here
        return out


    def _ops_gov(self, s, legal):
        self._watch_ops(s)
        if not self._propaganda_seen:
            self._propaganda_seen = any(d & DONE_PROPAGANDA for d in s.done)
        if not self._strike_seen:
            self._strike_seen = any(d & DONE_STRIKE for d in s.done)
        v = view_of(s)
        self._note_out(s, v)
        scored = self._gov_mission_scores(s, v, legal)
        act = self._best(scored)
        if act is not None and act.verb == "civil-affairs":
            self._ca_pending = (s.fln_psl, (s.ap, s.box[FLN_SLICE]))
        return act


    def _select(self, s, legal):
        _, _, mission, area, selected, optional = s.stack[-1]
        v = view_of(s)
        adds = [a for a in legal if a.verb == "add"]
        if mission == "flush" and self._hunting(s):
            act = self._hunt_select(s, v, area, selected, adds, legal)
            if act is not None:
                return act
        if mission == "react" and not selected:
            c = s.combat
            targets = c.get("targets", [])
            strike = c.get("strike", False)
            out_now = len(v.fln_ops[area]) + sum(1 for u in v.fln[area] if s.box[u] == OC)
            if (not strike and v.division[area] and out_now >= MASS_UNITS
                    and any(a.verb == "no-react" for a in legal)):
                # Many FLN units out in an area with a division: the units are kept
                # for one Flush of them all (9.22-3) once the FLN has done.
                return _listed(legal, "no-react")
            value = sum(FLN_VALUE.get(UTYPE[u], 1) * (1 - EVASION[UTYPE[u]] / 6)
                        for u in targets)
            if not strike and (not adds or value < 1.0) and any(
                    a.verb == "no-react" for a in legal):
                return _listed(legal, "no-react")
        if adds:
            scored = []
            for act in adds:
                u = _u(act.args[0])
                sc = CONTACT[UTYPE[u]] * 3 + FP[UTYPE[u]] * 0.2 + (2 if s.loc[u] == area else 0)
                scored.append((sc, act))
            grouped = v.division[area] or all(UTYPE[_u(a.args[0])] == EL_X for a in adds)
            if not selected or (grouped and (mission == "flush" or len(selected) < 2)):
                return self._best(scored)
        if selected:
            return _listed(legal, "go")
        flies = [a for a in legal if a.verb == "airmobilize"]
        if flies:
            return flies[0]
        for verb in ("no-react",):
            for a in legal:
                if a.verb == verb:
                    return a
        return legal[0]

"""Where the Government's units stand: control (10.1), patrols (9.21) and the
Deployment Phase (7-1)."""

from __future__ import annotations

from djebel.algeria.board import (
    ACTIVE,
    AL_X,
    ALGERIA,
    AREA_IDS,
    BAND,
    CADRE,
    DISPERSED,
    FAILEK,
    FR_XX,
    FRONT,
    NEUT,
    OC,
    OPS,
    POLICE,
    PTL,
    UTYPE,
)
from djebel.algeria.bots.heuristic_base import _listed, _u, same_turn, turn_key
from djebel.algeria.bots.view import View, mst_odds, view_of

CONTROL_BUDGET = 18  # halves of a PSP a turn the control plan may pay (at most)
CONTROL_FLOOR = 31  # no unit activated for control at this PSL or less (11.3, 11.4)


def control_value(fln: int, gov: int) -> int:
    """+1 if the Government controls an area with these control points, -1 if the FLN
    does, 0 if contested on average: a side with at least twice the other's points
    controls (10.1-2); otherwise both roll against the same difference (10.1-4), which
    favours neither side."""
    if gov > 0 and gov >= 2 * fln:
        return 1
    if fln > 0 and fln >= 2 * gov:
        return -1
    return 0


def unit_cp(s, u: int) -> int:
    """Control points of Government unit ``u`` (10.1-1): 3 for a Dispersed division, 0
    neutralized, else 1."""
    f = s.flags[u]
    if f & NEUT:
        return 0
    return 3 if UTYPE[u] == FR_XX and f & DISPERSED else 1


def control_site(v: View, points: int) -> int | None:
    """The area where ``points`` more Government control points change control most
    (10.1), Urban areas first (5 AP a turn to an FLN that controls one, 6.1-1); None
    when no area changes."""
    best, best_sc = None, 0.0
    for a in ALGERIA:
        gain = (control_value(v.fln_cp[a], v.gov_cp[a] + points)
                - control_value(v.fln_cp[a], v.gov_cp[a]))
        if gain > 0:
            sc = gain + (1.0 if v.urban[a] else 0.0) + v.threat[a] * 0.05
            if sc > best_sc:
                best, best_sc = a, sc
    return best


def patrol_denial(s, v: View, a: int, patrols: int) -> float:
    """What one more unit on Patrol in ``a`` (which has ``patrols``) takes from the FLN,
    in PSP: -1 more to Propaganda (9.11-3, doubled N in Urban areas, a Cadre lost on
    '+') and to Raids (9.14-3, AP valued at 0.4 PSP) by the units there now."""
    if v.remote[a]:
        return 0.0
    propagandists = raiders = False
    for u in v.fln[a]:
        if s.flags[u] & NEUT:
            continue
        t = UTYPE[u]
        propagandists |= t in (CADRE, FRONT)
        raiders |= t in (BAND, FAILEK)
    double = 2 if v.urban[a] else 1
    value = 0.0
    if propagandists:
        drm = -patrols - (1 if s.terror[a] else 0)
        (n0, plus0, _), (n1, plus1, _) = mst_odds(drm), mst_odds(drm - 1)
        value += (n0 - n1) * double + (plus1 - plus0) * 2.0
    if raiders:
        (n0, plus0, _), (n1, plus1, _) = mst_odds(-patrols), mst_odds(-patrols - 1)
        value += (n0 - n1) * double * 0.4 + (plus1 - plus0) * 1.0
    return value


class GovDeployment:
    """Mixin of GovPolicies: the control plan and each unit's deployment."""

    patrol_stay = 1.0       # style setting (see HeuristicAgent.__init__)
    deny = 0.0              # style setting (see HeuristicAgent.__init__)
    control_move = 0.0      # style setting (see HeuristicAgent.__init__)
    _plan_key: tuple = ()
    _plan: dict[int, int] = {}

    def _gov_deploy(self, s, legal):
        self._watch_fronts(s)
        v = view_of(s)
        for act in legal:
            if act.verb == "mode" and act.args[1] == "dispersed":
                return act
        for act in legal:
            if act.verb == "deploy":
                u = _u(act.args[0])
                if self._deploy_target(s, v, u) != "stay":
                    return act
        return _listed(legal, "done")

    def _deploy_to(self, s, legal):
        u = s.stack[-1][2]
        target = self._deploy_target(s, view_of(s), u)
        if target == "stay":
            return _listed(legal, "stay")
        return _listed(legal, "to", target)

    def _deploy_target(self, s, v: View, u: int) -> str:
        """'stay', 'PTL', or an area id for a deployable Government unit."""
        a = s.loc[u]
        if self._guarding(s) and self._strike_city(s, v, a):
            guards = self._guards(s, v, a)
            if u in guards and not any(s.box[g] == PTL for g in guards):
                if self._strike_seen:
                    return "PTL"        # the city's guard (_city_to_guard) patrols
                if guards == [u] and any(UTYPE[x] == CADRE and not s.flags[x] & NEUT
                                         for x in v.fln[a]):
                    return "stay"       # the first turn's guard stays to React
        b = self._control_dest(s, v, u)
        if b is not None:
            return AREA_IDS[b]
        if self.deny or self._denying(s):
            return self._deny_target(s, v, u, self.deny or 1.0)
        here = self._patrol_need(s, v, a)
        if here >= self.patrol_stay:
            return "PTL"
        return self._patrol_move(s, v, a, here, 1.5, 0.0)

    def _deny_target(self, s, v: View, u: int, weight: float) -> str:
        """The ``deny`` style: the patrol need of each area plus ``weight`` times what one
        more patrol there takes from FLN Propaganda and Raids (patrol_denial), so units
        spread out to the areas whose Cadres would otherwise propagandize unhindered."""
        a = s.loc[u]
        here = self._patrol_need(s, v, a) + 3 * weight * patrol_denial(s, v, a, v.patrol[a])
        return self._patrol_move(s, v, a, here, 1.0, weight)

    def _patrol_move(self, s, v: View, a: int, here: float, margin: float,
                     weight: float) -> str:
        """The area other than ``a`` worth patrolling most, if it beats ``here`` by
        ``margin``; else patrol in ``a`` if it is worth anything, or stay."""
        best, best_sc = None, here + margin
        for b in ALGERIA:
            if b == a:
                continue
            sc = self._patrol_need(s, v, b) - v.patrol[b] * 1.5 - v.gov_cp[b] * 0.3
            if weight:
                sc += 3 * weight * patrol_denial(s, v, b, v.patrol[b])
            if sc > best_sc:
                best, best_sc = b, sc
        if best is not None:
            return AREA_IDS[best]
        return "PTL" if here > 0 else "stay"

    def _control_plan(self, s, v: View) -> dict[int, int]:
        """This turn's plan of units to send where they win control (10.1), made once
        in the Reinforcement Phase: unit -> area.

        Control counts every unit in any box (10.1-1), active or not (6.32-4), so a
        unit once moved keeps giving its point without being activated again. Each
        area won adds one (Contested) or two (FLN) to the difference in controlled
        areas, half a PSP a turn of control bonus (10.4) and AP the FLN does not get
        (6.1-1). Targets are taken cheapest first; units come from areas the
        Government keeps controlling without them, Algerian brigades (active free,
        6.32-2) and the active first, then the French units whose activation (B.1)
        costs at most ``control_move`` halves of a PSP per point of difference won
        (at most CONTROL_BUDGET halves a turn, times ``spend``, and none of the PSL at
        CONTROL_FLOOR or less);
        divisions are counted Dispersed (3 points, 11.7), as the agent deploys them."""
        if same_turn(self._plan_key, s):
            return self._plan
        self._plan_key, self._plan = turn_key(s), {}
        if not self.control_move or s.gov_psl <= CONTROL_FLOOR:
            return self._plan
        loc, flags, box = s.loc, s.flags, s.box
        fln_cp = v.fln_cp
        gov_cp = [0] * len(fln_cp)
        units: list[tuple[int, int, int]] = []      # (activation cost in halves, cp, unit)
        for a in ALGERIA:
            for u in v.gov[a]:
                f = flags[u]
                if f & NEUT:
                    continue
                t = UTYPE[u]
                cp = 3 if t == FR_XX else 1
                gov_cp[a] += cp
                if t == POLICE or box[u] not in (OPS, OC):
                    continue
                free = t == AL_X or f & ACTIVE
                units.append((0 if free else (2 if t == FR_XX else 1), cp, u))
        units.sort()
        targets = []
        for b in ALGERIA:
            cv = control_value(fln_cp[b], gov_cp[b])
            if cv >= 1:
                continue
            need = max(1, 2 * fln_cp[b]) - gov_cp[b]
            targets.append((need / (1 - cv), need, 1 - cv, b))
        targets.sort()
        # In halves of a PSP, times ``spend`` (0: only the units active for free move).
        budget = min(CONTROL_BUDGET, 2 * (s.gov_psl - CONTROL_FLOOR)) * self.spend
        used: set[int] = set()
        costs: dict[int, int] = {}
        for _, need, gain, b in targets:
            chosen, cost, got = [], 0, 0
            for c, cp, u in units:
                if got >= need:
                    break
                a = loc[u]
                if u in used or a == b or (v.urban[a] and v.fln[a]):
                    continue
                rest = gov_cp[a] - cp
                if control_value(fln_cp[a], gov_cp[a]) == 1 and control_value(fln_cp[a], rest) < 1:
                    continue
                if control_value(fln_cp[a], gov_cp[a]) < 1:
                    continue
                chosen.append((u, a, cp))
                costs[u] = c
                cost += c
                got += cp
            if got < need:
                continue
            for pick in sorted(chosen, key=lambda x: x[2]):    # drop the units not needed
                if got - pick[2] >= need:
                    chosen.remove(pick)
                    got -= pick[2]
                    cost -= costs[pick[0]]
            if cost > budget or cost > self.control_move * gain:
                continue
            budget -= cost
            for u, a, cp in chosen:
                used.add(u)
                gov_cp[a] -= cp
                gov_cp[b] += cp
                self._plan[u] = b
        return self._plan

    def _control_dest(self, s, v: View, u: int) -> int | None:
        """The area where unit ``u`` changes control most (10.1) if it leaves its own
        (``control_move`` per area won, less what a patrol in its own area is worth),
        or None. Control is counted in every box (10.1-1), so the unit need not patrol
        there; each area won is half a PSP a turn of control bonus (10.4) and AP the
        FLN does not get (6.1-1)."""
        cw = self.control_move
        a = s.loc[u]
        cp = unit_cp(s, u)
        if not cw or not cp:
            return None
        planned = self._plan.get(u) if same_turn(self._plan_key, s) else None
        if planned is not None and planned != a:
            return planned
        fln_cp, gov_cp = v.fln_cp, v.gov_cp
        loss = control_value(fln_cp[a], gov_cp[a]) - control_value(fln_cp[a], gov_cp[a] - cp)
        best, best_sc = None, self._patrol_need(s, v, a) + 0.5
        for b in ALGERIA:
            if b == a:
                continue
            gain = control_value(fln_cp[b], gov_cp[b] + cp) - control_value(fln_cp[b], gov_cp[b])
            if gain <= loss:
                continue
            sc = cw * (gain - loss) + 0.3 * self._patrol_need(s, v, b) + 0.3 * v.urban[b]
            if sc > best_sc:
                best, best_sc = b, sc
        return best

    @staticmethod
    def _patrol_need(s, v: View, a: int) -> float:
        """How much a patrol in ``a`` would hurt FLN Propaganda, Strikes and Raids (from
        the FLN units in ``a`` alone: kept in the View's per-area memo)."""
        values = v.per_area(("patrol_need",))
        need = values[a]
        if need is not None:
            return need
        if v.remote[a]:
            need = 0.2 * v.threat[a]
        else:
            need = 0.0
            for u in v.fln[a]:
                if s.flags[u] & NEUT:
                    continue
                t = UTYPE[u]
                need += 1.5 if t in (CADRE, FRONT) else 0.8
            if v.urban[a]:
                need *= 2
        values[a] = need
        return need

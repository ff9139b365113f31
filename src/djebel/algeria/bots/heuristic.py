"""HeuristicAgent: one hand-written policy per decision kind.

Every policy looks at the legal actions and the board and picks what a
competent player would: the FLN surfaces only what should act, does Propaganda,
Strikes and Raids where they pay and harasses at good odds; the Government
spends its PSL only above a safety reserve, patrols and flushes where the FLN
acts, and runs Civil Affairs wherever its Police can. The agent's own
``random.Random`` breaks ties; the game's dice are never touched.
"""

from __future__ import annotations

import random

from djebel.algeria.board import (
    ALGERIA,
    AREA_IDS,
    AREA_INDEX,
    BAND,
    CADRE,
    COUNTRIES,
    EL_X,
    FAILEK,
    FR_XX,
    FRANCE,
    FRONT,
    NEUT,
    OC,
    OPS,
    POLICE,
    TYPE_INDEX,
    UNIT_INDEX,
    UNIT_NAMES,
    UTYPE,
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
from djebel.algeria.rules.common import contact as unit_contact
from djebel.algeria.rules.common import firepower as unit_fp
from djebel.algeria.state import FLN_CONTROL, GOV_CONTROL
from djebel.algeria.tables import tables
from djebel.core.actions import Action

GOV_RESERVE = 38        # the Government spends PSL only above this (coup/OAS zone is <= 30)
FLN_SAFE = 30           # below this the FLN keeps its PSP for itself


def _u(name: object) -> int:
    return UNIT_INDEX[str(name)]


def _a(name: object) -> int:
    return AREA_INDEX[str(name).upper()]


def expected_hits(fp: int) -> float:
    """Mean hits on the CRT (C.3) for a firepower total."""
    t = tables()
    return sum(t.crt(fp, r) for r in range(1, 7)) / 6


class HeuristicAgent:
    """Plays either side of Algeria by fixed, readable rules."""

    FLN_FINISH = 12     # the FLN lowers a Government PSL this low instead of raising its own
    GOV_KEEP = 33       # the Government keeps its own PSL above the coup zone first

    def __init__(self, side: str, seed: int = 0):
        self.side = side
        self.rng = random.Random(seed)
        self._budget_key: tuple = ()
        self._budget_start = 0

    # ------------------------------------------------------------ entry point
    def choose(self, game) -> Action:
        legal = game.legal_actions()
        if len(legal) == 1:
            return legal[0]
        kind = game.decision()
        policy = getattr(self, "_" + kind, None)
        if policy is not None:
            action = policy(game.state, legal)
            if action is not None:
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
        top = max(sc for sc, _ in scored)
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
                gov = v.gov_cp[area]
                sc = -gov * 1.5 - len(v.fln[area]) * 0.8
                if t == FRONT:
                    sc += 4 if v.urban[area] else 0
                elif t == CADRE:
                    sc += (3 if v.fronts[area] is None else 0) - (3 if v.remote[area] else 0)
                    sc += 1.5 if v.urban[area] and v.fronts[area] is not None else 0
                elif v.remote[area]:
                    sc += 1
            scored.append((sc, act))
        return self._best(scored)

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
        """9-4: measured in bot-v-bot play, the FLN does best raising its own PSL (its AP
        income and its life), the Government lowering the FLN's once out of the coup zone;
        either side takes the win when the points reach the enemy's PSL."""
        _, side, n, _, _ = s.stack[-1]
        own, enemy = (s.fln_psl, s.gov_psl) if side == "fln" else (s.gov_psl, s.fln_psl)
        if n >= enemy:
            return Action("psp", (0,))           # lowering the enemy to 0 wins now
        if side == "fln":
            if enemy <= self.FLN_FINISH:
                return Action("psp", (0,))
            return Action("psp", (n,))
        keep = max(0, min(n, self.GOV_KEEP - own))  # first climb out of the coup zone
        return Action("psp", (keep,))

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
        return Action("air", (min(k, want),))

    # ------------------------------------------------------------ Government reinforcement
    def _gov_budget(self, s) -> float:
        """PSP the Government may still spend in this Reinforcement Phase."""
        key = (s.turn, id(s))
        if self._budget_key != key:
            self._budget_key = key
            self._budget_start = s.gov_psl
        cap = max(0.0, min(12.0, (self._budget_start - 40) * 0.45))
        spent = self._budget_start - s.gov_psl + s.gov_half * 0.5
        return min(cap - spent, s.gov_psl - GOV_RESERVE - s.gov_half * 0.5)

    def _gov_reinf(self, s, legal):
        v = view_of(s)
        budget = self._gov_budget(s)
        verbs = {}
        for act in legal:
            verbs.setdefault(act.verb, []).append(act)
        if "remove-oas" in verbs:
            return verbs["remove-oas"][0]
        if any(a.args == ("border-zone",) for a in verbs.get("activate", ())) \
                and len(v.fln_mobile_abroad()) >= 2 and budget >= 1:
            return Action("activate", ("border-zone",))
        mob = {a.args[0]: a for a in verbs.get("mobilize", ())}
        buy = {a.args[0]: a for a in verbs.get("buy", ())}
        n_police = sum(v.police[a] for a in ALGERIA)
        site = self._police_site(s, v)
        if "police" in mob and budget >= 1 and site is not None and n_police < 10:
            return mob["police"]
        # Activation: elites and brigades near the FLN, divisions where it is strong.
        best, best_sc = None, 0.0
        hot = max(v.threat[b] for b in ALGERIA)
        for act in verbs.get("activate", ()):
            if act.args[0] in ("all", "border-zone"):
                continue
            u = _u(act.args[0])
            a = s.loc[u]
            t = UTYPE[u]
            cost = 1.0 if t == FR_XX else 0.5
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
        return Action("done")

    def _police_site(self, s, v: View) -> int | None:
        best, best_sc = None, 0.5
        for a in ALGERIA:
            if v.police[a]:
                continue
            sc = v.threat[a] + (2 if v.urban[a] else 0) - (3 if v.remote[a] else 0)
            if sc > best_sc:
                best, best_sc = a, sc
        return best

    def _mobilize_where(self, s, legal):
        v = view_of(s)
        t = s.stack[-1][2]
        if t == POLICE:
            a = self._police_site(s, v)
            if a is not None:
                return Action("at", (AREA_IDS[a],))
        scored = [(v.threat[_a(act.args[0])] - v.gov_cp[_a(act.args[0])] * 0.7, act)
                  for act in legal]
        return self._best(scored)

    def _coup_mobilize(self, s, legal):
        prefer = ("fr_xx", "el_x", "fr_x", "al_x", "police")
        for key in prefer:
            for act in legal:
                if act.args == (key,):
                    return act
        return Action("done")

    # ------------------------------------------------------------ Government deployment
    def _deploy_target(self, s, v: View, u: int) -> str:
        """'stay', 'PTL', or an area id for a deployable Government unit."""
        a = s.loc[u]
        here = self._patrol_need(s, v, a)
        if here >= 1.0:
            return "PTL"
        best, best_sc = None, here + 1.5
        for b in ALGERIA:
            if b == a:
                continue
            sc = self._patrol_need(s, v, b) - v.patrol[b] * 1.5 - v.gov_cp[b] * 0.3
            if sc > best_sc:
                best, best_sc = b, sc
        if best is not None:
            return AREA_IDS[best]
        return "PTL" if here > 0 else "stay"

    def _patrol_need(self, s, v: View, a: int) -> float:
        """How much a patrol in ``a`` would hurt FLN Propaganda, Strikes and Raids."""
        if v.remote[a]:
            return 0.2 * v.threat[a]
        need = 0.0
        for u in v.fln[a]:
            if s.flags[u] & NEUT:
                continue
            t = UTYPE[u]
            need += 1.5 if t in (CADRE, FRONT) else 0.8
        if v.urban[a]:
            need *= 2
        return need

    def _gov_deploy(self, s, legal):
        v = view_of(s)
        for act in legal:
            if act.verb == "mode" and act.args[1] == "dispersed":
                return act
        for act in legal:
            if act.verb == "deploy":
                u = _u(act.args[0])
                if self._deploy_target(s, v, u) != "stay":
                    return act
        return Action("done")

    def _deploy_to(self, s, legal):
        u = s.stack[-1][2]
        target = self._deploy_target(s, view_of(s), u)
        if target == "stay":
            return Action("stay")
        return Action("to", (target,))

    # ------------------------------------------------------------ Government operations
    def _gov_mission_scores(self, s, v: View, legal) -> list[tuple[float, Action]]:
        spare = s.gov_psl - GOV_RESERVE
        out = []
        for act in legal:
            if act.verb == "pass":
                out.append((0.0, act))
                continue
            a = _a(act.args[0])
            if act.verb == "flush":
                out.append((self._flush_value(s, v, a), act))
            elif act.verb == "civil-affairs":
                sc = 1.67 + (0.4 if s.terror[a] else 0) - 1.0 + (0.5 if v.fln[a] else 0)
                out.append((sc if s.gov_psl > 4 or s.fln_psl <= 3 else -1, act))
            elif act.verb == "suppression":
                bands = sum(1 for u in v.fln[a] if UTYPE[u] in (BAND, FAILEK)
                            and not s.flags[u] & NEUT)
                cf = sum(1 for u in v.fln[a] if UTYPE[u] in (CADRE, FRONT)
                         and not s.flags[u] & NEUT)
                drm = min(v.elites[a], 3) + (1 if s.amnesty else 0)
                n, plus, at = mst_odds(drm)
                sc = min(n, bands) * 1.2 + at * cf * 1.2 - plus * 4.5 - 1.0
                out.append((sc if spare > 0 else -1, act))
            elif act.verb == "intelligence":
                ug = v.fln_ug[a]
                flushers = sum(1 for u in v.gov[a] if is_gov_mobile(u)
                               and s.box[u] in (OPS, 3) and not s.flags[u] & NEUT)
                total = v.police[a] * 2
                p = min(1.0, max(0.0, (total - (1 if v.remote[a] else 0)
                                       + (1 if v.urban[a] else 0)) / 6))
                sc = (p * sum(FLN_VALUE.get(UTYPE[u], 1) for u in ug) * 0.35
                      if flushers else 0) - 1.0
                out.append((sc if spare > 0 else -1, act))
            else:
                out.append((-5.0, act))     # Resettlement: FLN +3d6, never worth it here
        return out

    def _flush_group(self, s, v: View, a: int) -> list[int]:
        """The units a Flush/React in ``a`` would use (local, grouped by 9.22-3)."""
        local = [u for u in v.gov[a] if is_gov_mobile(u) and s.box[u] in (OPS, 3)
                 and not s.flags[u] & NEUT]
        if not local:
            return []
        if v.division[a]:
            return local
        elites = [u for u in local if UTYPE[u] == EL_X]
        if len(elites) > 1:
            return elites
        return [max(local, key=lambda u: (unit_contact(s, u), unit_fp(s, u)))]

    def _flush_value(self, s, v: View, a: int) -> float:
        group = self._flush_group(s, v, a)
        if not group:
            return 0.05      # only airmobile help: rarely worth the Helo points
        c = sum(unit_contact(s, u) for u in group)
        fp = sum(unit_fp(s, u) for u in group) + (s.air_avail and not v.urban[a]) * 3.5
        targets = v.fln_ops[a] + [u for u in v.fln[a] if s.flags[u] & NEUT
                                  and s.box[u] in (OPS, OC)]
        drm = (1 if v.remote[a] else 0) + (1 if s.terror[a] else 0) - (1 if v.urban[a] else 0)
        found_value = 0.0
        found_fp = 0.0
        for u in targets:
            d = drm + (1 if EVASION[UTYPE[u]] > c else 0)
            p = max(0.0, min(1.0, (c - d) / 6))
            found_value += p * FLN_VALUE.get(UTYPE[u], 1)
            found_fp += p * FP[UTYPE[u]]
        if found_value <= 0:
            return 0.0
        hits = expected_hits(int(fp))
        back = expected_hits(int(round(found_fp)))
        n_found = max(1e-6, sum(1 for _ in targets))
        return min(hits, n_found) * found_value / n_found * 0.8 - back * 0.6 + 0.1

    def _ops_gov(self, s, legal):
        scored = self._gov_mission_scores(s, view_of(s), legal)
        return self._best(scored)

    def _select(self, s, legal):
        _, _, mission, area, selected, optional = s.stack[-1]
        v = view_of(s)
        adds = [a for a in legal if a.verb == "add"]
        if mission == "react" and not selected:
            c = s.combat
            targets = c.get("targets", [])
            strike = c.get("strike", False)
            value = sum(FLN_VALUE.get(UTYPE[u], 1) * (1 - EVASION[UTYPE[u]] / 6)
                        for u in targets)
            if not strike and (not adds or value < 1.0) and any(
                    a.verb == "no-react" for a in legal):
                return Action("no-react")
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
            return Action("go")
        flies = [a for a in legal if a.verb == "airmobilize"]
        if flies:
            return flies[0]
        for verb in ("no-react",):
            for a in legal:
                if a.verb == verb:
                    return a
        return legal[0]

    # ------------------------------------------------------------ FLN reinforcement
    def _fln_reinf(self, s, legal):
        v = view_of(s)
        reserve = self._ops_reserve(s, v)
        ap = s.ap
        best, best_sc = None, 0.0
        for act in legal:
            verb = act.verb
            sc = 0.0
            if verb == "convert":
                u = _u(act.args[0])
                a = s.loc[u]
                if act.args[1] == "front":
                    if ap - 3 < reserve * 0.5:
                        continue
                    sc = 6 + (4 if v.urban[a] else 0) - v.gov_cp[a] * 1.2 - v.patrol[a]
                elif act.args[1] == "failek":
                    if ap - 2 < reserve:
                        continue
                    sc = 2.5
                else:           # Cadre -> Band: only abroad, where Cadres idle
                    if a not in COUNTRIES or ap - 1 < reserve:
                        continue
                    sc = 2.0
            elif verb == "build":
                a = _a(act.args[1])
                cost = 2 if a in COUNTRIES else 3
                if ap - cost < reserve:
                    continue
                t = act.args[0]
                if a in COUNTRIES:
                    sc = 2.2 if t == "band" else 0.5
                    if len(v.fln[a]) > 8:
                        sc -= 2
                else:
                    danger = v.gov_cp[a] * 0.6 + v.patrol[a] * 0.5 + v.police[a] * 0.5
                    cadres = sum(1 for u in v.fln[a] if UTYPE[u] == CADRE)
                    bands = sum(1 for u in v.fln[a] if UTYPE[u] == BAND)
                    if t == "cadre":
                        sc = 4 - cadres * 1.2 - danger + (1.5 if v.urban[a] else 0)
                    else:
                        sc = 3.5 - bands * 1.0 - danger * 0.8 + (0.5 if v.gov[a] else 0)
            elif verb == "reduce":
                continue
            if sc > best_sc:
                best, best_sc = act, sc
        return best or Action("done")

    def _ops_reserve(self, s, v: View) -> int:
        """AP the FLN keeps for this turn's missions (Propaganda, Strikes, Raids)."""
        need = 0
        for a in ALGERIA:
            if v.remote[a] or not v.fln[a]:
                continue
            if any(UTYPE[u] in (CADRE, FRONT) for u in v.fln[a]):
                need += 1
            if v.urban[a] and v.fronts[a] is not None:
                need += 3
        return need

    # ------------------------------------------------------------ FLN deployment
    def _fln_deploy(self, s, legal):
        v = view_of(s)
        up = set()
        for act in legal:
            if act.verb == "surface" and act.args[0] != "all":
                up.add(_u(act.args[0]))
        if not up:
            return self._france(s, v, legal)
        want = self._surface_plan(s, v, up)
        for u in want:
            return Action("surface", (UNIT_NAMES[u],))
        return self._france(s, v, legal)

    def _france(self, s, v, legal):
        for act in legal:
            if act.verb == "france":
                return act
        return Action("done")

    def _surface_plan(self, s, v: View, up: set[int]) -> list[int]:
        """Units to bring to OPS this turn, in the order to surface them."""
        ap = s.ap
        out = []
        for a in ALGERIA:
            if not v.fln[a]:
                continue
            ug = [u for u in v.fln[a] if u in up]
            if not ug:
                continue
            patrol = v.patrol[a]
            terror = 1 if s.terror[a] else 0
            gov_fp = v.gov_fp[a]
            cadres = [u for u in ug if UTYPE[u] == CADRE]
            front = v.fronts[a] if v.fronts[a] in up else None
            bands = [u for u in ug if UTYPE[u] in (BAND, FAILEK)]
            # Strike (9.12): a Front and every Cadre in an Urban area.
            if v.urban[a] and front is not None and ap >= 3:
                drm = len(cadres) - patrol - terror
                if drm >= 0 or (drm >= -1 and not gov_fp):
                    out.append(front)
                    out += cadres
                    ap -= 3
                    cadres = []
            # Propaganda (9.11): one Cadre (or, when safe, the Front).
            if not v.remote[a] and ap >= 1 and patrol + terror <= 2:
                if cadres:
                    out.append(cadres.pop())
                    ap -= 1
                elif front is not None and front not in out and patrol + terror == 0 \
                        and gov_fp < 10:
                    out.append(front)
                    ap -= 1
            # Raid (9.14) / Harass (9.15) / Move: Bands and Faileks.
            if bands:
                if not v.remote[a] and ap >= 1 and patrol <= 1:
                    out += bands[:3]
                    ap -= 1
                    bands = bands[3:]
                if v.gov[a] and bands:
                    weakest = min((FP[UTYPE[g]] for g in v.gov[a]), default=99)
                    if any(UTYPE[u] == FAILEK for u in bands) or weakest <= 2:
                        out += bands
            # Units in danger here: bring one up to Move away.
            if v.police[a] and len(ug) >= 3 and v.gov_cp[a] > v.fln_cp[a]:
                rest = [u for u in cadres + bands if u not in out]
                out += rest[:1]
        return out

    # ------------------------------------------------------------ FLN operations
    def _ops_fln(self, s, legal):
        scored = self._fln_mission_scores(s, view_of(s), legal)
        return self._best(scored)

    def _fln_mission_scores(self, s, v: View, legal) -> list[tuple[float, Action]]:
        out = []
        react_risk = {}
        for act in legal:
            verb = act.verb
            if verb == "pass":
                out.append((0.0, act))
                continue
            if verb == "handover":
                out.append((-0.5, act))
                continue
            u = _u(act.args[0])
            a = s.loc[u]
            t = UTYPE[u]
            if a not in react_risk:
                react_risk[a] = self._react_threat(s, v, a)
            risk = react_risk[a]
            if verb == "propaganda":
                if a == FRANCE:
                    n, plus, _ = mst_odds(0)
                    out.append((n * 1.0 - plus * 2.0 + 0.2, act))
                    continue
                drm = -v.patrol[a] - (1 if s.terror[a] else 0)
                n, plus, _ = mst_odds(drm)
                mult = 2 if v.urban[a] else 1
                loss = FLN_VALUE[t]
                ev = n * mult - plus * loss - risk * loss * (1 - EVASION[t] / 6) - 1.0 * 0.6
                if t == FRONT and any(UTYPE[x] == CADRE and s.box[x] == OPS
                                      and not s.flags[x] & NEUT for x in v.fln[a]):
                    ev -= 2.0   # a Cadre can do it for less risk
                out.append((ev, act))
            elif verb == "strike":
                helpers = [x for x in v.fln[a] if UTYPE[x] == CADRE and s.box[x] == OPS
                           and not s.flags[x] & NEUT]
                drm = len(helpers) - v.patrol[a] - (1 if s.terror[a] else 0)
                n, plus, _ = mst_odds(drm)
                loss = FLN_VALUE[FRONT] + 2.0 * len(helpers)
                out.append((n * 3.5 - plus * loss - 3 * 0.6, act))
            elif verb == "raid":
                raiders = [x for x in v.fln[a] if UTYPE[x] in (BAND, FAILEK)
                           and s.box[x] == OPS and not s.flags[x] & NEUT][:3]
                drm = len(raiders) - 1 - v.patrol[a]
                n, plus, _ = mst_odds(drm)
                mult = 2 if v.urban[a] else 1
                ev = (n * mult - 1) * 0.6 - plus * 2.0 - risk * 1.5
                out.append((ev, act))
            elif verb == "harass":
                out.append((self._harass_value(s, v, u, a) - risk * 1.0, act))
            elif verb == "move":
                out.append((self._move_value(s, v, u), act))
        return out

    def _react_threat(self, s, v: View, a: int) -> float:
        """Rough chance the Government reacts hard in ``a`` (0..1)."""
        if a in COUNTRIES or a == FRANCE:
            return 0.0
        group = self._flush_group(s, v, a)
        if not group:
            return 0.0
        fp = sum(unit_fp(s, g) for g in group)
        return min(1.0, expected_hits(fp) / 2.5)

    def _harass_value(self, s, v: View, u: int, a: int) -> float:
        fp = unit_fp(s, u)
        others = [x for x in v.fln[a] if x != u and UTYPE[x] in (BAND, FAILEK)
                  and s.box[x] == OPS and not s.flags[x] & NEUT]
        if UTYPE[u] == FAILEK:
            fp += sum(unit_fp(s, x) for x in others)
        target = min(v.gov[a], key=lambda g: unit_fp(s, g))
        back = -(-unit_fp(s, target) // 2)
        if s.air_avail and not v.urban[a]:
            back += 3
        gain = expected_hits(fp)
        pain = expected_hits(back)
        return gain - pain * FLN_VALUE[UTYPE[u]] * 0.7 - 0.3

    def _move_value(self, s, v: View, u: int) -> float:
        a = s.loc[u]
        dest, sc = self._move_dest(s, v, u)
        if dest is None:
            return -1.0
        here = self._area_safety(s, v, a, u) if a not in COUNTRIES else -1.0
        gain = sc - here
        if a in COUNTRIES:
            bz = s.bz if (s.bz_active and s.bz) else 0
            patrol = v.patrol[dest]
            n, plus, _ = mst_odds(bz - patrol)
            return 1.5 - plus * 6.0 + (0.5 if len(v.fln[a]) > 4 else 0)
        return gain - 0.5

    def _area_safety(self, s, v: View, a: int, u: int) -> float:
        t = UTYPE[u]
        sc = -v.gov_cp[a] * 0.5 - v.police[a] * 0.7 - v.patrol[a] * 0.5
        if t == CADRE and not v.remote[a]:
            sc += 2.0 if v.fronts[a] is None else 0.5
            sc += 1.0 if v.urban[a] else 0
        if t in (BAND, FAILEK):
            sc += 1.0 if not v.remote[a] else 0.5
        sc -= len(v.fln[a]) * 0.3
        return sc

    def _move_dest(self, s, v: View, u: int) -> tuple[int | None, float]:
        from djebel.algeria.rules.missions_fln import destinations
        best, best_sc = None, -1e9
        for b in destinations(s, u):
            if b in COUNTRIES:
                continue
            n, plus, _ = mst_odds(-v.patrol[b])
            sc = self._area_safety(s, v, b, u) - plus * 5
            if sc > best_sc:
                best, best_sc = b, sc
        return best, best_sc

    def _move_to(self, s, legal):
        u = s.stack[-1][2]
        v = view_of(s)
        dest, _ = self._move_dest(s, v, u)
        if dest is not None:
            act = Action("to", (AREA_IDS[dest],))
            if act in legal:
                return act
        return legal[0]

    def _strike_assist(self, s, legal):
        for act in legal:
            if act.verb == "assist":
                return act
        return Action("go")

    def _raid_add(self, s, legal):
        chosen = s.stack[-1][3]
        if len(chosen) < 3:
            for act in legal:
                if act.verb == "add":
                    return act
        return Action("go")

    def _harass_join(self, s, legal):
        for act in legal:
            if act.verb == "add":
                return act
        return Action("go")

    def _harass_target(self, s, legal):
        scored = []
        for act in legal:
            g = _u(act.args[0])
            sc = -unit_fp(s, g) + (1 if UTYPE[g] == POLICE and not s.flags[g] & NEUT else 0)
            scored.append((sc, act))
        return self._best(scored)

    # ------------------------------------------------------------ helpers for search
    @staticmethod
    def control_counts(s) -> tuple[int, int]:
        return s.control.count(FLN_CONTROL), s.control.count(GOV_CONTROL)


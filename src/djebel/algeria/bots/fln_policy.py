"""FLN policies of the HeuristicAgent: reinforcement, deployment, operations."""

from __future__ import annotations

from collections.abc import Container

from djebel.algeria.board import (
    ACTIVE,
    ALGERIA,
    AREA_IDS,
    BAND,
    CADRE,
    COUNTRIES,
    FAILEK,
    FRANCE,
    FRONT,
    NEUT,
    OPS,
    POLICE,
    PTL,
    UNIT_INDEX,
    UTYPE,
)
from djebel.algeria.bots.heuristic_base import (
    ALGERIA_SET,
    ELITES,
    _a,
    _listed,
    _u,
    expected_hits,
    outfire,
)
from djebel.algeria.bots.view import (
    EVASION,
    FLN_VALUE,
    View,
    mst_odds,
    view_of,
)
from djebel.algeria.rules.common import firepower as unit_fp
from djebel.algeria.rules.missions_fln import destinations_from
from djebel.algeria.state import DONE_CIVIL
from djebel.core.actions import Action
from djebel.core.chain import Chain

HUNT_RISK = 0.6        # share of a unit's worth risked in the open with hunters in the air
SHORT_WAR = 4          # turns to 0 at the present fall of its PSL that make a war short
SHORT_WAR_CADRE = 3.0  # added to a Cadre's build score in a short war
NO_REACT = 3.5         # GOV PSL a Strike costs a Government that cannot React (1d6, 9.12-7)
STRIKE_HELPER = 2.5    # a Cadre's build score where it helps an unopposed Strike (9.12-3)
STRIKE_TOP = 7         # a Strike's DRM that reads 5@ on every roll (A.3: 1 + 7 = 8)
STRIKE_SPARE = 2       # Cadres beyond it, for those a React takes
REACT_DECLINES = 2     # React chances declined, none taken: a Government that never Reacts
# Actions after which a Government ``add`` is not a React: its Flush orders and unit
# picks, and the FLN's own Raid (9.14-2 adds the Raiders).
_NOT_REACT = frozenset(("flush", "add", "airmobilize", "raid"))


class FlnPolicies:
    """Mixin: one method per FLN decision kind."""

    propaganda = 0.0        # style settings (see HeuristicAgent.__init__)
    cross = True
    cadres_move = True
    fronts = True
    harass_police = 0.0
    cadre_build = 0.0
    move = 0.0
    strike_free = True      # value the 1d6 of a Strike no unit can React to (9.12-7)
    race_loss = 0.5         # share of a unit's worth a '+' costs in a race (_racing)
    wary = True
    strike_plan = True      # mass Cadres in the cities for the Strike (_strike_build)
    _fln_mark: tuple = ()               # (turn, FLN PSL) at its first Reinforcement decision
    _fln_fall: int | None = None        # how far the FLN's PSL fell over the last turn
    _short: tuple = ()                  # (turn, whether its war is short) at _fln_short_war
    read_reacts = True      # learn from the history that the Government never Reacts
    _history: Chain | None = None       # the history as _watch_reacts last read it
    _last_read: Action | None = None    # its last action
    _trusting = False                   # _never_reacts, as of that reading
    _declined = 0                       # React chances the Government declined
    _reacted = False                    # the Government has Reacted (9.23)

    # ------------------------------------------------------------ reading the Government
    def _watch_reacts(self, s) -> None:
        """Read the actions played since the last look for the Government's answers to
        its React chances (9.23): ``no-react`` declines one; a unit added right after an
        FLN mission (not after a Flush order, another pick, or the FLN's own Raid) takes
        one. The history is public: every player sees what the other chose."""
        actions, last = s.actions, self._history
        items = actions.since(last) if last is not None else None
        if items is None:                   # another game, or a history taken back
            self._declined, self._reacted = 0, False
            items, prev = actions.to_list(), None
        elif not items:
            return
        else:
            prev = self._last_read
        for act in items:
            if act.verb == "no-react":
                self._declined += 1
            elif (act.verb in ("add", "airmobilize") and prev is not None
                  and prev.verb not in _NOT_REACT):
                self._reacted = True
            prev = act
        self._history, self._last_read = actions.copy(), prev
        self._trusting = self._never_reacts()

    def _never_reacts(self) -> bool:
        """Whether the Government has declined REACT_DECLINES React chances and taken
        none (``read_reacts``): the FLN then fears no React (``_react_threat``). Measured
        (1,000 games a cell): against the gauntlet's ``civil-affairs`` in 1960, which
        never Reacts, 95.0% -> 95.9% (188 -> 194 of the gauntlet's 200); against the
        heuristic Government 86.1% / 98.3% / 42.0% -> 86.1% / 98.3% / 44.6% (1954 /
        1958 / 1960)."""
        return self.read_reacts and not self._reacted and self._declined >= REACT_DECLINES

    # ------------------------------------------------------------ FLN reinforcement
    def _fln_short_war(self, s) -> bool:
        """Whether the FLN's PSL, falling as fast as over the last turn (noted at its
        first Reinforcement decision of each turn), would reach 0 (12.2) within
        SHORT_WAR turns: a Front (3 AP, 6.2-2) pays over many turns (3 control points,
        10.1-1; AP income, 6.1-1), a Cadre's Propaganda (9.11) this turn, so the AP go
        to Cadres and Propaganda. Before a whole turn is seen, the fall is what the
        Government's Police can take by Civil Affairs (9.25: 10/6 each on average,
        one a turn in each non-Remote area with Police)."""
        mark = self._fln_mark
        if not mark or mark[0] != s.turn:
            if mark and mark[0] == s.turn - 1:
                self._fln_fall = mark[1] - s.fln_psl
            self._fln_mark = (s.turn, s.fln_psl)
        fall = self._fln_fall
        if fall is None:        # no turn seen yet: the Civil Affairs its Police can run
            fall = 10 / 6 * view_of(s).civil_sites()
        short = fall > 0 and s.fln_psl < SHORT_WAR * fall
        self._short = (s.turn, short)
        return short

    def _racing(self, s, v: View, a: int) -> bool:
        """Whether a Propaganda in ``a`` is a move in a pure race of PSLs: the war is
        short (_fln_short_war, as seen at this turn's Reinforcement Phase) and no
        Government unit could React in ``a`` or hunt (_hunted). A unit lost then costs
        ``race_loss`` of its worth: the PSP the Government shares out for it (9-5), not
        the turns of Propaganda it would have run."""
        return (self.race_loss < 1 and self._short == (s.turn, True)
                and not self._react_threat(s, v, a) and not self._hunted(s))

    def _fln_reinf(self, s, legal):
        v = view_of(s)
        if self.strike_plan:
            act = self._strike_build(s, v, legal)
            if act is not None:
                return act
        reserve = self._ops_reserve(s, v)
        short = self._fln_short_war(s)
        fronts = self.fronts and not short
        cadre_build = self.cadre_build + (SHORT_WAR_CADRE if short else 0.0)
        ap = s.ap
        best, best_sc = None, 0.0
        sites: dict[int, tuple[float, int, int]] = {}
        done = None
        for act in legal:
            verb = act.verb
            sc = 0.0
            if verb == "done":
                done = act
            elif verb == "convert":
                u = _u(act.args[0])
                a = s.loc[u]
                if act.args[1] == "front":
                    if ap - 3 < reserve * 0.5 or not fronts:
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
                    if a not in sites:
                        sites[a] = self._build_site(v, a)
                    danger, cadres, bands = sites[a]
                    if t == "cadre":
                        sc = (4 - cadres * 1.2 - danger + (1.5 if v.urban[a] else 0)
                              + cadre_build)
                        if not cadres and v.fronts[a] is not None and self._unopposed(s, v, a):
                            sc += STRIKE_HELPER
                    else:
                        sc = (3.5 - bands * 1.0 - danger * 0.8 + (0.5 if v.gov[a] else 0)
                              + self._police_target(v, a, bands))
            elif verb == "reduce":
                continue
            if sc > best_sc:
                best, best_sc = act, sc
        return best or done or Action("done")

    @staticmethod
    def _build_site(v: View, a: int) -> tuple[float, int, int]:
        """(Government danger, Cadres, Bands) of an Algerian build site ``a``."""
        danger = v.gov_cp[a] * 0.6 + v.patrol[a] * 0.5 + v.police[a] * 0.5
        cadres = bands = 0
        for u in v.fln[a]:
            t = UTYPE[u]
            if t == CADRE:
                cadres += 1
            elif t == BAND:
                bands += 1
        return danger, cadres, bands

    def _strike_build(self, s, v: View, legal) -> Action | None:
        """The city Strike's build (9.12): a Front converted where a city has none,
        then Cadres where a Front stands, the largest group first, until a Strike there
        would read the top row of the MST (A.3: +7 after Patrol and Terror) with
        STRIKE_SPARE Cadres to lose; always keeping a Strike's 3 AP. A Front and seven
        helpers roll 5d6 PSP every turn for 3 AP, more than any other use of the AP:
        against the heuristic Government, 1,000 games a scenario, the FLN's wins rose
        from 86.1% / 98.3% / 44.6% to 99.0% / 99.5% / 56.6% (1954 / 1958 / 1960), and
        the gauntlet's ``strike`` strategy (examples/own_strategies.py) no longer wins
        more often than the heuristic FLN."""
        if s.ap < 6:
            return None
        best, most = None, -1
        for act in legal:
            if act.verb == "convert" and act.args[1] == "front":
                a = s.loc[_u(act.args[0])]
                if v.urban[a] and v.fronts[a] is None:
                    return act
            elif act.verb == "build" and act.args[0] == "cadre":
                a = _a(act.args[1])
                if not v.urban[a] or v.fronts[a] is None:
                    continue
                cadres = self._build_site(v, a)[1]
                need = STRIKE_TOP + STRIKE_SPARE + v.patrol[a] + (1 if s.terror[a] else 0)
                if most < cadres < need:
                    best, most = act, cadres
        return best

    def _ops_reserve(self, s, v: View) -> int:
        """AP the FLN keeps for this turn's missions (Propaganda, Strikes, Raids)."""
        need = 0
        fln, fronts, remote, urban = v.fln, v.fronts, v.remote, v.urban
        for a in ALGERIA:
            if not fln[a] or remote[a]:
                continue
            front = fronts[a] is not None
            if front or any(UTYPE[u] == CADRE for u in fln[a]):
                need += 1
            if front and urban[a]:
                need += 3
        return need

    # ------------------------------------------------------------ FLN deployment
    def _fln_deploy(self, s, legal):
        surface = {UNIT_INDEX[act.args[0]]: act for act in legal
                   if act.verb == "surface" and act.args[0] != "all"}
        if surface:
            want = self._surface_plan(s, view_of(s), surface.keys(), first=True)
            if want:
                return surface[want[0]]
        return self._france(legal)

    @staticmethod
    def _france(legal: list[Action]) -> Action:
        done = None
        for act in legal:
            if act.verb == "france":
                return act
            if act.verb == "done":
                done = act
        return done or Action("done")

    def _surface_plan(self, s, v: View, up: Container[int], first: bool = False) -> list[int]:
        """Units to bring to OPS this turn, in the order to surface them.

        Surfacing one unit changes the plan for the others, so the plan is made again
        for every unit; with ``first`` it stops at the first area that gives one (the
        plan's head: later areas only add to its tail). A unit is brought up only for a
        mission whose worth (as the Operations Phase scores it) pays for its time in
        OPS and OC, where a Flush may find it (9.22-1): with a hunting group in the air
        (_hunted), HUNT_RISK of its worth (``wary``)."""
        ap = s.ap
        exposed = HUNT_RISK if self.wary and self._hunted(s) else 0.0
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
            # Strike (9.12): a Front and every Cadre in an Urban area; with the Strike
            # plan, the Cadres also once the Front is up.
            if self.strike_plan and front is None and v.urban[a] and cadres:
                surfaced = v.fronts[a]
                if surfaced is not None and s.box[surfaced] == OPS \
                        and not s.flags[surfaced] & NEUT:
                    front = surfaced
            if v.urban[a] and front is not None and ap >= 3:
                drm = len(cadres) - patrol - terror
                if drm >= 0 or (drm >= -1 and (not gov_fp or self._unopposed(s, v, a))):
                    if front in up:
                        out.append(front)
                    out += cadres
                    ap -= 3
                    cadres = []
            # Propaganda (9.11): one Cadre (or, when safe, the Front), if it pays for
            # the unit's time in the open.
            if not v.remote[a] and ap >= 1 and patrol + terror <= 2:
                if cadres:
                    if self._propaganda_value(s, v, a, CADRE) + self.propaganda > exposed * \
                            FLN_VALUE[CADRE]:
                        out.append(cadres.pop())
                        ap -= 1
                elif front is not None and front not in out and patrol + terror == 0 \
                        and gov_fp < 10 and self._propaganda_value(s, v, a, FRONT) \
                        + self.propaganda > exposed * FLN_VALUE[FRONT]:
                    out.append(front)
                    ap -= 1
            # Raid (9.14) / Harass (9.15) / Move: Bands and Faileks, each if it pays.
            if bands:
                if not v.remote[a] and ap >= 1 and patrol <= 1:
                    raiders = bands[:3]
                    if self._raid_value(s, v, a, len(raiders)) > exposed * sum(
                            FLN_VALUE[UTYPE[u]] for u in raiders):
                        out += raiders
                        ap -= 1
                        bands = bands[3:]
                if v.gov[a] and bands:
                    risk = self._react_threat(s, v, a)
                    out += [u for u in bands if self._harass_value(s, v, u, a) - risk
                            > exposed * FLN_VALUE[UTYPE[u]]]
            # Units in danger here: bring one up to Move away.
            if v.police[a] and len(ug) >= 3 and v.gov_cp[a] > v.fln_cp[a]:
                rest = [u for u in cadres + bands if u not in out]
                out += rest[:1]
            if first and out:
                break
        return out

    # ------------------------------------------------------------ FLN operations
    def _ops_fln(self, s, legal):
        scored = self._fln_mission_scores(s, view_of(s), legal)
        return self._best(scored)

    def _fln_mission_scores(self, s, v: View, legal) -> list[tuple[float, Action]]:
        out = []
        loc = s.loc
        for act in legal:
            verb = act.verb
            if verb == "pass":
                out.append((0.0, act))
                continue
            if verb == "handover":
                out.append((-0.5, act))
                continue
            u = _u(act.args[0])
            a = loc[u]
            sc = self._fln_mission_score(s, v, verb, u, a, UTYPE[u])
            if sc is not None:
                out.append((sc, act))
        return out

    def _fln_mission_score(self, s, v: View, verb: str, u: int, a: int,
                           t: int) -> float | None:
        """The score of mission ``verb`` by unit ``u`` (type ``t``) in ``a``; None for a
        verb not scored here."""
        if verb == "move":
            if (a in COUNTRIES and not self.cross) or (t == CADRE and not self.cadres_move):
                return None         # this style keeps the unit where it is
            return self._move_value(s, v, a, t) + self.move
        if verb == "strike":
            helpers = [x for x in v.fln[a] if UTYPE[x] == CADRE and s.box[x] == OPS
                       and not s.flags[x] & NEUT]
            drm = len(helpers) - v.patrol[a] - (1 if s.terror[a] else 0)
            n, plus, _ = mst_odds(drm)
            loss = FLN_VALUE[FRONT] + 2.0 * len(helpers)
            free = NO_REACT if self._unopposed(s, v, a) else 0.0
            return n * 3.5 - plus * loss - 3 * 0.6 + free
        if verb == "propaganda":
            if a == FRANCE:
                n, plus, _ = mst_odds(0)
                return n * 1.0 - plus * 2.0 + 0.2 + self.propaganda
            ev = self._propaganda_value(s, v, a, t)
            if t == FRONT and any(UTYPE[x] == CADRE and s.box[x] == OPS
                                  and not s.flags[x] & NEUT for x in v.fln[a]):
                ev -= 2.0   # a Cadre can do it for less risk
            return ev + self.propaganda
        if verb == "raid":
            raiders = [x for x in v.fln[a] if UTYPE[x] in (BAND, FAILEK)
                       and s.box[x] == OPS and not s.flags[x] & NEUT][:3]
            return self._raid_value(s, v, a, len(raiders))
        if verb == "harass":
            return self._harass_value(s, v, u, a) - self._react_threat(s, v, a)
        return None

    def _propaganda_value(self, s, v: View, a: int, t: int) -> float:
        """A Propaganda's worth in Algerian area ``a`` by a unit of type ``t`` (9.11): its
        mean PSP (A.3, -1 a unit on Patrol and for Terror, doubled in an Urban area),
        less the unit's worth times the chance of a '+' (9.11-5) and of a React that
        catches it (9.23-3), less 0.6 for the AP. In a race (_racing) the '+' costs
        ``race_loss`` of the unit's worth: against ``civil-affairs`` in 1960, 1,000 games
        on the cell's seeds, 94.3% -> 95.3% (0 of it: 95.5%, 0.25: 94.7%); against the
        heuristic Government it changes nothing (without the React and hunt tests, 1960
        fell from 48.8% to 44.4%)."""
        n, plus, _ = mst_odds(-v.patrol[a] - (1 if s.terror[a] else 0))
        loss = FLN_VALUE[t]
        risk = self._react_threat(s, v, a)
        plus_loss = loss * self.race_loss if self._racing(s, v, a) else loss
        return (n * (2 if v.urban[a] else 1) - plus * plus_loss
                - risk * loss * (1 - EVASION[t] / 6) - 0.6)

    def _raid_value(self, s, v: View, a: int, raiders: int) -> float:
        """A Raid's worth in ``a`` by ``raiders`` Bands or Faileks (9.14: +1 a unit beyond
        the first, -1 a unit on Patrol; N AP, doubled in an Urban area, at 0.6 PSP each;
        a Band lost on '+'; a React)."""
        n, plus, _ = mst_odds(raiders - 1 - v.patrol[a])
        return ((n * (2 if v.urban[a] else 1) - 1) * 0.6 - plus * 2.0
                - self._react_threat(s, v, a) * 1.5)

    @staticmethod
    def _hunted(s) -> bool:
        """Whether the Government can fly a hunting group this turn: two elite brigades
        active in OPS or PTL (6.32, 7-1), not neutralized, and two Helo points to fly
        them (11.12-1). Together they may Flush any area (9.22-3, 11.12-4) with a
        contact total (3 each once airmobile) that finds nearly any unit in OPS or OC."""
        if s.helo_avail < 2:
            return False
        loc, box, flags = s.loc, s.box, s.flags
        ready = 0
        for u in ELITES:
            if loc[u] in ALGERIA_SET and box[u] in (OPS, PTL) and \
                    flags[u] & (ACTIVE | NEUT) == ACTIVE:
                ready += 1
                if ready == 2:
                    return True
        return False

    def _police_target(self, v: View, a: int, bands: int) -> float:
        """Worth of one more Band in ``a`` for harassing its Police (``harass_police``):
        every Police unit there a Band does not yet face is one Civil Affairs (9.25)
        a turn the FLN may take away first, holding the initiative (8-2)."""
        if not self.harass_police or v.remote[a]:
            return 0.0
        return self.harass_police * max(0, v.police[a] - bands)

    def _unopposed(self, s, v: View, a: int) -> bool:
        """Whether a Strike in Urban area ``a`` would meet no React: no Government unit
        in ``a`` could React (9.23-2), so the Government loses 1d6 PSL (9.12-7) on top
        of the Strike's PSP. Against a Government that keeps no mobile unit ready, a
        Front and a helping Cadre then Strike where the Police alone would make it too
        risky (measured, 1,000 games on the cell's seeds: 1960 against
        ``civil-affairs`` 92.5% -> 94.3%; against the heuristic Government 90.3% /
        98.3% / 43.4% -> 94.9% / 99.1% / 48.8% of 1954 / 1958 / 1960 games). An elite
        that could fly in (11.12, INT-31) is not counted: counting it was measured no
        better (1958 / 1960 against the heuristic Government 99.1% / 48.7% -> 98.7% /
        47.8%)."""
        return self.strike_free and v.urban[a] and not self._react_threat(s, v, a)

    def _react_threat(self, s, v: View, a: int) -> float:
        """Rough chance the Government reacts hard in ``a`` (0..1): from the units in
        ``a`` alone, so kept in the View's per-area memo; 0 against a Government that
        never Reacts (_never_reacts)."""
        if self._trusting:
            return 0.0
        values = v.per_area(("react",))
        risk = values[a]
        if risk is None:
            risk = 0.0
            if a not in COUNTRIES and a != FRANCE:
                group = self._flush_group(s, v, a)
                if group:
                    risk = min(1.0, expected_hits(sum(unit_fp(s, g) for g in group)) / 2.5)
            values[a] = risk
        return risk

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
        sc = gain - pain * FLN_VALUE[UTYPE[u]] * 0.7 - 0.3
        if (self.harass_police and UTYPE[target] == POLICE and not s.flags[target] & NEUT
                and not v.remote[a] and not s.done[a] & DONE_CIVIL):
            # 9.15-4 / 9-6.4: more hits than the Police fires back neutralizes it, and
            # a neutralized Police unit runs no Civil Affairs until it recovers (10.2).
            sc += self.harass_police * outfire(fp, back)
        return sc

    def _move_value(self, s, v: View, a: int, t: int) -> float:
        """A Move's worth to a unit of type ``t`` in ``a``."""
        dest, sc = self._move_dest(s, v, a, t)
        if dest is None:
            return -1.0
        if a in COUNTRIES:
            bz = s.bz if (s.bz_active and s.bz) else 0
            patrol = v.patrol[dest]
            n, plus, _ = mst_odds(bz - patrol)
            return 1.5 - plus * 6.0 + (0.5 if len(v.fln[a]) > 4 else 0)
        return sc - self._stay_value(v, a, t) - 0.5

    def _stay_value(self, v: View, a: int, t: int) -> float:
        """What staying in Algerian area ``a`` is worth to a unit of type ``t``: its
        safety there, and for a Band the Police it may harass: it reads only the tallies
        of ``a``, so it is kept in the View's per-area memo."""
        values = v.per_area(("stay", t, self.harass_police))
        value = values[a]
        if value is None:
            value = self._area_safety(v, a, t)
            if self.harass_police and t in (BAND, FAILEK):
                others = sum(1 for x in v.fln[a] if UTYPE[x] in (BAND, FAILEK)) - 1
                value += self._police_target(v, a, others)
            values[a] = value
        return value

    @staticmethod
    def _area_safety(v: View, a: int, t: int) -> float:
        """How safe area ``a`` is for an FLN unit of type ``t``."""
        sc = -v.gov_cp[a] * 0.5 - v.police[a] * 0.7 - v.patrol[a] * 0.5
        if t == CADRE and not v.remote[a]:
            sc += 2.0 if v.fronts[a] is None else 0.5
            sc += 1.0 if v.urban[a] else 0
        if t in (BAND, FAILEK):
            sc += 1.0 if not v.remote[a] else 0.5
        sc -= len(v.fln[a]) * 0.3
        return sc

    def _move_dest(self, s, v: View, a: int, t: int) -> tuple[int | None, float]:
        """The best Move destination from ``a`` for a unit of type ``t`` and its safety.

        The scan reads only the area and the unit type (9.13-3 destinations depend on
        the area and event flags alone), so units alike in one area share it."""
        key = ("move", a, t, self.harass_police, s.independent, s.jealousy)
        memo = v.memo
        found = memo.get(key)
        if found is None:
            found = memo[key] = self._move_dest_scan(s, v, a, t)
        return found

    def _move_dest_scan(self, s, v: View, a: int, t: int) -> tuple[int | None, float]:
        # An area's worth as a destination for type t reads only that area's tallies:
        # kept in the View's per-area memo (the wilayas' areas are the destinations of
        # many areas, and most areas keep their tallies from one decision to the next).
        scores = v.per_area(("dest", t, self.harass_police))
        best, best_sc = None, -1e9
        for b in destinations_from(s, a):
            if b in COUNTRIES:
                continue
            sc = scores[b]
            if sc is None:
                n, plus, _ = mst_odds(-v.patrol[b])
                sc = self._area_safety(v, b, t) - plus * 5
                if self.harass_police and t in (BAND, FAILEK):
                    sc += self._police_target(v, b, 0)
                scores[b] = sc
            if sc > best_sc:
                best, best_sc = b, sc
        return best, best_sc

    def _move_to(self, s, legal):
        u = s.stack[-1][2]
        v = view_of(s)
        dest, _ = self._move_dest(s, v, s.loc[u], UTYPE[u])
        if dest is not None:
            for act in legal:
                if act.args == (AREA_IDS[dest],) and act.verb == "to":
                    return act
        return legal[0]

    def _strike_assist(self, s, legal):
        for act in legal:
            if act.verb == "assist":
                return act
        return _listed(legal, "go")

    def _raid_add(self, s, legal):
        chosen = s.stack[-1][3]
        if len(chosen) < 3:
            for act in legal:
                if act.verb == "add":
                    return act
        return _listed(legal, "go")

    def _harass_join(self, s, legal):
        for act in legal:
            if act.verb == "add":
                return act
        return _listed(legal, "go")

    def _harass_target(self, s, legal):
        scored = []
        for act in legal:
            g = _u(act.args[0])
            sc = -unit_fp(s, g) + (1 if UTYPE[g] == POLICE and not s.flags[g] & NEUT else 0)
            scored.append((sc, act))
        return self._best(scored)

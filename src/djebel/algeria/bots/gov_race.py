"""The Government's long war: when it pays Civil Affairs (9.25), when it holds its PSL
above the coup and OAS zone (11.3, 11.4) and when it races the FLN's PSL to 0 (12.2)."""

from __future__ import annotations

from functools import cache

from djebel.algeria.board import (
    ALGERIA,
    BAND,
    CADRE,
    FAILEK,
    FLN_SLICE,
    NEUT,
    TYPE_KEYS,
    UTYPE,
)
from djebel.algeria.bots.gov_control import control_value
from djebel.algeria.bots.heuristic_base import _u
from djebel.algeria.bots.view import FP, View, view_of
from djebel.algeria.state import FLN_CONTROL, GOV_CONTROL, OAS_INACTIVE
from djebel.algeria.tables import tables
from djebel.core.actions import Action

CA_MEAN = 10 / 6    # FLN PSL a Civil Affairs takes on average (9.25, A.3 with no DRM)
COUP_ZONE = 30      # the coup check (11.4) and the OAS (11.3) at this PSL or less
ZONE_COST = 3.0     # GOV PSL a turn in the zone: the OAS (upkeep 1-2, 10.4; '+' and Terror
                    # of its Suppression, 11.3-3) and the coup check (11.4, -1.9 a sixth)
COUP_COST = 0.5     # the coup check alone, once the OAS is active (and in the drift)
RACE_TURNS = 3      # the turns a race by Civil Affairs is looked ahead
HOLD_MARGIN = 1.0   # FLN PSL a turn holding must take for the long war to be won
RACE_ODDS = 0.8     # the chance of winning that is enough to race on (_race_likely)
QUIET_HOLD = 36     # the hold line against an FLN that lies still (_quiet)
LAST_RACE_ODDS = 0.3    # below the floor, a race this likely beats a hold that loses


def _civil_sites_open(legal) -> int:
    """The areas where a Civil Affairs may still be run this turn (9.25-1: one an area)."""
    return sum(1 for act in legal if act.verb == "civil-affairs")


@cache
def ca_faces() -> tuple[tuple[int, float], ...]:
    """(FLN PSL a Civil Affairs takes, its chance): the Mission Success Table with no
    DRM (9.25, A.3), face by face."""
    counts: dict[int, int] = {}
    for face in range(1, 7):
        n = tables().mst_result(face).n
        counts[n] = counts.get(n, 0) + 1
    return tuple((n, k / 6) for n, k in sorted(counts.items()))


def race_chance(gov: float, fln: int, sites: int, per_turn: int,
                gains: tuple[float, float], oas: bool) -> float:
    """The chance that Civil Affairs in ``sites`` areas this turn and ``per_turn`` a turn
    after bring the FLN's PSL (``fln``) to 0 within RACE_TURNS turns (12.2): the
    Government pays 1 PSP each (never its last, INT-18), the FLN's PSL falls by each
    die's result (``ca_faces``); at each turn's end both gain ``gains`` (Government,
    FLN; the FLN's PSL rounded) and the Government pays as ``race_payments`` lays
    out (whole Civil Affairs). Its path does not depend on the dice, so it is laid out
    first, and an FLN PSL the remaining Civil Affairs could not bring
    to 0 even at 3 each is dropped (it adds nothing to the chance)."""
    gov_gain, fln_gain = gains
    pays = [int(paid) for paid in race_payments(gov, sites, per_turn, gov_gain, oas, True)]
    top = max(n for n, _ in ca_faces())
    fall = max(0.0, -fln_gain) + 1         # the most an interphase may take, rounded
    dist = {fln: 1.0}
    won = 0.0
    for i, paid in enumerate(pays):
        reach = top * sum(pays[i:]) + fall * (len(pays) - i)
        dist = {f: p for f, p in dist.items() if f <= reach}
        if not dist:
            break
        after: dict[int, float] = {}
        for f, p in dist.items():
            for n, q in ca_sum(paid):
                if n >= f:
                    won += p * q
                else:
                    after[f - n] = after.get(f - n, 0.0) + p * q
        dist = after
        after = {}
        for f, p in dist.items():
            g = round(f + fln_gain)
            if g <= 0:
                won += p
            else:
                after[g] = after.get(g, 0.0) + p
        dist = after
    return won


def race_payments(gov: float, sites: int, per_turn: int, gov_gain: float,
                  oas: bool, whole: bool = False) -> list[float]:
    """The Civil Affairs the Government pays in each turn of a race: in ``sites`` areas
    this turn and ``per_turn`` a turn after, never its last PSP (INT-18); its PSL gains
    ``gov_gain`` a turn and at COUP_ZONE or less loses ZONE_COST more (the OAS from the
    next Reinforcement Phase, 11.3; the coup check, 11.4), or COUP_COST once the OAS is
    active; the race ends after a turn that leaves it below 1. With ``whole``, only
    whole Civil Affairs are paid (a PSL the gains made fractional pays one less)."""
    pays = []
    for _ in range(RACE_TURNS):
        paid = max(0.0, min(float(sites), gov - 1))
        if whole:
            paid = float(int(paid))
        pays.append(paid)
        gov += gov_gain - paid
        if gov <= COUP_ZONE:
            gov -= COUP_COST if oas else ZONE_COST
            oas = True
        if gov < 1:
            break
        sites = per_turn
    return pays


@cache
def ca_sum(k: int) -> tuple[tuple[int, float], ...]:
    """(FLN PSL ``k`` Civil Affairs take together, its chance): ``ca_faces`` summed
    ``k`` times. Their PSL falls only, so it reaches 0 within them when the sum does."""
    dist = {0: 1.0}
    for _ in range(k):
        after: dict[int, float] = {}
        for s, p in dist.items():
            for n, q in ca_faces():
                after[s + n] = after.get(s + n, 0.0) + p * q
        dist = after
    return tuple(sorted(dist.items()))


class GovRace:
    """Mixin of GovPolicies: the Civil Affairs it may pay, from the PSLs' drift."""

    ca_floor = 4            # style setting (see HeuristicAgent.__init__)
    ca_finish = 0.8         # style setting (see HeuristicAgent.__init__)
    ca_hold = 31            # style setting (see HeuristicAgent.__init__)
    spent_race = True       # race at the full mean against an FLN with no AP (_fln_spent)
    race_odds: float | None = RACE_ODDS   # race on at these odds (_race_likely); None: never
    quiet_hold = QUIET_HOLD     # hold line against an FLN that lies still (0: none)
    last_race = True        # race below the floor when holding loses (_last_race)
    _spent = 0.0                            # PSP the Government has paid this game
    _blows = 0.0                            # FLN PSL the Government's CA and shares took
    _ca_pending: tuple = ()                 # (FLN PSL, FLN AP and boxes) at a Civil Affairs
    _ops_mark: tuple = ()                   # (turn, GOV, FLN at first, GOV, FLN at last)
    _ops_drift: tuple[float, float] | None = None   # last Operations Phase's changes
    _ap_seen: dict[int, int] = {}           # turn -> FLN AP at its first Civil Affairs test

    def _watch_ops(self, s) -> None:
        """At each Government mission decision: the PSLs apart from its own spending
        and blows (``_spent``, ``_blows``) at its first and last decision of the turn's
        Operations Phase; at the first of a new turn, the last turn's change of each
        goes to ``_ops_drift`` (the FLN's missions and the eliminations, 9-5, without
        the random events, which the policy does not forecast). The FLN's missions
        played before the Government's first decision (often a turn's Propaganda) are
        not in it. The hold line (``ca_hold``, _holding_loses) was tuned on this
        measure; marking from the Deployment Phase instead was measured (1,000 games
        a cell) 1954 against ``propaganda`` 97.2% -> 92.8%, 1958 against the
        heuristic FLN 1.7% -> 4.4%: a change to make together with a new hold rule."""
        pending = self._ca_pending
        if pending:
            self._ca_pending = ()
            if pending[1] == (s.ap, s.box[FLN_SLICE]):
                # The FLN did nothing since that Civil Affairs: its result is known.
                self._blows += pending[0] - s.fln_psl - CA_MEAN
        gov, fln = s.gov_psl + self._spent, s.fln_psl + self._blows
        mark = self._ops_mark
        if mark and mark[0] == s.turn:
            self._ops_mark = (mark[0], mark[1], mark[2], gov, fln)
            return
        if mark and mark[0] == s.turn - 1:
            self._ops_drift = (mark[3] - mark[1], mark[4] - mark[2])
        self._ops_mark = (s.turn, gov, fln, gov, fln)

    def _gains(self, s) -> tuple[float, float]:
        """(Government, FLN) PSL change a turn expected apart from the Government's
        spending and blows: last turn's Operations Phase (``_ops_drift``) and the Final
        PSL Adjustment as the board stands (10.4): the control bonus (10.4-6), the OAS
        upkeep (10.4-2, 1.5 on average), 1 a Terrorized or resettled area (10.4-3), the
        FLN's income from Morocco and Tunisia (10.4-5) and its 3d6 loss with no mobile
        unit in Algeria (10.4-4)."""
        v = view_of(s)
        ops_gov, ops_fln = self._ops_drift or (0.0, 0.0)
        if s.control_decided:
            diff = s.control.count(GOV_CONTROL) - s.control.count(FLN_CONTROL)
        else:       # every area Contested until the first Control segment (3-6)
            diff = sum(control_value(v.fln_cp[a], v.gov_cp[a]) for a in ALGERIA)
        gov = ops_gov + max(0, diff) // 2 - sum(1 for t, r in zip(s.terror, s.resettled,
                                                                  strict=True) if t or r)
        if s.oas != OAS_INACTIVE:
            gov -= 1.5
        abroad = sum(FP[UTYPE[u]] for u in v.fln_mobile_abroad())
        fln = ops_fln + max(0, -diff) // 2 + abroad // 10
        if not any(UTYPE[u] in (CADRE, BAND, FAILEK) and not s.flags[u] & NEUT
                   for a in ALGERIA for u in v.fln[a]):
            fln -= 10.5
        return gov, fln

    def _holding_loses(self, s) -> bool:
        """Holding its PSL where it is and paying Civil Affairs only with what comes in
        does not win the long war: the Government's PSL falls a turn (_gains), or the
        FLN's would not fall by HOLD_MARGIN a turn (its gain less CA_MEAN per point
        paid)."""
        gov, fln = self._gains(s)
        return gov < 0 or fln - CA_MEAN * gov > -HOLD_MARGIN

    def _race_wins(self, s, v: View, sites: int) -> bool:
        """Whether Civil Affairs in every area it can, this turn (``sites`` still open)
        and the next RACE_TURNS - 1 (``View.civil_sites`` a turn), are expected
        (CA_MEAN times ``ca_finish`` each) to bring the FLN's PSL to 0 (12.2) before
        the Government's own: each turn both sides gain what _gains expects (it counts
        the OAS upkeep), and the Government pays as ``race_payments`` lays out."""
        gov_gain, fln_gain = self._gains(s)
        each = CA_MEAN * (1.0 if self._fln_spent(s) else self.ca_finish)
        fln = float(s.fln_psl)
        for paid in race_payments(float(s.gov_psl), sites, v.civil_sites(), gov_gain,
                                  s.oas != OAS_INACTIVE):
            fln -= each * paid
            if fln <= 0:
                return True
            fln += fln_gain
        return False

    def _race_likely(self, s, v: View, sites: int) -> bool:
        """Whether the race of _race_wins is won with a chance of at least ``race_odds``:
        each Civil Affairs takes what its die gives on the Mission Success Table (9.25,
        A.3: 1, 1, 1, 2, 2 or 3), not its mean, over RACE_TURNS turns with the gains and
        the coup zone as _race_wins counts them. Its mean with ``ca_finish`` stops a
        long race the dice would win: measured, 1,000 games a cell, against the
        heuristic FLN in 1960 53.1% -> 57.2%; 1958 against ``hide-raid`` 97.0% ->
        96.0%, against ``all-in`` 93.0% the same (the odds at 70% in place of the mean
        test: 1960 58.0%, but ``hide-raid`` 94.9%, below the target)."""
        return self.race_odds is not None and self._race_chance(s, v, sites) >= self.race_odds

    def _race_chance(self, s, v: View, sites: int) -> float:
        """race_chance from this position: Civil Affairs in ``sites`` areas now and in
        every area with Police (``View.civil_sites``) a turn after."""
        return race_chance(float(s.gov_psl), s.fln_psl, sites, v.civil_sites(),
                           self._gains(s), s.oas != OAS_INACTIVE)

    def _fln_spent(self, s) -> bool:
        """Whether the FLN cannot answer this turn's Civil Affairs: it has no AP left in
        the Operations Phase (every FLN mission costs AP, A.2; a Move changes no PSL)
        and its missions cost the Government nothing last turn (``_ops_drift``). The
        race then expects each Civil Affairs at its full mean (CA_MEAN), not
        ``ca_finish`` of it (``spent_race``). Measured, 1,000 games a cell: 1958
        against ``all-in`` (an FLN that spends every AP on units) 91.7% -> 93.0%; the
        other 14 Government cells of the gauntlet 13,831 -> 13,823, against the
        heuristic FLN the same games."""
        drift = self._ops_drift
        return (self.spent_race and s.phase == "operations" and s.ap == 0
                and drift is not None and drift[0] >= 0)

    def _note_spend(self, act: Action) -> None:
        """Add the PSP ``act`` costs the Government (B.1, B.3) to its running total."""
        verb = act.verb
        if verb in ("civil-affairs", "suppression", "intelligence", "resettlement"):
            self._spent += 1.0
            if verb == "civil-affairs":
                self._blows += CA_MEAN
        elif verb in ("mobilize", "buy", "activate"):
            b1 = tables().b1
            key = act.args[0]
            if verb == "mobilize" and key in b1["unit"]:
                self._spent += b1["unit"][key]["mobilize"]
            elif verb == "buy" and key in b1["point"]:
                self._spent += b1["point"][key]["mobilize"]
            elif verb == "activate" and key == "border-zone":
                self._spent += b1["border_zone"]["activate"]
            elif verb == "activate" and key != "all":
                self._spent += b1["unit"][TYPE_KEYS[UTYPE[_u(key)]]]["activate"]

    def _civil_affordable(self, s, legal) -> bool:
        """Whether Civil Affairs (9.25, 1 PSP for CA_MEAN FLN PSL on average) may be
        paid now. Above ``ca_hold`` (31) always: the PSL above the coup and OAS zone
        (11.4 coup check at the turn's end, 11.3 OAS for good from the next
        Reinforcement Phase, both at 30 or less) is spent first. At ``ca_hold`` or
        less, when racing on (_race_wins) is expected to bring the FLN's PSL to 0 first
        (12.2), or when holding does not win the long war (_holding_loses) and the PSL
        is above ``ca_floor`` (at or below it, only for a race with a chance of
        LAST_RACE_ODDS or more, _last_race); otherwise it holds and pays only with what
        comes in.
        Measured (200 games a cell, against racing at 31 unless the PSL apart from
        spending rose by 2 over the last turn and the FLN's fell): 1958 against
        ``pass`` 92% to 96.5%, against ``bands`` 89.5% to 92.5%. Against an FLN that
        lies still (_quiet) the hold line is ``quiet_hold`` (36, _quiet_affordable)."""
        gov = s.gov_psl
        if self.quiet_hold and self._quiet(s) and self.ca_hold < gov < self.quiet_hold:
            return self._quiet_affordable(s, legal)
        if gov > max(self.ca_hold, self.ca_floor, 4):
            return True
        sites = _civil_sites_open(legal)
        v = view_of(s)
        if s.fln_psl <= 3 or self._race_wins(s, v, sites) or self._race_likely(s, v, sites):
            return True
        if gov <= max(self.ca_floor, 4):
            return self._last_race(s, v, sites)
        return not self.ca_hold or self._holding_loses(s)

    def _quiet(self, s) -> bool:
        """Whether the FLN lies still: its missions cost the Government nothing last
        turn (``_ops_drift``), its AP grew since the last turn (it spends them on
        neither missions nor units, A.1, A.2) and none of its units has been seen out
        of UG in Algeria (``_out_seen``). Its AP are noted at the first test of each
        turn. Measured with the line at 36 (200 games a cell, the 54 FLN cells of the
        gauntlet, examples/own_strategies.py and the heuristic FLN): 1958
        ``hide-raid+setup`` 168 -> 176, ``abroad`` 178 -> 183, ``pass+setup`` 186 -> 189,
        ``hide-raid+shares`` 197 -> 200; 1958 ``pass`` and ``hide-raid`` one game fewer
        (198, 198); the 1954 and 1960 cells and the heuristic FLN the same or better;
        all told +22 games. Without the AP and UG tests (an FLN whose missions cost
        nothing last turn) it held back against ``all-in`` (193 -> 183) and the 1960
        heuristic FLN (126 -> 101), which were quiet building or lying low."""
        seen = self._ap_seen
        if seen is GovRace._ap_seen:
            seen = self._ap_seen = {}
        now = seen.setdefault(s.turn, s.ap)
        last = seen.get(s.turn - 1)
        drift = self._ops_drift
        return (s.turn >= 2 and drift is not None and drift[0] >= 0 and last is not None
                and now > last and not self._out_seen)

    def _quiet_affordable(self, s, legal) -> bool:
        """Civil Affairs against an FLN that lies still (_quiet), below ``quiet_hold``
        (36): the PSL between it and ``ca_hold`` is a margin against the random events
        (an election in France, C.2 and B.2: -1d6 to -3d6), which at the hold line of 31
        drop the Government into the coup and OAS zone (11.3, 11.4) for good. Paid only
        for the last blow, a race by the odds (_race_likely) or when holding does not
        win the long war (_holding_loses)."""
        if s.fln_psl <= 3:
            return True
        sites = _civil_sites_open(legal)
        return self._race_likely(s, view_of(s), sites) or self._holding_loses(s)

    def _last_race(self, s, v: View, sites: int) -> bool:
        """At or below ``ca_floor``: race on when holding does not win the long war
        (_holding_loses) and the race's chance (race_chance) is at least LAST_RACE_ODDS.
        Holding then only waits for the OAS upkeep (11.3) or a coup (11.4) to end it,
        while a few Civil Affairs may bring the FLN's PSL to 0 first (12.2): at 4
        against 5 three of them (the last PSP is never paid, INT-18) win 62.5% of the
        time. Measured, 200 games a cell: the 39 cells of examples/own_strategies.py
        7,268 -> 7,279 wins (1958 ``hide-raid+setup`` 82.0% -> 84.0%, 1954 ``bands+shares``
        91.5% -> 92.5%; two cells one game fewer); the gauntlet's Government cells
        2,966 -> 2,968 of 3,000; against the heuristic FLN (1,000 a scenario) the same
        wins. Odds of 0.15 played the same games on two 1958 cells, 0.5 one fewer."""
        if not self.last_race or s.gov_psl <= 1 or not self._holding_loses(s):
            return False
        return self._race_chance(s, v, sites) >= LAST_RACE_ODDS

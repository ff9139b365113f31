"""Finding the FLN: Flush and React groups (9.22, 9.23), Intelligence (9.24), the
hunting group flown in by Helo (11.12) and the division bought for a mass Flush."""

from __future__ import annotations

from djebel.algeria.board import (
    ACTIVE,
    AIRMOBILE,
    AIRMOBILE_BONUS,
    ALGERIA,
    EL_X,
    NEUT,
    OC,
    OPS,
    PTL,
    UTYPE,
)
from djebel.algeria.bots.heuristic_base import ALGERIA_SET, ELITES, _listed, _u, expected_hits
from djebel.algeria.bots.view import EVASION, FLN_VALUE, FP, View, is_gov_mobile
from djebel.algeria.rules.common import contact as unit_contact
from djebel.algeria.rules.common import firepower as unit_fp
from djebel.algeria.rules.deployment import helo_cost
from djebel.core.actions import Action

DIVISION_CONTACT, DIVISION_FP = 2, 12       # a Dispersed division (C.7, 11.7)
DIVISION_VALUE = 10.0   # the Flush worth (_flush_estimate) a division must open
MASS_UNITS = 4          # FLN units in an area that make it worth a division
HUNT_MEMORY = 1     # turns the hunt goes on after the FLN was last seen out of UG


class GovHunt:
    """Mixin of GovPolicies: where and with what the Government looks for the FLN."""

    hunt = 0                # style setting (see HeuristicAgent.__init__)
    hunt_group = 0          # style setting (see HeuristicAgent.__init__)
    hunt_floor = 6          # style setting (see HeuristicAgent.__init__)
    neutral_out = False     # count units neutralized in UG as out of it (_note_out)
    _out_seen: dict[int, int] = {}          # area -> most FLN units seen out of UG at once
    _out_turn: int | None = None            # last turn FLN units were seen out of UG

    def _hunting(self, s) -> int:
        """``hunt`` while the hunting group can fly: that many elite brigades on the map
        (11.12-4: an elite may join a Flush in any area) and as many Helo points (1 an
        elite, 11.12-1); else 0, and 0 with ``spend=0`` (Police only). Measured against
        the FLN heuristic before it kept its units underground from a hunting group
        (_hunted; 400 games a cell, seed 2026): the Government won 13.3% of 1958 games
        without the hunt and 78.7% with it, 1960 79.0% and 94.3%. In 1954, with one
        elite and no Helo point, it does not hunt."""
        hunt = self.hunt
        if not hunt or not self.spend or s.helo_max < hunt or not self._fln_surfaces(s):
            return 0
        loc = s.loc
        return hunt if sum(1 for u in ELITES if loc[u] in ALGERIA_SET) >= hunt else 0

    def _fln_surfaces(self, s) -> bool:
        """Whether the FLN has had units out of UG in Algeria (seen in the Government's
        Operations Phase) this turn or the last: a hunting group costs 1 PSP a turn of
        activations (B.1), wasted on an FLN that never surfaces. Before anything is seen
        (a new agent, a rollout), it is taken to surface. Measured (200 games a cell,
        1958): ``all-in+shares`` 49.0% → 61.5%, ``abroad`` 80.0% → 84.0%, ``pass`` with
        the heuristic's setup 87.5% → 91.0%, the gauntlet's ``all-in`` 91.5% → 89.0%;
        against the heuristic FLN unchanged (docs/gauntlet.md)."""
        if self._out_turn is None:
            self._out_turn = s.turn
        return s.turn - self._out_turn <= HUNT_MEMORY

    def _hunt_activation(self, s, verbs) -> Action | None:
        """The ``hunt`` style: keep ``hunt`` elite brigades active (0.5 PSP each, B.1).
        Flown in by helicopter (11.12: 1 Helo each, +1 contact) they Flush together in
        any area (9.22-3, 11.12-4), with a contact total that finds nearly every FLN
        unit in OPS or OC and the firepower to eliminate most of them (9-5)."""
        loc, flags = s.loc, s.flags
        active = sum(1 for u in ELITES if loc[u] in ALGERIA_SET
                     and flags[u] & ACTIVE and not flags[u] & NEUT)
        if active >= self.hunt or s.gov_psl <= self.hunt_floor:
            return None
        for act in verbs.get("activate", ()):
            if act.args[0] not in ("all", "border-zone") and UTYPE[_u(act.args[0])] == EL_X:
                return act
        return None

    def _division_site(self, s, v: View) -> int | None:
        """Where the FLN masses and a French division mobilized now (5 PSP, B.1; into
        OPS, active this turn, 6.31-2) pays for itself: with a division in the area
        every Government unit there may Flush together (9.22-3), Dispersed (11.7) it adds
        contact 2 and firepower 12, and each Band or Cadre eliminated is 1 PSP (9-5).
        Underground units count at the share of the area's units seen out of UG at
        once (OPS or OC) in an earlier Operations Phase: an FLN that stays underground
        gives a division nothing to Flush."""
        best, best_sc = None, DIVISION_VALUE
        for a in ALGERIA:
            if v.division[a] or len(v.fln[a]) < MASS_UNITS:
                continue
            c, fp = DIVISION_CONTACT, DIVISION_FP
            for u in self._guards(s, v, a):
                c += unit_contact(s, u)
                fp += unit_fp(s, u)
            surface = min(1.0, self._out_seen.get(a, 0) / len(v.fln[a]))
            sc = self._flush_estimate(s, v, a, c, fp, dict.fromkeys(v.fln_ug[a], surface))
            if sc > best_sc:
                best, best_sc = a, sc
        return best

    def _intelligence_value(self, s, v: View, a: int) -> float:
        """What an Intelligence in ``a`` (9.24) opens to the Flush that follows it: the
        Police there have contact 2 each (9.24-2), each FLN unit in UG is found on a
        roll at or under it with the Flush DRMs (9.24-3: Remote and Terror +1, Urban -1,
        +1 if its evasion is higher), and a found unit is in OC, open to a Flush by the
        units that could Flush there now (_flush_group); the Flush's worth with those
        units added (_flush_estimate) less its worth without them."""
        group = self._flush_group(s, v, a)
        if not group or not v.fln_ug[a]:
            return 0.0
        found_c = 2 * v.police[a]
        drm = (1 if v.remote[a] else 0) + (1 if s.terror[a] else 0) - (1 if v.urban[a] else 0)
        found = {}
        for u in v.fln_ug[a]:
            d = drm + (1 if EVASION[UTYPE[u]] > found_c else 0)
            p = max(0.0, min(1.0, (found_c - d) / 6))
            if p:
                found[u] = p
        if not found:
            return 0.0
        c = sum(unit_contact(s, u) for u in group)
        fp = sum(unit_fp(s, u) for u in group)
        return (self._flush_estimate(s, v, a, c, fp, found)
                - self._flush_estimate(s, v, a, c, fp))

    def _flush_group(self, s, v: View, a: int) -> list[int]:
        """The units a Flush/React in ``a`` would use (local, grouped by 9.22-3)."""
        flags, box = s.flags, s.box
        local = [u for u in v.gov[a] if is_gov_mobile(u) and box[u] in (OPS, 3)
                 and not flags[u] & NEUT]
        if not local or v.division[a]:
            return local
        elites = [u for u in local if UTYPE[u] == EL_X]
        if len(elites) > 1:
            return elites
        if len(local) == 1:
            return local
        best, best_key = local[0], (unit_contact(s, local[0]), unit_fp(s, local[0]))
        for u in local[1:]:
            key = (unit_contact(s, u), unit_fp(s, u))
            if key > best_key:
                best, best_key = u, key
        return [best]

    def _flush_value(self, s, v: View, a: int) -> float:
        group = self._flush_group(s, v, a)
        if not group:
            return 0.05      # only airmobile help: rarely worth the Helo points
        c = sum(unit_contact(s, u) for u in group)
        fp = sum(unit_fp(s, u) for u in group)
        return self._flush_estimate(s, v, a, c, fp)

    def _flush_estimate(self, s, v: View, a: int, c: int, fp: float,
                        surfaced: dict[int, float] | None = None) -> float:
        """The worth of a Flush in ``a`` with contact total ``c`` and firepower ``fp``;
        ``surfaced`` adds units now underground with the chance they are out by then."""
        fp = fp + (s.air_avail and not v.urban[a]) * 3.5
        targets = dict.fromkeys(v.fln_ops[a], 1.0)
        targets.update((u, 1.0) for u in v.fln[a] if s.flags[u] & NEUT
                       and s.box[u] in (OPS, OC))
        if surfaced:
            targets.update(surfaced)
        drm = (1 if v.remote[a] else 0) + (1 if s.terror[a] else 0) - (1 if v.urban[a] else 0)
        found_value = 0.0
        found_fp = 0.0
        for u, w in targets.items():
            d = drm + (1 if EVASION[UTYPE[u]] > c else 0)
            p = w * max(0.0, min(1.0, (c - d) / 6))
            found_value += p * FLN_VALUE.get(UTYPE[u], 1)
            found_fp += p * FP[UTYPE[u]]
        if found_value <= 0:
            return 0.0
        hits = expected_hits(int(fp))
        back = expected_hits(int(round(found_fp)))
        n_found = max(1e-6, sum(targets.values()))
        return min(hits, n_found) * found_value / n_found * 0.8 - back * 0.6 + 0.1

    def _hunt_group(self, s, v: View, a: int) -> tuple[int, int, int]:
        """(contact, firepower, elites) of the ``hunt`` group that could Flush in ``a``
        now: the elites there in OPS/PTL, then those already airmobile, then those the
        Helo points can still fly in, up to ``hunt_group`` (default ``hunt``) elites;
        with a French division in ``a`` (9.22-3) the local mobile units join them."""
        flags, box, loc = s.flags, s.box, s.loc
        local, flown, flyers = [], [], []
        for u in ELITES:
            if loc[u] not in ALGERIA_SET or box[u] not in (OPS, PTL):
                continue
            f = flags[u]
            if f & NEUT:
                continue
            if f & AIRMOBILE:
                flown.append(u)
            elif loc[u] == a:
                local.append(u)
            elif f & ACTIVE:
                flyers.append(u)
        c = fp = n = 0
        if v.division[a]:
            for u in v.gov[a]:
                if (is_gov_mobile(u) and UTYPE[u] != EL_X and box[u] in (OPS, PTL)
                        and not flags[u] & NEUT):
                    c += unit_contact(s, u)
                    fp += unit_fp(s, u)
        helo = s.helo_avail
        for u in local + flown + flyers:
            if n >= max(self.hunt_group or self.hunt, len(local)):
                break
            if u in flyers:
                if helo < helo_cost(u):
                    continue
                helo -= helo_cost(u)
                c += AIRMOBILE_BONUS            # 11.12-3, once flown in
            c += unit_contact(s, u)
            fp += unit_fp(s, u)
            n += 1
        return c, fp, n

    def _hunt_value(self, s, v: View, a: int) -> float:
        """_flush_value for the ``hunt`` group (_hunt_group) in ``a``."""
        c, fp, n = self._hunt_group(s, v, a)
        if n < 2 and not (n and v.division[a]):
            return 0.0
        return self._flush_estimate(s, v, a, c, fp)

    def _hunt_select(self, s, v: View, area: int, selected, adds, legal) -> Action | None:
        """The ``hunt`` style's Flush: its elites (local first, then flown in) up to the
        group size; with a division in the area (9.22-3) the local units join them.
        None leaves the choice to the plain selection."""
        if not v.division[area] and any(UTYPE[u] != EL_X for u in selected):
            return None
        size = self.hunt_group or self.hunt
        n = sum(1 for u in selected if UTYPE[u] == EL_X)
        elites = [a for a in adds if UTYPE[_u(a.args[0])] == EL_X]
        if elites and n < size:
            return min(elites, key=lambda a: (s.loc[_u(a.args[0])] != area, a.args[0]))
        if v.division[area] and adds:
            return None
        flies = [a for a in legal if a.verb == "airmobilize" and UTYPE[_u(a.args[0])] == EL_X]
        if flies and n < size:
            return flies[0]
        if selected:
            return _listed(legal, "go")
        return None

    def _note_out(self, s, v: View) -> None:
        """Note the FLN units out of UG (in OPS or OC) in each Algerian area: the turn
        any are (``_out_turn``, which keeps the hunt going, _fln_surfaces) and the most
        seen at once (``_out_seen``, _division_site). A unit neutralized in UG (2.3-3,
        10.2) has not surfaced. Counted as out before (``neutral_out``, kept by the
        searching bots), it kept the hunting group active against an FLN that never
        surfaces once a Suppression had neutralized a unit: against the FLN that
        passes, with the heuristic's setup, the 1958 Government won 86.2% of 400 games
        instead of 91.2% (docs/gauntlet.md)."""
        seen = self._out_seen
        if seen is GovHunt._out_seen:
            seen = self._out_seen = {}
        fln, ug = v.fln, v.fln_ug
        for a in ALGERIA:
            if len(fln[a]) == len(ug[a]):
                continue            # every unit there in UG and not neutralized: none out
            n = len(fln[a]) - len(ug[a]) if self.neutral_out else v.fln_out(a)
            if n:
                self._out_turn = s.turn
            if n > seen.get(a, 0):
                seen[a] = n

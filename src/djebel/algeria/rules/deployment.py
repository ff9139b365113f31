"""7 Deployment Phase: Government deploys, sets division modes and airmobilizes (7-1..7-3);
the FLN brings units up from UG to OPS and may move a Cadre to or from France (7-4, 11.22)."""

from __future__ import annotations

from djebel.algeria.board import (
    ACTIVE,
    AIRMOBILE,
    ALGERIA,
    ALGERIA_SET,
    AREA_IDS,
    BOX_NAMES,
    BRIGADE_TYPES,
    CADRE,
    COUNTRIES,
    DEPLOYED,
    DISPERSED,
    FLN_MOBILE_UNITS,
    FLN_SLICE,
    FLN_UNITS,
    FR_XX,
    FRANCE,
    FRONT,
    GOV_MOBILE_TYPES,
    GOV_UNITS,
    MODE_SET,
    NEUT,
    OPS,
    PTL,
    TYPE_UNITS,
    UG,
    UNIT_TYPES,
    UTYPE,
    area_arg,
    is_algerian,
    unit_arg,
)
from djebel.algeria.flow import Decision, push, step
from djebel.algeria.rules.common import (
    area_actions,
    fln_abroad,
    log,
    name,
    on_map,
    unit_actions,
    where,
)
from djebel.algeria.state import State
from djebel.core.actions import Action

_DONE = Action("done")
_DEPLOY = unit_actions("deploy")
_CONCENTRATED = unit_actions("mode", "concentrated")
_DISPERSED = unit_actions("mode", "dispersed")
_AIRMOBILIZE = unit_actions("airmobilize")
_SURFACE, _SURFACE_ALL = unit_actions("surface"), Action("surface", ("all",))
_FRANCE, _RECALL = unit_actions("france"), area_actions("recall")
_TO = area_actions("to")
# 7-1: the menu of a unit deploying from each area.
_DEPLOY_TO = tuple((Action("stay"), Action("to", ("PTL",)),
                    *(_TO[a] for a in ALGERIA if a != here)) for here in range(len(AREA_IDS)))


_HELO_COST = tuple(UNIT_TYPES[t].get("airmobilize_helo_cost", 0) for t in UTYPE)


def helo_cost(u: int) -> int:
    """11.12-1: the Helo points that airmobilize brigade ``u`` (C.7)."""
    return _HELO_COST[u]


def can_airmobilize(s: State, u: int) -> bool:
    """11.12-1/-2: an active, non-neutralized brigade in OPS or PTL, Helo points to pay."""
    return (UTYPE[u] in BRIGADE_TYPES and is_algerian(s.loc[u]) and s.box[u] in (OPS, PTL)
            and (s.flags[u] & (ACTIVE | NEUT | AIRMOBILE)) == ACTIVE
            and s.helo_avail >= helo_cost(u))


def why_not_airmobilize(s: State, u: int) -> tuple[str, str] | None:
    """The 11.12 rule that keeps ``u`` from being airmobilized now, or None if it may be."""
    n, f = name(u), s.flags[u]
    if UTYPE[u] not in BRIGADE_TYPES:
        return "11.12-1", f"only brigades are airmobilized ({n} is not one)"
    if f & AIRMOBILE:
        return "11.12-2", f"{n} is airmobile already"
    if not is_algerian(s.loc[u]) or s.box[u] not in (OPS, PTL):
        return "11.12-2", f"{n} must be in an OPS or PTL box in Algeria"
    if f & NEUT:
        return "2.3-3", f"{n} is neutralized and cannot act"
    if not f & ACTIVE:
        return "6.32-1", f"{n} is not activated this turn"
    if s.helo_avail < helo_cost(u):
        return "11.12-1", (f"{n} needs {helo_cost(u)} Helo point(s); "
                           f"{s.helo_avail} available")
    return None


# The units can_airmobilize() may pass, and the fewest Helo points any of them needs.
BRIGADE_UNITS = tuple(u for u in GOV_UNITS if UTYPE[u] in BRIGADE_TYPES)
_CHEAPEST_HELO = min(helo_cost(u) for u in BRIGADE_UNITS)


def airmobilize(s: State, u: int) -> None:
    s.helo_avail -= helo_cost(u)
    s.flags[u] |= AIRMOBILE
    log(s, "11.12", f"{name(u)} airmobilized ({helo_cost(u)} Helo)")


@step("gov_deployment_start")
def gov_deployment_start(s: State) -> None:
    s.phase = "deployment"
    push(s, ("gov_deploy", "gov"))


def deployable(s: State) -> list[int]:
    """7-1: active Government mobile units in an OPS box, each deploying once."""
    box, flags = s.box, s.flags
    return [u for u in on_map(s)[1] if UTYPE[u] in GOV_MOBILE_TYPES
            and box[u] == OPS and (flags[u] & (ACTIVE | NEUT | DEPLOYED)) == ACTIVE]


class GovDeployment(Decision):
    """7-1..7-3: deploy a unit, change a division's mode, airmobilize a brigade, or done."""

    name = "gov_deploy"
    rule = "7"

    def legal(self, s, frame):
        out = [_DEPLOY[u] for u in deployable(s)]
        for u in TYPE_UNITS[FR_XX]:
            if s.loc[u] >= 0 and not s.flags[u] & MODE_SET:
                if s.flags[u] & DISPERSED:
                    out.append(_CONCENTRATED[u])
                elif not s.slow_french:     # 13.1-2: no change to Dispersed
                    out.append(_DISPERSED[u])
        if s.helo_avail >= _CHEAPEST_HELO:
            out += [_AIRMOBILIZE[u] for u in BRIGADE_UNITS if can_airmobilize(s, u)]
        out.append(_DONE)
        return out

    def apply(self, s, frame, action):
        if action.verb == "done":
            return
        push(s, ("gov_deploy", "gov"))
        u = unit_arg(action.args[0])
        if action.verb == "deploy":
            push(s, ("deploy_to", "gov", u))
        elif action.verb == "mode":
            s.flags[u] ^= DISPERSED
            s.flags[u] |= MODE_SET
            log(s, "11.7", f"{name(u)} switches to {action.args[1]} mode")
        else:
            airmobilize(s, u)

    def why_not(self, s, frame, action):
        u = unit_arg(action.args[0]) if action.args else None
        if u is None or u not in GOV_UNITS:
            return super().why_not(s, frame, action)
        n = name(u)
        if action.verb == "deploy":
            if UTYPE[u] not in GOV_MOBILE_TYPES:
                return "7-1", f"only mobile units deploy; {n} is Police (always on Patrol)"
            if s.loc[u] < 0:
                return "7-1", f"{n} is not on the map"
            if s.flags[u] & DEPLOYED:
                return "7-1", f"{n} has deployed already this phase (once each)"
            if s.flags[u] & NEUT:
                return "2.3-3", f"{n} is neutralized and cannot deploy"
            if s.box[u] != OPS:
                return "7-1", f"{n} is in the {BOX_NAMES[s.box[u]]} box: only units in OPS deploy"
            if not s.flags[u] & ACTIVE:
                return "6.32-1", f"{n} was not activated this turn and cannot deploy"
        if action.verb == "mode":
            if UTYPE[u] != FR_XX:
                return "11.7-1", f"only divisions change mode ({n} is not one)"
            if s.loc[u] < 0:
                return "7-2", f"{n} is not on the map"
            if s.flags[u] & MODE_SET:
                return "11.7-2", f"{n} has changed mode already this phase (once)"
            mode = "dispersed" if s.flags[u] & DISPERSED else "concentrated"
            if len(action.args) == 2 and action.args[1] == mode:
                return "7-2", f"{n} is {mode} already"
            if s.slow_french and mode == "concentrated":
                return "13.1-2", "under Slow French Reaction no division becomes Dispersed"
        if action.verb == "airmobilize":
            w = why_not_airmobilize(s, u)
            if w is not None:
                return w
        return super().why_not(s, frame, action)

    def prompt(self, s, frame):
        return "GOV deployment: deploy units, set division modes, airmobilize, or done"


class DeployTo(Decision):
    """7-1: stay in OPS, go to the PTL box of its area, or to the OPS box of another area."""

    name = "deploy_to"
    rule = "7-1"

    def legal(self, s, frame):
        return list(_DEPLOY_TO[s.loc[frame[2]]])

    def apply(self, s, frame, action):
        u = frame[2]
        s.flags[u] |= DEPLOYED
        if action.verb == "stay":
            return
        if action.args[0] == "PTL":
            s.box[u] = PTL
            log(s, "7-1", f"{name(u)} patrols in {where(s, u)}")
        else:
            s.loc[u] = area_arg(action.args[0])
            log(s, "7-1", f"{name(u)} deploys to {where(s, u)}")

    def why_not(self, s, frame, action):
        if action.verb == "to" and len(action.args) == 1:
            a = area_arg(action.args[0])
            if a == s.loc[frame[2]]:
                return "7-1", (f"{name(frame[2])} is in {AREA_IDS[a]} already: stay, or "
                               "to PTL to patrol there")
            return "7-1", ("a unit deploys to the PTL box of its area or to the OPS box of "
                           "another Algerian area")
        return super().why_not(s, frame, action)

    def prompt(self, s, frame):
        return f"GOV: deploy {name(frame[2])} from {where(s, frame[2])}"


@step("fln_deployment_start")
def fln_deployment_start(s: State) -> None:
    push(s, ("fln_deploy", "fln"), ("fln_deploy_end",))


def surfaceable(s: State) -> list[int]:
    """7-4: non-neutralized FLN units (Fronts too) in an Algerian UG box."""
    loc, box, flags = s.loc, s.box, s.flags
    return [u for u in on_map(s)[0] if loc[u] > FRANCE and box[u] == UG
            and not flags[u] & NEUT and loc[u] not in COUNTRIES]


def _front_areas(s: State) -> list[int]:
    loc = s.loc
    return sorted({a for u in TYPE_UNITS[FRONT] if (a := loc[u]) in ALGERIA_SET})  # is_algerian()


def _in_france(s: State) -> list[int]:
    return [u for u in FLN_UNITS if s.loc[u] == FRANCE]


def _anyone_in_france(s: State) -> bool:
    return FRANCE in s.loc[FLN_SLICE]


class FlnDeployment(Decision):
    """7-4/7-5: surface units to OPS; send a Cadre to France or recall it (11.22-2)."""

    name = "fln_deploy"
    rule = "7"

    def legal(self, s, frame):
        up = surfaceable(s)
        out = [_SURFACE[u] for u in up]
        if len(up) > 1:
            out.append(_SURFACE_ALL)
        if not s.france_moved:
            fronts = _front_areas(s)
            if not _anyone_in_france(s):
                loc, box, flags, at_front = s.loc, s.box, s.flags, set(fronts)
                out += [_FRANCE[u] for u in on_map(s)[0] if UTYPE[u] == CADRE
                        and loc[u] in at_front and box[u] == UG and not flags[u] & NEUT]
            else:
                out += [_RECALL[a] for a in fronts]
        out.append(_DONE)
        return out

    def apply(self, s, frame, action):
        verb, args = action.verb, action.args
        if verb == "done":
            return
        push(s, ("fln_deploy", "fln"))
        if verb == "surface":
            units = surfaceable(s) if args[0] == "all" else [unit_arg(args[0])]
            for u in units:
                s.box[u] = OPS
            if s.log.enabled:
                log(s, "7-4", "FLN surfaces " + ", ".join(name(u) for u in units))
        elif verb == "france":
            u = unit_arg(args[0])
            log(s, "11.22", f"{name(u)} goes from {where(s, u)} to France")
            s.loc[u], s.box[u] = FRANCE, UG
            s.france_moved = True
        elif verb == "recall":
            u = _in_france(s)[0]
            s.loc[u], s.box[u] = area_arg(args[0]), UG
            s.france_moved = True
            log(s, "11.22", f"{name(u)} comes back from France to {where(s, u)}")

    def why_not(self, s, frame, action):
        u = unit_arg(action.args[0]) if action.verb == "surface" and action.args else None
        if u is not None and u in FLN_UNITS:
            if s.loc[u] < 0:
                return "7-4", f"{name(u)} is not on the map"
            if s.flags[u] & NEUT:
                return "7-4", f"{name(u)} is neutralized"
            if s.box[u] != UG:
                return "7-4", f"{name(u)} is not in an UG box"
            if not (s.loc[u] > FRANCE and s.loc[u] not in COUNTRIES):
                return "7-4", "only units in Algeria surface (Morocco/Tunisia: INT-27)"
        if action.verb in ("france", "recall") and s.france_moved:
            return "7-5", "one Cadre goes to France or comes back per Deployment Phase"
        if action.verb == "france" and _anyone_in_france(s):
            return "11.22-2", "the FLN already holds a Cadre in France (at most one)"
        if action.verb in ("france", "recall") and action.args:
            v = unit_arg(action.args[0]) if action.verb == "france" else None
            a = s.loc[v] if v is not None else area_arg(action.args[0])
            if a is not None and a not in _front_areas(s):
                return "11.22-2", ("a Cadre goes to France, or comes back, only from or to "
                                   "an area holding a Front")
        return super().why_not(s, frame, action)

    def prompt(self, s, frame):
        return "FLN deployment: surface units to OPS, France Cadre, or done"


@step("fln_deploy_end")
def fln_deploy_end(s: State) -> None:
    """INT-27: FLN mobile units in Morocco/Tunisia are ready to Move (OPS)."""
    if not fln_abroad(s):
        return
    loc, box = s.loc, s.box
    for u in FLN_MOBILE_UNITS:
        if loc[u] in COUNTRIES:
            box[u] = OPS



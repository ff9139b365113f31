"""``djebel odds ...``."""

import json

import typer
from rich.console import Console
from rich.table import Table

app = typer.Typer(help="Exact odds of the dice tables (icepool).", no_args_is_help=True)
algeria_app = typer.Typer(help="Algeria: CRT, Mission Success Table, contact, control.",
                          no_args_is_help=True)
skirmish_app = typer.Typer(help="Insurgent Commander: fire, saves, pins, damage.",
                           no_args_is_help=True)
app.add_typer(algeria_app, name="algeria")
app.add_typer(skirmish_app, name="skirmish")
console = Console(highlight=False)


def _emit(data: dict, as_json: bool, table: Table) -> None:
    if as_json:
        console.print_json(json.dumps(data))
    else:
        console.print(table)


def _dist_table(title: str, head: str, dist: dict) -> Table:
    table = Table(title=title)
    table.add_column(head, justify="right")
    table.add_column("probability", justify="right")
    table.add_column("at least", justify="right")
    keys = list(dist)
    for i, k in enumerate(keys):
        table.add_row(str(k), f"{100 * dist[k]:.2f}%",
                      f"{100 * sum(dist[j] for j in keys[i:]):.2f}%")
    return table


@algeria_app.command("crt")
def algeria_crt(
    firepower: int = typer.Option(..., "--firepower", "-f", help="total firepower"),
    air: int = typer.Option(0, "--air", min=0, help="Air Points (+1d6 firepower each)"),
    as_json: bool = typer.Option(False, "--json", help="JSON output"),
) -> None:
    """C.3 Combat Results Table: the distribution of hits of one fire."""
    from djebel.odds import algeria

    data = algeria.crt(firepower, air)
    title = f"C.3 hits, firepower {firepower}" + (f" + {air}d6 (Air)" if air else "")
    _emit(data, as_json, _dist_table(title, "hits", data["hits"]))


@algeria_app.command("mission")
def algeria_mission(
    drm: int = typer.Option(0, "--drm", "-d", help="die roll modifier"),
    as_json: bool = typer.Option(False, "--json", help="JSON output"),
) -> None:
    """A.3/B.4 Mission Success Table: the chance of each result for a DRM."""
    from djebel.odds import algeria

    data = algeria.mission(drm)
    table = Table(title=f"Mission Success Table, 1d6 {drm:+d}")
    table.add_column("result", justify="right")
    table.add_column("probability", justify="right")
    for k, p in data["results"].items():
        table.add_row(k, f"{100 * p:.2f}%")
    table.caption = f"mean N = {float(algeria.mission_expectation(drm)):.3f}"
    _emit(data, as_json, table)


@algeria_app.command("contact")
def algeria_contact(
    rating: int = typer.Option(..., "--rating", "-r", help="total contact rating"),
    drm: int = typer.Option(0, "--drm", "-d", help="die roll modifier (B.3)"),
    as_json: bool = typer.Option(False, "--json", help="JSON output"),
) -> None:
    """Flush/Intelligence: the chance one FLN unit is contacted (1d6 + DRM <= rating)."""
    from djebel.odds import algeria

    data = algeria.contact(rating, drm)
    table = Table(title=f"Contact: 1d6 {drm:+d} <= {rating}")
    table.add_column("contacted", justify="right")
    table.add_column("not contacted", justify="right")
    table.add_row(f"{100 * data['contact']:.2f}%", f"{100 * (1 - data['contact']):.2f}%")
    _emit(data, as_json, table)


@algeria_app.command("control")
def algeria_control(
    fln: int = typer.Option(..., "--fln", min=0, help="FLN control points in the area"),
    gov: int = typer.Option(..., "--gov", min=0, help="Government control points"),
    as_json: bool = typer.Option(False, "--json", help="JSON output"),
) -> None:
    """10.1 control of an area: FLN, Government or contested."""
    from djebel.odds import algeria

    data = algeria.control(fln, gov)
    table = Table(title=f"10.1 control, FLN {fln} v GOV {gov}")
    for col in ("FLN control", "GOV control", "contested"):
        table.add_column(col, justify="right")
    table.add_row(*(f"{100 * data[k]:.2f}%" for k in ("fln", "gov", "contested")))
    _emit(data, as_json, table)


@skirmish_app.command("fire")
def skirmish_fire(
    attacker: str = typer.Option(..., "--attacker", "-a", help="catalog id of the firer"),
    target: str = typer.Option(..., "--target", "-t", help="catalog id of the target"),
    concealment: str = typer.Option("open", help="open, obscured or heavy"),
    cover: str = typer.Option("none", help="none, light or heavy (AP saves)"),
    flank: bool = typer.Option(False, "--flank", help="firer in the target's flank"),
    rear: bool = typer.Option(False, "--rear", help="firer in the target's rear"),
    close: bool = typer.Option(False, "--close", help="close range (R64)"),
    moved: bool = typer.Option(False, "--moved", help="Move and Shoot (R65)"),
    top: bool = typer.Option(False, "--top", help="airborne firer against a ground vehicle"),
    hard: bool = typer.Option(False, "--hard", help="the target's cover is a wall/building"),
    law: bool = typer.Option(False, "--law", help="the one-shot AT volley (R78)"),
    sp: int = typer.Option(0, "--sp", min=0, help="firer's SP (0 = full strength)"),
    target_sp: int = typer.Option(0, "--target-sp", min=0, help="target's SP (0 = full)"),
    target_side: str = typer.Option("", "--target-side", help="french or insurgent"),
    as_json: bool = typer.Option(False, "--json", help="JSON output"),
) -> None:
    """One fire: unsaved hits and pins (AP), or damage results (AT)."""
    from djebel.odds import skirmish

    data = skirmish.fire(attacker, target, concealment, cover, flank, close, moved, rear=rear,
                         top=top, hard=hard, law=law, sp=sp or None,
                         target_sp=target_sp or None, target_side=target_side or None)
    title = (f"{attacker} fires {data['dice']} {data['kind'].upper()} dice at {target}: "
             f"hit on {data['to_hit']}+, save "
             + (f"{data['save']}+" if data["save"] else "none"))
    if as_json:
        _emit(data, True, Table())
        return
    console.print(_dist_table(title, "unsaved hits", data["unsaved_hits"]))
    if data["kind"] == "ap":
        console.print(f"pinned {100 * data['pinned']:.2f}%, "
                      f"eliminated {100 * data['eliminated']:.2f}%")
    else:
        table = Table(title=f"damage ({data['chart']} chart)")
        table.add_column("result")
        table.add_column("probability", justify="right")
        for k, p in data["damage"].items():
            table.add_row(k.replace("_", " "), f"{100 * p:.2f}%")
        console.print(table)
        console.print(f"pinned {100 * data['pinned']:.2f}%, crew bails "
                      f"{100 * data['crew_bails']:.2f}%, destroyed "
                      f"{100 * data['destroyed']:.2f}%")

"""The ``djebel`` command."""

from __future__ import annotations

import json
import sys

import typer
from rich.console import Console
from rich.markup import escape

from djebel.agents import agent_names
from djebel.core.errors import DjebelError, RecordError
from djebel.odds.cli import app as odds_app
from djebel.simulate.cli import STYLE_HELP, agent_styles, parse_options, tournament_app
from djebel.simulate.cli import app as simulate_app

app = typer.Typer(help="djebel: counterinsurgency wargames with every rule enforced.",
                  no_args_is_help=True, add_completion=False, pretty_exceptions_enable=False)
SKIRMISH_PLAYERS = "human, " + ", ".join(agent_names("skirmish"))
play_app = typer.Typer(help="Play a game in the terminal.", no_args_is_help=True)
bench_app = typer.Typer(help="Measure speed (figures printed, nothing asserted).",
                        no_args_is_help=True)
app.add_typer(play_app, name="play")
app.add_typer(bench_app, name="bench")
app.add_typer(odds_app, name="odds")
app.add_typer(simulate_app, name="simulate")
app.add_typer(tournament_app, name="tournament")
console = Console(highlight=False)


@play_app.command("algeria")
def play_algeria(
    scenario: str = typer.Option("1958", help="1954, 1958 or 1960"),
    fln: str = typer.Option("human", help="human, random, heuristic, search, planner (the "
                                    "strongest), or a gauntlet bot: pass, propaganda, all-in, "
                                    "bands, hide-raid"),
    gov: str = typer.Option("planner", help="human, random, heuristic, search, planner (the "
                                     "strongest), or a gauntlet bot: pass, civil-affairs, "
                                     "all-in, patrol, flush"),
    seed: int | None = typer.Option(None, help="seed of the dice (default: a secret one)"),
    option: list[str] = typer.Option([], "--option", "-o",  # noqa: B008
                                     help="game option, e.g. shorter_game (repeatable)"),
    load: str = typer.Option("", help="resume the game saved in this record file"),
    analysis: bool = typer.Option(False, "--analysis",
                                  help="free take-backs: undo past die rolls and bot replies"),
    fln_style: list[str] = typer.Option([], help=STYLE_HELP.format("fronts=off")),  # noqa: B008
    gov_style: list[str] = typer.Option([], help=STYLE_HELP.format("hunt=2")),  # noqa: B008
    auto: bool = typer.Option(True, "--auto/--no-auto",
                              help="apply a human's only legal choice at once (saying so)"),
) -> None:
    """Play Algeria: each side human, or a bot."""
    from djebel import algeria
    from djebel.agents import make_agent
    from djebel.algeria.text import changes, describe, digest, where
    from djebel.core.dice import secret_seed
    from djebel.core.records import FRESH_NOTE, check_final_hash, game_from_record, load_record
    from djebel.terminal import play

    styles = agent_styles({"fln": fln, "gov": gov}, {"fln": fln_style, "gov": gov_style})
    if seed is None:
        seed = secret_seed()
    if load:
        rec = load_record(load)
        if rec["game"] != "algeria":
            raise RecordError(f"{load}: field 'game' is {rec['game']!r}: this command plays "
                              "Algeria records")
        game = check_final_hash(rec, game_from_record(rec, load), load)
        if "seed" not in rec:
            console.print(f"{load}: {FRESH_NOTE}", markup=False)
    else:
        game = algeria.new_game(scenario, seed=seed, options=parse_options(option))
    seats = {side: (None if who == "human" else
                    make_agent(who, "algeria", side, seed + i, **styles.get(side, {})))
             for i, (side, who) in enumerate((("fln", fln), ("gov", gov)))}
    from djebel.odds.algeria import describe as odds

    raise typer.Exit(play(game, seats, lambda g: describe(g.state), console, odds=odds,
                          analysis=analysis, auto=auto, digest=digest, where=where,
                          summary=lambda before, now: changes(before.state, now.state)))


@play_app.command("skirmish")
def play_skirmish(
    scenario: str = typer.Argument("", help="scenario id (see the list in the README)"),
    french: str = typer.Option("human", help=SKIRMISH_PLAYERS),
    insurgents: str = typer.Option("matrix", help=SKIRMISH_PLAYERS),
    seed: int | None = typer.Option(None, help="seed of the dice (default: a secret one)"),
    svg: str = typer.Option("table.svg", help="picture of the table, rewritten each action"),
    analysis: bool = typer.Option(False, "--analysis",
                                  help="free take-backs: undo past die rolls and bot replies"),
    load: str = typer.Option("", help="continue the battle saved in this record file"),
    search_budget: int = typer.Option(8, min=1, help="search bot: rollouts per searched "
                                      "decision (more plays stronger and slower)"),
) -> None:
    """Play Insurgent Commander on the computer table."""
    from djebel.core.dice import secret_seed
    from djebel.skirmish import terminal

    seed = secret_seed() if seed is None else seed
    raise typer.Exit(terminal.play(scenario, french, insurgents, seed, svg or None,
                                   analysis=analysis, load=load,
                                   agent_options={"iterations": search_budget}) or 0)


@app.command()
def replay(
    file: str = typer.Argument(..., help="a game record (JSON)"),
    verify: bool = typer.Option(False, "--verify", help="check the final state's hash"),
    show: int = typer.Option(0, help="print the last N log lines"),
) -> None:
    """Replay a game record; with --verify, check it reaches the recorded final state."""
    from djebel.core.records import game_from_record, load_record, verify_record

    rec = load_record(file)
    game = verify_record(rec, file) if verify else game_from_record(rec, file)
    for entry in game.log.tail(show) if show else []:
        console.print(str(entry), markup=False, soft_wrap=True)  # "[dice 4]" is no markup
    r = game.result()
    status = (f"over: {r.winner} {r.level} {r.scores}" if r else
              f"in progress: {game.prompt()}")
    console.print(f"{file}: {len(rec['actions'])} actions replayed"
                  + (", final state verified" if verify else "") + f"; {status}",
                  markup=False, soft_wrap=True)


@bench_app.command("algeria")
def bench_algeria(seconds: float = typer.Option(5.0, help="time budget (per scenario with "
                                                          "--policy null, in CPU seconds)"),
                  policy: str = typer.Option("random", help="random (decisions/s, games/s, "
                                             "clone time) or null (pass, done or decline "
                                             "when legal: turns/s per scenario)"),
                  as_json: bool = typer.Option(False, "--json")) -> None:
    """Engine throughput on one core: random play, or both sides on the null policy."""
    from djebel.algeria.bench import SCENARIOS, run, run_null

    if policy not in ("random", "null"):
        console.print(f"error: unknown policy {policy!r} (random or null)", markup=False)
        raise typer.Exit(2)
    if policy == "random":
        res = run(seconds)
        console.print(json.dumps(res) if as_json
                      else "\n".join(f"{k}: {v}" for k, v in res.items()))
        return
    res = run_null(seconds)
    if as_json:
        console.print(json.dumps(res), soft_wrap=True)
        return
    for scenario in SCENARIOS:
        r = res[scenario]
        console.print(f"{scenario}: {r['turns_per_cpu_second']:,} turns per CPU second "
                      f"({r['turns_per_second']:,} per wall second), "
                      f"{r['decisions_per_cpu_second']:,} decisions per CPU second, "
                      f"{r['games']} games, {r['turns']} turns", soft_wrap=True)


@bench_app.command("skirmish")
def bench_skirmish(seconds: float = typer.Option(5.0, help="time budget"),
                   as_json: bool = typer.Option(False, "--json")) -> None:
    """Line-of-sight queries/s and bot-vs-bot battles/s on one core."""
    from djebel.skirmish.bench import run

    res = run(seconds)
    console.print(json.dumps(res) if as_json else "\n".join(f"{k}: {v}" for k, v in res.items()))


@bench_app.command("simulate")
def bench_simulate(seconds: float = typer.Option(10.0, help="time budget per measurement"),
                   workers: int = typer.Option(0, help="processes (0 = every core)"),
                   as_json: bool = typer.Option(False, "--json")) -> None:
    """Heuristic-vs-heuristic 1954 games per second on one core and on all cores."""
    from djebel.simulate.bench import run

    res = run(seconds, workers or None)
    console.print(json.dumps(res) if as_json else "\n".join(f"{k}: {v}" for k, v in res.items()))


@bench_app.command("bot")
def bench_bot(bot: str = typer.Option("planner", help="Algeria bot: heuristic, search, planner"),
              games: int = typer.Option(2, min=1, help="games per scenario and side"),
              seed: int = typer.Option(1, help="seed of the games"),
              as_json: bool = typer.Option(False, "--json")) -> None:
    """Seconds per decision of an Algeria bot against the heuristic, mean and max, on one
    core: wall-clock time and the process's CPU time (the two agree on an idle core)."""
    from djebel.algeria.bots.timing import run

    if bot not in agent_names("algeria"):
        raise typer.BadParameter(f"--bot {bot!r}: expected one of "
                                 f"{', '.join(agent_names('algeria'))}")
    res = run(bot, games, seed)
    if as_json:
        console.print(json.dumps(res), markup=False, soft_wrap=True)
        return
    for r in res["rows"]:
        console.print(f"{r['scenario']} {r['side'].upper()}: {r['decisions']} decisions in "
                      f"{r['games']} games, mean {r['mean_s']:.4f} s, max {r['max_s']:.3f} s "
                      f"(CPU: mean {r['cpu_mean_s']:.4f} s, max {r['cpu_max_s']:.3f} s)",
                      markup=False)
    console.print(f"{bot}: mean {res['mean_s']:.4f} s, max {res['max_s']:.3f} s per decision "
                  f"(CPU: mean {res['cpu_mean_s']:.4f} s, max {res['cpu_max_s']:.3f} s)",
                  markup=False)


@bench_app.command("rl")
def bench_rl(seconds: float = typer.Option(5.0, help="time budget for Algeria"),
             skirmish_seconds: float = typer.Option(5.0, help="time budget for the skirmish "
                                                              "(0 = skip it)"),
             scenario: str = typer.Option("1958", help="Algeria scenario"),
             profile: bool = typer.Option(False, "--profile",
                                          help="print where an Algeria step spends its time "
                                               "(pyinstrument)"),
             as_json: bool = typer.Option(False, "--json")) -> None:
    """Reinforcement-learning environment steps per second, masks on, on one core."""
    try:
        from djebel.rl.bench import profile as run_profile
        from djebel.rl.bench import run
        if profile:
            import pyinstrument  # noqa: F401
    except ImportError as exc:
        extra = "profile" if profile and "pyinstrument" in str(exc) else "rl"
        console.print(f"error: djebel bench rl needs the {extra} extra "
                      f"(pip install 'djebel[{extra}]'): {exc}", markup=False, soft_wrap=True)
        raise typer.Exit(2) from None
    if profile:
        console.print(run_profile(seconds, scenario), markup=False)
        return
    res = run(seconds, skirmish_seconds, scenario)
    console.print(json.dumps(res) if as_json else "\n".join(f"{k}: {v}" for k, v in res.items()),
                  soft_wrap=True)


@app.command()
def serve(host: str = typer.Option("127.0.0.1", help="address to listen on"),
          port: int = typer.Option(8000, help="port to listen on"),
          db: str = typer.Option("sqlite:///djebel.db",
                                 help="database URL: sqlite:///FILE or postgresql://..."),
          bot_delay: float = typer.Option(0.4, help="seconds between two bot moves"),
          workers: int = typer.Option(1, help="server processes (more than 1: PostgreSQL)"),
          upload_seconds: float = typer.Option(
              10.0, min=0.0, help="time allowed to check and replay an uploaded record"),
          webhooks: bool = typer.Option(False, "--webhooks",
                                        help="let seats register a webhook for turn notices"),
          webhook_allow: list[str] = typer.Option(  # noqa: B008
              [], "--webhook-allow", metavar="HOST_PATTERN",
              help="only send webhooks to hosts matching this pattern (repeatable, "
                   "'*.example.org'); implies --webhooks"),
          smtp: str = typer.Option("", metavar="HOST:PORT",
                                   help="SMTP server for turn notices by e-mail (credentials: "
                                        "DJEBEL_SMTP_USER, DJEBEL_SMTP_PASSWORD)"),
          smtp_from: str = typer.Option("", metavar="ADDR", help="sender of the e-mails"),
          public_url: str = typer.Option("", help="the address players open (https://host), "
                                                  "for the links in notices"),
          notice_timeout: float = typer.Option(10.0, help="seconds a notice may take"),
          ) -> None:
    """Serve both games on the web: lobby, boards, bots, live updates, records."""
    import importlib.util
    import os

    import uvicorn
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import ArgumentError

    from djebel.web.app import create_app
    from djebel.web.notices import NoticeConfig, check_config

    try:
        backend = make_url(db).get_backend_name()
    except ArgumentError:
        backend = ""
    if backend not in ("sqlite", "postgresql"):
        console.print(f"[red]error:[/red] --db {escape(repr(db))}: not a database URL "
                      "(sqlite:///FILE or postgresql://USER@HOST/DB)")
        raise typer.Exit(2)
    if backend == "postgresql" and importlib.util.find_spec("psycopg") is None:
        console.print("[red]error:[/red] --db postgresql://... needs psycopg: "
                      "pip install 'djebel[postgresql]'")
        raise typer.Exit(2)
    if workers < 1:
        console.print(f"[red]error:[/red] --workers {workers}: at least 1")
        raise typer.Exit(2)
    if workers > 1 and backend != "postgresql":
        console.print(f"[red]error:[/red] --workers {workers} needs PostgreSQL (--db "
                      "postgresql://...): the processes share games through it; "
                      "SQLite serves one process")
        raise typer.Exit(2)
    allow = tuple(webhook_allow)
    notices = NoticeConfig(webhooks=webhooks or bool(allow), webhook_allow=allow, smtp=smtp,
                           smtp_from=smtp_from, public_url=public_url, timeout=notice_timeout)
    try:
        check_config(notices)
    except ValueError as exc:
        raise DjebelError(str(exc)) from None
    console.print(f"djebel serving on http://{host}:{port}/  (database {db}"
                  + (f", {workers} processes)" if workers > 1 else ")"), markup=False)
    if workers == 1:
        uvicorn.run(create_app(db, bot_delay=bot_delay, upload_seconds=upload_seconds,
                               notices=notices),
                    host=host, port=port, log_level="warning", ws_ping_interval=20,
                    ws_max_size=4096)        # the page only ever sends "ping"
        return
    os.environ.update(DJEBEL_DB=db, DJEBEL_BOT_DELAY=str(bot_delay),
                      DJEBEL_UPLOAD_SECONDS=str(upload_seconds),
                      DJEBEL_NOTICES=notices.to_env())
    uvicorn.run("djebel.web.app:app_from_env", factory=True, workers=workers, host=host,
                port=port, log_level="warning", ws_ping_interval=20, ws_max_size=4096)


@bench_app.command("serve")
def bench_serve(games: int = typer.Option(50, help="concurrent games"),
                seconds: float = typer.Option(20.0, help="time measured, after the warm-up"),
                think: float = typer.Option(0.5, help="mean pause of a client between actions"),
                warmup: float = typer.Option(3.0, help="seconds played before measuring"),
                db: str = typer.Option("", help="database URL (default: a temporary SQLite file)"),
                as_json: bool = typer.Option(False, "--json")) -> None:
    """Concurrent games played over loopback by scripted clients: actions/s, p50/p99."""
    from djebel.web.bench import run

    res = run(games, seconds, db or None, think=think, warmup=warmup)
    console.print(json.dumps(res) if as_json else "\n".join(f"{k}: {v}" for k, v in res.items()))


def main() -> None:
    try:
        app()
    except DjebelError as exc:
        console.print(f"[red]error:[/red] {escape(str(exc))}", soft_wrap=True)
        sys.exit(2)


if __name__ == "__main__":
    main()

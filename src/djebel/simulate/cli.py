"""``djebel simulate ...`` and ``djebel tournament ...``."""

import typer

app = typer.Typer(help="Batch simulation: many games, win rates, reports.", no_args_is_help=True)
tournament_app = typer.Typer(help="Bot against bot: wins, levels, confidence intervals.",
                             no_args_is_help=True)


def agent_styles(agents: dict[str, str], styles: dict[str, list[str]]) -> dict[str, dict]:
    """``--fln-style`` / ``--gov-style`` KEY=VALUE settings, per side, checked (they set
    the heuristic agent's style)."""
    from djebel.agents import parse_style
    from djebel.core.errors import ScenarioError

    out = {}
    for side, items in styles.items():
        if not items:
            continue
        if agents[side] != "heuristic":
            raise typer.BadParameter(f"--{side}-style sets the heuristic agent's style, "
                                     f"but the {side.upper()} agent is {agents[side]!r}")
        try:
            out[side] = parse_style(side, items)
        except ScenarioError as err:
            raise typer.BadParameter(str(err)) from None
    return out


STYLE_HELP = "heuristic agent style, KEY=VALUE (repeatable), e.g. {}"
SKIRMISH_BOTS = "random, matrix, heuristic (the French commander) or search"


def parse_options(values: list[str]) -> dict[str, bool]:
    """``--option shorter_game`` or ``--option shorter_game=off`` (repeatable)."""
    out = {}
    for v in values:
        key, _, val = v.partition("=")
        out[key.replace("-", "_")] = val.lower() not in ("0", "false", "no", "off")
    return out


def _simulate(job, games: int, workers: int | None, backend: str, address: str | None,
              as_json: bool, report: str, title: str) -> dict:
    """Run a job with a progress bar; print and return the summary."""
    import json

    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeElapsedColumn

    from djebel.simulate import report as rep
    from djebel.simulate import runner

    console = Console(highlight=False, stderr=as_json)
    runner.check(job)
    workers = workers or runner.default_workers()
    with Progress("[progress.description]{task.description}", BarColumn(),
                  MofNCompleteColumn(), TimeElapsedColumn(), console=console,
                  transient=as_json) as bar:
        task = bar.add_task(f"{title} ({backend}, {workers} workers)", total=games)
        results = runner.run(job, games, workers=workers, backend=backend, address=address,
                             progress=lambda n: bar.advance(task, n))
    sides = tuple(job.agents)
    summary = rep.summarize(results, sides)
    out = {"job": job.to_json(), "backend": backend, "workers": workers, "summary": summary}
    if report:
        with open(report, "w", encoding="utf-8") as fh:
            fh.write(rep.html_report(title, out["job"], summary, results))
    if as_json:
        print(json.dumps(out))
    else:
        _print_summary(console, title, summary)
        if report:
            console.print(f"report written to {report}", markup=False)
    return out


def _print_summary(console, title: str, summary: dict) -> None:
    from rich.table import Table

    table = Table(title=f"{title}: {summary['games']} games")
    for col in ("side", "wins", "rate", "95% CI (Wilson)"):
        table.add_column(col, justify="right")
    for side, w in summary["wins"].items():
        table.add_row(side, str(w["games"]), f"{100 * w['rate']:.1f}%",
                      f"{100 * w['ci95'][0]:.1f}% - {100 * w['ci95'][1]:.1f}%")
    console.print(table)
    levels = Table(title="victory levels")
    levels.add_column("winner")
    levels.add_column("level")
    levels.add_column("games", justify="right")
    for winner, by in summary["levels"].items():
        for level, k in by.items():
            levels.add_row(winner, level, str(k))
    console.print(levels)
    length = summary.get("length") or {}
    if length:
        console.print(f"length in turns: mean {length['mean']:.2f}, median {length['median']}, "
                      f"min {length['min']}, max {length['max']}; draws {summary['draws']}, "
                      f"unfinished {summary['unfinished']}")
    if summary.get("casualties"):
        console.print("mean casualties: " + ", ".join(
            f"{k} {v:.2f}" for k, v in summary["casualties"].items()))


@app.command("algeria")
def simulate_algeria(
    scenario: str = typer.Option("1954", help="1954, 1958 or 1960"),
    games: int = typer.Option(100, min=0, help="number of games"),
    fln: str = typer.Option("heuristic", help="FLN agent: random, heuristic, search, planner, "
                              "or a gauntlet bot: pass, propaganda, all-in, bands, hide-raid"),
    gov: str = typer.Option("heuristic", help="Government agent: random, heuristic, search, "
                              "planner, or a gauntlet bot: pass, civil-affairs, all-in, patrol, "
                              "flush"),
    seed: int = typer.Option(0, help="job seed; game i is seeded from (seed, i)"),
    workers: int = typer.Option(0, min=0, help="worker processes (0 = every core)"),
    option: list[str] = typer.Option([], "--option", "-o",  # noqa: B008
                                     help="game option, e.g. shorter_game (repeatable)"),
    max_turns: int = typer.Option(100, min=1, help="stop a game after this many turns"),
    as_json: bool = typer.Option(False, "--json", help="JSON output"),
    report: str = typer.Option("", "--report", help="write an HTML report with plots here"),
    backend: str = typer.Option("process", help="process (this machine) or ray"),
    address: str = typer.Option("", help="Ray cluster address (default: start a local one)"),
    fln_style: list[str] = typer.Option([], help=STYLE_HELP.format("fronts=off")),  # noqa: B008
    gov_style: list[str] = typer.Option([], help=STYLE_HELP.format("hunt=2")),  # noqa: B008
) -> None:
    """Play many Algeria games bot against bot: win rates, levels, length, plots."""
    from djebel.simulate.runner import Job

    agents = {"fln": fln, "gov": gov}
    job = Job("algeria", scenario, agents, seed, parse_options(option), max_turns,
              agent_styles(agents, {"fln": fln_style, "gov": gov_style}))
    _simulate(job, games, workers or None, backend, address or None, as_json, report,
              f"Algeria {scenario}: FLN {fln} v GOV {gov}")


@app.command("balance")
def simulate_balance(
    fln: str = typer.Option("planner", help="FLN agent (default: the strongest, planner)"),
    gov: str = typer.Option("planner", help="Government agent (default: planner)"),
    games: int = typer.Option(200, min=1, help="games per scenario and option"),
    seed: int = typer.Option(2026, help="job seed, the same for every line"),
    workers: int = typer.Option(0, min=0, help="worker processes (0 = every core)"),
    markdown: str = typer.Option("algeria-balance.md", help="write the page here (its "
                                 "sections go into docs/balance.md beside the skirmish's)"),
    options: bool = typer.Option(True, "--options/--no-options",
                                 help="also each optional rule alone (--no-options: the "
                                      "three scenarios only, for costly bots)"),
) -> None:
    """Measure the balance (every scenario, each option alone) and write a Markdown page:
    win rates with Wilson intervals, victory levels, game length, spending per turn and
    the effect of each option."""
    import shlex

    from rich.console import Console

    from djebel.agents import agent_names
    from djebel.simulate import balance

    known = agent_names("algeria")
    for side, name in (("fln", fln), ("gov", gov)):
        if name not in known:
            raise typer.BadParameter(f"--{side} {name!r}: expected one of {', '.join(known)}")
    console = Console(highlight=False)
    agents = {"fln": fln, "gov": gov}
    setups = balance.SETUPS if options else tuple(s for s in balance.SETUPS if not s[1])
    rows = balance.measure(agents, games, seed, workers or None, setups,
                           progress=lambda text: console.print(text, markup=False))
    command = " ".join(shlex.quote(w) for w in (
        "djebel", "simulate", "balance", "--fln", fln, "--gov", gov, "--games", str(games),
        "--seed", str(seed), *(() if options else ("--no-options",)),
        "--markdown", markdown))
    with open(markdown, "w", encoding="utf-8") as fh:
        fh.write(balance.markdown(rows, agents, games, seed, command))
    console.print(f"written {markdown}", markup=False)


@app.command("skirmish")
def simulate_skirmish(
    scenario: str = typer.Option("all", help="scenario id, or 'all' for every scenario"),
    games: int = typer.Option(100, min=0, help="number of games per scenario"),
    french: str = typer.Option("matrix", help="French agent: " + SKIRMISH_BOTS),
    insurgents: str = typer.Option("matrix", help="Insurgent agent: " + SKIRMISH_BOTS),
    seed: int = typer.Option(0, help="job seed; game i is seeded from (seed, i)"),
    workers: int = typer.Option(0, min=0, help="worker processes (0 = every core)"),
    as_json: bool = typer.Option(False, "--json", help="JSON output"),
    report: str = typer.Option("", "--report", help="write an HTML report with plots here"),
    backend: str = typer.Option("process", help="process (this machine) or ray"),
    address: str = typer.Option("", help="Ray cluster address (default: start a local one)"),
    search_budget: int = typer.Option(8, min=1, help="search bot: rollouts per searched "
                                      "decision"),
) -> None:
    """Play many Insurgent Commander battles bot against bot: win rates and casualties
    per scenario."""
    from djebel import skirmish
    from djebel.simulate.runner import Job

    scenarios = list(skirmish.list_scenarios()) if scenario == "all" else [scenario]
    for sc in scenarios:
        sides = skirmish.new_game(sc, seed=0).sides
        names = dict(zip(sides, (french, insurgents), strict=True))
        budget = {side: {"iterations": search_budget} for side, name in names.items()
                  if name == "search"}
        job = Job("skirmish", sc, names, seed, agent_options=budget)
        out = report
        if report and len(scenarios) > 1:
            stem, dot, ext = report.rpartition(".")
            out = f"{stem}-{sc}.{ext}" if dot else f"{report}-{sc}"
        _simulate(job, games, workers or None, backend, address or None, as_json, out,
                  f"Skirmish {sc}: " + " v ".join(f"{s} {a}" for s, a in names.items()))


@tournament_app.command("algeria")
def tournament_algeria(
    scenario: str = typer.Option("1954", help="1954, 1958 or 1960"),
    fln: str = typer.Option("heuristic", help="FLN agent: random, heuristic, search, planner, "
                              "or a gauntlet bot: pass, propaganda, all-in, bands, hide-raid"),
    gov: str = typer.Option("heuristic", help="Government agent: random, heuristic, search, "
                              "planner, or a gauntlet bot: pass, civil-affairs, all-in, patrol, "
                              "flush"),
    games: int = typer.Option(200, min=1, help="number of games"),
    seed: int = typer.Option(0, help="tournament seed; game i is seeded from (seed, i)"),
    option: list[str] = typer.Option([], "--option", "-o",  # noqa: B008
                                     help="game option, e.g. shorter_game (repeatable)"),
    iterations: int = typer.Option(48, min=1, help="search agent: iterations per decision"),
    seconds: float = typer.Option(0.0, min=0.0,
                                  help="search agent: seconds per decision (0 = use iterations)"),
    rollouts: int = typer.Option(16, min=1, help="search agent: complete games per style "
                                 "at the start of each of its turns"),
    workers: int = typer.Option(1, min=1, help="worker processes"),
    as_json: bool = typer.Option(False, "--json", help="JSON output"),
    fln_style: list[str] = typer.Option([], help=STYLE_HELP.format("fronts=off")),  # noqa: B008
    gov_style: list[str] = typer.Option([], help=STYLE_HELP.format("hunt=2")),  # noqa: B008
) -> None:
    """Play a tournament: wins per side, victory levels, Wilson 95% CI of the FLN win rate."""
    import json

    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeElapsedColumn
    from rich.table import Table

    from djebel.algeria.game import check_options
    from djebel.simulate.tournament import run_tournament

    options = check_options(scenario, parse_options(option))
    search_kw = {"iterations": iterations, "seconds": seconds or None, "rollouts": rollouts}
    agent_options = {side: search_kw for side, name in (("fln", fln), ("gov", gov))
                     if name == "search"}
    agent_options.update(agent_styles({"fln": fln, "gov": gov},
                                      {"fln": fln_style, "gov": gov_style}))
    console = Console(highlight=False, stderr=as_json)
    with Progress("[progress.description]{task.description}", BarColumn(),
                  MofNCompleteColumn(), TimeElapsedColumn(), console=console,
                  transient=as_json) as bar:
        task = bar.add_task(f"Algeria {scenario}: FLN {fln} v GOV {gov}", total=games)
        out = run_tournament("algeria", scenario, {"fln": fln, "gov": gov}, games, seed,
                             options, agent_options, workers=workers,
                             progress=lambda n: bar.advance(task, n))
    if as_json:
        print(json.dumps({k: v for k, v in out.items() if k != "records"}))
        return
    lo, hi = out["fln_ci95"]
    table = Table(title=f"Algeria {scenario}: FLN {fln} v GOV {gov}, {out['games']} games")
    for col in ("side", "agent", "wins", "decisive", "substantial", "marginal"):
        table.add_column(col, justify="right")
    for side in ("fln", "gov"):
        lv = out["levels"][side]
        table.add_row(side.upper(), out["agents"][side], str(out["wins"][side]),
                      *(str(lv.get(k, 0)) for k in ("decisive", "substantial", "marginal")))
    console.print(table)
    console.print(f"FLN win rate {100 * out['fln_win_rate']:.1f}% "
                  f"(95% Wilson CI {100 * lo:.1f}% - {100 * hi:.1f}%); "
                  f"turns mean {out['turns']['mean']:.1f}, max {out['turns']['max']}; "
                  f"{out['games_per_second']} games/s")


@tournament_app.command("gauntlet")
def tournament_gauntlet(
    bot: list[str] = typer.Option(["heuristic", "search"], "--bot",  # noqa: B008
                                  help="bot to test (repeatable): heuristic, search, planner"),
    scenario: list[str] = typer.Option(["1954", "1958", "1960"], "--scenario",  # noqa: B008
                                       help="scenario (repeatable)"),
    strategy: list[str] = typer.Option([], "--against",  # noqa: B008
                                       help="only these gauntlet strategies (repeatable)"),
    side: str = typer.Option("", help="only the cells where the bot plays this side: fln "
                             "or gov (default both)"),
    games: int = typer.Option(200, min=1, help="games per cell"),
    seed: int = typer.Option(0, help="gauntlet seed; each cell is seeded from it"),
    first: int = typer.Option(0, min=0, help="play games FIRST.. of each cell: a long "
                              "gauntlet split into runs whose wins add up"),
    iterations: int = typer.Option(48, min=1, help="search agent: iterations per decision"),
    rollouts: int = typer.Option(16, min=1, help="search agent: complete games per style"),
    workers: int = typer.Option(1, min=1, help="worker processes"),
    markdown: str = typer.Option("", help="also write the table (Markdown) to this file"),
) -> None:
    """Every bot against each simple strategy of the gauntlet, both sides, every
    scenario: the bot's wins with a Wilson 95% interval per cell."""
    import shlex

    from rich.console import Console
    from rich.table import Table

    from djebel import algeria
    from djebel.agents import gauntlet_names
    from djebel.simulate import gauntlet as gt

    for b in bot:
        if b not in gt.BOTS:
            raise typer.BadParameter(f"--bot {b!r}: expected one of {', '.join(gt.BOTS)}")
    for sc in scenario:
        if sc not in algeria.SCENARIOS:
            raise typer.BadParameter(f"--scenario {sc!r}: expected one of "
                                     f"{', '.join(algeria.SCENARIOS)}")
    known = set(gauntlet_names("algeria", "fln")) | set(gauntlet_names("algeria", "gov"))
    for st in strategy:
        if st not in known:
            raise typer.BadParameter(f"--against {st!r}: expected one of "
                                     f"{', '.join(sorted(known))}")
    if side not in ("", "fln", "gov"):
        raise typer.BadParameter(f"--side {side!r}: expected fln or gov")
    console = Console(highlight=False)
    table = Table(title=f"Algeria gauntlet, {games} games per cell")
    for col in ("scenario", "bot", "side", "against", "wins", "rate", "95% CI", "turns"):
        table.add_column(col, justify="right")
    chosen = [cell for cell in gt.cells(bot, scenario)
              if (not strategy or cell[3] in strategy) and (not side or cell[2] == side)]
    if not chosen:
        raise typer.BadParameter(f"no gauntlet cell has the bot as {side.upper()} against "
                                 f"{', '.join(strategy)}: each strategy plays one side, "
                                 "the bot the other")
    rows = []
    search = {"iterations": iterations, "rollouts": rollouts}
    for cell in chosen:
        r = gt.play_cell(*cell, games, seed, search, workers, first=first)
        rows.append(r)
        lo, hi = r["ci95"]
        style = "" if r["rate"] >= gt.TARGET else "[red]"
        table.add_row(r["scenario"], r["bot"], r["side"].upper(), r["strategy"],
                      f"{r['wins']}/{games}", f"{style}{100 * r['rate']:.1f}%",
                      f"{100 * lo:.1f}-{100 * hi:.1f}%", f"{r['turns']:.1f}")
        console.print(f"{r['scenario']} {r['bot']} {r['side'].upper()} v {r['strategy']}: "
                      f"{r['wins']}/{games} ({r['seconds']:.0f} s)")
    console.print(table)
    below = [r for r in rows if r["rate"] < gt.TARGET]
    console.print(f"{len(rows) - len(below)} of {len(rows)} cells at or above "
                  f"{100 * gt.TARGET:.0f}%")
    if markdown:
        words = ["djebel", "tournament", "gauntlet"]
        words += [w for b in bot for w in ("--bot", b)]
        words += [w for sc in scenario for w in ("--scenario", sc)]
        words += [w for st in strategy for w in ("--against", st)]
        if side:
            words += ["--side", side]
        words += ["--games", str(games), "--seed", str(seed)]
        if first:
            words += ["--first", str(first)]
        if "search" in bot:
            words += ["--iterations", str(iterations), "--rollouts", str(rollouts)]
        command = " ".join(shlex.quote(w) for w in words)
        with open(markdown, "w", encoding="utf-8") as fh:
            fh.write(gt.markdown(rows, command))
        console.print(f"table written to {markdown}")


@tournament_app.command("skirmish")
def tournament_skirmish(
    scenario: list[str] = typer.Argument(None, help="scenario ids or files (.toml), or "  # noqa: B008
                                         "'all' (the default) for every shipped scenario"),
    french: list[str] = typer.Option(["heuristic"], "--french",  # noqa: B008
                                     help=f"French bot (repeatable): {SKIRMISH_BOTS}"),
    insurgents: list[str] = typer.Option(["matrix"], "--insurgents",  # noqa: B008
                                         help=f"Insurgent bot (repeatable): {SKIRMISH_BOTS}"),
    games: int = typer.Option(200, min=1, help="battles per row"),
    seed: int = typer.Option(0, help="seed; battle i of every row is seeded from (seed, i)"),
    workers: int = typer.Option(1, min=1, help="worker processes"),
    markdown: bool = typer.Option(False, "--markdown",
                                  help="print the table in Markdown, with the command"),
    as_json: bool = typer.Option(False, "--json", help="JSON output (one row a line)"),
    search_budget: int = typer.Option(8, min=1, help="search bot: rollouts per searched "
                                      "decision"),
) -> None:
    """Insurgent Commander balance: for every scenario and pairing of bots, the French
    wins with a Wilson 95% interval, mean victory points and elements lost per side,
    French elements kept through the first Insurgent phase, and mean length."""
    import json
    import shlex
    from pathlib import Path

    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeElapsedColumn
    from rich.table import Table

    from djebel import skirmish
    from djebel.agents import agent_names
    from djebel.simulate import skirmish_table as st

    known = list(skirmish.list_scenarios())
    scenarios = known if not scenario or scenario == ["all"] else scenario
    for sc in scenarios:
        if sc not in known and not (sc.endswith(".toml") and Path(sc).is_file()):
            raise typer.BadParameter(f"scenario {sc!r}: expected 'all', a scenario file "
                                     f"(.toml) or one of {', '.join(known)}")
    bots = agent_names("skirmish")
    for flag, names in (("--french", french), ("--insurgents", insurgents)):
        for b in names:
            if b not in bots:
                raise typer.BadParameter(f"{flag} {b!r}: expected one of {', '.join(bots)}")
    console = Console(highlight=False, stderr=as_json or markdown)
    console.width = max(console.width, 112)             # the table's ten columns unwrapped
    rows = []
    with Progress("[progress.description]{task.description}", BarColumn(),
                  MofNCompleteColumn(), TimeElapsedColumn(), console=console,
                  transient=True) as bar:
        for sc in scenarios:
            for f in french:
                for i in insurgents:
                    task = bar.add_task(f"{sc}: French {f} v Insurgents {i}", total=games)
                    rows.append(st.play_row(sc, f, i, games, seed, workers,
                                            progress=lambda n, t=task: bar.advance(t, n),
                                            search_budget=search_budget))
    if as_json:
        for r in rows:
            print(json.dumps(r))
        return
    if markdown:
        words = ["djebel", "tournament", "skirmish", *scenario]
        words += [w for b in french for w in ("--french", b)]
        words += [w for b in insurgents for w in ("--insurgents", b)]
        words += ["--games", str(games), "--seed", str(seed)]
        if "search" in (*french, *insurgents):
            words += ["--search-budget", str(search_budget)]
        print(st.markdown(rows, " ".join(shlex.quote(w) for w in words)), end="")
        return
    table = Table(title=f"Insurgent Commander, {games} battles per row, seed {seed}")
    for col in ("scenario", "French", "Insurg.", "F wins", "95% CI", "draws", "VP F/I",
                "lost F/I", "kept", "turns"):
        table.add_column(col, justify="right")
    for r in rows:
        lo, hi = r["french_ci95"]
        k = r["kept_first_phase"]
        table.add_row(r["scenario"], r["french"], r["insurgents"],
                      f"{r['wins']['french']} {100 * r['french_rate']:.0f}%",
                      f"{100 * lo:.0f}-{100 * hi:.0f}%", str(r["draws"]),
                      f"{r['vp']['french']:.1f}/{r['vp']['insurgents']:.1f}",
                      f"{r['lost']['french']:.1f}/{r['lost']['insurgents']:.1f}",
                      f"{k['kept']:.2f}/{k['fielded']:.0f}", f"{r['turns']:.2f}")
    console.print(table)
    console.print("95% CI: Wilson interval of the French win rate; kept: French elements "
                  "fielded at the start still in play after the first Insurgent phase")


@tournament_app.command("ladder")
def tournament_ladder(
    new: str = typer.Option("planner", help="the new bot (or NAME@REV)"),
    old: str = typer.Option("search", help="the bot it replaces; NAME@REV: the bot as it "
                            "was at git revision REV"),
    scenario: list[str] = typer.Option(["1954", "1958", "1960"], "--scenario",  # noqa: B008
                                       help="scenario (repeatable)"),
    games: int = typer.Option(200, min=1, help="games per cell (two cells a scenario)"),
    seed: int = typer.Option(0, help="ladder seed: both cells of a scenario share it"),
    first: int = typer.Option(0, min=0, help="play games FIRST.. of the seed: a long "
                              "ladder split into runs whose wins add up"),
    workers: int = typer.Option(1, min=1, help="worker processes"),
    markdown: str = typer.Option("", help="also write the table (Markdown) to this file"),
) -> None:
    """The new bot against the old with sides swapped, on the same seeds: its wins in
    each cell and over both cells of each scenario, with Wilson 95% intervals."""
    import shlex

    from rich.console import Console

    from djebel import algeria
    from djebel.agents import agent_names, check_name
    from djebel.core.errors import ScenarioError
    from djebel.simulate import ladder

    for flag, name in (("--new", new), ("--old", old)):
        try:
            check_name("algeria", name, agent_names("algeria"))
        except ScenarioError as exc:
            raise typer.BadParameter(f"{flag} {exc}") from None
    for sc in scenario:
        if sc not in algeria.SCENARIOS:
            raise typer.BadParameter(f"--scenario {sc!r}: expected one of "
                                     f"{', '.join(algeria.SCENARIOS)}")
    console = Console(highlight=False)
    rows = []
    for sc in scenario:
        r = ladder.play(new, old, sc, games, seed, workers, first=first)
        rows.append(r)
        console.print(f"{sc}: {new} wins {r['wins']}/{r['games']} "
                      f"({100 * r['rate']:.1f}%, 95% CI {100 * r['ci95'][0]:.1f}-"
                      f"{100 * r['ci95'][1]:.1f}%)", markup=False)
    words = ["djebel", "tournament", "ladder", "--new", new, "--old", old]
    words += [w for sc in scenario for w in ("--scenario", sc)]
    words += ["--games", str(games), "--seed", str(seed)]
    if first:
        words += ["--first", str(first)]
    table = ladder.markdown(rows, " ".join(shlex.quote(w) for w in words))
    console.print(table, markup=False)
    if markdown:
        with open(markdown, "w", encoding="utf-8") as fh:
            fh.write(table)
        console.print(f"table written to {markdown}", markup=False)

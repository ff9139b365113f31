"""``djebel tournament skirmish``: the Insurgent Commander balance table."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from djebel import skirmish
from djebel.cli import app
from djebel.simulate import runner
from djebel.simulate import skirmish_table as st
from djebel.simulate.report import wilson


def _record(winner, vp_f, vp_i, lost_f, lost_i, turns, kept, fielded=9):
    return {"winner": winner, "scores": {"french": vp_f, "insurgents": vp_i}, "turns": turns,
            "casualties": {"french_elements_lost": lost_f, "insurgents_elements_lost": lost_i},
            "first_insurgent_phase": {"french_fielded": fielded, "french_kept": kept}}


def test_row_summary_exact():
    records = [_record("french", 6, 2, 1, 5, 8, 9), _record("insurgents", 1, 7, 6, 2, 5, 3),
               _record(None, 3, 3, 2, 2, 8, 6), _record("french", 5, 1, 0, 4, 7, 9)]
    row = st.summarize_row("ambush", {"french": "heuristic", "insurgents": "matrix"}, 3,
                           records)
    assert row["wins"] == {"french": 2, "insurgents": 1} and row["draws"] == 1
    assert row["french_rate"] == 0.5 and row["french_ci95"] == list(wilson(2, 4))
    assert row["vp"] == {"french": 3.75, "insurgents": 3.25}
    assert row["lost"] == {"french": 2.25, "insurgents": 3.25}
    assert row["turns"] == 7.0
    assert row["kept_first_phase"] == {"kept": 6.75, "fielded": 9.0, "share": 0.75}
    md = st.markdown([row], "djebel tournament skirmish ambush")
    assert md.startswith("`djebel tournament skirmish ambush`\n")
    assert ("| ambush | heuristic | matrix | 4 | 2 (50.0%) | 15.0% – 85.0% | 1 | 3.75 / 3.25 "
            "| 2.25 / 3.25 | 6.75 of 9 (75%) | 7.00 |") in md


def test_first_insurgent_phase_ends_when_the_next_phase_starts():
    """The ambush opens with the Insurgent phase, the search with the French one."""
    g = skirmish.new_game("ambush", 0, {"log": False})
    assert not runner._past_first_insurgent_phase(g)
    g.apply("endphase")
    assert g.phasing == "french" and runner._past_first_insurgent_phase(g)
    g = skirmish.new_game("search", 0, {"log": False})
    g.apply("endphase")
    assert g.phasing == "insurgents" and not runner._past_first_insurgent_phase(g)
    g.apply("endphase")
    assert g.turn == 2 and runner._past_first_insurgent_phase(g)


def test_kept_counts_the_convoy_after_the_ambush_phase():
    """The record's count equals the French elements in play when the ambush's first
    (Insurgent) phase hands over to the French, replaying the same battle by hand."""
    from djebel.agents import make_agent

    job = runner.Job("skirmish", "ambush", {"french": "matrix", "insurgents": "heuristic"}, 1)
    rec = runner.play_one(job, 0)
    g = skirmish.new_game("ambush", runner.derive_seed(1, 0), {"log": False})
    bots = {s: make_agent(job.agents[s], "skirmish", s, runner.derive_seed(1, 0, s))
            for s in g.sides}
    fielded = [e for e in g.elements if e.side == "french" and not e.off_table]
    while g.phasing == "insurgents" and not g.is_over():
        g.apply(bots[g.active_side].choose(g))
    kept = sum(1 for e in fielded if not g.elements[e.id].removed)
    assert rec["first_insurgent_phase"] == {"french_fielded": 9, "french_kept": kept}
    assert len(fielded) == 9


def test_row_is_reproducible_and_independent_of_workers():
    a = st.play_row("hotlz", "matrix", "matrix", 2, seed=5)
    b = st.play_row("hotlz", "matrix", "matrix", 2, seed=5, workers=2)
    assert a == b and a["games"] == 2 and sum(a["wins"].values()) + a["draws"] == 2


def test_cli_markdown_and_json():
    res = CliRunner().invoke(app, ["tournament", "skirmish", "hotlz", "--french", "matrix",
                                   "--games", "2", "--seed", "5", "--markdown"])
    assert res.exit_code == 0, res.output
    assert ("`djebel tournament skirmish hotlz --french matrix --insurgents matrix --games 2 "
            "--seed 5`") in res.output
    row = st.play_row("hotlz", "matrix", "matrix", 2, seed=5)
    assert st.markdown([row]).splitlines()[-1] in res.output
    res = CliRunner().invoke(app, ["tournament", "skirmish", "hotlz", "--french", "matrix",
                                   "--games", "2", "--seed", "5", "--json"])
    assert res.exit_code == 0, res.output
    assert json.loads(res.output.strip().splitlines()[-1]) == json.loads(json.dumps(row))


def test_cli_all_scenarios_table():
    res = CliRunner().invoke(app, ["tournament", "skirmish", "all", "--french", "random",
                                   "--insurgents", "random", "--games", "1"])
    assert res.exit_code == 0, res.output
    for sc in skirmish.list_scenarios():
        assert sc in res.output
    assert "Wilson" in res.output


def test_cli_bad_input_is_a_usage_error():
    for args, word in ((["nowhere"], "nowhere"), (["--french", "cheat"], "cheat"),
                       (["--insurgents", "x"], "'x'")):
        res = CliRunner().invoke(app, ["tournament", "skirmish", *args, "--games", "1"])
        assert res.exit_code == 2 and word in res.output


def test_cli_search_budget_reaches_the_search_bot(monkeypatch):
    """``--search-budget N`` is the search bot's rollouts per searched decision, as in
    ``djebel play``/``simulate``; the other side's bot gets no option, and the Markdown
    command carries the budget so the row reproduces."""
    from djebel import agents

    made = []
    real = agents.make_agent

    def spy(name, game, side, seed=0, **options):
        made.append((name, side, options))
        bot = real(name, game, side, seed, **options)
        if name == "search":
            assert bot.mcts.iterations == options["iterations"]
        return real("matrix", game, side, seed)        # play the battle cheaply

    monkeypatch.setattr(agents, "make_agent", spy)
    res = CliRunner().invoke(app, ["tournament", "skirmish", "hotlz", "--french", "search",
                                   "--games", "1", "--seed", "5", "--search-budget", "3",
                                   "--markdown"])
    assert res.exit_code == 0, res.output
    assert ("`djebel tournament skirmish hotlz --french search --insurgents matrix --games 1 "
            "--seed 5 --search-budget 3`") in res.output
    assert ("search", "french", {"iterations": 3}) in made
    assert ("matrix", "insurgents", {}) in made
    assert all(opts == {} for name, _side, opts in made if name != "search")
    res = CliRunner().invoke(app, ["tournament", "skirmish", "hotlz", "--insurgents", "search",
                                   "--games", "1", "--search-budget", "0"])
    assert res.exit_code == 2


def test_row_records_the_search_budget():
    row = st.play_row("hotlz", "matrix", "matrix", 1, seed=5, search_budget=4)
    assert "search_budget" not in row           # no search bot in the row
    assert row == st.play_row("hotlz", "matrix", "matrix", 1, seed=5)

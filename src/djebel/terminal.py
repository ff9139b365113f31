"""Play any djebel game in the terminal: humans type a number or an action's notation."""

from __future__ import annotations

from collections.abc import Callable

from rich.console import Console
from rich.markup import escape

from djebel.core.actions import Action
from djebel.core.errors import DjebelError
from djebel.core.records import NOTES, save_record
from djebel.core.undo import take_back

HELP = ("Type the number of an action or its notation (e.g. 'flush II-1'); "
        "'save FILE' saves the game record; 'log [N]' shows the last N log lines; "
        "'board' shows the whole board (after each decision only what changed is shown); "
        "text that is not an action lists the actions containing it (e.g. 'mob'); "
        "'undo' takes back your own last action if it rolled no dice (in an analysis "
        "game, any action, and the bots' replies); "
        "'quit' stops (save first!). A game saved before its end keeps the dice rolled, "
        "not their seed: loaded again, it rolls fresh dice.")


def play(game, seats: dict, describe: Callable[[object], str], console: Console | None = None,
         input_fn: Callable[[str], str] = input, after_action: Callable | None = None,
         odds: Callable | None = None, analysis: bool = False,
         summary: Callable[[object, object], str] | None = None, auto: bool = True,
         digest: Callable[[list], list[str]] | None = None,
         where: Callable[[object, object], str] | None = None) -> int:
    """Run ``game`` to the end; ``seats[side]`` is an agent, or None for a human.

    ``analysis`` allows free take-backs (past die rolls and the bots' replies); the
    game log says so.

    ``odds(game, action)`` may return a line of exact odds: it is shown and the human
    confirms before a mission or shot is carried out. ``summary(before, now)`` says in
    a few lines what changed since the human's last decision: shown instead of the whole
    board, which ``board`` prints on demand. ``auto`` applies a human's only legal
    choice at once, saying so. ``digest(entries)`` turns the new log entries into the
    lines shown (default: the last 25). ``where(game, action)`` may add to a listed action
    where it happens (``propaganda cadre1 @I-1``; the notation to type stays the action's).
    Returns 0 when the game ended, 1 when a human quit.
    """
    con = console or Console(highlight=False)
    if analysis:
        game.log.add("", NOTES["analysis"])
        con.print(f"[dim]{escape(NOTES['analysis'])}[/dim]")
    shown = len(game.log)
    need_board = True
    snapshots: list = []         # the game before each human action, for 'undo'
    last = None                  # the game at the human's last decision, for the summary
    hold = False                 # just undone: a forced choice waits for input once
    fresh = True                 # a new decision: show the changes, prompt and list
    bots: list[tuple[str, list[str]]] = []   # the bots' actions since, by run of one side
    while not game.is_over():
        side = game.active_side
        agent = seats.get(side)
        if agent is not None:
            action = agent.choose(game)
            game.apply(action)
            if bots and bots[-1][0] == side:
                bots[-1][1].append(str(action))
            else:
                bots.append((side, [str(action)]))
            if after_action:
                after_action(game)
            continue
        if fresh:            # only what changed since the last decision is shown
            _print_bots(con, bots)
            _print_log(con, game.log.tail(len(game.log) - shown), digest)
            shown = len(game.log)
            if need_board or summary is None or last is None:
                con.print(escape(describe(game)))
                need_board = False
            else:
                changed = summary(last, game)
                if changed:
                    con.print(escape(changed))
            last = game.clone()
        actions = game.legal_actions()
        if auto and len(actions) == 1 and not hold:
            # a forced choice: nothing to decide, applied at once
            con.print(f"[bold]{escape(game.prompt())}[/bold]")
            if odds is not None:
                _show_odds(con, game, actions[0], odds)
            before = game.clone()
            try:
                game.apply(actions[0])
            except DjebelError as exc:     # e.g. a scripted die that cannot be rolled
                con.print(f"[red]{escape(str(exc))}[/red]")
                hold = True
                continue
            con.print(escape(f"only choice, applied: {actions[0]}"))
            snapshots = (snapshots + [before])[-100:]
            if after_action:
                after_action(game)
            continue
        hold = False
        if fresh:
            con.print(f"[bold]{escape(game.prompt())}[/bold]")
            _list_actions(con, actions, where=_where(game, where))
            fresh = False
        try:
            text = input_fn(f"{side.upper()}> ").strip()
        except (EOFError, KeyboardInterrupt):
            con.print("\nInput closed: stopping (use 'save FILE' to keep a game).")
            return 1
        if not text:
            continue
        word = text.split()[0].lower()
        if word in ("quit", "exit"):
            return 1
        if word == "help":
            con.print(HELP, markup=False)
            continue
        if word == "board":
            need_board = fresh = True
            continue
        if word == "undo":
            back, message = take_back(snapshots, game, side, analysis)
            con.print(escape(message))
            fresh = True
            if back is not game:
                game = back
                shown = len(game.log)
                need_board = True
                hold = True
            continue
        if word == "log":
            n = int(text.split()[1]) if len(text.split()) > 1 and text.split()[1].isdigit() else 20
            for entry in game.log.tail(n):
                con.print(f"[dim]{escape(str(entry))}[/dim]")
            continue
        if word == "save":
            parts = text.split(maxsplit=1)
            if len(parts) < 2:
                con.print("[red]save needs a file name: save mygame.json[/red]")
                continue
            try:
                path = save_record(game, parts[1])
            except OSError as exc:
                con.print(escape(f"cannot save to {parts[1]}: {exc.strerror}"))
                continue
            con.print(escape(f"saved to {path}"))
            continue
        action: Action | str
        if text.isdigit():
            i = int(text)
            if not 1 <= i <= len(actions):
                con.print(f"[red]no action number {i} (1..{len(actions)})[/red]")
                continue
            action = actions[i - 1]
        else:
            action = text
            matches, refused = _matching(game, text, actions)
            if matches:
                if len(text.split()) > 1 and refused and not any(
                        w in refused for w in ("legal are ", "the choices are ")):
                    # a whole action refused by a rule of its own (not the generic
                    # refusal that lists the legal actions): say why before the near ones
                    con.print(f"[red]{escape(refused)}[/red]")
                n = len(matches)
                con.print(escape(f"{n} action{'s' if n > 1 else ''} "
                                 f"match{'es' if n == 1 else ''} {text!r}:"))
                _list_actions(con, [a for _, a in matches], [i for i, _ in matches],
                              _where(game, where))
                continue
        if odds is not None and not _confirm(con, game, action, odds, input_fn):
            continue
        before = game.clone()
        try:
            game.apply(action)
        except DjebelError as exc:
            con.print(f"[red]{escape(str(exc))}[/red]")
            continue
        snapshots = (snapshots + [before])[-100:]
        fresh = True
        if after_action:
            after_action(game)
    _print_bots(con, bots)
    _print_log(con, game.log.tail(len(game.log) - shown), digest)
    r = game.result()
    con.print(escape(f"Game over: {r.winner.upper() if r.winner else 'draw'} "
                     f"({r.level}) {r.reason} {r.scores}"), style="bold")
    return 0


BOT_LISTED = 12          # a bot's actions named in a row, then "and N more"


def _print_bots(con: Console, bots: list) -> None:
    """One line per run of a bot's actions (not one line each: they flood the screen)."""
    for side, acts in bots:
        more = f" and {len(acts) - BOT_LISTED} more ('log' shows them)" \
            if len(acts) > BOT_LISTED else ""
        con.print(f"[dim]{side.upper()}:[/dim] {escape('; '.join(acts[:BOT_LISTED]) + more)}")
    bots.clear()


def _print_log(con: Console, entries: list, digest: Callable | None) -> None:
    lines = digest(entries) if digest else [str(e) for e in entries[-25:]]
    for line in lines:
        con.print(f"[dim]{escape(line)}[/dim]")


def _matching(game, text: str, actions: list) -> tuple[list[tuple[int, object]], str]:
    """The listed actions (with their numbers) whose notation matches ``text``, when
    ``text`` is not itself a legal action (typing 'mob' lists the mobilizations), and
    why ``text`` itself was refused."""
    validate = getattr(game, "validate", None)
    refused = ""
    if validate is not None:
        try:
            validate(text)
            return [], ""        # a legal action (perhaps not in the list's spelling)
        except DjebelError as exc:
            refused = str(exc)
    low = text.lower()
    listed = [(i, str(a).lower()) for i, a in enumerate(actions, 1)]
    # words starting with the text first ('II-1' is not 'III-1'); else any substring
    hits = [i for i, s in listed if s.startswith(low) or any(
        w.startswith(low) for w in s.split())] or [i for i, s in listed if low in s]
    return [(i, actions[i - 1]) for i in hits], refused


def _show_odds(con: Console, game, action, odds: Callable) -> bool:
    """Print the odds of ``action`` if it rolls dice; True when something was shown."""
    try:
        validate = getattr(game, "validate", None)
        if validate is not None:
            validate(action)     # no odds for a refused action
        line = odds(game, action)
    except DjebelError:
        return False         # not a legal action: apply() will say why
    if not line:
        return False
    # one line per case: each choice the opponent may make next is its own clause
    cases = escape(line).replace("; ", ";\n      ")
    con.print(f"[cyan]odds: {cases}[/cyan]")
    return True


def _confirm(con: Console, game, action, odds: Callable, input_fn: Callable) -> bool:
    """Show the odds of ``action`` (if it rolls dice) and ask to go ahead."""
    if not _show_odds(con, game, action, odds):
        return True
    try:
        answer = input_fn("carry it out? [Y/n] ").strip().lower()
    except (EOFError, KeyboardInterrupt):
        return False
    return answer in ("", "y", "yes")


def _where(game, where: Callable | None) -> Callable[[object], str]:
    return (lambda a: where(game, a)) if where is not None else (lambda a: "")


def _list_actions(con: Console, actions: list, numbers: list[int] | None = None,
                  where: Callable[[object], str] | None = None) -> None:
    place = where or (lambda a: "")
    cells = [f"{i:>3}. {a}{place(a)}" for i, a in zip(numbers or range(1, len(actions) + 1),
                                                      actions, strict=True)]
    width = max(len(c) for c in cells) + 2
    per_row = max(1, min(6, (con.width or 100) // width))
    for i in range(0, len(cells), per_row):
        con.print(escape("".join(c.ljust(width) for c in cells[i:i + per_row])))

"""``djebel simulate ...`` and ``djebel tournament ...``."""

import typer

app = typer.Typer(help="Batch simulation: many games, win rates, reports.", no_args_is_help=True)
tournament_app = typer.Typer(help="Bot against bot: wins, levels, confidence intervals.",
                             no_args_is_help=True)

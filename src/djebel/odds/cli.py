"""``djebel odds ...``."""

import typer

app = typer.Typer(help="Exact odds of the dice tables (icepool).", no_args_is_help=True)

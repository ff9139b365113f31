"""The pieces both games share: errors, actions, dice, log, records."""

from djebel.core.actions import Action
from djebel.core.dice import Dice
from djebel.core.errors import DjebelError, IllegalAction, RecordError, ScenarioError
from djebel.core.log import Log, LogEntry

__all__ = [
    "Action",
    "Dice",
    "DjebelError",
    "IllegalAction",
    "Log",
    "LogEntry",
    "RecordError",
    "ScenarioError",
]

"""Insurgent Commander bots and the candidate orders they (and ``legal_actions``) choose
from. They sit above the engine: they read a game and return an order, nothing more."""

from djebel.skirmish.bots.commander import CommanderBot
from djebel.skirmish.bots.french import FrenchBot
from djebel.skirmish.bots.matrix import HeuristicBot, MatrixBot, RandomBot, play_out

__all__ = ["CommanderBot", "FrenchBot", "HeuristicBot", "MatrixBot", "RandomBot", "play_out"]

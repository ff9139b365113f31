"""Algeria: The War of Independence 1954-1962, with every rule enforced.

>>> from djebel import algeria
>>> game = algeria.new_game("1958", seed=7)
>>> game.active_side
'gov'
"""

from djebel.algeria.game import OPTIONS, AlgeriaGame, new_game
from djebel.algeria.start import game_from_header

SCENARIOS = ("1954", "1958", "1960")

__all__ = ["OPTIONS", "SCENARIOS", "AlgeriaGame", "game_from_header", "new_game"]

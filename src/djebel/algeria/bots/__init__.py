"""Algeria agents: the rule-based HeuristicAgent and the Monte Carlo SearchAgent."""

from djebel.algeria.bots.heuristic import HeuristicAgent
from djebel.algeria.bots.search import SearchAgent

__all__ = ["HeuristicAgent", "SearchAgent"]

"""Algeria agents: the rule-based HeuristicAgent, the Monte Carlo SearchAgent and the
PlannerAgent (``djebel.algeria.bots.planner``, imported by name to keep this light)."""

from djebel.algeria.bots.heuristic import HeuristicAgent
from djebel.algeria.bots.search import SearchAgent

__all__ = ["HeuristicAgent", "SearchAgent"]

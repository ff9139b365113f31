"""Errors a user can cause. Each carries a one-line message fit to print as is."""


class DjebelError(Exception):
    """Base of every error caused by user input (never by a bug)."""


class IllegalAction(DjebelError):
    """An action the rules do not allow here; names the rule it breaks.

    The game state is unchanged when this is raised.
    """

    def __init__(self, rule: str, reason: str, action: object = None):
        self.rule = rule
        self.reason = reason
        self.action = action
        where = f" ({action})" if action is not None else ""
        super().__init__(f"illegal action{where}: {reason} [rule {rule}]")


class RecordError(DjebelError):
    """A game record or position file that cannot be used; names the file and field."""


class ScenarioError(DjebelError):
    """A scenario (or option) that does not exist or does not validate."""


def brief(value: object, limit: int = 60) -> str:
    """``repr(value)`` cut to ``limit`` characters: errors quote what a user sent, never
    all of it (an upload may hold megabytes in one field)."""
    text = repr(value)
    return text if len(text) <= limit else text[:limit] + "...(cut)"

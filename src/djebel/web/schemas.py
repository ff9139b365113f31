"""Request and answer bodies of the web API (validated by pydantic)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, StringConstraints, WithJsonSchema

from djebel.core.actions import MAX_TEXT

Player = Literal["human", "random", "heuristic", "search", "planner", "matrix"]
GameName = Literal["algeria", "skirmish"]
Word = Annotated[str, StringConstraints(max_length=64)]


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class CreateGame(Strict):
    game: GameName
    scenario: str = Field(pattern=r"^[A-Za-z0-9_\-]{1,32}$")
    options: dict[Word, bool] = Field(default_factory=dict, max_length=32)
    seed: int | None = Field(default=None, ge=0, le=2**31 - 1,
                             description="leave it out for secret dice; whoever knows a "
                             "chosen seed can foresee the dice (the game log says so)")
    seats: dict[Word, Player] = Field(default_factory=dict, max_length=4)
    title: str = Field(default="", max_length=200)
    analysis: bool = Field(default=False, description="free take-backs (past die rolls and "
                           "the other side's actions), announced in the game log")


class Created(BaseModel):
    id: str
    seats: dict[str, str] = Field(description="secret seat token of each human side")
    links: dict[str, str] = Field(default_factory=dict, description="seat links to hand out")
    watch: str = ""


class PlayAction(Strict):
    side: str = Field(pattern=r"^[a-z]{1,16}$")
    action: str = Field(min_length=1, max_length=MAX_TEXT)
    ply: int = Field(ge=0, le=10**7, description="how many actions the client has seen")


class UndoAction(Strict):
    side: str = Field(pattern=r"^[a-z]{1,16}$")
    ply: int = Field(ge=0, le=10**7, description="how many actions the client has seen")


MAX_ACTIONS = 50_000          # a long game of Algeria has a few hundred
ActionText = Annotated[str, StringConstraints(min_length=1, max_length=MAX_TEXT)]


def bounded_json(value: Any, depth: int = 0) -> Any:
    """A free-form JSON value (an embedded scenario, a start position) with every string,
    key and nesting level of sensible size; the body limit bounds the rest."""
    if depth > 16:
        raise ValueError("nested more than 16 levels deep")
    if isinstance(value, str):
        if len(value) > 1000:
            raise ValueError(f"a string of {len(value)} characters (at most 1000)")
    elif isinstance(value, dict):
        for key, item in value.items():
            if len(key) > 64:
                raise ValueError(f"a key of {len(key)} characters (at most 64)")
            bounded_json(item, depth + 1)
    elif isinstance(value, list):
        for item in value:
            bounded_json(item, depth + 1)
    return value


Small = Annotated[int, Field(ge=-10**6, le=10**6)]
FreeTable = Annotated[dict[Word, Any], AfterValidator(bounded_json)]


def scenario_value(value: Any) -> Any:
    """A record's scenario: a short id (the engine checks it is a shipped one) or a table."""
    if isinstance(value, str) and len(value) <= 200:
        return value
    if isinstance(value, dict) and all(isinstance(k, str) for k in value):
        return bounded_json(value)
    raise ValueError("expected a shipped scenario id or an embedded scenario table")


ScenarioSpec = Annotated[Any, AfterValidator(scenario_value), WithJsonSchema(
    {"anyOf": [{"type": "string", "maxLength": 200}, {"type": "object"}]})]


class RecordBody(Strict):
    """A game record as the API accepts it: the fields of ``core.records`` with their
    sizes bounded; the scenario is a shipped id or a whole scenario table, never a path."""

    format: int = Field(ge=0, le=1000)
    engine: str = Field(max_length=32)
    game: GameName
    scenario: ScenarioSpec
    seed: int | None = Field(default=None, ge=0, le=2**512)
    options: dict[Word, bool | Small | Word] = Field(default_factory=dict, max_length=32)
    dice_script: list[Annotated[int, Field(ge=0, le=1000)]] = Field(default_factory=list,
                                                                    max_length=100_000)
    rolls: list[Annotated[int, Field(ge=0, le=1000)]] | None = Field(default=None,
                                                                     max_length=1_000_000)
    fresh_dice_at: int | None = Field(default=None, ge=0, le=MAX_ACTIONS)
    analysis: bool | None = None
    chosen_seed: bool | None = None
    start: FreeTable | None = None
    actions: list[ActionText] = Field(max_length=MAX_ACTIONS)
    final_hash: str = Field(pattern=r"^[0-9a-f]{32}$")


class SeatOnly(Strict):
    side: str = Field(pattern=r"^[a-z]{1,16}$")


class UploadRecord(Strict):
    record: RecordBody
    mode: Literal["continue", "replay"] = "continue"
    seats: dict[Word, Player] = Field(default_factory=dict, max_length=4)
    title: str = Field(default="", max_length=200)


class ErrorBody(BaseModel):
    error: str
    rule: str | None = None


class Odds(BaseModel):
    action: str
    odds: str | None


class GameSummary(BaseModel):
    id: str
    game: str
    title: str
    ply: int
    mode: str
    updated: float


class Scenarios(BaseModel):
    algeria: list[str]
    skirmish: list[str]
    algeria_options: list[str]
    bots: dict[str, list[str]]

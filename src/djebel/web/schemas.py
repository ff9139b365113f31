"""Request and answer bodies of the web API (validated by pydantic)."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

Player = Literal["human", "random", "heuristic", "search", "matrix"]
GameName = Literal["algeria", "skirmish"]
Name = Field(pattern=r"^[A-Za-z0-9_.\-]{1,32}$")


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class CreateGame(Strict):
    game: GameName
    scenario: str = Field(pattern=r"^[A-Za-z0-9_\-]{1,32}$")
    options: dict[str, bool] = Field(default_factory=dict, max_length=32)
    seed: int | None = Field(default=None, ge=0, le=2**31 - 1,
                             description="leave it out for secret dice; whoever knows a "
                             "chosen seed can foresee the dice (the game log says so)")
    seats: dict[str, Player] = Field(default_factory=dict, max_length=4)
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
    action: str = Field(min_length=1, max_length=200)
    ply: int = Field(ge=0, le=10**7, description="how many actions the client has seen")


class UndoAction(Strict):
    side: str = Field(pattern=r"^[a-z]{1,16}$")
    ply: int = Field(ge=0, le=10**7, description="how many actions the client has seen")


class SeatOnly(Strict):
    side: str = Field(pattern=r"^[a-z]{1,16}$")


class UploadRecord(Strict):
    record: dict[str, Any]
    mode: Literal["continue", "replay"] = "continue"
    seats: dict[str, Player] = Field(default_factory=dict, max_length=4)
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

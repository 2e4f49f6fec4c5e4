"""Suggest: ask the AI service which move the caller's seat should make, from that seat's view only."""

from __future__ import annotations

from dataclasses import dataclass, replace

from games.base import GameError, Words
from service import errors, validation
from service.ai_client import AIClient, Candidate
from service.auth import Credentials
from service.config import Config
from service.seats import Seats
from service.tables import Tables, names


@dataclass(frozen=True)
class Suggestion:
    version: int
    best_move_id: str
    best_move_label: str
    candidates: list[Candidate]


class Suggest:
    def __init__(self, tables: Tables, config: Config, seats: Seats):
        self.tables = tables
        self.seats = seats
        self.ai = AIClient(config)

    async def close(self) -> None:
        await self.ai.close()

    async def suggest(self, game_id: str, creds: Credentials, strength: str, iterations: int,
                      time_budget_seconds: float) -> Suggestion:
        table = await self.tables.load(game_id)
        caller = self.tables.actor(table.record, creds)
        table = await self.seats.returning(table, caller)
        seat = caller.seat
        game, state = table.game, table.state
        if state is None:
            raise errors.precondition("GAME_NOT_STARTED", "the game has not started yet")
        try:
            game.check_can_act(state, seat)
        except GameError as exc:
            raise validation.engine_error(exc) from None
        if iterations < 0 or not 0 <= time_budget_seconds <= 60:  # `not <=` also refuses NaN
            raise errors.invalid("INVALID_BUDGET", "iterations must be >= 0 and time_budget_seconds within 0..60")
        advice = await self.ai.suggest(game, game.view(state, seat), seat, table.record.version,
                                       validation.strength(strength), iterations, time_budget_seconds)
        # The AI labels moves in the imperative; the caller reads them as its own ("You ...").
        moves = {m.id: m for m in game.legal_moves(state, seat)}
        words = Words(names(table.record.seats), seat, seat)

        def label(move_id: str, fallback: str) -> str:
            return moves[move_id].describe(words) if move_id in moves else fallback

        return Suggestion(
            table.record.version, advice.best_move_id, label(advice.best_move_id, advice.best_move_label),
            [replace(c, label=label(c.move_id, c.label)) for c in advice.candidates],
        )

"""A game's terminal drawing, as a renderer test sees it: an engine state in a GameState message as the service
sends it (the view through the game's wire), drawn, and what changed between two of them in words."""

from __future__ import annotations

from clients.render import Style, describe_changes, render_state
from games import wire
from games.base import Game
from tabletop.v1 import game_service_pb2 as pb


class Screens:
    """Draw one game's states for seats named `names` (seat order)."""

    def __init__(self, game: Game, names: tuple[str, ...]):
        self.game = game
        self.names = names

    def game_state(self, state, seat: int | None, version: int = 1) -> pb.GameState:
        message = pb.GameState(
            game_id="g1", game_type=self.game.info.name, version=version, status=pb.GAME_STATUS_IN_PROGRESS,
            seats=[pb.SeatInfo(seat=s, kind=pb.SEAT_KIND_HUMAN, name=name) for s, name in enumerate(self.names)],
            view=wire.view_to_any(self.game, self.game.view(state, seat)),
        )
        if seat is not None:
            message.your_seat = seat
        return message

    def board(self, state, seat: int | None) -> str:
        return "\n".join(render_state(self.game_state(state, seat), Style()))

    def said(self, before, after, watcher: int | None, skip_seat: int | None = None) -> list[str]:
        return describe_changes(self.game_state(before, watcher, 1), self.game_state(after, watcher, 2), skip_seat)

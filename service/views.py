"""The game as one caller may see it: GameState and GameEvent messages, live scores, and replaying events."""

from __future__ import annotations

import hashlib
import random
from dataclasses import replace
from typing import Any

from games.base import Game, Score
from service.store import Event, GameRecord, SeatRecord, seats_from_json, seats_json
from tabletop import wire
from tabletop.v1 import game_service_pb2 as pb

STATUS = {
    "waiting": pb.GAME_STATUS_WAITING_FOR_PLAYERS,
    "in_progress": pb.GAME_STATUS_IN_PROGRESS,
    "finished": pb.GAME_STATUS_FINISHED,
}
SEAT_KINDS = {"human": pb.SEAT_KIND_HUMAN, "ai": pb.SEAT_KIND_AI, "open": pb.SEAT_KIND_OPEN}
EVENT_KINDS = {
    "created": pb.GameEvent.KIND_CREATED,
    "joined": pb.GameEvent.KIND_JOINED,
    "started": pb.GameEvent.KIND_STARTED,
    "move": pb.GameEvent.KIND_MOVE,
}


def public_seats(seats: tuple[SeatRecord, ...]) -> str:
    """Seats as events carry them: no token hashes."""
    return seats_json([replace(s, token_hash=None) for s in seats])


def event_to_proto(event: Event, viewer: int | None) -> pb.GameEvent:
    """The event as `viewer` may see it: a move's id and label go to the mover, and to everyone when the engine
    called the move public (`pub`; events stored before the flag existed stay hidden)."""
    seat = int(event.get("seat")) if event.get("seat") else None
    shown = event.get("kind") == "move" and seat is not None and (seat == viewer or event.get("pub") == "1")
    return pb.GameEvent(
        version=event.version,
        kind=EVENT_KINDS.get(event.get("kind"), pb.GameEvent.KIND_UNSPECIFIED),
        seat=seat,
        move_id=event.get("move_id") if shown else "",
        move_label=event.get("move_label") if shown else "",
        time_unix_ms=int(event.get("at") or 0),
        game_over=event.get("over") == "1",
    )


def game_state(
    record: GameRecord, game: Game, state: Any, viewer: int | None, events: list[Event] = (),
    *, version: int | None = None, status: str | None = None, seats: tuple[SeatRecord, ...] | None = None,
) -> pb.GameState:
    """The game as `viewer` (a seat, or None for a spectator) may see it."""
    to_act = sorted(game.to_act(state)) if state is not None else []
    legal = game.legal_moves(state, viewer) if viewer is not None and viewer in to_act else ()
    return pb.GameState(
        game_id=record.game_id,
        game_type=record.game_type,
        status=STATUS[status or record.status],
        version=record.version if version is None else version,
        seats=[
            pb.SeatInfo(seat=i, kind=SEAT_KINDS[s.kind], name=s.name, strength=s.strength)
            for i, s in enumerate(record.seats if seats is None else seats)
        ],
        your_seat=viewer,
        to_act=to_act,
        legal_moves=wire.legal_moves_to_proto(game, legal),
        recent_events=[event_to_proto(e, viewer) for e in events],
        view=wire.view_to_proto(game, game.view(state, viewer)) if state is not None else None,
        options_json=record.options,
    )


def visible_score(game: Game, state: Any, viewer: int | None) -> Score:
    """The score as `viewer` may know it: exact once the game is over; while it runs, the score of a state
    sampled from the viewer's view (seeded by the view), so a live score that depends on hidden cards (a Naishi
    Hand's order) cannot leak them. Where the live score depends only on public facts, it is the exact one."""
    if game.is_over(state):
        return game.score(state)
    view = game.view(state, viewer)
    rng = random.Random(hashlib.sha256(game.dump_view(view)).digest())
    return game.score(game.sample(view, rng))


class Replay:
    """Rebuild a game event by event from its stream: seats, status and engine state after each event."""

    def __init__(self, game: Game):
        self.game = game
        self.seats: tuple[SeatRecord, ...] = ()
        self.status = "waiting"
        self.state: Any = None

    def step(self, event: Event) -> None:
        if event.get("seats"):
            self.seats = seats_from_json(event.get("seats"))
        kind = event.get("kind")
        if kind == "started":
            self.state = self.game.load_state(event.get("state"))
        elif kind == "move":
            seat = int(event.get("seat"))
            if event.get("move"):  # stored before moves were kept by id alone: the move's codec JSON
                self.state = self.game.apply(self.state, seat, self.game.load_move(event.get("move")))
            else:
                self.state = self.game.apply_id(self.state, seat, event.get("move_id"))
        if self.state is not None:
            self.status = "finished" if self.game.is_over(self.state) else "in_progress"

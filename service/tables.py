"""What every use case of the game service shares: loading a game, knowing the caller, and the plain results.

The use cases (lobby.py, play.py, watch.py, suggest.py) work on engine objects and the store and return the plain
results defined here (`Seen`, ...); the servicer, at the edge, turns them into protos (messages.py).
"""

from __future__ import annotations

import hashlib
import json
import random
from dataclasses import dataclass, replace
from typing import Any

from games.base import Game, Score, Words
from service import auth, errors, validation
from service.auth import Caller, Credentials
from service.logs import bind
from service.store import Event, GameRecord, GameStore, SeatRecord, Timer, now_ms, seats_from_json

RECENT_EVENTS = 10
COMMIT_ATTEMPTS = 8
STATE_CACHE_SIZE = 2048
TABLE_CACHE_SIZE = 4096  # games whose latest known version this replica keeps (a few KB each)


@dataclass(frozen=True)
class Table:
    """A loaded game: its record, engine, engine state (None before the start) and recent events."""

    record: GameRecord
    game: Game
    state: Any
    events: list[Event]


@dataclass(frozen=True)
class Seen:
    """A game as one caller sees it at one version: `viewer` is a seat, or None for a spectator."""

    record: GameRecord
    game: Game
    state: Any  # the engine state at `version` (None before the start)
    viewer: int | None
    events: list[Event]  # the recent events, oldest first
    version: int
    status: str  # "waiting", "in_progress" or "finished"
    seats: tuple[SeatRecord, ...]
    deadlines: dict[int, int]  # seat -> when it must have decided (ms), for the seats a turn timer is running for
    # Names exactly what this caller sees, when it is the stored game at `record` (version and stamp) with its
    # recent events: then its messages may be kept and answered again (service/messages.py). None for a replay.
    cache_key: tuple | None = None

    @classmethod
    def of(cls, table: Table, viewer: int | None) -> Seen:
        record = table.record
        key = (record.game_id, record.version, record.stamp, viewer, len(table.events)) if record.stamp else None
        return cls(record, table.game, table.state, viewer, table.events, record.version, record.status,
                   record.seats, record.deadlines, key)

    @property
    def names(self) -> tuple[str, ...]:
        return names(self.seats)

    def to_act(self) -> list[int]:
        return to_act(self.game, self.state, self.status)

    def legal_moves(self) -> tuple:
        viewer = self.viewer
        if viewer is None or viewer not in self.to_act():
            return ()
        return tuple(self.game.legal_moves(self.state, viewer))

    def words(self) -> Words:
        """How the caller's own moves are told to it ("You ...")."""
        return Words(self.names, self.viewer, self.viewer)


def names(seats: tuple[SeatRecord, ...]) -> tuple[str, ...]:
    return tuple(s.name for s in seats)


def to_act(game: Game, state: Any, status: str) -> list[int]:
    """The seats to decide now: none before the start, and none once the game is finished (a game that ends by
    resignation finishes before its engine state does)."""
    return sorted(game.to_act(state)) if state is not None and status == "in_progress" else []


def is_active(seats: tuple[SeatRecord, ...], status: str) -> bool:
    """Whether a game counts as active: in progress with a human seat whose player has not left or resigned (an
    away player may come back). An all-AI game counts too: someone is watching it play."""
    if status != "in_progress":
        return False
    humans = [s for s in seats if s.kind == "human"]
    return not humans or any(s.state in ("", "away") for s in humans)


def deadlines_after(timer: Timer | None, before: dict[int, int], acting: list[int],
                    seats: tuple[SeatRecord, ...], now: int) -> dict[int, int]:
    """The turn deadlines once a change leaves `acting` to decide: a human seat its player plays keeps the
    deadline it had while it stays to act, and gets a fresh one when it comes to act; no one else has one."""
    if timer is None:
        return {}
    return {
        seat: before.get(seat, now + timer.turn_seconds * 1000)
        for seat in acting
        if seats[seat].kind == "human" and not seats[seat].played_by_ai
    }


def is_late(record: GameRecord, seat: int, now: int) -> bool:
    """Whether `seat`'s turn deadline had passed at `now` (a seat without a deadline never is)."""
    deadline = record.deadlines.get(seat)
    return deadline is not None and deadline <= now


def deadline_fields(deadlines: dict[int, int]) -> tuple[str, int | None]:
    """The game's `deadlines` hash field (and the event's), and its earliest deadline for the shard's set."""
    return json.dumps({str(k): v for k, v in sorted(deadlines.items())}), min(deadlines.values(), default=None)

def visible_score(game: Game, state: Any, viewer: int | None) -> Score:
    """The score as `viewer` may know it: exact once the game is over; while it runs, the score of a state
    sampled from the viewer's view (seeded by the view), so a live score that depends on hidden cards (a Naishi
    Hand's order) cannot leak them. Where the live score depends only on public facts, it is the exact one."""
    if game.live_score_public or game.is_over(state):
        return game.score(state)  # what a sample would give (tests/service/test_views.py checks it), without one
    view = game.view(state, viewer)
    rng = random.Random(hashlib.sha256(game.dump_view(view)).digest())
    return replace(game.score(game.sample(view, rng)), estimated=True)


ABANDONED = "abandoned: nothing changed in the game for too long; no result"


def abandoned_score(score: Score) -> Score:
    """An abandoned game's score: the standing when it stopped, claiming no result (not final, no ranking, no
    tie-breaks)."""
    return replace(score, ranking=(), final=False, tie_breaks=(), decided_by=ABANDONED)


def final_score(game: Game, state: Any, viewer: int | None, status: str, resigned: tuple[int, ...],
                seat_names: tuple[str, ...], outcome: str = "") -> Score:
    """The score as `viewer` may know it (see visible_score), exact once the game is finished (also when it ended
    by resignation before its rules ended it), with the seats that resigned last: the latest above the earliest.
    An abandoned game (`outcome`) did not reach its end: its standing as `viewer` may know it, and no result."""
    if outcome == "abandoned":
        return abandoned_score(visible_score(game, state, viewer))
    finished = status == "finished"
    score = game.score(state) if finished else visible_score(game, state, viewer)
    if not resigned:
        return score
    ranking = [tuple(s for s in group if s not in resigned) for group in score.ranking]
    ranking = [group for group in ranking if group] + [(s,) for s in reversed(resigned)]
    said = ", ".join(f"{seat_names[s]} resigned" for s in resigned)
    return replace(score, ranking=tuple(ranking), final=finished, decided_by=said)


class Replay:
    """Rebuild a game event by event from its stream: seats, status, deadlines and engine state after each."""

    def __init__(self, game: Game):
        self.game = game
        self.seats: tuple[SeatRecord, ...] = ()
        self.status = "waiting"
        self.state: Any = None
        self.deadlines: dict[int, int] = {}

    def step(self, event: Event) -> None:
        if event.get("seats"):
            self.seats = seats_from_json(event.get("seats"))
        if event.get("deadlines"):
            self.deadlines = {int(k): v for k, v in json.loads(event.get("deadlines")).items()}
        kind = event.get("kind")
        if kind == "started":
            self.state = self.game.load_state(event.get("state"))
        elif kind == "move":
            self.state = self.game.apply_id(self.state, int(event.get("seat")), event.get("move_id"))
        if self.state is not None:
            over = self.game.is_over(self.state) or event.get("over") == "1" or self.status == "finished"
            self.status = "finished" if over else "in_progress"

    def seen(self, record: GameRecord, viewer: int | None, version: int, events: list[Event] = ()) -> Seen:
        return Seen(record, self.game, self.state, viewer, list(events), version, self.status, self.seats,
                    self.deadlines)


class Tables:
    """Loads games from the store (keeping decoded engine states) and tells who the caller is."""

    def __init__(self, store: GameStore, ai_service_token: str):
        self.store = store
        self.ai_service_token = ai_service_token
        self._states: dict[tuple[str, int, int], Any] = {}
        # game id -> the latest Table this replica read or wrote, with its recent events (RECENT_EVENTS of them)
        self._tables: dict[str, Table] = {}

    async def load(self, game_id: str, recent_events: int = 0) -> Table:
        """The stored game, in one Redis round trip; when it has not changed since this replica last read or
        wrote it (same version and stamp), Redis says only that, and the decoded copy is used."""
        validation.check_game_id(game_id)
        bind(game_id=game_id)
        known = self._tables.get(game_id) if recent_events in (0, RECENT_EVENTS) else None
        loaded = await self.store.load(game_id, recent_events, known.record if known else None)
        if loaded is None:
            return replace(known, events=known.events[-recent_events:] if recent_events else [])
        record, events = loaded
        if record is None:
            self._tables.pop(game_id, None)
            raise errors.game_not_found(game_id)
        game = validation.engine(record.game_type)
        table = Table(record, game, self._decode(record, game), events)
        if recent_events == RECENT_EVENTS:
            self.keep(table)
        return table

    def cached(self, game_id: str) -> Table | None:
        """The latest copy of a game this replica knows, with RECENT_EVENTS events, read nothing: a change made
        from it must be a compare-and-set on its version and stamp."""
        return self._tables.get(game_id)

    def keep(self, table: Table) -> None:
        """Keep the game as stored now (its record at its version and stamp, with RECENT_EVENTS events)."""
        game_id = table.record.game_id
        self._tables.pop(game_id, None)
        self._tables[game_id] = table
        if len(self._tables) > TABLE_CACHE_SIZE:
            self._tables.pop(next(iter(self._tables)))

    def _decode(self, record: GameRecord, game: Game) -> Any:
        """The engine state of a record. Decoding is the costly part of a request, and states are immutable, so
        decoded ones are kept by (game id, version, hash of the bytes): the bytes are in the key because a Redis
        that lost its last writes may see a version committed twice with different states."""
        if not record.state:
            return None
        key = (record.game_id, record.version, hash(record.state))
        state = self._states.get(key)
        if state is None:
            state = game.load_state(record.state)
            self.remember(key, state)
        return state

    def remember(self, key: tuple[str, int, int], state: Any) -> None:
        self._states[key] = state
        if len(self._states) > STATE_CACHE_SIZE:
            self._states.pop(next(iter(self._states)))

    def identify(self, record: GameRecord, creds: Credentials) -> Caller:
        now = now_ms()
        caller = auth.identify(
            creds,
            [s.token_hash for s in record.seats],
            # The AI acts for AI seats, for human seats it plays (away, left, resigned), and for a late seat.
            [s.played_by_ai or is_late(record, i, now) for i, s in enumerate(record.seats)],
            record.creator_hash,
            self.ai_service_token,
            [s.player_id for s in record.seats],
            record.creator_player,
        )
        bind(seat=caller.seat, role=caller.role)
        return caller

    def actor(self, record: GameRecord, creds: Credentials) -> Caller:
        """Who acts, and for which seat; spectators, the creator token and a seat that left may not act."""
        if creds.anonymous:
            raise errors.unauthenticated("MISSING_TOKEN", "this call needs a seat token or a player identity "
                                                          "(authorization: Bearer ...)")
        caller = self.identify(record, creds)
        if caller.seat is None and caller.player_id:
            raise errors.denied("NOT_YOUR_SEAT", "the signed-in player holds no seat in this game")
        if caller.seat is None:
            raise errors.denied("NOT_A_SEAT", "the creator token acts for no seat; use a seat token")
        state = record.seats[caller.seat].state
        if caller.role == "seat" and state in ("left", "resigned"):
            raise errors.denied(f"SEAT_{state.upper()}", f"you have {state} this game; you may still watch it")
        return caller

    @staticmethod
    def jobs(record: GameRecord, game: Game, state: Any, version: int,
             seats: tuple[SeatRecord, ...]) -> list[dict[str, str]]:
        """AI jobs for the seats the AI plays that must decide at `version`; those of a game nobody but the AI
        plays go to the bulk queue, which the workers serve only when no person is waiting.

        A game dealt from the creator's seed (all AI) is reproducible: where several seats act at once, one job at
        a time, for a seat drawn from the seed and the version (an order no worker's speed can change, and no seat
        always first), and each job asks for a search by iterations alone (`reproducible`)."""
        queue = "human" if any(s.kind == "human" and s.state in ("", "away") for s in seats) else "bulk"
        acting = [seat for seat in sorted(game.to_act(state)) if seats[seat].played_by_ai]
        if record.seed is None:
            return [ai_job(record, version, seat, queue) for seat in acting]
        if not acting:
            return []
        draw = hashlib.sha256(f"{record.seed}:{version}".encode()).digest()
        seat = acting[int.from_bytes(draw[:8], "big") % len(acting)]
        return [{**ai_job(record, version, seat, queue), "reproducible": "1"}]


def ai_job(record: GameRecord, version: int, seat: int, queue: str, cause: str = "") -> dict[str, str]:
    """One AI job (docs/api.md, "AI jobs"): `seat`'s move at `version`, on the queue of games a person plays in
    ("human") or of games only the AI plays ("bulk"). Its id is the move's request id; `cause` prefixes it (a
    "timeout" job plays a late human seat)."""
    prefix = f"{cause}:" if cause else ""
    return {
        "game_id": record.game_id,
        "game_type": record.game_type,
        "seat": str(seat),
        "version": str(version),
        "job_id": f"{prefix}{record.game_id}:{version}:{seat}",
        "queue": queue,
    }

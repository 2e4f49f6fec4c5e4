"""Play: a caller's view of a game, making a move (compare-and-set, idempotent by request id), the score."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from games.base import Game, GameError, Move, Score, Words
from service import errors, metrics, validation
from service.auth import Caller, Credentials
from service.logs import bind
from service.seats import Seats
from service.store import Event, GameRecord, SeatRecord, now_ms, seats_json
from service.tables import (
    COMMIT_ATTEMPTS,
    RECENT_EVENTS,
    Replay,
    Seen,
    Table,
    Tables,
    deadline_fields,
    deadlines_after,
    final_score,
    is_active,
    names,
    to_act,
)

# A seat named in a move's sentence for others is stored as this placeholder, filled in for each reader.
SEAT_MARK = "\x00"


@dataclass(frozen=True)
class Moved:
    version: int
    seen: Seen  # as the mover sees the game right after the move


@dataclass(frozen=True)
class Scored:
    game: Game
    score: Score
    version: int


def told_template(move: Move, mover: int, seats: int) -> str:
    """The move's sentence for readers other than the mover, with every seat it names as a placeholder."""
    marks = tuple(f"{SEAT_MARK}{i}{SEAT_MARK}" for i in range(seats))
    return move.describe(Words(marks, mover, None))


def told(template: str, viewer: int | None, seat_names: tuple[str, ...]) -> str:
    """A stored move sentence (see told_template) as `viewer` reads it: seats by name, its own seat as "you"."""
    if SEAT_MARK not in template:
        return template
    parts = template.split(SEAT_MARK)
    for i in range(1, len(parts), 2):
        seat = int(parts[i])
        parts[i] = "you" if seat == viewer else seat_names[seat] if seat < len(seat_names) else f"seat {seat + 1}"
    return "".join(parts)


def seen_versions(record: GameRecord) -> tuple[int, ...]:
    """Per seat, the version of the last commit that the seat could see (docs/api.md, `expected_version`): the
    game's version for every seat, unless the game's last commit was one that some seat could not see."""
    at, _, versions = record.seen.partition(":")
    if versions and at == str(record.version):
        seen = tuple(int(v) for v in versions.split(","))
        if len(seen) == len(record.seats):
            return seen
    return (record.version,) * len(record.seats)


def seen_after(game: Game, before: Any, after: Any, mover: int, public: bool, seen: tuple[int, ...],
               version: int) -> tuple[int, ...]:
    """Each seat's seen version after `mover`'s move (`before` -> `after`) is committed as `version`. A seat
    cannot see the move, and keeps its seen version, when the move is secret (not `public`), the seat is not the
    mover, and the seat is to act both before and after the move with the same legal moves: in a simultaneous
    choice the others' moves stay hidden until all are in (games/base.py), so all such a move tells the seat is
    that its mover has decided, which changes none of the seat's choices. Every other change (the seat's own
    moves, public moves, a secret move that ends the simultaneous choice, joins, leaving, resigning) is seen by
    every seat. Only what the seat sees decides it (its own to_act and legal moves), so it leaks nothing."""
    if public:
        return (version,) * len(seen)
    acting_before, acting_after = game.to_act(before), game.to_act(after)
    return tuple(
        earlier if s != mover and s in acting_before and s in acting_after
        and list(game.legal_moves(before, s)) == list(game.legal_moves(after, s)) else version
        for s, earlier in enumerate(seen)
    )


class Play:
    def __init__(self, tables: Tables, seats: Seats):
        self.tables = tables
        self.store = tables.store
        self.seats = seats

    async def get_state(self, game_id: str, creds: Credentials) -> Seen:
        table = await self.tables.load(game_id, RECENT_EVENTS)
        caller = self.tables.identify(table.record, creds)
        table = await self.seats.returning(table, caller)
        return Seen.of(table, caller.seat)

    async def engine(self, game_id: str) -> Game:
        """The rules engine of a stored game, to read a typed move in its words: from this replica's copy, else
        loaded and kept, so that the move's own first attempt reads nothing more."""
        cached = self.tables.cached(game_id)
        return cached.game if cached else (await self.tables.load(game_id, RECENT_EVENTS)).game

    async def make_move(self, game_id: str, creds: Credentials, move: str | Move,
                        expected_version: int | None, request_id: str) -> Moved:
        """Apply the caller's move: a legal move's id, or a move of the game (a typed move, read at the edge)."""
        validation.check_request_id(request_id)
        bind(request_id=request_id or None)
        validation.check_game_id(game_id)
        bind(game_id=game_id)
        for attempt in range(COMMIT_ATTEMPTS):
            # First from the copy this replica holds, if any, reading nothing: the commit compares version and
            # stamp, so a stale copy only costs a CONFLICT. Whatever a copy says against the move (not your turn,
            # stale version, illegal) is checked again on the stored game before it is answered.
            cached = self.tables.cached(game_id) if attempt == 0 else None
            table = cached or await self.tables.load(game_id, RECENT_EVENTS)
            try:
                caller = self.tables.actor(table.record, creds)
            except errors.ServiceError:
                if cached is not None:
                    continue
                raise
            seat = caller.seat
            try:
                new_state, event = self._plan_move(table, seat, move, expected_version)
            except errors.ServiceError as exc:
                if cached is not None:
                    continue
                # A retry of a move that went through finds the game moved on: it gets the first answer.
                if request_id:
                    first = await self.store.request_answer(game_id, seat, request_id)
                    if first:
                        return await self._first_answer(game_id, seat, int(first))
                if exc.reason == "VERSION_MISMATCH":
                    metrics.VERSION_CONFLICTS.inc()
                raise
            record, game = table.record, table.game
            version = record.version + 1
            finished = event["over"] == "1"
            status = "finished" if finished else "in_progress"
            raw = game.dump_state(new_state)
            by, seats = self._who_moved(record, caller)
            event["by"] = by
            fields = {"status": status, "state": raw.decode()}
            if seats != record.seats:
                fields["seats"] = event["seats"] = seats_json(seats)
            now = now_ms()
            before = {s: d for s, d in record.deadlines.items() if s != seat}  # the mover's next decision: afresh
            deadlines = deadlines_after(record.timer, before, to_act(game, new_state, status), seats, now)
            deadline = ""
            if record.timer is not None:
                text, deadline = deadline_fields(deadlines)
                fields["deadlines"] = event["deadlines"] = text
            seen = seen_after(game, table.state, new_state, seat, event["pub"] == "1", seen_versions(record), version)
            if any(v != version for v in seen):  # else the field is left as it was: every seat saw this commit
                fields["seen"] = f"{version}:{','.join(map(str, seen))}"
            result = await self.store.commit(
                game_id, record.game_type, record.version, fields, event,
                finished=finished, playing=is_active(seats, status),
                request=(seat, request_id, str(version).encode()) if request_id else None,
                jobs=self.tables.jobs(record, game, new_state, version, seats), shard=record.shard,
                deadline=deadline, stamp=record.stamp,
            )
            if result.outcome == "OK":
                self.tables.remember((game_id, result.version, hash(raw)), new_state)
                metrics.child(metrics.MOVES, record.game_type).inc()
                if finished:
                    metrics.GAMES_FINISHED.labels(record.game_type).inc()
                events = [*table.events[-(RECENT_EVENTS - 1):], Event(version, event)]
                stored = replace(record, status=status, version=version, seats=seats, state=raw, stamp=result.stamp,
                                 deadlines=deadlines if record.timer is not None else record.deadlines,
                                 seen=fields.get("seen", record.seen))
                self.tables.keep(Table(stored, game, new_state, events))
                moved = Moved(version, Seen.of(Table(stored, game, new_state, events), seat))
                timer = record.timer
                if by == "timeout" and timer is not None and seats[seat].misses >= timer.away_after and not finished:
                    await self.seats.mark_away(game_id, seat)
                return moved
            if result.outcome == "DUPLICATE":
                return await self._first_answer(game_id, seat, int(result.answer))
            if cached is not None:
                continue
            # Another change won the compare-and-set: read the game again and check the move on it; with
            # `expected_version`, that change may be one this seat cannot see (then the move still goes through).
            metrics.VERSION_CONFLICTS.inc()
        raise errors.contended()

    async def _first_answer(self, game_id: str, seat: int, version: int) -> Moved:
        """The first answer to a request id, rebuilt from the events up to the version its move made: only that
        version is stored, since a whole answer per move would be most of a game's memory in Redis."""
        table = await self.tables.load(game_id)
        events = [e for e in await self.store.events(game_id) if e.version <= version]
        rebuilt = Replay(table.game)
        for event in events:
            rebuilt.step(event)
        return Moved(version, rebuilt.seen(table.record, seat, version, events[-RECENT_EVENTS:]))

    @staticmethod
    def _who_moved(record: GameRecord, caller: Caller) -> tuple[str, tuple[SeatRecord, ...]]:
        """Who made the move ("holder", "timeout" or "takeover"), and the seats after it: a player's own move
        brings an away seat back and clears its missed turns; a move made on a timeout counts one more."""
        seat = record.seats[caller.seat]
        if caller.role == "seat":
            by, after = "holder", replace(seat, state="" if seat.state == "away" else seat.state, misses=0)
        elif seat.kind == "ai":
            by, after = "holder", seat
        elif seat.played_by_ai:
            by, after = "takeover", seat
        else:
            by, after = "timeout", replace(seat, misses=seat.misses + 1)
        seats = list(record.seats)
        seats[caller.seat] = after
        return by, tuple(seats)

    def _plan_move(self, table: Table, seat: int, move: str | Move, expected_version: int | None
                   ) -> tuple[Any, dict[str, str]]:
        """Check and apply the move to the loaded game: the new state and the event to commit, or raise the
        ServiceError that says why not (the engine's own reason for a move it refuses)."""
        record, game, state = table.record, table.game, table.state
        if record.status == "waiting" or state is None:
            raise errors.precondition("GAME_NOT_STARTED", "the game has not started yet")
        # Stale: the game changed in a way this seat can see since the version it decided on (seen_after), or
        # that version is ahead of the game's.
        if expected_version is not None and not seen_versions(record)[seat] <= expected_version <= record.version:
            raise errors.version_mismatch(expected_version, record.version)
        if record.status == "finished":  # ended by resignation before its rules ended it
            raise errors.precondition("GAME_OVER", "the game is over")
        if isinstance(move, str) and (not move or len(move) > 256):
            raise errors.invalid("INVALID_MOVE", "give a move_id (at most 256 characters) or a typed_move")
        try:
            if isinstance(move, str):
                move, new_state = game.play_id(state, seat, move)
            else:
                new_state = game.apply(state, seat, move)
        except GameError as exc:
            raise validation.engine_error(exc) from None
        # The move is stored by its id (ids of legal moves are stable: replay finds it with move_by_id), with its
        # sentence for the mover and for the others, so recent events are told without replaying the game. `pub`
        # (the engine's move_is_public) says whether seats other than the mover may see them; every move event
        # has the same fields, in one order.
        return new_state, {
            "kind": "move", "seat": str(seat), "move_id": move.id,
            "move_label": move.describe(Words(names(record.seats), seat, seat)),
            "move_told": told_template(move, seat, len(record.seats)),
            "pub": "1" if game.move_is_public(state, seat, move) else "0",
            "at": str(now_ms()), "over": "1" if game.is_over(new_state) else "0",
        }

    async def score(self, game_id: str, creds: Credentials) -> Scored:
        table = await self.tables.load(game_id)
        caller = self.tables.identify(table.record, creds)
        table = await self.seats.returning(table, caller)
        record = table.record
        if table.state is None:
            raise errors.precondition("GAME_NOT_STARTED", "the game has not started yet: there is no score")
        score = final_score(table.game, table.state, caller.seat, record.status, record.resigned, names(record.seats),
                            record.outcome)
        return Scored(table.game, score, record.version)

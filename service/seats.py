"""Who plays a seat: a player leaving or resigning, a late seat forfeiting, an away seat (missed turns) and its
player coming back.

Each is one compare-and-set commit with an event of its own (left, resigned, away, returned), which also moves the
turn deadlines and enqueues an AI job when the AI now has to act for the seat.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import replace

from service import errors, metrics
from service.auth import Caller, Credentials
from service.lobby import public_seats
from service.store import GameRecord, now_ms, seats_json
from service.tables import (
    COMMIT_ATTEMPTS,
    RECENT_EVENTS,
    Seen,
    Table,
    Tables,
    deadline_fields,
    deadlines_after,
    is_active,
    is_late,
    to_act,
)


class Seats:
    def __init__(self, tables: Tables):
        self.tables = tables
        self.store = tables.store

    async def leave(self, game_id: str, creds: Credentials) -> Seen:
        """The caller's seat is handed to the AI for the rest of the game."""
        return await self._change(game_id, creds, "left", self._check_leave)

    async def resign(self, game_id: str, creds: Credentials) -> Seen:
        """The caller's seat takes the last place; the game ends when one seat (or none) is left in it."""
        return await self._change(game_id, creds, "resigned", self._check_resign)

    async def forfeit(self, game_id: str, seat: int, now: int) -> bool:
        """A seat whose turn deadline had passed at `now` resigns, when its game's timer forfeits (the timekeeper's
        call); False if there is nothing to forfeit any more (the player moved in time, or the game ended)."""

        def check(record: GameRecord, _: Caller) -> None:
            timer, held = record.timer, record.seats[seat]
            if record.status != "in_progress" or timer is None or timer.on_timeout != "forfeit" \
                    or held.played_by_ai or not is_late(record, seat, now):
                raise _Unchanged

        try:
            await self._change(game_id, None, "resigned", check, seat=seat)
        except _Unchanged:
            return False
        return True

    async def mark_away(self, game_id: str, seat: int) -> None:
        """After its timeouts in a row, a seat is away: the AI plays it until its player makes a call."""

        def check(record: GameRecord, _: Caller) -> None:
            timer, held = record.timer, record.seats[seat]
            if timer is None or held.state or held.misses < timer.away_after:
                raise _Unchanged

        try:
            await self._change(game_id, None, "away", check, seat=seat)
        except _Unchanged:
            pass

    async def returning(self, table: Table, caller: Caller) -> Table:
        """An away seat's player made a call with its token: the seat is the player's again."""
        if caller.role != "seat" or table.record.seats[caller.seat].state != "away":
            return table

        def check(record: GameRecord, _: Caller) -> None:
            if record.seats[caller.seat].state != "away":
                raise _Unchanged

        try:
            await self._change(table.record.game_id, None, "returned", check, seat=caller.seat)
        except _Unchanged:
            pass
        return await self.tables.load(table.record.game_id, RECENT_EVENTS)

    # --- the one commit all of them make ---

    @staticmethod
    def _check_leave(record: GameRecord, caller: Caller) -> None:
        if caller.role != "seat":
            raise errors.denied("NOT_A_SEAT", "only a seat's own player may leave it")
        _check_playing(record)

    @staticmethod
    def _check_resign(record: GameRecord, caller: Caller) -> None:
        _check_playing(record)
        if caller.role != "seat":  # a late seat's forfeit is the timekeeper's (forfeit), never a caller's
            raise errors.denied("NOT_A_SEAT", "only a seat's own player may resign it")

    async def _change(self, game_id: str, creds: Credentials | None, kind: str,
                      check: Callable[[GameRecord, Caller], None], seat: int | None = None) -> Seen:
        for _ in range(COMMIT_ATTEMPTS):
            table = await self.tables.load(game_id, RECENT_EVENTS)
            record, game = table.record, table.game
            caller = Caller("service", seat) if creds is None else self.tables.actor(record, creds)
            check(record, caller)
            who = caller.seat
            seats = list(record.seats)
            held = seats[who]
            seats[who] = replace(held, state={"returned": ""}.get(kind, kind), misses=0 if kind == "returned"
                                 else held.misses)
            seats = tuple(seats)
            fields: dict[str, str] = {"seats": seats_json(seats)}
            resigned = record.resigned
            over = False
            if kind == "resigned":
                resigned = (*resigned, who)
                fields["resigned"] = json.dumps(resigned)
                over = len(seats) - len(resigned) <= 1
            status = "finished" if over else record.status
            acting = to_act(game, table.state, status)
            deadline: int | None | str = ""
            event = {"kind": kind, "seat": str(who), "seats": public_seats(seats), "at": str(now_ms()),
                     "over": "1" if over else "0"}
            if record.timer is not None:
                before = {s: d for s, d in record.deadlines.items() if s != who}
                deadlines = deadlines_after(record.timer, before, acting, seats, now_ms())
                text, deadline = deadline_fields(deadlines)
                fields["deadlines"] = event["deadlines"] = text
            if over:
                fields["status"] = "finished"
            result = await self.store.commit(
                game_id, record.game_type, record.version, fields, event,
                finished=over, playing=is_active(seats, status),
                jobs=[] if over else self.tables.jobs(record, game, table.state, record.version + 1, seats),
                shard=record.shard, deadline=deadline,
            )
            if result.outcome == "OK":
                if over:
                    metrics.GAMES_FINISHED.labels(record.game_type).inc()
                return Seen.of(await self.tables.load(game_id, RECENT_EVENTS), caller.seat)
            metrics.VERSION_CONFLICTS.inc()
        raise errors.contended()


class _Unchanged(Exception):
    """Nothing to change any more (another replica did it meanwhile)."""


def _check_playing(record: GameRecord) -> None:
    if record.status == "waiting":
        raise errors.precondition("GAME_NOT_STARTED", "the game has not started yet")
    if record.status == "finished":
        raise errors.precondition("GAME_OVER", "the game is over")


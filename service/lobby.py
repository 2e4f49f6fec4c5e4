"""The lobby: create a game, join an open seat, start a game."""

from __future__ import annotations

import json
import secrets
from dataclasses import dataclass
from typing import Any

import grpc

from games.base import GameError
from service import auth, errors, metrics, validation
from service.auth import Credentials
from service.config import Config
from service.identity import Player
from service.logs import bind, log
from service.mine import PlayerGames
from service.store import SeatRecord, Timer, lobby_member, now_ms, seats_json
from service.tables import (
    COMMIT_ATTEMPTS,
    RECENT_EVENTS,
    Seen,
    Tables,
    deadline_fields,
    deadlines_after,
    is_active,
    to_act,
)


@dataclass(frozen=True)
class SeatRequest:
    """One seat of a CreateGame request."""

    kind: str  # "human", "ai" or "open"
    name: str = ""
    strength: str = ""


@dataclass(frozen=True)
class Created:
    game_id: str
    seat_tokens: list[tuple[int, str]]  # (seat, token) of each human seat
    creator_token: str
    join_code: str
    seen: Seen  # as a spectator sees it


@dataclass(frozen=True)
class Joined:
    game_id: str
    seat: int
    token: str
    seen: Seen  # as the new seat sees it


def public_seats(seats: tuple[SeatRecord, ...] | list[SeatRecord]) -> str:
    """Seats as events carry them: no token hashes."""
    return seats_json([SeatRecord(s.kind, s.name, s.strength) for s in seats])


class Lobby:
    def __init__(self, tables: Tables, config: Config):
        self.tables = tables
        self.store = tables.store
        self.config = config
        self.player_games = PlayerGames(tables.store)

    async def create(self, game_type: str, options: str | dict[str, Any] | None, seats: list[SeatRequest],
                     start: bool, seed: int | None = None, visibility: str = "private",
                     timer: Timer | None = None, player: Player | None = None, rated: bool = False) -> Created:
        """`player`: the creator's verified identity, if it sent one: the first HUMAN seat is then bound to it.
        `rated`: every human seat must be bound to a player (docs/ratings.md)."""
        game = validation.engine(game_type)
        validation.check_timer(timer)
        resolved = validation.resolve_options(game, validation.parse_options(options))
        info = game.info
        if not info.min_seats <= len(seats) <= info.max_seats:
            raise errors.invalid(
                "INVALID_SEAT_COUNT", f"{info.title} takes {info.min_seats} to {info.max_seats} seats, not {len(seats)}"
            )
        try:  # options that only the setup can judge (e.g. a start seat beyond the seat count)
            game.new_game(len(seats), resolved, 0)
        except GameError as exc:
            raise validation.engine_error(exc) from None
        except Exception as exc:  # noqa: BLE001 - a setup that trips over the caller's options: bad input
            log.warning("engine setup failed on options", game_type=game_type, error=repr(exc)[:200])
            raise errors.invalid("INVALID_OPTIONS", f"the {game_type} setup refused the options: {exc}"[:500]) from None
        tokens: list[tuple[int, str]] = []
        records: list[SeatRecord] = []
        for i, spec in enumerate(seats):
            name = validation.check_name(spec.name)
            if spec.kind == "human":
                token = auth.new_token()
                tokens.append((i, token))
                bound = player.player_id if player is not None and len(tokens) == 1 else ""
                default = (player.name if bound else "") or f"Player {i + 1}"
                records.append(SeatRecord("human", name or default, "", auth.token_hash(token), player_id=bound))
            elif spec.kind == "ai":
                records.append(SeatRecord("ai", name or f"AI {i + 1}", validation.strength(spec.strength)))
            elif spec.kind == "open":
                records.append(SeatRecord("open", name or f"Seat {i + 1}"))
            else:
                raise errors.invalid("INVALID_SEAT", f"seat {i} needs a kind: HUMAN, AI or OPEN")
        if rated:
            if player is None:
                raise errors.invalid("RATED_NEEDS_IDENTITY", "a rated game needs the creator's identity (a bearer "
                                     "token): every human seat of a rated game is bound to a signed-in player")
            if len(tokens) > 1:
                raise errors.invalid("RATED_NEEDS_IDENTITY", "a rated game takes one HUMAN seat at most (the "
                                     "creator's); the other players join OPEN seats with their own identity")
            if seed is not None:
                raise errors.invalid("SEED_NOT_ALLOWED", "a rated game cannot have a fixed seed")
        if seed is not None and any(r.kind != "ai" for r in records):
            raise errors.invalid(
                "SEED_NOT_ALLOWED", "a fixed seed is accepted only when every seat is AI (it would reveal hidden cards)"
            )
        creator_token = auth.new_token()
        join_secret = secrets.token_urlsafe(12)
        options_json = json.dumps(resolved, sort_keys=True, separators=(",", ":"))
        for attempt in range(COMMIT_ATTEMPTS):
            game_id, shard = self.store.new_game_id()
            created_ms = now_ms()
            listed = visibility == "public" and not start
            bound = [r.player_id for r in records if r.player_id]
            for player_id in bound:  # before the commit: an entry without its game is dropped when listed
                await self.player_games.add(player_id, game_id, created_ms)
            try:
                result = await self.store.commit(
                    game_id, game_type, 0,
                    {
                        "type": game_type, "status": "waiting", "options": options_json, "seats": seats_json(records),
                        "creator_hash": auth.token_hash(creator_token), "join_hash": auth.token_hash(join_secret),
                        "created_ms": str(created_ms), "shard": str(shard), "visibility": visibility,
                        **({"creator_player": player.player_id} if player is not None else {}),
                        **({"rated": "1"} if rated else {}),
                        **({"seed": str(seed)} if seed is not None else {}),
                        **({"timer": timer.to_json()} if timer is not None else {}),
                    },
                    {"kind": "created", "seats": public_seats(records), "at": str(created_ms)},
                    shard=shard,
                    lobby="+" + lobby_member(game_type, created_ms, game_id) if listed else "",
                )
            except errors.ServiceError as exc:
                # On Cluster one master may be down (until its failover): a new game can go to another shard.
                if exc.reason != "REDIS_UNAVAILABLE" or not self.config.redis_cluster or attempt == COMMIT_ATTEMPTS - 1:
                    raise
                continue
            if result.outcome == "OK":
                break
        else:  # pragma: no cover - 72 random bits colliding eight times
            raise errors.ServiceError(grpc.StatusCode.INTERNAL, "GAME_ID_COLLISION", "could not allocate a game id")
        bind(game_id=game_id)
        metrics.GAMES_CREATED.labels(game_type).inc()
        if start:
            await self._start(game_id)
        table = await self.tables.load(game_id, RECENT_EVENTS)
        return Created(game_id, tokens, creator_token, f"{game_id}.{join_secret}", Seen.of(table, None))

    async def join(self, join_code: str, name: str, seat: int | None, game_id: str = "",
                   player: Player | None = None) -> Joined:
        """Take an open seat of the game named by `join_code`, or by `game_id` when the game is public; with a
        verified identity (`player`) the seat is bound to its player, who may hold one seat of a game."""
        if bool(join_code) == bool(game_id):
            raise errors.invalid("JOIN_CODE_OR_GAME_ID",
                                 "give either a join code or the id of a public game (game_id), not both")
        secret = ""
        if join_code:
            game_id, _, secret = join_code.partition(".")
            if not secret or not validation.GAME_ID.match(game_id) or len(secret) > 64:
                raise errors.invalid("MALFORMED_JOIN_CODE", "a join code looks like <game id>.<secret>")
        else:
            validation.check_game_id(game_id)
        name = validation.check_name(name)
        for _ in range(COMMIT_ATTEMPTS):
            table = await self.tables.load(game_id)
            record = table.record
            if secret:
                if not auth.constant_time_equal(auth.token_hash(secret), record.join_hash):
                    raise errors.denied("INVALID_JOIN_CODE", "the join code is not valid for this game")
            elif record.visibility != "public":
                raise errors.denied("NOT_PUBLIC", "the game is not public: join it with its join code")
            if record.status != "waiting":
                raise errors.precondition("GAME_ALREADY_STARTED", "the game has started: no seat can be joined")
            if record.rated and player is None:
                raise errors.invalid("RATED_NEEDS_IDENTITY", "the game is rated: its seats are joined only with "
                                     "an identity (a bearer token)")
            if player is not None and any(s.player_id == player.player_id for s in record.seats):
                raise errors.precondition("ALREADY_SEATED", "the signed-in player already holds a seat of this game")
            open_seats = [i for i, s in enumerate(record.seats) if s.kind == "open"]
            if seat is None:
                if not open_seats:
                    raise errors.precondition("NO_OPEN_SEAT", "every seat of the game is taken")
                chosen = open_seats[0]
            elif not 0 <= seat < len(record.seats):
                raise errors.invalid("INVALID_SEAT", f"the game has no seat {seat}")
            elif seat not in open_seats:
                raise errors.precondition("SEAT_TAKEN", f"seat {seat} is not open")
            else:
                chosen = seat
            token = auth.new_token()
            seats = list(record.seats)
            default = seats[chosen].name  # an open seat's own name, else "Player N" for its service-given "Seat N"
            default = f"Player {chosen + 1}" if default == f"Seat {chosen + 1}" else default
            if player is not None:
                default = player.name or default
                await self.player_games.add(player.player_id, game_id, now_ms())  # before the commit (see create)
            seats[chosen] = SeatRecord("human", name or default, "", auth.token_hash(token),
                                       player_id=player.player_id if player is not None else "")
            result = await self.store.commit(
                game_id, record.game_type, record.version,
                {"seats": seats_json(seats)},
                {"kind": "joined", "seat": str(chosen), "seats": public_seats(seats), "at": str(now_ms())},
                shard=record.shard,
            )
            if result.outcome == "OK":
                bind(seat=chosen)
                table = await self.tables.load(game_id, RECENT_EVENTS)
                return Joined(game_id, chosen, token, Seen.of(table, chosen))
            metrics.VERSION_CONFLICTS.inc()
        raise errors.contended()

    async def start(self, game_id: str, creds: Credentials) -> Seen:
        table = await self.tables.load(game_id)
        if creds.anonymous:
            raise errors.unauthenticated("MISSING_TOKEN",
                                         "StartGame needs the creator token (or the creator's identity)")
        caller = self.tables.identify(table.record, creds)
        if caller.role != "creator" and not (caller.player_id and caller.player_id == table.record.creator_player):
            raise errors.denied("NOT_GAME_CREATOR", "only the creator token (or the creator's identity) can start "
                                                    "the game")
        await self._start(game_id)
        return Seen.of(await self.tables.load(game_id, RECENT_EVENTS), None)

    async def _start(self, game_id: str) -> None:
        for _ in range(COMMIT_ATTEMPTS):
            table = await self.tables.load(game_id)
            record, game = table.record, table.game
            if record.status != "waiting":
                raise errors.precondition("GAME_ALREADY_STARTED", "the game has already started")
            seats = tuple(
                SeatRecord("ai", f"AI {i + 1}" if s.name == f"Seat {i + 1}" else s.name, "normal")
                if s.kind == "open" else s
                for i, s in enumerate(record.seats)
            )
            # The seed stays server-side: it lives only inside the engine state, which no client ever sees.
            seed = record.seed if record.seed is not None else secrets.randbits(63)
            state = game.new_game(len(seats), json.loads(record.options), seed)
            raw = game.dump_state(state).decode()
            finished = game.is_over(state)
            status = "finished" if finished else "in_progress"
            fields = {"status": status, "seats": seats_json(seats), "state": raw}
            event = {"kind": "started", "state": raw, "seats": public_seats(seats), "at": str(now_ms()),
                     "over": "1" if finished else "0"}
            deadline: int | None | str = ""
            if record.timer is not None:  # the first turn deadlines
                deadlines = deadlines_after(record.timer, {}, to_act(game, state, status), seats, now_ms())
                text, deadline = deadline_fields(deadlines)
                fields["deadlines"] = event["deadlines"] = text
            result = await self.store.commit(
                game_id, record.game_type, record.version, fields, event,
                finished=finished, playing=is_active(seats, status), deadline=deadline,
                jobs=self.tables.jobs(record, game, state, record.version + 1, seats), shard=record.shard,
                # A started game leaves the lobby (removing a member that is not there is harmless).
                lobby="-" + lobby_member(record.game_type, record.created_ms, game_id)
                if record.visibility == "public" else "",
            )
            if result.outcome == "OK":
                return
            metrics.VERSION_CONFLICTS.inc()
        raise errors.contended()

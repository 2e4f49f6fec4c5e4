"""The edge: the service's plain results as tabletop.v1 messages (GameState, GameEvent, responses), and a typed
move read from its message into the engine's move."""

from __future__ import annotations

from functools import lru_cache

from google.protobuf import any_pb2

from games import wire
from games.base import Game, Move, Words
from service import errors
from service.history import FinishedGame, FinishedPage, GameReplay
from service.listing import Listed
from service.lobby import Created, Joined
from service.mine import MyGames
from service.play import Moved, Scored, told
from service.ratings import Rating
from service.store import Event, SeatRecord, Timer, event_key
from service.suggest import Suggestion
from service.tables import Seen
from tabletop.v1 import game_service_pb2 as pb
from tabletop.wire import WireError, field_bytes, varint_bytes

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
    "left": pb.GameEvent.KIND_LEFT,
    "resigned": pb.GameEvent.KIND_RESIGNED,
    "away": pb.GameEvent.KIND_AWAY,
    "returned": pb.GameEvent.KIND_RETURNED,
    "abandoned": pb.GameEvent.KIND_ABANDONED,
}
MOVED_BY = {
    "holder": pb.GameEvent.MOVED_BY_HOLDER,
    "timeout": pb.GameEvent.MOVED_BY_AI_ON_TIMEOUT,
    "takeover": pb.GameEvent.MOVED_BY_AI_TAKEOVER,
}
SEAT_STATES = {"": pb.SEAT_STATE_PRESENT, "away": pb.SEAT_STATE_AWAY, "left": pb.SEAT_STATE_LEFT,
               "resigned": pb.SEAT_STATE_RESIGNED}
TIMEOUT_POLICIES = {"ai": pb.TIMEOUT_POLICY_AI_MOVES, "forfeit": pb.TIMEOUT_POLICY_FORFEIT}
VISIBILITY = {"public": pb.VISIBILITY_PUBLIC, "private": pb.VISIBILITY_PRIVATE}
OUTCOMES = {"finished": pb.GAME_OUTCOME_FINISHED, "abandoned": pb.GAME_OUTCOME_ABANDONED}


def typed_move(game: Game, packed: any_pb2.Any) -> Move:
    """A MakeMove's typed move (a move message of the game's, packed in an Any) as the engine's move; whether it
    may be made now is the rules' to say."""
    try:
        return wire.move_from_any(game, packed)
    except WireError as exc:
        raise errors.invalid("INVALID_MOVE", str(exc)) from None


def timer_to_proto(timer: Timer | None) -> pb.TurnTimer | None:
    if timer is None:
        return None
    return pb.TurnTimer(turn_seconds=timer.turn_seconds, on_timeout=TIMEOUT_POLICIES[timer.on_timeout],
                        strength=timer.strength, away_after=timer.away_after)


def seat_info(seat: int, record: SeatRecord, deadline: int | None = None, player_id: bool = False) -> pb.SeatInfo:
    """A seat as every reader sees it; with `player_id` (the lobby's public games only) the player it is bound to."""
    return pb.SeatInfo(seat=seat, kind=SEAT_KINDS[record.kind], name=record.name, strength=record.strength,
                       state=SEAT_STATES[record.state], deadline_unix_ms=deadline,
                       player_id=record.player_id if player_id else "")


def event_to_proto(event: Event, viewer: int | None, names: tuple[str, ...]) -> pb.GameEvent:
    """The event as `viewer` may see it: a move's id and sentence go to the mover ("You ..."), and to everyone
    else ("Ann ...") when the engine called the move public (`pub`)."""
    seat = int(event.get("seat")) if event.get("seat") else None
    is_move = event.get("kind") == "move" and seat is not None
    mine = is_move and seat == viewer
    shown = is_move and (mine or event.get("pub") == "1")
    return pb.GameEvent(
        version=event.version,
        kind=EVENT_KINDS.get(event.get("kind"), pb.GameEvent.KIND_UNSPECIFIED),
        seat=seat,
        move_id=event.get("move_id") if shown else "",
        move_label=(event.get("move_label") if mine else told(event.get("move_told"), viewer, names)) if shown else "",
        time_unix_ms=int(event.get("at") or 0),
        game_over=event.get("over") == "1",
        moved_by=MOVED_BY.get(event.get("by") or "holder") if is_move else None,
    )


CACHE_SIZE = 4096  # entries of each cache below (a few KB each at most)
_state_bytes: dict[tuple, bytes] = {}  # Seen.cache_key -> the whole GameState
_shared_bytes: dict[tuple, bytes] = {}  # (game id, version, stamp) -> the fields every viewer sees alike
_event_bytes: dict[tuple, bytes] = {}  # (event_key, viewer) -> a GameEvent as that viewer sees it
_watch_bytes: dict[tuple, bytes] = {}  # (event_key, viewer) -> a WatchGameResponse, one for all such watchers


def _kept(cache: dict[tuple, bytes], key: tuple, value: bytes) -> bytes:
    cache[key] = value
    if len(cache) > CACHE_SIZE:
        cache.pop(next(iter(cache)))
    return value


_field, _varint = field_bytes, varint_bytes


def _event_field(game_id: str, event: Event, viewer: int | None, names: tuple[str, ...]) -> bytes:
    """A recent event as `viewer` sees it, as a serialised GameState.recent_events field. An event never changes
    (its time tells a version committed again by a Redis that lost writes), so each is built once per viewer."""
    key = (*event_key(game_id, event), viewer)
    found = _event_bytes.get(key)
    if found is None:
        found = _kept(_event_bytes, key,
                      _field(RECENT_EVENTS, event_to_proto(event, viewer, names).SerializeToString()))
    return found


def _shared_fields(seen: Seen) -> bytes:
    """The GameState fields that do not depend on the viewer, serialised (each seat's part once per seat, name,
    state and deadline: seats rarely change)."""
    record, deadlines = seen.record, seen.deadlines
    return pb.GameState(
        game_id=record.game_id,
        game_type=record.game_type,
        status=STATUS[seen.status],
        version=seen.version,
        to_act=seen.to_act(),
        options_json=record.options,
        timer=timer_to_proto(record.timer),
        visibility=VISIBILITY.get(record.visibility, pb.VISIBILITY_PRIVATE),
        rated=record.rated,
    ).SerializeToString() + b"".join([_seat_field(i, s, deadlines.get(i)) for i, s in enumerate(seen.seats)])


@lru_cache(maxsize=CACHE_SIZE)
def _seat_field(seat: int, record: SeatRecord, deadline: int | None) -> bytes:
    return _field(SEATS, seat_info(seat, record, deadline).SerializeToString())


@lru_cache(maxsize=CACHE_SIZE)
def _legal_move_field(game: Game, move: Move, words: Words) -> bytes:
    return _field(LEGAL_MOVES, wire.legal_move_bytes(game, move, words))


def game_state_bytes(seen: Seen) -> bytes:
    """The serialised GameState `seen.viewer` (a seat, or None for a spectator) may see. Kept per stored version
    and viewer (Seen.cache_key), its parts per version and per event: the view, the legal moves and the events are
    each built once, however often they are asked for. The parts go one after the other: a parser takes a
    message's fields in any order."""
    key = seen.cache_key
    if key is not None:
        found = _state_bytes.get(key)
        if found is not None:
            return found
        shared_key = key[:3]
        shared = _shared_bytes.get(shared_key) or _kept(_shared_bytes, shared_key, _shared_fields(seen))
    else:
        shared = _shared_fields(seen)
    game, state, viewer = seen.game, seen.state, seen.viewer
    game_id, names = seen.record.game_id, seen.names
    parts = [shared]
    if viewer is not None:
        parts.append(YOUR_SEAT_TAG + _varint(viewer))
    parts += [_event_field(game_id, e, viewer, names) for e in seen.events]
    words = seen.words()
    parts += [_legal_move_field(game, m, words) for m in seen.legal_moves()]
    if state is not None:
        parts.append(_field(VIEW, wire.view_to_any_bytes(game, game.view(state, viewer))))
    data = b"".join(parts)
    return _kept(_state_bytes, key, data) if key is not None else data


_FIELDS = pb.GameState.DESCRIPTOR.fields_by_name
LEGAL_MOVES, VIEW, RECENT_EVENTS, SEATS = (_FIELDS[n].number for n in ("legal_moves", "view", "recent_events", "seats"))
YOUR_SEAT_TAG = _varint(_FIELDS["your_seat"].number << 3)  # a varint field


def game_state(seen: Seen) -> pb.GameState:
    """The game as `seen.viewer` may see it, as a message (see game_state_bytes)."""
    return pb.GameState.FromString(game_state_bytes(seen))


def state_response(seen: Seen) -> bytes:
    """A serialised GetStateResponse (and any response whose field 1 is the GameState)."""
    return _field(1, game_state_bytes(seen))


def created(result: Created) -> pb.CreateGameResponse:
    return pb.CreateGameResponse(
        game_id=result.game_id,
        seat_tokens=[pb.SeatToken(seat=seat, token=token) for seat, token in result.seat_tokens],
        creator_token=result.creator_token,
        join_code=result.join_code,
        state=game_state(result.seen),
    )


def joined(result: Joined) -> pb.JoinGameResponse:
    return pb.JoinGameResponse(game_id=result.game_id, seat=result.seat, token=result.token,
                               state=game_state(result.seen))


def moved(result: Moved) -> bytes:
    """A serialised MakeMoveResponse."""
    return pb.MakeMoveResponse(version=result.version).SerializeToString() + _field(2, game_state_bytes(result.seen))


def scored(result: Scored) -> pb.GetScoreResponse:
    return wire.score_to_proto(result.game, result.score, result.version)


def watched(event: Event, seen: Seen) -> bytes:
    """A serialised WatchGameResponse: the event and the game right after it, as `seen.viewer` sees them. Built
    once per (event, viewer) and written as the same bytes to every watcher of the replica with that view."""
    key = (*event_key(seen.record.game_id, event), seen.viewer)
    found = _watch_bytes.get(key)
    if found is None:
        found = _kept(_watch_bytes, key, _field(1, event_to_proto(event, seen.viewer, seen.names).SerializeToString())
                      + _field(2, game_state_bytes(seen)))
    return found


def suggestion(result: Suggestion) -> pb.SuggestMoveResponse:
    return pb.SuggestMoveResponse(
        version=result.version, best_move_id=result.best_move_id, best_move_label=result.best_move_label,
        candidates=[pb.CandidateMove(move_id=c.move_id, label=c.label, visits=c.visits, mean_reward=c.mean_reward,
                                    win_rate=c.win_rate)
                    for c in result.candidates],
    )


def listed(result: Listed) -> pb.ListGamesResponse:
    """A lobby page: each game's seats without tokens (a game waiting for players has no deadlines), with the
    players they are bound to (public games: a frontend shows their ratings)."""
    return pb.ListGamesResponse(
        games=[
            pb.GameSummary(game_id=g.game_id, game_type=g.game_type,
                           seats=[seat_info(i, s, player_id=True) for i, s in enumerate(g.seats)],
                           open_seats=g.open_seats, created_unix_ms=g.created_ms, options_json=g.options,
                           timer=timer_to_proto(g.timer), rated=g.rated)
            for g in result.games
        ],
        next_page_token=result.next_page_token,
    )


def my_games(result: MyGames) -> pb.ListMyGamesResponse:
    """A page of the caller's games: each game's seats without tokens or player ids."""
    return pb.ListMyGamesResponse(
        games=[
            pb.MyGame(game_id=g.game_id, game_type=g.game_type, status=STATUS.get(g.status, 0), seat=g.seat,
                      seats=[seat_info(i, s) for i, s in enumerate(g.seats)], joined_unix_ms=g.joined_ms,
                      created_unix_ms=g.created_ms, options_json=g.options, timer=timer_to_proto(g.timer),
                      visibility=pb.VISIBILITY_PUBLIC if g.visibility == "public" else pb.VISIBILITY_PRIVATE,
                      rated=g.rated)
            for g in result.games
        ],
        next_page_token=result.next_page_token,
    )


def finished_game(game: FinishedGame) -> pb.FinishedGame:
    """An archived game: its seats without player ids (who is whom stays the frontend's business)."""
    return pb.FinishedGame(
        game_id=game.game_id, game_type=game.game_type,
        seats=[pb.FinishedSeat(seat=s.seat, kind=SEAT_KINDS.get(s.kind, 0), name=s.name, strength=s.strength,
                               state=SEAT_STATES.get(s.state, pb.SEAT_STATE_PRESENT), total=s.total, place=s.place)
               for s in game.seats],
        player_seats=game.player_seats, ranking=[pb.RankGroup(seats=group) for group in game.ranking],
        decided_by=game.decided_by, options_json=game.options,
        visibility=VISIBILITY.get(game.visibility, pb.VISIBILITY_PRIVATE), created_unix_ms=game.created_ms,
        started_unix_ms=game.started_ms, ended_unix_ms=game.ended_ms, final_version=game.final_version,
        outcome=OUTCOMES.get(game.outcome, pb.GAME_OUTCOME_UNSPECIFIED),
        rated=game.rated,
    )


def rating(r: Rating) -> pb.Rating:
    return pb.Rating(player_id=r.player_key, ai=bool(r.ai_strength), ai_strength=r.ai_strength,
                     game_type=r.game_type, ordinal=r.ordinal, mu=r.mu, sigma=r.sigma, games=r.games,
                     updated_unix_ms=r.updated_ms, rank=r.rank)


def finished_games(page: FinishedPage) -> pb.ListFinishedGamesResponse:
    return pb.ListFinishedGamesResponse(games=[finished_game(g) for g in page.games],
                                        next_page_token=page.next_page_token)


def replay(result: GameReplay) -> pb.GetReplayResponse:
    """A replay: each event as a spectator of the finished game sees it (every move revealed), every seat's view."""
    engine = result.engine
    steps = []
    for step in result.steps:
        steps.append(pb.ReplayStep(
            event=event_to_proto(step.event, None, names_of(step.seats)),
            seats=[seat_info(i, s) for i, s in enumerate(step.seats)],
            to_act=step.to_act,
            seat_views=[any_pb2.Any.FromString(wire.view_to_any_bytes(engine, view)) for view in step.views],
            status=STATUS[step.status],
        ))
    score = wire.score_to_proto(engine, result.score, result.game.final_version) if result.score else None
    return pb.GetReplayResponse(game=finished_game(result.game), steps=steps, score=score)


def names_of(seats: tuple[SeatRecord, ...]) -> tuple[str, ...]:
    return tuple(s.name for s in seats)

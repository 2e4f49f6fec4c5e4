"""The edge: the service's plain results as tabletop.v1 messages (GameState, GameEvent, responses)."""

from __future__ import annotations

from service.listing import Listed
from service.lobby import Created, Joined
from service.play import Moved, Scored, told
from service.store import Event, SeatRecord, Timer
from service.suggest import Suggestion
from service.tables import Seen
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
    "left": pb.GameEvent.KIND_LEFT,
    "resigned": pb.GameEvent.KIND_RESIGNED,
    "away": pb.GameEvent.KIND_AWAY,
    "returned": pb.GameEvent.KIND_RETURNED,
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


def timer_to_proto(timer: Timer | None) -> pb.TurnTimer | None:
    if timer is None:
        return None
    return pb.TurnTimer(turn_seconds=timer.turn_seconds, on_timeout=TIMEOUT_POLICIES[timer.on_timeout],
                        strength=timer.strength, away_after=timer.away_after)


def seat_info(seat: int, record: SeatRecord, deadline: int | None = None) -> pb.SeatInfo:
    return pb.SeatInfo(seat=seat, kind=SEAT_KINDS[record.kind], name=record.name, strength=record.strength,
                       state=SEAT_STATES[record.state], deadline_unix_ms=deadline)


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


def game_state(seen: Seen) -> pb.GameState:
    """The game as `seen.viewer` (a seat, or None for a spectator) may see it."""
    game, state, viewer = seen.game, seen.state, seen.viewer
    names = seen.names
    return pb.GameState(
        game_id=seen.record.game_id,
        game_type=seen.record.game_type,
        status=STATUS[seen.status],
        version=seen.version,
        seats=[seat_info(i, s, seen.deadlines.get(i)) for i, s in enumerate(seen.seats)],
        your_seat=viewer,
        to_act=seen.to_act(),
        legal_moves=wire.legal_moves_to_proto(game, seen.legal_moves(), seen.words()),
        recent_events=[event_to_proto(e, viewer, names) for e in seen.events],
        view=wire.view_to_any(game, game.view(state, viewer)) if state is not None else None,
        options_json=seen.record.options,
        timer=timer_to_proto(seen.record.timer),
        visibility=VISIBILITY.get(seen.record.visibility, pb.VISIBILITY_PRIVATE),
    )


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


def moved(result: Moved) -> pb.MakeMoveResponse:
    return pb.MakeMoveResponse(version=result.version, state=game_state(result.seen))


def scored(result: Scored) -> pb.GetScoreResponse:
    return wire.score_to_proto(result.game, result.score, result.version)


def watched(event: Event, seen: Seen) -> pb.WatchGameResponse:
    return pb.WatchGameResponse(event=event_to_proto(event, seen.viewer, seen.names), state=game_state(seen))


def suggestion(result: Suggestion) -> pb.SuggestMoveResponse:
    return pb.SuggestMoveResponse(
        version=result.version, best_move_id=result.best_move_id, best_move_label=result.best_move_label,
        candidates=[pb.CandidateMove(move_id=c.move_id, label=c.label, visits=c.visits, mean_reward=c.mean_reward,
                                    win_rate=c.win_rate)
                    for c in result.candidates],
    )


def listed(result: Listed) -> pb.ListGamesResponse:
    """A lobby page: each game's seats without tokens (a game waiting for players has no deadlines)."""
    return pb.ListGamesResponse(
        games=[
            pb.GameSummary(game_id=g.game_id, game_type=g.game_type,
                           seats=[seat_info(i, s) for i, s in enumerate(g.seats)], open_seats=g.open_seats,
                           created_unix_ms=g.created_ms, options_json=g.options, timer=timer_to_proto(g.timer))
            for g in result.games
        ],
        next_page_token=result.next_page_token,
    )

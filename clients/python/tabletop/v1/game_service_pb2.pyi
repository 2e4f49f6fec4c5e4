from google.protobuf import any_pb2 as _any_pb2
from google.protobuf import struct_pb2 as _struct_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class Visibility(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    VISIBILITY_UNSPECIFIED: _ClassVar[Visibility]
    VISIBILITY_PRIVATE: _ClassVar[Visibility]
    VISIBILITY_PUBLIC: _ClassVar[Visibility]

class TimeoutPolicy(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    TIMEOUT_POLICY_UNSPECIFIED: _ClassVar[TimeoutPolicy]
    TIMEOUT_POLICY_AI_MOVES: _ClassVar[TimeoutPolicy]
    TIMEOUT_POLICY_FORFEIT: _ClassVar[TimeoutPolicy]

class GameStatus(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    GAME_STATUS_UNSPECIFIED: _ClassVar[GameStatus]
    GAME_STATUS_WAITING_FOR_PLAYERS: _ClassVar[GameStatus]
    GAME_STATUS_IN_PROGRESS: _ClassVar[GameStatus]
    GAME_STATUS_FINISHED: _ClassVar[GameStatus]

class SeatKind(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    SEAT_KIND_UNSPECIFIED: _ClassVar[SeatKind]
    SEAT_KIND_HUMAN: _ClassVar[SeatKind]
    SEAT_KIND_AI: _ClassVar[SeatKind]
    SEAT_KIND_OPEN: _ClassVar[SeatKind]

class OptionKind(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    OPTION_KIND_UNSPECIFIED: _ClassVar[OptionKind]
    OPTION_KIND_BOOL: _ClassVar[OptionKind]
    OPTION_KIND_INT: _ClassVar[OptionKind]
    OPTION_KIND_CHOICE: _ClassVar[OptionKind]
    OPTION_KIND_JSON: _ClassVar[OptionKind]

class SeatState(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    SEAT_STATE_UNSPECIFIED: _ClassVar[SeatState]
    SEAT_STATE_PRESENT: _ClassVar[SeatState]
    SEAT_STATE_AWAY: _ClassVar[SeatState]
    SEAT_STATE_LEFT: _ClassVar[SeatState]
    SEAT_STATE_RESIGNED: _ClassVar[SeatState]

class GameOutcome(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    GAME_OUTCOME_UNSPECIFIED: _ClassVar[GameOutcome]
    GAME_OUTCOME_FINISHED: _ClassVar[GameOutcome]
    GAME_OUTCOME_ABANDONED: _ClassVar[GameOutcome]
VISIBILITY_UNSPECIFIED: Visibility
VISIBILITY_PRIVATE: Visibility
VISIBILITY_PUBLIC: Visibility
TIMEOUT_POLICY_UNSPECIFIED: TimeoutPolicy
TIMEOUT_POLICY_AI_MOVES: TimeoutPolicy
TIMEOUT_POLICY_FORFEIT: TimeoutPolicy
GAME_STATUS_UNSPECIFIED: GameStatus
GAME_STATUS_WAITING_FOR_PLAYERS: GameStatus
GAME_STATUS_IN_PROGRESS: GameStatus
GAME_STATUS_FINISHED: GameStatus
SEAT_KIND_UNSPECIFIED: SeatKind
SEAT_KIND_HUMAN: SeatKind
SEAT_KIND_AI: SeatKind
SEAT_KIND_OPEN: SeatKind
OPTION_KIND_UNSPECIFIED: OptionKind
OPTION_KIND_BOOL: OptionKind
OPTION_KIND_INT: OptionKind
OPTION_KIND_CHOICE: OptionKind
OPTION_KIND_JSON: OptionKind
SEAT_STATE_UNSPECIFIED: SeatState
SEAT_STATE_PRESENT: SeatState
SEAT_STATE_AWAY: SeatState
SEAT_STATE_LEFT: SeatState
SEAT_STATE_RESIGNED: SeatState
GAME_OUTCOME_UNSPECIFIED: GameOutcome
GAME_OUTCOME_FINISHED: GameOutcome
GAME_OUTCOME_ABANDONED: GameOutcome

class TurnTimer(_message.Message):
    __slots__ = ("turn_seconds", "on_timeout", "strength", "away_after")
    TURN_SECONDS_FIELD_NUMBER: _ClassVar[int]
    ON_TIMEOUT_FIELD_NUMBER: _ClassVar[int]
    STRENGTH_FIELD_NUMBER: _ClassVar[int]
    AWAY_AFTER_FIELD_NUMBER: _ClassVar[int]
    turn_seconds: int
    on_timeout: TimeoutPolicy
    strength: str
    away_after: int
    def __init__(self, turn_seconds: _Optional[int] = ..., on_timeout: _Optional[_Union[TimeoutPolicy, str]] = ..., strength: _Optional[str] = ..., away_after: _Optional[int] = ...) -> None: ...

class GameOption(_message.Message):
    __slots__ = ("name", "kind", "default_value", "description", "choices", "minimum", "maximum")
    NAME_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    DEFAULT_VALUE_FIELD_NUMBER: _ClassVar[int]
    DESCRIPTION_FIELD_NUMBER: _ClassVar[int]
    CHOICES_FIELD_NUMBER: _ClassVar[int]
    MINIMUM_FIELD_NUMBER: _ClassVar[int]
    MAXIMUM_FIELD_NUMBER: _ClassVar[int]
    name: str
    kind: OptionKind
    default_value: _struct_pb2.Value
    description: str
    choices: _containers.RepeatedScalarFieldContainer[str]
    minimum: int
    maximum: int
    def __init__(self, name: _Optional[str] = ..., kind: _Optional[_Union[OptionKind, str]] = ..., default_value: _Optional[_Union[_struct_pb2.Value, _Mapping]] = ..., description: _Optional[str] = ..., choices: _Optional[_Iterable[str]] = ..., minimum: _Optional[int] = ..., maximum: _Optional[int] = ...) -> None: ...

class GameType(_message.Message):
    __slots__ = ("name", "title", "description", "min_seats", "max_seats", "options", "view_type", "move_type", "score_type", "file_descriptor_set")
    NAME_FIELD_NUMBER: _ClassVar[int]
    TITLE_FIELD_NUMBER: _ClassVar[int]
    DESCRIPTION_FIELD_NUMBER: _ClassVar[int]
    MIN_SEATS_FIELD_NUMBER: _ClassVar[int]
    MAX_SEATS_FIELD_NUMBER: _ClassVar[int]
    OPTIONS_FIELD_NUMBER: _ClassVar[int]
    VIEW_TYPE_FIELD_NUMBER: _ClassVar[int]
    MOVE_TYPE_FIELD_NUMBER: _ClassVar[int]
    SCORE_TYPE_FIELD_NUMBER: _ClassVar[int]
    FILE_DESCRIPTOR_SET_FIELD_NUMBER: _ClassVar[int]
    name: str
    title: str
    description: str
    min_seats: int
    max_seats: int
    options: _containers.RepeatedCompositeFieldContainer[GameOption]
    view_type: str
    move_type: str
    score_type: str
    file_descriptor_set: bytes
    def __init__(self, name: _Optional[str] = ..., title: _Optional[str] = ..., description: _Optional[str] = ..., min_seats: _Optional[int] = ..., max_seats: _Optional[int] = ..., options: _Optional[_Iterable[_Union[GameOption, _Mapping]]] = ..., view_type: _Optional[str] = ..., move_type: _Optional[str] = ..., score_type: _Optional[str] = ..., file_descriptor_set: _Optional[bytes] = ...) -> None: ...

class ListGameTypesRequest(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class ListGameTypesResponse(_message.Message):
    __slots__ = ("game_types",)
    GAME_TYPES_FIELD_NUMBER: _ClassVar[int]
    game_types: _containers.RepeatedCompositeFieldContainer[GameType]
    def __init__(self, game_types: _Optional[_Iterable[_Union[GameType, _Mapping]]] = ...) -> None: ...

class SeatSpec(_message.Message):
    __slots__ = ("kind", "name", "strength")
    KIND_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    STRENGTH_FIELD_NUMBER: _ClassVar[int]
    kind: SeatKind
    name: str
    strength: str
    def __init__(self, kind: _Optional[_Union[SeatKind, str]] = ..., name: _Optional[str] = ..., strength: _Optional[str] = ...) -> None: ...

class CreateGameRequest(_message.Message):
    __slots__ = ("game_type", "options_json", "options_struct", "seats", "start", "seed", "visibility", "timer", "rated")
    GAME_TYPE_FIELD_NUMBER: _ClassVar[int]
    OPTIONS_JSON_FIELD_NUMBER: _ClassVar[int]
    OPTIONS_STRUCT_FIELD_NUMBER: _ClassVar[int]
    SEATS_FIELD_NUMBER: _ClassVar[int]
    START_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    VISIBILITY_FIELD_NUMBER: _ClassVar[int]
    TIMER_FIELD_NUMBER: _ClassVar[int]
    RATED_FIELD_NUMBER: _ClassVar[int]
    game_type: str
    options_json: str
    options_struct: _struct_pb2.Struct
    seats: _containers.RepeatedCompositeFieldContainer[SeatSpec]
    start: bool
    seed: int
    visibility: Visibility
    timer: TurnTimer
    rated: bool
    def __init__(self, game_type: _Optional[str] = ..., options_json: _Optional[str] = ..., options_struct: _Optional[_Union[_struct_pb2.Struct, _Mapping]] = ..., seats: _Optional[_Iterable[_Union[SeatSpec, _Mapping]]] = ..., start: _Optional[bool] = ..., seed: _Optional[int] = ..., visibility: _Optional[_Union[Visibility, str]] = ..., timer: _Optional[_Union[TurnTimer, _Mapping]] = ..., rated: _Optional[bool] = ...) -> None: ...

class SeatToken(_message.Message):
    __slots__ = ("seat", "token")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    TOKEN_FIELD_NUMBER: _ClassVar[int]
    seat: int
    token: str
    def __init__(self, seat: _Optional[int] = ..., token: _Optional[str] = ...) -> None: ...

class CreateGameResponse(_message.Message):
    __slots__ = ("game_id", "seat_tokens", "creator_token", "join_code", "state")
    GAME_ID_FIELD_NUMBER: _ClassVar[int]
    SEAT_TOKENS_FIELD_NUMBER: _ClassVar[int]
    CREATOR_TOKEN_FIELD_NUMBER: _ClassVar[int]
    JOIN_CODE_FIELD_NUMBER: _ClassVar[int]
    STATE_FIELD_NUMBER: _ClassVar[int]
    game_id: str
    seat_tokens: _containers.RepeatedCompositeFieldContainer[SeatToken]
    creator_token: str
    join_code: str
    state: GameState
    def __init__(self, game_id: _Optional[str] = ..., seat_tokens: _Optional[_Iterable[_Union[SeatToken, _Mapping]]] = ..., creator_token: _Optional[str] = ..., join_code: _Optional[str] = ..., state: _Optional[_Union[GameState, _Mapping]] = ...) -> None: ...

class JoinGameRequest(_message.Message):
    __slots__ = ("join_code", "game_id", "name", "seat")
    JOIN_CODE_FIELD_NUMBER: _ClassVar[int]
    GAME_ID_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    join_code: str
    game_id: str
    name: str
    seat: int
    def __init__(self, join_code: _Optional[str] = ..., game_id: _Optional[str] = ..., name: _Optional[str] = ..., seat: _Optional[int] = ...) -> None: ...

class JoinGameResponse(_message.Message):
    __slots__ = ("game_id", "seat", "token", "state")
    GAME_ID_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    TOKEN_FIELD_NUMBER: _ClassVar[int]
    STATE_FIELD_NUMBER: _ClassVar[int]
    game_id: str
    seat: int
    token: str
    state: GameState
    def __init__(self, game_id: _Optional[str] = ..., seat: _Optional[int] = ..., token: _Optional[str] = ..., state: _Optional[_Union[GameState, _Mapping]] = ...) -> None: ...

class StartGameRequest(_message.Message):
    __slots__ = ("game_id",)
    GAME_ID_FIELD_NUMBER: _ClassVar[int]
    game_id: str
    def __init__(self, game_id: _Optional[str] = ...) -> None: ...

class StartGameResponse(_message.Message):
    __slots__ = ("state",)
    STATE_FIELD_NUMBER: _ClassVar[int]
    state: GameState
    def __init__(self, state: _Optional[_Union[GameState, _Mapping]] = ...) -> None: ...

class SeatInfo(_message.Message):
    __slots__ = ("seat", "kind", "name", "strength", "state", "deadline_unix_ms", "player_id")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    STRENGTH_FIELD_NUMBER: _ClassVar[int]
    STATE_FIELD_NUMBER: _ClassVar[int]
    DEADLINE_UNIX_MS_FIELD_NUMBER: _ClassVar[int]
    PLAYER_ID_FIELD_NUMBER: _ClassVar[int]
    seat: int
    kind: SeatKind
    name: str
    strength: str
    state: SeatState
    deadline_unix_ms: int
    player_id: str
    def __init__(self, seat: _Optional[int] = ..., kind: _Optional[_Union[SeatKind, str]] = ..., name: _Optional[str] = ..., strength: _Optional[str] = ..., state: _Optional[_Union[SeatState, str]] = ..., deadline_unix_ms: _Optional[int] = ..., player_id: _Optional[str] = ...) -> None: ...

class LegalMove(_message.Message):
    __slots__ = ("id", "label", "move")
    ID_FIELD_NUMBER: _ClassVar[int]
    LABEL_FIELD_NUMBER: _ClassVar[int]
    MOVE_FIELD_NUMBER: _ClassVar[int]
    id: str
    label: str
    move: _any_pb2.Any
    def __init__(self, id: _Optional[str] = ..., label: _Optional[str] = ..., move: _Optional[_Union[_any_pb2.Any, _Mapping]] = ...) -> None: ...

class GameEvent(_message.Message):
    __slots__ = ("version", "kind", "seat", "move_id", "move_label", "time_unix_ms", "game_over", "moved_by")
    class Kind(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
        __slots__ = ()
        KIND_UNSPECIFIED: _ClassVar[GameEvent.Kind]
        KIND_CREATED: _ClassVar[GameEvent.Kind]
        KIND_JOINED: _ClassVar[GameEvent.Kind]
        KIND_STARTED: _ClassVar[GameEvent.Kind]
        KIND_MOVE: _ClassVar[GameEvent.Kind]
        KIND_LEFT: _ClassVar[GameEvent.Kind]
        KIND_RESIGNED: _ClassVar[GameEvent.Kind]
        KIND_AWAY: _ClassVar[GameEvent.Kind]
        KIND_RETURNED: _ClassVar[GameEvent.Kind]
        KIND_ABANDONED: _ClassVar[GameEvent.Kind]
    KIND_UNSPECIFIED: GameEvent.Kind
    KIND_CREATED: GameEvent.Kind
    KIND_JOINED: GameEvent.Kind
    KIND_STARTED: GameEvent.Kind
    KIND_MOVE: GameEvent.Kind
    KIND_LEFT: GameEvent.Kind
    KIND_RESIGNED: GameEvent.Kind
    KIND_AWAY: GameEvent.Kind
    KIND_RETURNED: GameEvent.Kind
    KIND_ABANDONED: GameEvent.Kind
    class MovedBy(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
        __slots__ = ()
        MOVED_BY_UNSPECIFIED: _ClassVar[GameEvent.MovedBy]
        MOVED_BY_HOLDER: _ClassVar[GameEvent.MovedBy]
        MOVED_BY_AI_ON_TIMEOUT: _ClassVar[GameEvent.MovedBy]
        MOVED_BY_AI_TAKEOVER: _ClassVar[GameEvent.MovedBy]
    MOVED_BY_UNSPECIFIED: GameEvent.MovedBy
    MOVED_BY_HOLDER: GameEvent.MovedBy
    MOVED_BY_AI_ON_TIMEOUT: GameEvent.MovedBy
    MOVED_BY_AI_TAKEOVER: GameEvent.MovedBy
    VERSION_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    MOVE_ID_FIELD_NUMBER: _ClassVar[int]
    MOVE_LABEL_FIELD_NUMBER: _ClassVar[int]
    TIME_UNIX_MS_FIELD_NUMBER: _ClassVar[int]
    GAME_OVER_FIELD_NUMBER: _ClassVar[int]
    MOVED_BY_FIELD_NUMBER: _ClassVar[int]
    version: int
    kind: GameEvent.Kind
    seat: int
    move_id: str
    move_label: str
    time_unix_ms: int
    game_over: bool
    moved_by: GameEvent.MovedBy
    def __init__(self, version: _Optional[int] = ..., kind: _Optional[_Union[GameEvent.Kind, str]] = ..., seat: _Optional[int] = ..., move_id: _Optional[str] = ..., move_label: _Optional[str] = ..., time_unix_ms: _Optional[int] = ..., game_over: _Optional[bool] = ..., moved_by: _Optional[_Union[GameEvent.MovedBy, str]] = ...) -> None: ...

class GameState(_message.Message):
    __slots__ = ("game_id", "game_type", "status", "version", "seats", "your_seat", "to_act", "legal_moves", "recent_events", "view", "options_json", "visibility", "timer", "rated")
    GAME_ID_FIELD_NUMBER: _ClassVar[int]
    GAME_TYPE_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    VERSION_FIELD_NUMBER: _ClassVar[int]
    SEATS_FIELD_NUMBER: _ClassVar[int]
    YOUR_SEAT_FIELD_NUMBER: _ClassVar[int]
    TO_ACT_FIELD_NUMBER: _ClassVar[int]
    LEGAL_MOVES_FIELD_NUMBER: _ClassVar[int]
    RECENT_EVENTS_FIELD_NUMBER: _ClassVar[int]
    VIEW_FIELD_NUMBER: _ClassVar[int]
    OPTIONS_JSON_FIELD_NUMBER: _ClassVar[int]
    VISIBILITY_FIELD_NUMBER: _ClassVar[int]
    TIMER_FIELD_NUMBER: _ClassVar[int]
    RATED_FIELD_NUMBER: _ClassVar[int]
    game_id: str
    game_type: str
    status: GameStatus
    version: int
    seats: _containers.RepeatedCompositeFieldContainer[SeatInfo]
    your_seat: int
    to_act: _containers.RepeatedScalarFieldContainer[int]
    legal_moves: _containers.RepeatedCompositeFieldContainer[LegalMove]
    recent_events: _containers.RepeatedCompositeFieldContainer[GameEvent]
    view: _any_pb2.Any
    options_json: str
    visibility: Visibility
    timer: TurnTimer
    rated: bool
    def __init__(self, game_id: _Optional[str] = ..., game_type: _Optional[str] = ..., status: _Optional[_Union[GameStatus, str]] = ..., version: _Optional[int] = ..., seats: _Optional[_Iterable[_Union[SeatInfo, _Mapping]]] = ..., your_seat: _Optional[int] = ..., to_act: _Optional[_Iterable[int]] = ..., legal_moves: _Optional[_Iterable[_Union[LegalMove, _Mapping]]] = ..., recent_events: _Optional[_Iterable[_Union[GameEvent, _Mapping]]] = ..., view: _Optional[_Union[_any_pb2.Any, _Mapping]] = ..., options_json: _Optional[str] = ..., visibility: _Optional[_Union[Visibility, str]] = ..., timer: _Optional[_Union[TurnTimer, _Mapping]] = ..., rated: _Optional[bool] = ...) -> None: ...

class GetStateRequest(_message.Message):
    __slots__ = ("game_id",)
    GAME_ID_FIELD_NUMBER: _ClassVar[int]
    game_id: str
    def __init__(self, game_id: _Optional[str] = ...) -> None: ...

class GetStateResponse(_message.Message):
    __slots__ = ("state",)
    STATE_FIELD_NUMBER: _ClassVar[int]
    state: GameState
    def __init__(self, state: _Optional[_Union[GameState, _Mapping]] = ...) -> None: ...

class MakeMoveRequest(_message.Message):
    __slots__ = ("game_id", "move_id", "typed_move", "expected_version", "request_id")
    GAME_ID_FIELD_NUMBER: _ClassVar[int]
    MOVE_ID_FIELD_NUMBER: _ClassVar[int]
    TYPED_MOVE_FIELD_NUMBER: _ClassVar[int]
    EXPECTED_VERSION_FIELD_NUMBER: _ClassVar[int]
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    game_id: str
    move_id: str
    typed_move: _any_pb2.Any
    expected_version: int
    request_id: str
    def __init__(self, game_id: _Optional[str] = ..., move_id: _Optional[str] = ..., typed_move: _Optional[_Union[_any_pb2.Any, _Mapping]] = ..., expected_version: _Optional[int] = ..., request_id: _Optional[str] = ...) -> None: ...

class MakeMoveResponse(_message.Message):
    __slots__ = ("version", "state")
    VERSION_FIELD_NUMBER: _ClassVar[int]
    STATE_FIELD_NUMBER: _ClassVar[int]
    version: int
    state: GameState
    def __init__(self, version: _Optional[int] = ..., state: _Optional[_Union[GameState, _Mapping]] = ...) -> None: ...

class ScoreItem(_message.Message):
    __slots__ = ("category", "points")
    CATEGORY_FIELD_NUMBER: _ClassVar[int]
    POINTS_FIELD_NUMBER: _ClassVar[int]
    category: str
    points: int
    def __init__(self, category: _Optional[str] = ..., points: _Optional[int] = ...) -> None: ...

class SeatScore(_message.Message):
    __slots__ = ("seat", "total", "breakdown", "typed_breakdown")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    TOTAL_FIELD_NUMBER: _ClassVar[int]
    BREAKDOWN_FIELD_NUMBER: _ClassVar[int]
    TYPED_BREAKDOWN_FIELD_NUMBER: _ClassVar[int]
    seat: int
    total: int
    breakdown: _containers.RepeatedCompositeFieldContainer[ScoreItem]
    typed_breakdown: _any_pb2.Any
    def __init__(self, seat: _Optional[int] = ..., total: _Optional[int] = ..., breakdown: _Optional[_Iterable[_Union[ScoreItem, _Mapping]]] = ..., typed_breakdown: _Optional[_Union[_any_pb2.Any, _Mapping]] = ...) -> None: ...

class RankGroup(_message.Message):
    __slots__ = ("seats",)
    SEATS_FIELD_NUMBER: _ClassVar[int]
    seats: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, seats: _Optional[_Iterable[int]] = ...) -> None: ...

class GetScoreRequest(_message.Message):
    __slots__ = ("game_id",)
    GAME_ID_FIELD_NUMBER: _ClassVar[int]
    game_id: str
    def __init__(self, game_id: _Optional[str] = ...) -> None: ...

class GetScoreResponse(_message.Message):
    __slots__ = ("version", "final", "seats", "ranking", "tie_breaks", "decided_by", "estimated")
    VERSION_FIELD_NUMBER: _ClassVar[int]
    FINAL_FIELD_NUMBER: _ClassVar[int]
    SEATS_FIELD_NUMBER: _ClassVar[int]
    RANKING_FIELD_NUMBER: _ClassVar[int]
    TIE_BREAKS_FIELD_NUMBER: _ClassVar[int]
    DECIDED_BY_FIELD_NUMBER: _ClassVar[int]
    ESTIMATED_FIELD_NUMBER: _ClassVar[int]
    version: int
    final: bool
    seats: _containers.RepeatedCompositeFieldContainer[SeatScore]
    ranking: _containers.RepeatedCompositeFieldContainer[RankGroup]
    tie_breaks: _containers.RepeatedScalarFieldContainer[str]
    decided_by: str
    estimated: bool
    def __init__(self, version: _Optional[int] = ..., final: _Optional[bool] = ..., seats: _Optional[_Iterable[_Union[SeatScore, _Mapping]]] = ..., ranking: _Optional[_Iterable[_Union[RankGroup, _Mapping]]] = ..., tie_breaks: _Optional[_Iterable[str]] = ..., decided_by: _Optional[str] = ..., estimated: _Optional[bool] = ...) -> None: ...

class WatchGameRequest(_message.Message):
    __slots__ = ("game_id", "from_version")
    GAME_ID_FIELD_NUMBER: _ClassVar[int]
    FROM_VERSION_FIELD_NUMBER: _ClassVar[int]
    game_id: str
    from_version: int
    def __init__(self, game_id: _Optional[str] = ..., from_version: _Optional[int] = ...) -> None: ...

class WatchGameResponse(_message.Message):
    __slots__ = ("event", "state")
    EVENT_FIELD_NUMBER: _ClassVar[int]
    STATE_FIELD_NUMBER: _ClassVar[int]
    event: GameEvent
    state: GameState
    def __init__(self, event: _Optional[_Union[GameEvent, _Mapping]] = ..., state: _Optional[_Union[GameState, _Mapping]] = ...) -> None: ...

class CandidateMove(_message.Message):
    __slots__ = ("move_id", "label", "visits", "mean_reward", "win_rate")
    MOVE_ID_FIELD_NUMBER: _ClassVar[int]
    LABEL_FIELD_NUMBER: _ClassVar[int]
    VISITS_FIELD_NUMBER: _ClassVar[int]
    MEAN_REWARD_FIELD_NUMBER: _ClassVar[int]
    WIN_RATE_FIELD_NUMBER: _ClassVar[int]
    move_id: str
    label: str
    visits: int
    mean_reward: float
    win_rate: float
    def __init__(self, move_id: _Optional[str] = ..., label: _Optional[str] = ..., visits: _Optional[int] = ..., mean_reward: _Optional[float] = ..., win_rate: _Optional[float] = ...) -> None: ...

class SuggestMoveRequest(_message.Message):
    __slots__ = ("game_id", "strength", "iterations", "time_budget_seconds")
    GAME_ID_FIELD_NUMBER: _ClassVar[int]
    STRENGTH_FIELD_NUMBER: _ClassVar[int]
    ITERATIONS_FIELD_NUMBER: _ClassVar[int]
    TIME_BUDGET_SECONDS_FIELD_NUMBER: _ClassVar[int]
    game_id: str
    strength: str
    iterations: int
    time_budget_seconds: float
    def __init__(self, game_id: _Optional[str] = ..., strength: _Optional[str] = ..., iterations: _Optional[int] = ..., time_budget_seconds: _Optional[float] = ...) -> None: ...

class SuggestMoveResponse(_message.Message):
    __slots__ = ("version", "best_move_id", "best_move_label", "candidates")
    VERSION_FIELD_NUMBER: _ClassVar[int]
    BEST_MOVE_ID_FIELD_NUMBER: _ClassVar[int]
    BEST_MOVE_LABEL_FIELD_NUMBER: _ClassVar[int]
    CANDIDATES_FIELD_NUMBER: _ClassVar[int]
    version: int
    best_move_id: str
    best_move_label: str
    candidates: _containers.RepeatedCompositeFieldContainer[CandidateMove]
    def __init__(self, version: _Optional[int] = ..., best_move_id: _Optional[str] = ..., best_move_label: _Optional[str] = ..., candidates: _Optional[_Iterable[_Union[CandidateMove, _Mapping]]] = ...) -> None: ...

class ListGamesRequest(_message.Message):
    __slots__ = ("game_type", "min_open_seats", "page_size", "page_token")
    GAME_TYPE_FIELD_NUMBER: _ClassVar[int]
    MIN_OPEN_SEATS_FIELD_NUMBER: _ClassVar[int]
    PAGE_SIZE_FIELD_NUMBER: _ClassVar[int]
    PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    game_type: str
    min_open_seats: int
    page_size: int
    page_token: str
    def __init__(self, game_type: _Optional[str] = ..., min_open_seats: _Optional[int] = ..., page_size: _Optional[int] = ..., page_token: _Optional[str] = ...) -> None: ...

class GameSummary(_message.Message):
    __slots__ = ("game_id", "game_type", "seats", "open_seats", "created_unix_ms", "options_json", "timer", "rated")
    GAME_ID_FIELD_NUMBER: _ClassVar[int]
    GAME_TYPE_FIELD_NUMBER: _ClassVar[int]
    SEATS_FIELD_NUMBER: _ClassVar[int]
    OPEN_SEATS_FIELD_NUMBER: _ClassVar[int]
    CREATED_UNIX_MS_FIELD_NUMBER: _ClassVar[int]
    OPTIONS_JSON_FIELD_NUMBER: _ClassVar[int]
    TIMER_FIELD_NUMBER: _ClassVar[int]
    RATED_FIELD_NUMBER: _ClassVar[int]
    game_id: str
    game_type: str
    seats: _containers.RepeatedCompositeFieldContainer[SeatInfo]
    open_seats: int
    created_unix_ms: int
    options_json: str
    timer: TurnTimer
    rated: bool
    def __init__(self, game_id: _Optional[str] = ..., game_type: _Optional[str] = ..., seats: _Optional[_Iterable[_Union[SeatInfo, _Mapping]]] = ..., open_seats: _Optional[int] = ..., created_unix_ms: _Optional[int] = ..., options_json: _Optional[str] = ..., timer: _Optional[_Union[TurnTimer, _Mapping]] = ..., rated: _Optional[bool] = ...) -> None: ...

class ListGamesResponse(_message.Message):
    __slots__ = ("games", "next_page_token")
    GAMES_FIELD_NUMBER: _ClassVar[int]
    NEXT_PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    games: _containers.RepeatedCompositeFieldContainer[GameSummary]
    next_page_token: str
    def __init__(self, games: _Optional[_Iterable[_Union[GameSummary, _Mapping]]] = ..., next_page_token: _Optional[str] = ...) -> None: ...

class ListMyGamesRequest(_message.Message):
    __slots__ = ("page_size", "page_token")
    PAGE_SIZE_FIELD_NUMBER: _ClassVar[int]
    PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    page_size: int
    page_token: str
    def __init__(self, page_size: _Optional[int] = ..., page_token: _Optional[str] = ...) -> None: ...

class MyGame(_message.Message):
    __slots__ = ("game_id", "game_type", "status", "seat", "seats", "joined_unix_ms", "created_unix_ms", "options_json", "timer", "visibility", "rated")
    GAME_ID_FIELD_NUMBER: _ClassVar[int]
    GAME_TYPE_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    SEATS_FIELD_NUMBER: _ClassVar[int]
    JOINED_UNIX_MS_FIELD_NUMBER: _ClassVar[int]
    CREATED_UNIX_MS_FIELD_NUMBER: _ClassVar[int]
    OPTIONS_JSON_FIELD_NUMBER: _ClassVar[int]
    TIMER_FIELD_NUMBER: _ClassVar[int]
    VISIBILITY_FIELD_NUMBER: _ClassVar[int]
    RATED_FIELD_NUMBER: _ClassVar[int]
    game_id: str
    game_type: str
    status: GameStatus
    seat: int
    seats: _containers.RepeatedCompositeFieldContainer[SeatInfo]
    joined_unix_ms: int
    created_unix_ms: int
    options_json: str
    timer: TurnTimer
    visibility: Visibility
    rated: bool
    def __init__(self, game_id: _Optional[str] = ..., game_type: _Optional[str] = ..., status: _Optional[_Union[GameStatus, str]] = ..., seat: _Optional[int] = ..., seats: _Optional[_Iterable[_Union[SeatInfo, _Mapping]]] = ..., joined_unix_ms: _Optional[int] = ..., created_unix_ms: _Optional[int] = ..., options_json: _Optional[str] = ..., timer: _Optional[_Union[TurnTimer, _Mapping]] = ..., visibility: _Optional[_Union[Visibility, str]] = ..., rated: _Optional[bool] = ...) -> None: ...

class ListMyGamesResponse(_message.Message):
    __slots__ = ("games", "next_page_token")
    GAMES_FIELD_NUMBER: _ClassVar[int]
    NEXT_PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    games: _containers.RepeatedCompositeFieldContainer[MyGame]
    next_page_token: str
    def __init__(self, games: _Optional[_Iterable[_Union[MyGame, _Mapping]]] = ..., next_page_token: _Optional[str] = ...) -> None: ...

class LeaveGameRequest(_message.Message):
    __slots__ = ("game_id",)
    GAME_ID_FIELD_NUMBER: _ClassVar[int]
    game_id: str
    def __init__(self, game_id: _Optional[str] = ...) -> None: ...

class LeaveGameResponse(_message.Message):
    __slots__ = ("state",)
    STATE_FIELD_NUMBER: _ClassVar[int]
    state: GameState
    def __init__(self, state: _Optional[_Union[GameState, _Mapping]] = ...) -> None: ...

class ResignRequest(_message.Message):
    __slots__ = ("game_id",)
    GAME_ID_FIELD_NUMBER: _ClassVar[int]
    game_id: str
    def __init__(self, game_id: _Optional[str] = ...) -> None: ...

class ResignResponse(_message.Message):
    __slots__ = ("state",)
    STATE_FIELD_NUMBER: _ClassVar[int]
    state: GameState
    def __init__(self, state: _Optional[_Union[GameState, _Mapping]] = ...) -> None: ...

class ListFinishedGamesRequest(_message.Message):
    __slots__ = ("player_id", "game_type", "page_size", "page_token")
    PLAYER_ID_FIELD_NUMBER: _ClassVar[int]
    GAME_TYPE_FIELD_NUMBER: _ClassVar[int]
    PAGE_SIZE_FIELD_NUMBER: _ClassVar[int]
    PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    player_id: str
    game_type: str
    page_size: int
    page_token: str
    def __init__(self, player_id: _Optional[str] = ..., game_type: _Optional[str] = ..., page_size: _Optional[int] = ..., page_token: _Optional[str] = ...) -> None: ...

class FinishedSeat(_message.Message):
    __slots__ = ("seat", "kind", "name", "strength", "state", "total", "place")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    STRENGTH_FIELD_NUMBER: _ClassVar[int]
    STATE_FIELD_NUMBER: _ClassVar[int]
    TOTAL_FIELD_NUMBER: _ClassVar[int]
    PLACE_FIELD_NUMBER: _ClassVar[int]
    seat: int
    kind: SeatKind
    name: str
    strength: str
    state: SeatState
    total: int
    place: int
    def __init__(self, seat: _Optional[int] = ..., kind: _Optional[_Union[SeatKind, str]] = ..., name: _Optional[str] = ..., strength: _Optional[str] = ..., state: _Optional[_Union[SeatState, str]] = ..., total: _Optional[int] = ..., place: _Optional[int] = ...) -> None: ...

class FinishedGame(_message.Message):
    __slots__ = ("game_id", "game_type", "seats", "player_seats", "ranking", "decided_by", "options_json", "visibility", "created_unix_ms", "started_unix_ms", "ended_unix_ms", "final_version", "outcome", "rated")
    GAME_ID_FIELD_NUMBER: _ClassVar[int]
    GAME_TYPE_FIELD_NUMBER: _ClassVar[int]
    SEATS_FIELD_NUMBER: _ClassVar[int]
    PLAYER_SEATS_FIELD_NUMBER: _ClassVar[int]
    RANKING_FIELD_NUMBER: _ClassVar[int]
    DECIDED_BY_FIELD_NUMBER: _ClassVar[int]
    OPTIONS_JSON_FIELD_NUMBER: _ClassVar[int]
    VISIBILITY_FIELD_NUMBER: _ClassVar[int]
    CREATED_UNIX_MS_FIELD_NUMBER: _ClassVar[int]
    STARTED_UNIX_MS_FIELD_NUMBER: _ClassVar[int]
    ENDED_UNIX_MS_FIELD_NUMBER: _ClassVar[int]
    FINAL_VERSION_FIELD_NUMBER: _ClassVar[int]
    OUTCOME_FIELD_NUMBER: _ClassVar[int]
    RATED_FIELD_NUMBER: _ClassVar[int]
    game_id: str
    game_type: str
    seats: _containers.RepeatedCompositeFieldContainer[FinishedSeat]
    player_seats: _containers.RepeatedScalarFieldContainer[int]
    ranking: _containers.RepeatedCompositeFieldContainer[RankGroup]
    decided_by: str
    options_json: str
    visibility: Visibility
    created_unix_ms: int
    started_unix_ms: int
    ended_unix_ms: int
    final_version: int
    outcome: GameOutcome
    rated: bool
    def __init__(self, game_id: _Optional[str] = ..., game_type: _Optional[str] = ..., seats: _Optional[_Iterable[_Union[FinishedSeat, _Mapping]]] = ..., player_seats: _Optional[_Iterable[int]] = ..., ranking: _Optional[_Iterable[_Union[RankGroup, _Mapping]]] = ..., decided_by: _Optional[str] = ..., options_json: _Optional[str] = ..., visibility: _Optional[_Union[Visibility, str]] = ..., created_unix_ms: _Optional[int] = ..., started_unix_ms: _Optional[int] = ..., ended_unix_ms: _Optional[int] = ..., final_version: _Optional[int] = ..., outcome: _Optional[_Union[GameOutcome, str]] = ..., rated: _Optional[bool] = ...) -> None: ...

class ListFinishedGamesResponse(_message.Message):
    __slots__ = ("games", "next_page_token")
    GAMES_FIELD_NUMBER: _ClassVar[int]
    NEXT_PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    games: _containers.RepeatedCompositeFieldContainer[FinishedGame]
    next_page_token: str
    def __init__(self, games: _Optional[_Iterable[_Union[FinishedGame, _Mapping]]] = ..., next_page_token: _Optional[str] = ...) -> None: ...

class GetReplayRequest(_message.Message):
    __slots__ = ("game_id",)
    GAME_ID_FIELD_NUMBER: _ClassVar[int]
    game_id: str
    def __init__(self, game_id: _Optional[str] = ...) -> None: ...

class ReplayStep(_message.Message):
    __slots__ = ("event", "seats", "to_act", "seat_views", "status")
    EVENT_FIELD_NUMBER: _ClassVar[int]
    SEATS_FIELD_NUMBER: _ClassVar[int]
    TO_ACT_FIELD_NUMBER: _ClassVar[int]
    SEAT_VIEWS_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    event: GameEvent
    seats: _containers.RepeatedCompositeFieldContainer[SeatInfo]
    to_act: _containers.RepeatedScalarFieldContainer[int]
    seat_views: _containers.RepeatedCompositeFieldContainer[_any_pb2.Any]
    status: GameStatus
    def __init__(self, event: _Optional[_Union[GameEvent, _Mapping]] = ..., seats: _Optional[_Iterable[_Union[SeatInfo, _Mapping]]] = ..., to_act: _Optional[_Iterable[int]] = ..., seat_views: _Optional[_Iterable[_Union[_any_pb2.Any, _Mapping]]] = ..., status: _Optional[_Union[GameStatus, str]] = ...) -> None: ...

class GetReplayResponse(_message.Message):
    __slots__ = ("game", "steps", "score")
    GAME_FIELD_NUMBER: _ClassVar[int]
    STEPS_FIELD_NUMBER: _ClassVar[int]
    SCORE_FIELD_NUMBER: _ClassVar[int]
    game: FinishedGame
    steps: _containers.RepeatedCompositeFieldContainer[ReplayStep]
    score: GetScoreResponse
    def __init__(self, game: _Optional[_Union[FinishedGame, _Mapping]] = ..., steps: _Optional[_Iterable[_Union[ReplayStep, _Mapping]]] = ..., score: _Optional[_Union[GetScoreResponse, _Mapping]] = ...) -> None: ...

class Rating(_message.Message):
    __slots__ = ("player_id", "ai", "ai_strength", "game_type", "ordinal", "mu", "sigma", "games", "updated_unix_ms", "rank")
    PLAYER_ID_FIELD_NUMBER: _ClassVar[int]
    AI_FIELD_NUMBER: _ClassVar[int]
    AI_STRENGTH_FIELD_NUMBER: _ClassVar[int]
    GAME_TYPE_FIELD_NUMBER: _ClassVar[int]
    ORDINAL_FIELD_NUMBER: _ClassVar[int]
    MU_FIELD_NUMBER: _ClassVar[int]
    SIGMA_FIELD_NUMBER: _ClassVar[int]
    GAMES_FIELD_NUMBER: _ClassVar[int]
    UPDATED_UNIX_MS_FIELD_NUMBER: _ClassVar[int]
    RANK_FIELD_NUMBER: _ClassVar[int]
    player_id: str
    ai: bool
    ai_strength: str
    game_type: str
    ordinal: float
    mu: float
    sigma: float
    games: int
    updated_unix_ms: int
    rank: int
    def __init__(self, player_id: _Optional[str] = ..., ai: _Optional[bool] = ..., ai_strength: _Optional[str] = ..., game_type: _Optional[str] = ..., ordinal: _Optional[float] = ..., mu: _Optional[float] = ..., sigma: _Optional[float] = ..., games: _Optional[int] = ..., updated_unix_ms: _Optional[int] = ..., rank: _Optional[int] = ...) -> None: ...

class GetRatingsRequest(_message.Message):
    __slots__ = ("player_id",)
    PLAYER_ID_FIELD_NUMBER: _ClassVar[int]
    player_id: str
    def __init__(self, player_id: _Optional[str] = ...) -> None: ...

class GetRatingsResponse(_message.Message):
    __slots__ = ("ratings",)
    RATINGS_FIELD_NUMBER: _ClassVar[int]
    ratings: _containers.RepeatedCompositeFieldContainer[Rating]
    def __init__(self, ratings: _Optional[_Iterable[_Union[Rating, _Mapping]]] = ...) -> None: ...

class GetLeaderboardRequest(_message.Message):
    __slots__ = ("game_type", "page_size", "page_token")
    GAME_TYPE_FIELD_NUMBER: _ClassVar[int]
    PAGE_SIZE_FIELD_NUMBER: _ClassVar[int]
    PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    game_type: str
    page_size: int
    page_token: str
    def __init__(self, game_type: _Optional[str] = ..., page_size: _Optional[int] = ..., page_token: _Optional[str] = ...) -> None: ...

class GetLeaderboardResponse(_message.Message):
    __slots__ = ("ratings", "next_page_token")
    RATINGS_FIELD_NUMBER: _ClassVar[int]
    NEXT_PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    ratings: _containers.RepeatedCompositeFieldContainer[Rating]
    next_page_token: str
    def __init__(self, ratings: _Optional[_Iterable[_Union[Rating, _Mapping]]] = ..., next_page_token: _Optional[str] = ...) -> None: ...

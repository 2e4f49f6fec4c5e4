from google.protobuf import any_pb2 as _any_pb2
from tabletop.v1 import game_service_pb2 as _game_service_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class AIServiceSuggestMoveRequest(_message.Message):
    __slots__ = ("game_type", "seat", "version", "view", "strength", "iterations", "time_budget_seconds", "seed")
    GAME_TYPE_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    VERSION_FIELD_NUMBER: _ClassVar[int]
    VIEW_FIELD_NUMBER: _ClassVar[int]
    STRENGTH_FIELD_NUMBER: _ClassVar[int]
    ITERATIONS_FIELD_NUMBER: _ClassVar[int]
    TIME_BUDGET_SECONDS_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    game_type: str
    seat: int
    version: int
    view: _any_pb2.Any
    strength: str
    iterations: int
    time_budget_seconds: float
    seed: int
    def __init__(self, game_type: _Optional[str] = ..., seat: _Optional[int] = ..., version: _Optional[int] = ..., view: _Optional[_Union[_any_pb2.Any, _Mapping]] = ..., strength: _Optional[str] = ..., iterations: _Optional[int] = ..., time_budget_seconds: _Optional[float] = ..., seed: _Optional[int] = ...) -> None: ...

class AIServiceSuggestMoveResponse(_message.Message):
    __slots__ = ("best_move_id", "best_move_label", "candidates", "iterations")
    BEST_MOVE_ID_FIELD_NUMBER: _ClassVar[int]
    BEST_MOVE_LABEL_FIELD_NUMBER: _ClassVar[int]
    CANDIDATES_FIELD_NUMBER: _ClassVar[int]
    ITERATIONS_FIELD_NUMBER: _ClassVar[int]
    best_move_id: str
    best_move_label: str
    candidates: _containers.RepeatedCompositeFieldContainer[_game_service_pb2.CandidateMove]
    iterations: int
    def __init__(self, best_move_id: _Optional[str] = ..., best_move_label: _Optional[str] = ..., candidates: _Optional[_Iterable[_Union[_game_service_pb2.CandidateMove, _Mapping]]] = ..., iterations: _Optional[int] = ...) -> None: ...

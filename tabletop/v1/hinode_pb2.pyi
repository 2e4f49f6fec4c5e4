from tabletop.v1 import values_pb2 as _values_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class HinodeChooseTribe(_message.Message):
    __slots__ = ("tribe",)
    TRIBE_FIELD_NUMBER: _ClassVar[int]
    tribe: int
    def __init__(self, tribe: _Optional[int] = ...) -> None: ...

class HinodeChooseArea(_message.Message):
    __slots__ = ("area",)
    AREA_FIELD_NUMBER: _ClassVar[int]
    area: int
    def __init__(self, area: _Optional[int] = ...) -> None: ...

class HinodePlayCard(_message.Message):
    __slots__ = ("card", "resource", "skill", "pay", "target_area", "target_seat", "target_colour", "declare")
    CARD_FIELD_NUMBER: _ClassVar[int]
    RESOURCE_FIELD_NUMBER: _ClassVar[int]
    SKILL_FIELD_NUMBER: _ClassVar[int]
    PAY_FIELD_NUMBER: _ClassVar[int]
    TARGET_AREA_FIELD_NUMBER: _ClassVar[int]
    TARGET_SEAT_FIELD_NUMBER: _ClassVar[int]
    TARGET_COLOUR_FIELD_NUMBER: _ClassVar[int]
    DECLARE_FIELD_NUMBER: _ClassVar[int]
    card: int
    resource: int
    skill: int
    pay: int
    target_area: int
    target_seat: int
    target_colour: int
    declare: int
    def __init__(self, card: _Optional[int] = ..., resource: _Optional[int] = ..., skill: _Optional[int] = ..., pay: _Optional[int] = ..., target_area: _Optional[int] = ..., target_seat: _Optional[int] = ..., target_colour: _Optional[int] = ..., declare: _Optional[int] = ...) -> None: ...

class HinodeTakeResource(_message.Message):
    __slots__ = ("colour", "receiver")
    COLOUR_FIELD_NUMBER: _ClassVar[int]
    RECEIVER_FIELD_NUMBER: _ClassVar[int]
    colour: int
    receiver: int
    def __init__(self, colour: _Optional[int] = ..., receiver: _Optional[int] = ...) -> None: ...

class HinodeMove(_message.Message):
    __slots__ = ("choose_tribe", "choose_area", "play_card", "take_resource")
    CHOOSE_TRIBE_FIELD_NUMBER: _ClassVar[int]
    CHOOSE_AREA_FIELD_NUMBER: _ClassVar[int]
    PLAY_CARD_FIELD_NUMBER: _ClassVar[int]
    TAKE_RESOURCE_FIELD_NUMBER: _ClassVar[int]
    choose_tribe: HinodeChooseTribe
    choose_area: HinodeChooseArea
    play_card: HinodePlayCard
    take_resource: HinodeTakeResource
    def __init__(self, choose_tribe: _Optional[_Union[HinodeChooseTribe, _Mapping]] = ..., choose_area: _Optional[_Union[HinodeChooseArea, _Mapping]] = ..., play_card: _Optional[_Union[HinodePlayCard, _Mapping]] = ..., take_resource: _Optional[_Union[HinodeTakeResource, _Mapping]] = ...) -> None: ...

class HinodePlayed(_message.Message):
    __slots__ = ("trick", "seat", "move", "power", "follow")
    TRICK_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    MOVE_FIELD_NUMBER: _ClassVar[int]
    POWER_FIELD_NUMBER: _ClassVar[int]
    FOLLOW_FIELD_NUMBER: _ClassVar[int]
    trick: int
    seat: int
    move: HinodePlayCard
    power: int
    follow: bool
    def __init__(self, trick: _Optional[int] = ..., seat: _Optional[int] = ..., move: _Optional[_Union[HinodePlayCard, _Mapping]] = ..., power: _Optional[int] = ..., follow: _Optional[bool] = ...) -> None: ...

class HinodeView(_message.Message):
    __slots__ = ("seat", "num_players", "advanced", "vp", "layout", "cubes", "tribes", "hand", "hand_sizes", "heroes", "resources", "first", "second", "skill_markers", "trick", "phase", "actor", "start", "battlefield", "colour", "plays", "history", "hero_last", "ranking", "next_start")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    NUM_PLAYERS_FIELD_NUMBER: _ClassVar[int]
    ADVANCED_FIELD_NUMBER: _ClassVar[int]
    VP_FIELD_NUMBER: _ClassVar[int]
    LAYOUT_FIELD_NUMBER: _ClassVar[int]
    CUBES_FIELD_NUMBER: _ClassVar[int]
    TRIBES_FIELD_NUMBER: _ClassVar[int]
    HAND_FIELD_NUMBER: _ClassVar[int]
    HAND_SIZES_FIELD_NUMBER: _ClassVar[int]
    HEROES_FIELD_NUMBER: _ClassVar[int]
    RESOURCES_FIELD_NUMBER: _ClassVar[int]
    FIRST_FIELD_NUMBER: _ClassVar[int]
    SECOND_FIELD_NUMBER: _ClassVar[int]
    SKILL_MARKERS_FIELD_NUMBER: _ClassVar[int]
    TRICK_FIELD_NUMBER: _ClassVar[int]
    PHASE_FIELD_NUMBER: _ClassVar[int]
    ACTOR_FIELD_NUMBER: _ClassVar[int]
    START_FIELD_NUMBER: _ClassVar[int]
    BATTLEFIELD_FIELD_NUMBER: _ClassVar[int]
    COLOUR_FIELD_NUMBER: _ClassVar[int]
    PLAYS_FIELD_NUMBER: _ClassVar[int]
    HISTORY_FIELD_NUMBER: _ClassVar[int]
    HERO_LAST_FIELD_NUMBER: _ClassVar[int]
    RANKING_FIELD_NUMBER: _ClassVar[int]
    NEXT_START_FIELD_NUMBER: _ClassVar[int]
    seat: int
    num_players: int
    advanced: bool
    vp: _containers.RepeatedScalarFieldContainer[int]
    layout: _containers.RepeatedScalarFieldContainer[int]
    cubes: _containers.RepeatedScalarFieldContainer[int]
    tribes: _containers.RepeatedCompositeFieldContainer[_values_pb2.OptionalInt]
    hand: _containers.RepeatedScalarFieldContainer[int]
    hand_sizes: _containers.RepeatedScalarFieldContainer[int]
    heroes: _containers.RepeatedScalarFieldContainer[bool]
    resources: _containers.RepeatedScalarFieldContainer[int]
    first: _containers.RepeatedCompositeFieldContainer[_values_pb2.OptionalInt]
    second: _containers.RepeatedCompositeFieldContainer[_values_pb2.OptionalInt]
    skill_markers: _containers.RepeatedScalarFieldContainer[int]
    trick: int
    phase: str
    actor: int
    start: int
    battlefield: int
    colour: int
    plays: _containers.RepeatedCompositeFieldContainer[HinodePlayed]
    history: _containers.RepeatedCompositeFieldContainer[HinodePlayed]
    hero_last: int
    ranking: _containers.RepeatedScalarFieldContainer[int]
    next_start: int
    def __init__(self, seat: _Optional[int] = ..., num_players: _Optional[int] = ..., advanced: _Optional[bool] = ..., vp: _Optional[_Iterable[int]] = ..., layout: _Optional[_Iterable[int]] = ..., cubes: _Optional[_Iterable[int]] = ..., tribes: _Optional[_Iterable[_Union[_values_pb2.OptionalInt, _Mapping]]] = ..., hand: _Optional[_Iterable[int]] = ..., hand_sizes: _Optional[_Iterable[int]] = ..., heroes: _Optional[_Iterable[bool]] = ..., resources: _Optional[_Iterable[int]] = ..., first: _Optional[_Iterable[_Union[_values_pb2.OptionalInt, _Mapping]]] = ..., second: _Optional[_Iterable[_Union[_values_pb2.OptionalInt, _Mapping]]] = ..., skill_markers: _Optional[_Iterable[int]] = ..., trick: _Optional[int] = ..., phase: _Optional[str] = ..., actor: _Optional[int] = ..., start: _Optional[int] = ..., battlefield: _Optional[int] = ..., colour: _Optional[int] = ..., plays: _Optional[_Iterable[_Union[HinodePlayed, _Mapping]]] = ..., history: _Optional[_Iterable[_Union[HinodePlayed, _Mapping]]] = ..., hero_last: _Optional[int] = ..., ranking: _Optional[_Iterable[int]] = ..., next_start: _Optional[int] = ...) -> None: ...

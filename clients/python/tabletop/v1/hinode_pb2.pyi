from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class HinodeColour(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    HINODE_COLOUR_UNSPECIFIED: _ClassVar[HinodeColour]
    HINODE_COLOUR_RED: _ClassVar[HinodeColour]
    HINODE_COLOUR_BLUE: _ClassVar[HinodeColour]
    HINODE_COLOUR_YELLOW: _ClassVar[HinodeColour]
    HINODE_COLOUR_WHITE: _ClassVar[HinodeColour]

class HinodeTribe(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    HINODE_TRIBE_UNSPECIFIED: _ClassVar[HinodeTribe]
    HINODE_TRIBE_KANSAI_GOGAKUREN: _ClassVar[HinodeTribe]
    HINODE_TRIBE_BLUE_SAMURAI: _ClassVar[HinodeTribe]
    HINODE_TRIBE_YOZAKURA_KAI: _ClassVar[HinodeTribe]
    HINODE_TRIBE_CHARMONT: _ClassVar[HinodeTribe]

class HinodePhase(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    HINODE_PHASE_UNSPECIFIED: _ClassVar[HinodePhase]
    HINODE_PHASE_CHOOSE_TRIBE: _ClassVar[HinodePhase]
    HINODE_PHASE_CHOOSE_AREA: _ClassVar[HinodePhase]
    HINODE_PHASE_PLAY: _ClassVar[HinodePhase]
    HINODE_PHASE_PICK_RESOURCE: _ClassVar[HinodePhase]
    HINODE_PHASE_OVER: _ClassVar[HinodePhase]
HINODE_COLOUR_UNSPECIFIED: HinodeColour
HINODE_COLOUR_RED: HinodeColour
HINODE_COLOUR_BLUE: HinodeColour
HINODE_COLOUR_YELLOW: HinodeColour
HINODE_COLOUR_WHITE: HinodeColour
HINODE_TRIBE_UNSPECIFIED: HinodeTribe
HINODE_TRIBE_KANSAI_GOGAKUREN: HinodeTribe
HINODE_TRIBE_BLUE_SAMURAI: HinodeTribe
HINODE_TRIBE_YOZAKURA_KAI: HinodeTribe
HINODE_TRIBE_CHARMONT: HinodeTribe
HINODE_PHASE_UNSPECIFIED: HinodePhase
HINODE_PHASE_CHOOSE_TRIBE: HinodePhase
HINODE_PHASE_CHOOSE_AREA: HinodePhase
HINODE_PHASE_PLAY: HinodePhase
HINODE_PHASE_PICK_RESOURCE: HinodePhase
HINODE_PHASE_OVER: HinodePhase

class HinodeCard(_message.Message):
    __slots__ = ("hero", "suit", "number")
    HERO_FIELD_NUMBER: _ClassVar[int]
    SUIT_FIELD_NUMBER: _ClassVar[int]
    NUMBER_FIELD_NUMBER: _ClassVar[int]
    hero: bool
    suit: HinodeColour
    number: int
    def __init__(self, hero: _Optional[bool] = ..., suit: _Optional[_Union[HinodeColour, str]] = ..., number: _Optional[int] = ...) -> None: ...

class HinodeResources(_message.Message):
    __slots__ = ("red", "blue", "yellow")
    RED_FIELD_NUMBER: _ClassVar[int]
    BLUE_FIELD_NUMBER: _ClassVar[int]
    YELLOW_FIELD_NUMBER: _ClassVar[int]
    red: int
    blue: int
    yellow: int
    def __init__(self, red: _Optional[int] = ..., blue: _Optional[int] = ..., yellow: _Optional[int] = ...) -> None: ...

class HinodeNawabari(_message.Message):
    __slots__ = ("colour", "number", "first_place_vp", "second_place_vp")
    COLOUR_FIELD_NUMBER: _ClassVar[int]
    NUMBER_FIELD_NUMBER: _ClassVar[int]
    FIRST_PLACE_VP_FIELD_NUMBER: _ClassVar[int]
    SECOND_PLACE_VP_FIELD_NUMBER: _ClassVar[int]
    colour: HinodeColour
    number: int
    first_place_vp: int
    second_place_vp: int
    def __init__(self, colour: _Optional[_Union[HinodeColour, str]] = ..., number: _Optional[int] = ..., first_place_vp: _Optional[int] = ..., second_place_vp: _Optional[int] = ...) -> None: ...

class HinodeArea(_message.Message):
    __slots__ = ("row", "column", "nawabari", "resources", "first_place", "second_place", "samurai_markers")
    ROW_FIELD_NUMBER: _ClassVar[int]
    COLUMN_FIELD_NUMBER: _ClassVar[int]
    NAWABARI_FIELD_NUMBER: _ClassVar[int]
    RESOURCES_FIELD_NUMBER: _ClassVar[int]
    FIRST_PLACE_FIELD_NUMBER: _ClassVar[int]
    SECOND_PLACE_FIELD_NUMBER: _ClassVar[int]
    SAMURAI_MARKERS_FIELD_NUMBER: _ClassVar[int]
    row: int
    column: int
    nawabari: HinodeNawabari
    resources: HinodeResources
    first_place: int
    second_place: int
    samurai_markers: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, row: _Optional[int] = ..., column: _Optional[int] = ..., nawabari: _Optional[_Union[HinodeNawabari, _Mapping]] = ..., resources: _Optional[_Union[HinodeResources, _Mapping]] = ..., first_place: _Optional[int] = ..., second_place: _Optional[int] = ..., samurai_markers: _Optional[_Iterable[int]] = ...) -> None: ...

class HinodePosition(_message.Message):
    __slots__ = ("position", "proxy", "tribe", "hand_size", "hero_available", "resources")
    POSITION_FIELD_NUMBER: _ClassVar[int]
    PROXY_FIELD_NUMBER: _ClassVar[int]
    TRIBE_FIELD_NUMBER: _ClassVar[int]
    HAND_SIZE_FIELD_NUMBER: _ClassVar[int]
    HERO_AVAILABLE_FIELD_NUMBER: _ClassVar[int]
    RESOURCES_FIELD_NUMBER: _ClassVar[int]
    position: int
    proxy: bool
    tribe: HinodeTribe
    hand_size: int
    hero_available: bool
    resources: HinodeResources
    def __init__(self, position: _Optional[int] = ..., proxy: _Optional[bool] = ..., tribe: _Optional[_Union[HinodeTribe, str]] = ..., hand_size: _Optional[int] = ..., hero_available: _Optional[bool] = ..., resources: _Optional[_Union[HinodeResources, _Mapping]] = ...) -> None: ...

class HinodePlay(_message.Message):
    __slots__ = ("trick", "position", "play", "power", "follow")
    TRICK_FIELD_NUMBER: _ClassVar[int]
    POSITION_FIELD_NUMBER: _ClassVar[int]
    PLAY_FIELD_NUMBER: _ClassVar[int]
    POWER_FIELD_NUMBER: _ClassVar[int]
    FOLLOW_FIELD_NUMBER: _ClassVar[int]
    trick: int
    position: int
    play: HinodePlayCard
    power: int
    follow: bool
    def __init__(self, trick: _Optional[int] = ..., position: _Optional[int] = ..., play: _Optional[_Union[HinodePlayCard, _Mapping]] = ..., power: _Optional[int] = ..., follow: _Optional[bool] = ...) -> None: ...

class HinodeView(_message.Message):
    __slots__ = ("seat", "num_players", "advanced", "phase", "areas", "bonus_area", "positions", "hand", "tricks_done", "actor", "start_player", "battlefield", "battlefield_colour", "trick", "history", "hero_last", "ranking", "next_start_player")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    NUM_PLAYERS_FIELD_NUMBER: _ClassVar[int]
    ADVANCED_FIELD_NUMBER: _ClassVar[int]
    PHASE_FIELD_NUMBER: _ClassVar[int]
    AREAS_FIELD_NUMBER: _ClassVar[int]
    BONUS_AREA_FIELD_NUMBER: _ClassVar[int]
    POSITIONS_FIELD_NUMBER: _ClassVar[int]
    HAND_FIELD_NUMBER: _ClassVar[int]
    TRICKS_DONE_FIELD_NUMBER: _ClassVar[int]
    ACTOR_FIELD_NUMBER: _ClassVar[int]
    START_PLAYER_FIELD_NUMBER: _ClassVar[int]
    BATTLEFIELD_FIELD_NUMBER: _ClassVar[int]
    BATTLEFIELD_COLOUR_FIELD_NUMBER: _ClassVar[int]
    TRICK_FIELD_NUMBER: _ClassVar[int]
    HISTORY_FIELD_NUMBER: _ClassVar[int]
    HERO_LAST_FIELD_NUMBER: _ClassVar[int]
    RANKING_FIELD_NUMBER: _ClassVar[int]
    NEXT_START_PLAYER_FIELD_NUMBER: _ClassVar[int]
    seat: int
    num_players: int
    advanced: bool
    phase: HinodePhase
    areas: _containers.RepeatedCompositeFieldContainer[HinodeArea]
    bonus_area: HinodeArea
    positions: _containers.RepeatedCompositeFieldContainer[HinodePosition]
    hand: _containers.RepeatedCompositeFieldContainer[HinodeCard]
    tricks_done: int
    actor: int
    start_player: int
    battlefield: int
    battlefield_colour: HinodeColour
    trick: _containers.RepeatedCompositeFieldContainer[HinodePlay]
    history: _containers.RepeatedCompositeFieldContainer[HinodePlay]
    hero_last: int
    ranking: _containers.RepeatedScalarFieldContainer[int]
    next_start_player: int
    def __init__(self, seat: _Optional[int] = ..., num_players: _Optional[int] = ..., advanced: _Optional[bool] = ..., phase: _Optional[_Union[HinodePhase, str]] = ..., areas: _Optional[_Iterable[_Union[HinodeArea, _Mapping]]] = ..., bonus_area: _Optional[_Union[HinodeArea, _Mapping]] = ..., positions: _Optional[_Iterable[_Union[HinodePosition, _Mapping]]] = ..., hand: _Optional[_Iterable[_Union[HinodeCard, _Mapping]]] = ..., tricks_done: _Optional[int] = ..., actor: _Optional[int] = ..., start_player: _Optional[int] = ..., battlefield: _Optional[int] = ..., battlefield_colour: _Optional[_Union[HinodeColour, str]] = ..., trick: _Optional[_Iterable[_Union[HinodePlay, _Mapping]]] = ..., history: _Optional[_Iterable[_Union[HinodePlay, _Mapping]]] = ..., hero_last: _Optional[int] = ..., ranking: _Optional[_Iterable[int]] = ..., next_start_player: _Optional[int] = ...) -> None: ...

class HinodeChooseTribe(_message.Message):
    __slots__ = ("tribe",)
    TRIBE_FIELD_NUMBER: _ClassVar[int]
    tribe: HinodeTribe
    def __init__(self, tribe: _Optional[_Union[HinodeTribe, str]] = ...) -> None: ...

class HinodeChooseArea(_message.Message):
    __slots__ = ("area",)
    AREA_FIELD_NUMBER: _ClassVar[int]
    area: int
    def __init__(self, area: _Optional[int] = ...) -> None: ...

class HinodePlayCard(_message.Message):
    __slots__ = ("card", "resource", "skill", "skill_paid_with", "target_area", "target_position", "target_colour", "declared_colour")
    CARD_FIELD_NUMBER: _ClassVar[int]
    RESOURCE_FIELD_NUMBER: _ClassVar[int]
    SKILL_FIELD_NUMBER: _ClassVar[int]
    SKILL_PAID_WITH_FIELD_NUMBER: _ClassVar[int]
    TARGET_AREA_FIELD_NUMBER: _ClassVar[int]
    TARGET_POSITION_FIELD_NUMBER: _ClassVar[int]
    TARGET_COLOUR_FIELD_NUMBER: _ClassVar[int]
    DECLARED_COLOUR_FIELD_NUMBER: _ClassVar[int]
    card: HinodeCard
    resource: HinodeColour
    skill: HinodeTribe
    skill_paid_with: HinodeColour
    target_area: int
    target_position: int
    target_colour: HinodeColour
    declared_colour: HinodeColour
    def __init__(self, card: _Optional[_Union[HinodeCard, _Mapping]] = ..., resource: _Optional[_Union[HinodeColour, str]] = ..., skill: _Optional[_Union[HinodeTribe, str]] = ..., skill_paid_with: _Optional[_Union[HinodeColour, str]] = ..., target_area: _Optional[int] = ..., target_position: _Optional[int] = ..., target_colour: _Optional[_Union[HinodeColour, str]] = ..., declared_colour: _Optional[_Union[HinodeColour, str]] = ...) -> None: ...

class HinodeTakeResource(_message.Message):
    __slots__ = ("colour", "receiver")
    COLOUR_FIELD_NUMBER: _ClassVar[int]
    RECEIVER_FIELD_NUMBER: _ClassVar[int]
    colour: HinodeColour
    receiver: int
    def __init__(self, colour: _Optional[_Union[HinodeColour, str]] = ..., receiver: _Optional[int] = ...) -> None: ...

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

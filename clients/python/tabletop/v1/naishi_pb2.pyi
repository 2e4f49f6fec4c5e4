from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class NaishiCard(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    NAISHI_CARD_UNSPECIFIED: _ClassVar[NaishiCard]
    NAISHI_CARD_MOUNTAIN: _ClassVar[NaishiCard]
    NAISHI_CARD_NAISHI: _ClassVar[NaishiCard]
    NAISHI_CARD_ADVISOR: _ClassVar[NaishiCard]
    NAISHI_CARD_SENTINEL: _ClassVar[NaishiCard]
    NAISHI_CARD_MONK: _ClassVar[NaishiCard]
    NAISHI_CARD_HORSEMAN: _ClassVar[NaishiCard]
    NAISHI_CARD_RONIN: _ClassVar[NaishiCard]
    NAISHI_CARD_NINJA: _ClassVar[NaishiCard]
    NAISHI_CARD_FORT: _ClassVar[NaishiCard]
    NAISHI_CARD_TORII: _ClassVar[NaishiCard]
    NAISHI_CARD_RICE_FIELD: _ClassVar[NaishiCard]
    NAISHI_CARD_BANNER: _ClassVar[NaishiCard]

class NaishiPhase(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    NAISHI_PHASE_UNSPECIFIED: _ClassVar[NaishiPhase]
    NAISHI_PHASE_GIFT: _ClassVar[NaishiPhase]
    NAISHI_PHASE_TURN: _ClassVar[NaishiPhase]
    NAISHI_PHASE_OVER: _ClassVar[NaishiPhase]

class NaishiRow(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    NAISHI_ROW_UNSPECIFIED: _ClassVar[NaishiRow]
    NAISHI_ROW_HAND: _ClassVar[NaishiRow]
    NAISHI_ROW_LINE: _ClassVar[NaishiRow]

class NaishiSwitchKind(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    NAISHI_SWITCH_KIND_UNSPECIFIED: _ClassVar[NaishiSwitchKind]
    NAISHI_SWITCH_KIND_RIVER: _ClassVar[NaishiSwitchKind]
    NAISHI_SWITCH_KIND_LINE: _ClassVar[NaishiSwitchKind]
    NAISHI_SWITCH_KIND_HAND: _ClassVar[NaishiSwitchKind]
    NAISHI_SWITCH_KIND_COLUMN: _ClassVar[NaishiSwitchKind]

class NaishiCourtKind(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    NAISHI_COURT_KIND_UNSPECIFIED: _ClassVar[NaishiCourtKind]
    NAISHI_COURT_KIND_SWITCH: _ClassVar[NaishiCourtKind]
    NAISHI_COURT_KIND_DISCARD: _ClassVar[NaishiCourtKind]
    NAISHI_COURT_KIND_DECREE: _ClassVar[NaishiCourtKind]
NAISHI_CARD_UNSPECIFIED: NaishiCard
NAISHI_CARD_MOUNTAIN: NaishiCard
NAISHI_CARD_NAISHI: NaishiCard
NAISHI_CARD_ADVISOR: NaishiCard
NAISHI_CARD_SENTINEL: NaishiCard
NAISHI_CARD_MONK: NaishiCard
NAISHI_CARD_HORSEMAN: NaishiCard
NAISHI_CARD_RONIN: NaishiCard
NAISHI_CARD_NINJA: NaishiCard
NAISHI_CARD_FORT: NaishiCard
NAISHI_CARD_TORII: NaishiCard
NAISHI_CARD_RICE_FIELD: NaishiCard
NAISHI_CARD_BANNER: NaishiCard
NAISHI_PHASE_UNSPECIFIED: NaishiPhase
NAISHI_PHASE_GIFT: NaishiPhase
NAISHI_PHASE_TURN: NaishiPhase
NAISHI_PHASE_OVER: NaishiPhase
NAISHI_ROW_UNSPECIFIED: NaishiRow
NAISHI_ROW_HAND: NaishiRow
NAISHI_ROW_LINE: NaishiRow
NAISHI_SWITCH_KIND_UNSPECIFIED: NaishiSwitchKind
NAISHI_SWITCH_KIND_RIVER: NaishiSwitchKind
NAISHI_SWITCH_KIND_LINE: NaishiSwitchKind
NAISHI_SWITCH_KIND_HAND: NaishiSwitchKind
NAISHI_SWITCH_KIND_COLUMN: NaishiSwitchKind
NAISHI_COURT_KIND_UNSPECIFIED: NaishiCourtKind
NAISHI_COURT_KIND_SWITCH: NaishiCourtKind
NAISHI_COURT_KIND_DISCARD: NaishiCourtKind
NAISHI_COURT_KIND_DECREE: NaishiCourtKind

class NaishiHandKnowledge(_message.Message):
    __slots__ = ("places", "among")
    PLACES_FIELD_NUMBER: _ClassVar[int]
    AMONG_FIELD_NUMBER: _ClassVar[int]
    places: _containers.RepeatedScalarFieldContainer[NaishiCard]
    among: _containers.RepeatedScalarFieldContainer[NaishiCard]
    def __init__(self, places: _Optional[_Iterable[_Union[NaishiCard, str]]] = ..., among: _Optional[_Iterable[_Union[NaishiCard, str]]] = ...) -> None: ...

class NaishiTerritory(_message.Message):
    __slots__ = ("seat", "line", "hand", "gift_chosen", "known_to_opponent", "known_to_everyone")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    LINE_FIELD_NUMBER: _ClassVar[int]
    HAND_FIELD_NUMBER: _ClassVar[int]
    GIFT_CHOSEN_FIELD_NUMBER: _ClassVar[int]
    KNOWN_TO_OPPONENT_FIELD_NUMBER: _ClassVar[int]
    KNOWN_TO_EVERYONE_FIELD_NUMBER: _ClassVar[int]
    seat: int
    line: _containers.RepeatedScalarFieldContainer[NaishiCard]
    hand: _containers.RepeatedScalarFieldContainer[NaishiCard]
    gift_chosen: bool
    known_to_opponent: NaishiHandKnowledge
    known_to_everyone: NaishiHandKnowledge
    def __init__(self, seat: _Optional[int] = ..., line: _Optional[_Iterable[_Union[NaishiCard, str]]] = ..., hand: _Optional[_Iterable[_Union[NaishiCard, str]]] = ..., gift_chosen: _Optional[bool] = ..., known_to_opponent: _Optional[_Union[NaishiHandKnowledge, _Mapping]] = ..., known_to_everyone: _Optional[_Union[NaishiHandKnowledge, _Mapping]] = ...) -> None: ...

class NaishiRiverPile(_message.Message):
    __slots__ = ("top", "size")
    TOP_FIELD_NUMBER: _ClassVar[int]
    SIZE_FIELD_NUMBER: _ClassVar[int]
    top: NaishiCard
    size: int
    def __init__(self, top: _Optional[_Union[NaishiCard, str]] = ..., size: _Optional[int] = ...) -> None: ...

class NaishiCourtSpace(_message.Message):
    __slots__ = ("kind", "emissary")
    KIND_FIELD_NUMBER: _ClassVar[int]
    EMISSARY_FIELD_NUMBER: _ClassVar[int]
    kind: NaishiCourtKind
    emissary: int
    def __init__(self, kind: _Optional[_Union[NaishiCourtKind, str]] = ..., emissary: _Optional[int] = ...) -> None: ...

class NaishiView(_message.Message):
    __slots__ = ("seat", "phase", "first_player", "turn", "developed", "court_used", "final_turn", "declared_by", "offer", "gift_given", "gift_received", "territories", "river", "discard", "court")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    PHASE_FIELD_NUMBER: _ClassVar[int]
    FIRST_PLAYER_FIELD_NUMBER: _ClassVar[int]
    TURN_FIELD_NUMBER: _ClassVar[int]
    DEVELOPED_FIELD_NUMBER: _ClassVar[int]
    COURT_USED_FIELD_NUMBER: _ClassVar[int]
    FINAL_TURN_FIELD_NUMBER: _ClassVar[int]
    DECLARED_BY_FIELD_NUMBER: _ClassVar[int]
    OFFER_FIELD_NUMBER: _ClassVar[int]
    GIFT_GIVEN_FIELD_NUMBER: _ClassVar[int]
    GIFT_RECEIVED_FIELD_NUMBER: _ClassVar[int]
    TERRITORIES_FIELD_NUMBER: _ClassVar[int]
    RIVER_FIELD_NUMBER: _ClassVar[int]
    DISCARD_FIELD_NUMBER: _ClassVar[int]
    COURT_FIELD_NUMBER: _ClassVar[int]
    seat: int
    phase: NaishiPhase
    first_player: int
    turn: int
    developed: bool
    court_used: bool
    final_turn: int
    declared_by: int
    offer: _containers.RepeatedScalarFieldContainer[NaishiCard]
    gift_given: NaishiCard
    gift_received: NaishiCard
    territories: _containers.RepeatedCompositeFieldContainer[NaishiTerritory]
    river: _containers.RepeatedCompositeFieldContainer[NaishiRiverPile]
    discard: _containers.RepeatedScalarFieldContainer[NaishiCard]
    court: _containers.RepeatedCompositeFieldContainer[NaishiCourtSpace]
    def __init__(self, seat: _Optional[int] = ..., phase: _Optional[_Union[NaishiPhase, str]] = ..., first_player: _Optional[int] = ..., turn: _Optional[int] = ..., developed: _Optional[bool] = ..., court_used: _Optional[bool] = ..., final_turn: _Optional[int] = ..., declared_by: _Optional[int] = ..., offer: _Optional[_Iterable[_Union[NaishiCard, str]]] = ..., gift_given: _Optional[_Union[NaishiCard, str]] = ..., gift_received: _Optional[_Union[NaishiCard, str]] = ..., territories: _Optional[_Iterable[_Union[NaishiTerritory, _Mapping]]] = ..., river: _Optional[_Iterable[_Union[NaishiRiverPile, _Mapping]]] = ..., discard: _Optional[_Iterable[_Union[NaishiCard, str]]] = ..., court: _Optional[_Iterable[_Union[NaishiCourtSpace, _Mapping]]] = ...) -> None: ...

class NaishiGive(_message.Message):
    __slots__ = ("card",)
    CARD_FIELD_NUMBER: _ClassVar[int]
    card: NaishiCard
    def __init__(self, card: _Optional[_Union[NaishiCard, str]] = ...) -> None: ...

class NaishiDevelop(_message.Message):
    __slots__ = ("row", "place")
    ROW_FIELD_NUMBER: _ClassVar[int]
    PLACE_FIELD_NUMBER: _ClassVar[int]
    row: NaishiRow
    place: int
    def __init__(self, row: _Optional[_Union[NaishiRow, str]] = ..., place: _Optional[int] = ...) -> None: ...

class NaishiSwitch(_message.Message):
    __slots__ = ("kind", "first_place", "second_place")
    KIND_FIELD_NUMBER: _ClassVar[int]
    FIRST_PLACE_FIELD_NUMBER: _ClassVar[int]
    SECOND_PLACE_FIELD_NUMBER: _ClassVar[int]
    kind: NaishiSwitchKind
    first_place: int
    second_place: int
    def __init__(self, kind: _Optional[_Union[NaishiSwitchKind, str]] = ..., first_place: _Optional[int] = ..., second_place: _Optional[int] = ...) -> None: ...

class NaishiDiscardRiver(_message.Message):
    __slots__ = ("first_pile", "second_pile")
    FIRST_PILE_FIELD_NUMBER: _ClassVar[int]
    SECOND_PILE_FIELD_NUMBER: _ClassVar[int]
    first_pile: int
    second_pile: int
    def __init__(self, first_pile: _Optional[int] = ..., second_pile: _Optional[int] = ...) -> None: ...

class NaishiDecree(_message.Message):
    __slots__ = ("row", "place")
    ROW_FIELD_NUMBER: _ClassVar[int]
    PLACE_FIELD_NUMBER: _ClassVar[int]
    row: NaishiRow
    place: int
    def __init__(self, row: _Optional[_Union[NaishiRow, str]] = ..., place: _Optional[int] = ...) -> None: ...

class NaishiRecall(_message.Message):
    __slots__ = ("spaces",)
    SPACES_FIELD_NUMBER: _ClassVar[int]
    spaces: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, spaces: _Optional[_Iterable[int]] = ...) -> None: ...

class NaishiDeclareEnd(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class NaishiEndTurn(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class NaishiMove(_message.Message):
    __slots__ = ("give", "develop", "switch_cards", "discard_river", "decree", "recall", "declare_end", "end_turn")
    GIVE_FIELD_NUMBER: _ClassVar[int]
    DEVELOP_FIELD_NUMBER: _ClassVar[int]
    SWITCH_CARDS_FIELD_NUMBER: _ClassVar[int]
    DISCARD_RIVER_FIELD_NUMBER: _ClassVar[int]
    DECREE_FIELD_NUMBER: _ClassVar[int]
    RECALL_FIELD_NUMBER: _ClassVar[int]
    DECLARE_END_FIELD_NUMBER: _ClassVar[int]
    END_TURN_FIELD_NUMBER: _ClassVar[int]
    give: NaishiGive
    develop: NaishiDevelop
    switch_cards: NaishiSwitch
    discard_river: NaishiDiscardRiver
    decree: NaishiDecree
    recall: NaishiRecall
    declare_end: NaishiDeclareEnd
    end_turn: NaishiEndTurn
    def __init__(self, give: _Optional[_Union[NaishiGive, _Mapping]] = ..., develop: _Optional[_Union[NaishiDevelop, _Mapping]] = ..., switch_cards: _Optional[_Union[NaishiSwitch, _Mapping]] = ..., discard_river: _Optional[_Union[NaishiDiscardRiver, _Mapping]] = ..., decree: _Optional[_Union[NaishiDecree, _Mapping]] = ..., recall: _Optional[_Union[NaishiRecall, _Mapping]] = ..., declare_end: _Optional[_Union[NaishiDeclareEnd, _Mapping]] = ..., end_turn: _Optional[_Union[NaishiEndTurn, _Mapping]] = ...) -> None: ...

class NaishiScoreBreakdown(_message.Message):
    __slots__ = ("mountain", "naishi", "advisor", "monk", "rice_field", "banner", "horseman", "fort", "sentinel", "torii", "ronin")
    MOUNTAIN_FIELD_NUMBER: _ClassVar[int]
    NAISHI_FIELD_NUMBER: _ClassVar[int]
    ADVISOR_FIELD_NUMBER: _ClassVar[int]
    MONK_FIELD_NUMBER: _ClassVar[int]
    RICE_FIELD_FIELD_NUMBER: _ClassVar[int]
    BANNER_FIELD_NUMBER: _ClassVar[int]
    HORSEMAN_FIELD_NUMBER: _ClassVar[int]
    FORT_FIELD_NUMBER: _ClassVar[int]
    SENTINEL_FIELD_NUMBER: _ClassVar[int]
    TORII_FIELD_NUMBER: _ClassVar[int]
    RONIN_FIELD_NUMBER: _ClassVar[int]
    mountain: int
    naishi: int
    advisor: int
    monk: int
    rice_field: int
    banner: int
    horseman: int
    fort: int
    sentinel: int
    torii: int
    ronin: int
    def __init__(self, mountain: _Optional[int] = ..., naishi: _Optional[int] = ..., advisor: _Optional[int] = ..., monk: _Optional[int] = ..., rice_field: _Optional[int] = ..., banner: _Optional[int] = ..., horseman: _Optional[int] = ..., fort: _Optional[int] = ..., sentinel: _Optional[int] = ..., torii: _Optional[int] = ..., ronin: _Optional[int] = ...) -> None: ...

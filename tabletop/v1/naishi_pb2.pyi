from tabletop.v1 import values_pb2 as _values_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class NaishiGive(_message.Message):
    __slots__ = ("card",)
    CARD_FIELD_NUMBER: _ClassVar[int]
    card: int
    def __init__(self, card: _Optional[int] = ...) -> None: ...

class NaishiDevelop(_message.Message):
    __slots__ = ("row", "pos")
    ROW_FIELD_NUMBER: _ClassVar[int]
    POS_FIELD_NUMBER: _ClassVar[int]
    row: str
    pos: int
    def __init__(self, row: _Optional[str] = ..., pos: _Optional[int] = ...) -> None: ...

class NaishiSwitch(_message.Message):
    __slots__ = ("kind", "a", "b")
    KIND_FIELD_NUMBER: _ClassVar[int]
    A_FIELD_NUMBER: _ClassVar[int]
    B_FIELD_NUMBER: _ClassVar[int]
    kind: str
    a: int
    b: int
    def __init__(self, kind: _Optional[str] = ..., a: _Optional[int] = ..., b: _Optional[int] = ...) -> None: ...

class NaishiDiscardRiver(_message.Message):
    __slots__ = ("a", "b")
    A_FIELD_NUMBER: _ClassVar[int]
    B_FIELD_NUMBER: _ClassVar[int]
    a: int
    b: int
    def __init__(self, a: _Optional[int] = ..., b: _Optional[int] = ...) -> None: ...

class NaishiDecree(_message.Message):
    __slots__ = ("row", "pos")
    ROW_FIELD_NUMBER: _ClassVar[int]
    POS_FIELD_NUMBER: _ClassVar[int]
    row: str
    pos: int
    def __init__(self, row: _Optional[str] = ..., pos: _Optional[int] = ...) -> None: ...

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
    __slots__ = ("give", "develop", "switch", "discard_river", "decree", "recall", "declare_end", "end_turn")
    GIVE_FIELD_NUMBER: _ClassVar[int]
    DEVELOP_FIELD_NUMBER: _ClassVar[int]
    SWITCH_FIELD_NUMBER: _ClassVar[int]
    DISCARD_RIVER_FIELD_NUMBER: _ClassVar[int]
    DECREE_FIELD_NUMBER: _ClassVar[int]
    RECALL_FIELD_NUMBER: _ClassVar[int]
    DECLARE_END_FIELD_NUMBER: _ClassVar[int]
    END_TURN_FIELD_NUMBER: _ClassVar[int]
    give: NaishiGive
    develop: NaishiDevelop
    switch: NaishiSwitch
    discard_river: NaishiDiscardRiver
    decree: NaishiDecree
    recall: NaishiRecall
    declare_end: NaishiDeclareEnd
    end_turn: NaishiEndTurn
    def __init__(self, give: _Optional[_Union[NaishiGive, _Mapping]] = ..., develop: _Optional[_Union[NaishiDevelop, _Mapping]] = ..., switch: _Optional[_Union[NaishiSwitch, _Mapping]] = ..., discard_river: _Optional[_Union[NaishiDiscardRiver, _Mapping]] = ..., decree: _Optional[_Union[NaishiDecree, _Mapping]] = ..., recall: _Optional[_Union[NaishiRecall, _Mapping]] = ..., declare_end: _Optional[_Union[NaishiDeclareEnd, _Mapping]] = ..., end_turn: _Optional[_Union[NaishiEndTurn, _Mapping]] = ...) -> None: ...

class NaishiHandKnowledge(_message.Message):
    __slots__ = ("slots", "among")
    SLOTS_FIELD_NUMBER: _ClassVar[int]
    AMONG_FIELD_NUMBER: _ClassVar[int]
    slots: _containers.RepeatedCompositeFieldContainer[_values_pb2.OptionalInt]
    among: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, slots: _Optional[_Iterable[_Union[_values_pb2.OptionalInt, _Mapping]]] = ..., among: _Optional[_Iterable[int]] = ...) -> None: ...

class NaishiKnowledgeEntry(_message.Message):
    __slots__ = ("value",)
    VALUE_FIELD_NUMBER: _ClassVar[int]
    value: NaishiHandKnowledge
    def __init__(self, value: _Optional[_Union[NaishiHandKnowledge, _Mapping]] = ...) -> None: ...

class NaishiView(_message.Message):
    __slots__ = ("seat", "phase", "first", "turn", "developed", "court_used", "final_turn", "declared_by", "offer", "gifts_chosen", "gift_given", "gift_received", "hand", "revealed_hands", "lines", "river", "pile_sizes", "discard", "court", "knowledge", "log")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    PHASE_FIELD_NUMBER: _ClassVar[int]
    FIRST_FIELD_NUMBER: _ClassVar[int]
    TURN_FIELD_NUMBER: _ClassVar[int]
    DEVELOPED_FIELD_NUMBER: _ClassVar[int]
    COURT_USED_FIELD_NUMBER: _ClassVar[int]
    FINAL_TURN_FIELD_NUMBER: _ClassVar[int]
    DECLARED_BY_FIELD_NUMBER: _ClassVar[int]
    OFFER_FIELD_NUMBER: _ClassVar[int]
    GIFTS_CHOSEN_FIELD_NUMBER: _ClassVar[int]
    GIFT_GIVEN_FIELD_NUMBER: _ClassVar[int]
    GIFT_RECEIVED_FIELD_NUMBER: _ClassVar[int]
    HAND_FIELD_NUMBER: _ClassVar[int]
    REVEALED_HANDS_FIELD_NUMBER: _ClassVar[int]
    LINES_FIELD_NUMBER: _ClassVar[int]
    RIVER_FIELD_NUMBER: _ClassVar[int]
    PILE_SIZES_FIELD_NUMBER: _ClassVar[int]
    DISCARD_FIELD_NUMBER: _ClassVar[int]
    COURT_FIELD_NUMBER: _ClassVar[int]
    KNOWLEDGE_FIELD_NUMBER: _ClassVar[int]
    LOG_FIELD_NUMBER: _ClassVar[int]
    seat: int
    phase: str
    first: int
    turn: int
    developed: bool
    court_used: bool
    final_turn: int
    declared_by: int
    offer: _containers.RepeatedScalarFieldContainer[int]
    gifts_chosen: _containers.RepeatedScalarFieldContainer[bool]
    gift_given: int
    gift_received: int
    hand: _containers.RepeatedScalarFieldContainer[int]
    revealed_hands: _containers.RepeatedCompositeFieldContainer[_values_pb2.IntList]
    lines: _containers.RepeatedCompositeFieldContainer[_values_pb2.IntList]
    river: _containers.RepeatedCompositeFieldContainer[_values_pb2.OptionalInt]
    pile_sizes: _containers.RepeatedScalarFieldContainer[int]
    discard: _containers.RepeatedScalarFieldContainer[int]
    court: _containers.RepeatedCompositeFieldContainer[_values_pb2.OptionalInt]
    knowledge: _containers.RepeatedCompositeFieldContainer[NaishiKnowledgeEntry]
    log: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, seat: _Optional[int] = ..., phase: _Optional[str] = ..., first: _Optional[int] = ..., turn: _Optional[int] = ..., developed: _Optional[bool] = ..., court_used: _Optional[bool] = ..., final_turn: _Optional[int] = ..., declared_by: _Optional[int] = ..., offer: _Optional[_Iterable[int]] = ..., gifts_chosen: _Optional[_Iterable[bool]] = ..., gift_given: _Optional[int] = ..., gift_received: _Optional[int] = ..., hand: _Optional[_Iterable[int]] = ..., revealed_hands: _Optional[_Iterable[_Union[_values_pb2.IntList, _Mapping]]] = ..., lines: _Optional[_Iterable[_Union[_values_pb2.IntList, _Mapping]]] = ..., river: _Optional[_Iterable[_Union[_values_pb2.OptionalInt, _Mapping]]] = ..., pile_sizes: _Optional[_Iterable[int]] = ..., discard: _Optional[_Iterable[int]] = ..., court: _Optional[_Iterable[_Union[_values_pb2.OptionalInt, _Mapping]]] = ..., knowledge: _Optional[_Iterable[_Union[NaishiKnowledgeEntry, _Mapping]]] = ..., log: _Optional[_Iterable[str]] = ...) -> None: ...

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

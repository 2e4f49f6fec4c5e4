from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class ZipangCard(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    ZIPANG_CARD_UNSPECIFIED: _ClassVar[ZipangCard]
    ZIPANG_CARD_KABUKI: _ClassVar[ZipangCard]
    ZIPANG_CARD_PEASANT: _ClassVar[ZipangCard]
    ZIPANG_CARD_BANDIT: _ClassVar[ZipangCard]
    ZIPANG_CARD_MERCHANT: _ClassVar[ZipangCard]
    ZIPANG_CARD_PRINCESS: _ClassVar[ZipangCard]
    ZIPANG_CARD_CAPTAIN: _ClassVar[ZipangCard]
    ZIPANG_CARD_COMMANDER: _ClassVar[ZipangCard]
    ZIPANG_CARD_WARLORD: _ClassVar[ZipangCard]
    ZIPANG_CARD_MONK: _ClassVar[ZipangCard]
    ZIPANG_CARD_EMPEROR: _ClassVar[ZipangCard]
    ZIPANG_CARD_SHRINE_MAIDEN: _ClassVar[ZipangCard]

class ZipangPhase(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    ZIPANG_PHASE_UNSPECIFIED: _ClassVar[ZipangPhase]
    ZIPANG_PHASE_PLAY: _ClassVar[ZipangPhase]
    ZIPANG_PHASE_REACT: _ClassVar[ZipangPhase]
    ZIPANG_PHASE_TAKE: _ClassVar[ZipangPhase]
    ZIPANG_PHASE_USE: _ClassVar[ZipangPhase]
    ZIPANG_PHASE_OVER: _ClassVar[ZipangPhase]

class ZipangAnswer(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    ZIPANG_ANSWER_UNSPECIFIED: _ClassVar[ZipangAnswer]
    ZIPANG_ANSWER_MONK: _ClassVar[ZipangAnswer]
    ZIPANG_ANSWER_COIN_BLOCK: _ClassVar[ZipangAnswer]
    ZIPANG_ANSWER_DEFEND: _ClassVar[ZipangAnswer]
    ZIPANG_ANSWER_ACCEPT: _ClassVar[ZipangAnswer]
ZIPANG_CARD_UNSPECIFIED: ZipangCard
ZIPANG_CARD_KABUKI: ZipangCard
ZIPANG_CARD_PEASANT: ZipangCard
ZIPANG_CARD_BANDIT: ZipangCard
ZIPANG_CARD_MERCHANT: ZipangCard
ZIPANG_CARD_PRINCESS: ZipangCard
ZIPANG_CARD_CAPTAIN: ZipangCard
ZIPANG_CARD_COMMANDER: ZipangCard
ZIPANG_CARD_WARLORD: ZipangCard
ZIPANG_CARD_MONK: ZipangCard
ZIPANG_CARD_EMPEROR: ZipangCard
ZIPANG_CARD_SHRINE_MAIDEN: ZipangCard
ZIPANG_PHASE_UNSPECIFIED: ZipangPhase
ZIPANG_PHASE_PLAY: ZipangPhase
ZIPANG_PHASE_REACT: ZipangPhase
ZIPANG_PHASE_TAKE: ZipangPhase
ZIPANG_PHASE_USE: ZipangPhase
ZIPANG_PHASE_OVER: ZipangPhase
ZIPANG_ANSWER_UNSPECIFIED: ZipangAnswer
ZIPANG_ANSWER_MONK: ZipangAnswer
ZIPANG_ANSWER_COIN_BLOCK: ZipangAnswer
ZIPANG_ANSWER_DEFEND: ZipangAnswer
ZIPANG_ANSWER_ACCEPT: ZipangAnswer

class ZipangCardType(_message.Message):
    __slots__ = ("card", "battle_points", "honor_points", "copies")
    CARD_FIELD_NUMBER: _ClassVar[int]
    BATTLE_POINTS_FIELD_NUMBER: _ClassVar[int]
    HONOR_POINTS_FIELD_NUMBER: _ClassVar[int]
    COPIES_FIELD_NUMBER: _ClassVar[int]
    card: ZipangCard
    battle_points: int
    honor_points: int
    copies: int
    def __init__(self, card: _Optional[_Union[ZipangCard, str]] = ..., battle_points: _Optional[int] = ..., honor_points: _Optional[int] = ..., copies: _Optional[int] = ...) -> None: ...

class ZipangPlayer(_message.Message):
    __slots__ = ("seat", "coins", "hand_size", "in_battle", "had_turn", "known_cards", "knows_of_your_hand", "last_play", "last_answer")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    COINS_FIELD_NUMBER: _ClassVar[int]
    HAND_SIZE_FIELD_NUMBER: _ClassVar[int]
    IN_BATTLE_FIELD_NUMBER: _ClassVar[int]
    HAD_TURN_FIELD_NUMBER: _ClassVar[int]
    KNOWN_CARDS_FIELD_NUMBER: _ClassVar[int]
    KNOWS_OF_YOUR_HAND_FIELD_NUMBER: _ClassVar[int]
    LAST_PLAY_FIELD_NUMBER: _ClassVar[int]
    LAST_ANSWER_FIELD_NUMBER: _ClassVar[int]
    seat: int
    coins: int
    hand_size: int
    in_battle: bool
    had_turn: bool
    known_cards: _containers.RepeatedScalarFieldContainer[ZipangCard]
    knows_of_your_hand: _containers.RepeatedScalarFieldContainer[ZipangCard]
    last_play: ZipangDecision
    last_answer: ZipangDecision
    def __init__(self, seat: _Optional[int] = ..., coins: _Optional[int] = ..., hand_size: _Optional[int] = ..., in_battle: _Optional[bool] = ..., had_turn: _Optional[bool] = ..., known_cards: _Optional[_Iterable[_Union[ZipangCard, str]]] = ..., knows_of_your_hand: _Optional[_Iterable[_Union[ZipangCard, str]]] = ..., last_play: _Optional[_Union[ZipangDecision, _Mapping]] = ..., last_answer: _Optional[_Union[ZipangDecision, _Mapping]] = ...) -> None: ...

class ZipangDecision(_message.Message):
    __slots__ = ("move", "kept", "held", "coins", "coin_area", "hand_sizes", "discard", "in_battle", "had_turn", "knew_of_your_hand", "attack_strength")
    MOVE_FIELD_NUMBER: _ClassVar[int]
    KEPT_FIELD_NUMBER: _ClassVar[int]
    HELD_FIELD_NUMBER: _ClassVar[int]
    COINS_FIELD_NUMBER: _ClassVar[int]
    COIN_AREA_FIELD_NUMBER: _ClassVar[int]
    HAND_SIZES_FIELD_NUMBER: _ClassVar[int]
    DISCARD_FIELD_NUMBER: _ClassVar[int]
    IN_BATTLE_FIELD_NUMBER: _ClassVar[int]
    HAD_TURN_FIELD_NUMBER: _ClassVar[int]
    KNEW_OF_YOUR_HAND_FIELD_NUMBER: _ClassVar[int]
    ATTACK_STRENGTH_FIELD_NUMBER: _ClassVar[int]
    move: ZipangMove
    kept: int
    held: int
    coins: _containers.RepeatedScalarFieldContainer[int]
    coin_area: int
    hand_sizes: _containers.RepeatedScalarFieldContainer[int]
    discard: _containers.RepeatedScalarFieldContainer[ZipangCard]
    in_battle: _containers.RepeatedScalarFieldContainer[bool]
    had_turn: _containers.RepeatedScalarFieldContainer[bool]
    knew_of_your_hand: _containers.RepeatedScalarFieldContainer[ZipangCard]
    attack_strength: int
    def __init__(self, move: _Optional[_Union[ZipangMove, _Mapping]] = ..., kept: _Optional[int] = ..., held: _Optional[int] = ..., coins: _Optional[_Iterable[int]] = ..., coin_area: _Optional[int] = ..., hand_sizes: _Optional[_Iterable[int]] = ..., discard: _Optional[_Iterable[_Union[ZipangCard, str]]] = ..., in_battle: _Optional[_Iterable[bool]] = ..., had_turn: _Optional[_Iterable[bool]] = ..., knew_of_your_hand: _Optional[_Iterable[_Union[ZipangCard, str]]] = ..., attack_strength: _Optional[int] = ...) -> None: ...

class ZipangBattleResult(_message.Message):
    __slots__ = ("battle", "winner")
    BATTLE_FIELD_NUMBER: _ClassVar[int]
    WINNER_FIELD_NUMBER: _ClassVar[int]
    battle: int
    winner: int
    def __init__(self, battle: _Optional[int] = ..., winner: _Optional[int] = ...) -> None: ...

class ZipangEffect(_message.Message):
    __slots__ = ("user", "card", "ikki", "attack_strength", "targets", "looked_at", "usable", "taken_card")
    USER_FIELD_NUMBER: _ClassVar[int]
    CARD_FIELD_NUMBER: _ClassVar[int]
    IKKI_FIELD_NUMBER: _ClassVar[int]
    ATTACK_STRENGTH_FIELD_NUMBER: _ClassVar[int]
    TARGETS_FIELD_NUMBER: _ClassVar[int]
    LOOKED_AT_FIELD_NUMBER: _ClassVar[int]
    USABLE_FIELD_NUMBER: _ClassVar[int]
    TAKEN_CARD_FIELD_NUMBER: _ClassVar[int]
    user: int
    card: ZipangCard
    ikki: bool
    attack_strength: int
    targets: _containers.RepeatedScalarFieldContainer[int]
    looked_at: int
    usable: _containers.RepeatedScalarFieldContainer[ZipangCard]
    taken_card: ZipangCard
    def __init__(self, user: _Optional[int] = ..., card: _Optional[_Union[ZipangCard, str]] = ..., ikki: _Optional[bool] = ..., attack_strength: _Optional[int] = ..., targets: _Optional[_Iterable[int]] = ..., looked_at: _Optional[int] = ..., usable: _Optional[_Iterable[_Union[ZipangCard, str]]] = ..., taken_card: _Optional[_Union[ZipangCard, str]] = ...) -> None: ...

class ZipangReaction(_message.Message):
    __slots__ = ("seat", "from_seat", "card", "ikki", "attack_strength", "coin_block_allowed", "monk_allowed", "defence")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    FROM_SEAT_FIELD_NUMBER: _ClassVar[int]
    CARD_FIELD_NUMBER: _ClassVar[int]
    IKKI_FIELD_NUMBER: _ClassVar[int]
    ATTACK_STRENGTH_FIELD_NUMBER: _ClassVar[int]
    COIN_BLOCK_ALLOWED_FIELD_NUMBER: _ClassVar[int]
    MONK_ALLOWED_FIELD_NUMBER: _ClassVar[int]
    DEFENCE_FIELD_NUMBER: _ClassVar[int]
    seat: int
    from_seat: int
    card: ZipangCard
    ikki: bool
    attack_strength: int
    coin_block_allowed: bool
    monk_allowed: bool
    defence: int
    def __init__(self, seat: _Optional[int] = ..., from_seat: _Optional[int] = ..., card: _Optional[_Union[ZipangCard, str]] = ..., ikki: _Optional[bool] = ..., attack_strength: _Optional[int] = ..., coin_block_allowed: _Optional[bool] = ..., monk_allowed: _Optional[bool] = ..., defence: _Optional[int] = ...) -> None: ...

class ZipangView(_message.Message):
    __slots__ = ("seat", "phase", "card_types", "players", "hand", "coin_area", "battle", "battle_starter", "battle_results", "draw_pile_size", "face_down_discards", "discard", "active", "actor", "effect", "reaction")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    PHASE_FIELD_NUMBER: _ClassVar[int]
    CARD_TYPES_FIELD_NUMBER: _ClassVar[int]
    PLAYERS_FIELD_NUMBER: _ClassVar[int]
    HAND_FIELD_NUMBER: _ClassVar[int]
    COIN_AREA_FIELD_NUMBER: _ClassVar[int]
    BATTLE_FIELD_NUMBER: _ClassVar[int]
    BATTLE_STARTER_FIELD_NUMBER: _ClassVar[int]
    BATTLE_RESULTS_FIELD_NUMBER: _ClassVar[int]
    DRAW_PILE_SIZE_FIELD_NUMBER: _ClassVar[int]
    FACE_DOWN_DISCARDS_FIELD_NUMBER: _ClassVar[int]
    DISCARD_FIELD_NUMBER: _ClassVar[int]
    ACTIVE_FIELD_NUMBER: _ClassVar[int]
    ACTOR_FIELD_NUMBER: _ClassVar[int]
    EFFECT_FIELD_NUMBER: _ClassVar[int]
    REACTION_FIELD_NUMBER: _ClassVar[int]
    seat: int
    phase: ZipangPhase
    card_types: _containers.RepeatedCompositeFieldContainer[ZipangCardType]
    players: _containers.RepeatedCompositeFieldContainer[ZipangPlayer]
    hand: _containers.RepeatedScalarFieldContainer[ZipangCard]
    coin_area: int
    battle: int
    battle_starter: int
    battle_results: _containers.RepeatedCompositeFieldContainer[ZipangBattleResult]
    draw_pile_size: int
    face_down_discards: int
    discard: _containers.RepeatedScalarFieldContainer[ZipangCard]
    active: int
    actor: int
    effect: ZipangEffect
    reaction: ZipangReaction
    def __init__(self, seat: _Optional[int] = ..., phase: _Optional[_Union[ZipangPhase, str]] = ..., card_types: _Optional[_Iterable[_Union[ZipangCardType, _Mapping]]] = ..., players: _Optional[_Iterable[_Union[ZipangPlayer, _Mapping]]] = ..., hand: _Optional[_Iterable[_Union[ZipangCard, str]]] = ..., coin_area: _Optional[int] = ..., battle: _Optional[int] = ..., battle_starter: _Optional[int] = ..., battle_results: _Optional[_Iterable[_Union[ZipangBattleResult, _Mapping]]] = ..., draw_pile_size: _Optional[int] = ..., face_down_discards: _Optional[int] = ..., discard: _Optional[_Iterable[_Union[ZipangCard, str]]] = ..., active: _Optional[int] = ..., actor: _Optional[int] = ..., effect: _Optional[_Union[ZipangEffect, _Mapping]] = ..., reaction: _Optional[_Union[ZipangReaction, _Mapping]] = ...) -> None: ...

class ZipangPlay(_message.Message):
    __slots__ = ("card", "targets", "ikki")
    CARD_FIELD_NUMBER: _ClassVar[int]
    TARGETS_FIELD_NUMBER: _ClassVar[int]
    IKKI_FIELD_NUMBER: _ClassVar[int]
    card: ZipangCard
    targets: _containers.RepeatedScalarFieldContainer[int]
    ikki: bool
    def __init__(self, card: _Optional[_Union[ZipangCard, str]] = ..., targets: _Optional[_Iterable[int]] = ..., ikki: _Optional[bool] = ...) -> None: ...

class ZipangUse(_message.Message):
    __slots__ = ("card", "targets", "ikki")
    CARD_FIELD_NUMBER: _ClassVar[int]
    TARGETS_FIELD_NUMBER: _ClassVar[int]
    IKKI_FIELD_NUMBER: _ClassVar[int]
    card: ZipangCard
    targets: _containers.RepeatedScalarFieldContainer[int]
    ikki: bool
    def __init__(self, card: _Optional[_Union[ZipangCard, str]] = ..., targets: _Optional[_Iterable[int]] = ..., ikki: _Optional[bool] = ...) -> None: ...

class ZipangTake(_message.Message):
    __slots__ = ("card", "from_seat")
    CARD_FIELD_NUMBER: _ClassVar[int]
    FROM_SEAT_FIELD_NUMBER: _ClassVar[int]
    card: ZipangCard
    from_seat: int
    def __init__(self, card: _Optional[_Union[ZipangCard, str]] = ..., from_seat: _Optional[int] = ...) -> None: ...

class ZipangReact(_message.Message):
    __slots__ = ("answer", "card", "ikki")
    ANSWER_FIELD_NUMBER: _ClassVar[int]
    CARD_FIELD_NUMBER: _ClassVar[int]
    IKKI_FIELD_NUMBER: _ClassVar[int]
    answer: ZipangAnswer
    card: ZipangCard
    ikki: bool
    def __init__(self, answer: _Optional[_Union[ZipangAnswer, str]] = ..., card: _Optional[_Union[ZipangCard, str]] = ..., ikki: _Optional[bool] = ...) -> None: ...

class ZipangMove(_message.Message):
    __slots__ = ("play", "use", "take", "react")
    PLAY_FIELD_NUMBER: _ClassVar[int]
    USE_FIELD_NUMBER: _ClassVar[int]
    TAKE_FIELD_NUMBER: _ClassVar[int]
    REACT_FIELD_NUMBER: _ClassVar[int]
    play: ZipangPlay
    use: ZipangUse
    take: ZipangTake
    react: ZipangReact
    def __init__(self, play: _Optional[_Union[ZipangPlay, _Mapping]] = ..., use: _Optional[_Union[ZipangUse, _Mapping]] = ..., take: _Optional[_Union[ZipangTake, _Mapping]] = ..., react: _Optional[_Union[ZipangReact, _Mapping]] = ...) -> None: ...

class ZipangScoreBreakdown(_message.Message):
    __slots__ = ("coins",)
    COINS_FIELD_NUMBER: _ClassVar[int]
    coins: int
    def __init__(self, coins: _Optional[int] = ...) -> None: ...

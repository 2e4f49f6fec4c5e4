from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class KungFurCard(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    KUNG_FUR_CARD_UNSPECIFIED: _ClassVar[KungFurCard]
    KUNG_FUR_CARD_RAIFU: _ClassVar[KungFurCard]
    KUNG_FUR_CARD_MUSASHI: _ClassVar[KungFurCard]
    KUNG_FUR_CARD_HIMIKO: _ClassVar[KungFurCard]
    KUNG_FUR_CARD_RINGO: _ClassVar[KungFurCard]
    KUNG_FUR_CARD_YAOU: _ClassVar[KungFurCard]
    KUNG_FUR_CARD_KOGA_GENIN: _ClassVar[KungFurCard]
    KUNG_FUR_CARD_KOGA_JONIN: _ClassVar[KungFurCard]
    KUNG_FUR_CARD_HUA: _ClassVar[KungFurCard]
    KUNG_FUR_CARD_SENIOR_BROTHER_BANG: _ClassVar[KungFurCard]
    KUNG_FUR_CARD_ELDEST_SENIOR_BROTHER_YE: _ClassVar[KungFurCard]
    KUNG_FUR_CARD_MASTER_SHU: _ClassVar[KungFurCard]
    KUNG_FUR_CARD_TEACHER_GONGMING: _ClassVar[KungFurCard]
    KUNG_FUR_CARD_SIU_YAO: _ClassVar[KungFurCard]
    KUNG_FUR_CARD_SHAOLIN_NOVICE: _ClassVar[KungFurCard]
    KUNG_FUR_CARD_SHAOLIN_MONK: _ClassVar[KungFurCard]
    KUNG_FUR_CARD_BOSHAK: _ClassVar[KungFurCard]
    KUNG_FUR_CARD_TAI_CHII: _ClassVar[KungFurCard]
    KUNG_FUR_CARD_TUMAZ: _ClassVar[KungFurCard]
    KUNG_FUR_CARD_HEO_YUN: _ClassVar[KungFurCard]
    KUNG_FUR_CARD_KKAMI: _ClassVar[KungFurCard]
    KUNG_FUR_CARD_GINSENG: _ClassVar[KungFurCard]
    KUNG_FUR_CARD_APPLE: _ClassVar[KungFurCard]
    KUNG_FUR_CARD_COCONUT: _ClassVar[KungFurCard]
    KUNG_FUR_CARD_BANANA: _ClassVar[KungFurCard]
    KUNG_FUR_CARD_SONGO_MUSHROOM: _ClassVar[KungFurCard]
    KUNG_FUR_CARD_HEAD_CHEF: _ClassVar[KungFurCard]
    KUNG_FUR_CARD_REINFORCEMENTS: _ClassVar[KungFurCard]
    KUNG_FUR_CARD_MIGHT: _ClassVar[KungFurCard]
    KUNG_FUR_CARD_BLOCKADE: _ClassVar[KungFurCard]
    KUNG_FUR_CARD_COUNTERATTACK: _ClassVar[KungFurCard]
    KUNG_FUR_CARD_DESTRUCTION: _ClassVar[KungFurCard]
    KUNG_FUR_CARD_SINKING: _ClassVar[KungFurCard]

class KungFurCardKind(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    KUNG_FUR_CARD_KIND_UNSPECIFIED: _ClassVar[KungFurCardKind]
    KUNG_FUR_CARD_KIND_ANIMAL: _ClassVar[KungFurCardKind]
    KUNG_FUR_CARD_KIND_RANGER: _ClassVar[KungFurCardKind]
    KUNG_FUR_CARD_KIND_ITEM: _ClassVar[KungFurCardKind]
    KUNG_FUR_CARD_KIND_ACHIEVEMENT: _ClassVar[KungFurCardKind]

class KungFurSide(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    KUNG_FUR_SIDE_UNSPECIFIED: _ClassVar[KungFurSide]
    KUNG_FUR_SIDE_CATS: _ClassVar[KungFurSide]
    KUNG_FUR_SIDE_DOGS: _ClassVar[KungFurSide]

class KungFurPhase(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    KUNG_FUR_PHASE_UNSPECIFIED: _ClassVar[KungFurPhase]
    KUNG_FUR_PHASE_PLANNING: _ClassVar[KungFurPhase]
    KUNG_FUR_PHASE_BATTLE: _ClassVar[KungFurPhase]
    KUNG_FUR_PHASE_REGROUP: _ClassVar[KungFurPhase]
    KUNG_FUR_PHASE_OVER: _ClassVar[KungFurPhase]

class KungFurBattleStage(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    KUNG_FUR_BATTLE_STAGE_UNSPECIFIED: _ClassVar[KungFurBattleStage]
    KUNG_FUR_BATTLE_STAGE_OPENING: _ClassVar[KungFurBattleStage]
    KUNG_FUR_BATTLE_STAGE_FIGHT: _ClassVar[KungFurBattleStage]
    KUNG_FUR_BATTLE_STAGE_REWARDS: _ClassVar[KungFurBattleStage]

class KungFurArenaNumber(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    KUNG_FUR_ARENA_NUMBER_UNSPECIFIED: _ClassVar[KungFurArenaNumber]
    KUNG_FUR_ARENA_NUMBER_ONE: _ClassVar[KungFurArenaNumber]
    KUNG_FUR_ARENA_NUMBER_TWO: _ClassVar[KungFurArenaNumber]
    KUNG_FUR_ARENA_NUMBER_THREE: _ClassVar[KungFurArenaNumber]

class KungFurToken(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    KUNG_FUR_TOKEN_UNSPECIFIED: _ClassVar[KungFurToken]
    KUNG_FUR_TOKEN_HIDDEN_WEAPON: _ClassVar[KungFurToken]
    KUNG_FUR_TOKEN_COCONUT: _ClassVar[KungFurToken]
    KUNG_FUR_TOKEN_RAIFU: _ClassVar[KungFurToken]
    KUNG_FUR_TOKEN_HUA: _ClassVar[KungFurToken]
    KUNG_FUR_TOKEN_SONGO_MUSHROOM: _ClassVar[KungFurToken]
    KUNG_FUR_TOKEN_FOOD: _ClassVar[KungFurToken]
    KUNG_FUR_TOKEN_SPECIAL_DISH: _ClassVar[KungFurToken]

class KungFurDishState(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    KUNG_FUR_DISH_STATE_UNSPECIFIED: _ClassVar[KungFurDishState]
    KUNG_FUR_DISH_STATE_NOT_TAKEN: _ClassVar[KungFurDishState]
    KUNG_FUR_DISH_STATE_HELD: _ClassVar[KungFurDishState]
    KUNG_FUR_DISH_STATE_EATEN: _ClassVar[KungFurDishState]

class KungFurDecision(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    KUNG_FUR_DECISION_UNSPECIFIED: _ClassVar[KungFurDecision]
    KUNG_FUR_DECISION_MASTER_SHU: _ClassVar[KungFurDecision]
    KUNG_FUR_DECISION_RINGO: _ClassVar[KungFurDecision]
    KUNG_FUR_DECISION_BANANA: _ClassVar[KungFurDecision]
    KUNG_FUR_DECISION_KKAMI: _ClassVar[KungFurDecision]
    KUNG_FUR_DECISION_RECOVERY: _ClassVar[KungFurDecision]

class KungFurRecovery(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    KUNG_FUR_RECOVERY_UNSPECIFIED: _ClassVar[KungFurRecovery]
    KUNG_FUR_RECOVERY_FOOD: _ClassVar[KungFurRecovery]
    KUNG_FUR_RECOVERY_SPECIAL_DISH: _ClassVar[KungFurRecovery]
    KUNG_FUR_RECOVERY_HEAD_CHEF: _ClassVar[KungFurRecovery]
    KUNG_FUR_RECOVERY_LEAVE_RESTING: _ClassVar[KungFurRecovery]
KUNG_FUR_CARD_UNSPECIFIED: KungFurCard
KUNG_FUR_CARD_RAIFU: KungFurCard
KUNG_FUR_CARD_MUSASHI: KungFurCard
KUNG_FUR_CARD_HIMIKO: KungFurCard
KUNG_FUR_CARD_RINGO: KungFurCard
KUNG_FUR_CARD_YAOU: KungFurCard
KUNG_FUR_CARD_KOGA_GENIN: KungFurCard
KUNG_FUR_CARD_KOGA_JONIN: KungFurCard
KUNG_FUR_CARD_HUA: KungFurCard
KUNG_FUR_CARD_SENIOR_BROTHER_BANG: KungFurCard
KUNG_FUR_CARD_ELDEST_SENIOR_BROTHER_YE: KungFurCard
KUNG_FUR_CARD_MASTER_SHU: KungFurCard
KUNG_FUR_CARD_TEACHER_GONGMING: KungFurCard
KUNG_FUR_CARD_SIU_YAO: KungFurCard
KUNG_FUR_CARD_SHAOLIN_NOVICE: KungFurCard
KUNG_FUR_CARD_SHAOLIN_MONK: KungFurCard
KUNG_FUR_CARD_BOSHAK: KungFurCard
KUNG_FUR_CARD_TAI_CHII: KungFurCard
KUNG_FUR_CARD_TUMAZ: KungFurCard
KUNG_FUR_CARD_HEO_YUN: KungFurCard
KUNG_FUR_CARD_KKAMI: KungFurCard
KUNG_FUR_CARD_GINSENG: KungFurCard
KUNG_FUR_CARD_APPLE: KungFurCard
KUNG_FUR_CARD_COCONUT: KungFurCard
KUNG_FUR_CARD_BANANA: KungFurCard
KUNG_FUR_CARD_SONGO_MUSHROOM: KungFurCard
KUNG_FUR_CARD_HEAD_CHEF: KungFurCard
KUNG_FUR_CARD_REINFORCEMENTS: KungFurCard
KUNG_FUR_CARD_MIGHT: KungFurCard
KUNG_FUR_CARD_BLOCKADE: KungFurCard
KUNG_FUR_CARD_COUNTERATTACK: KungFurCard
KUNG_FUR_CARD_DESTRUCTION: KungFurCard
KUNG_FUR_CARD_SINKING: KungFurCard
KUNG_FUR_CARD_KIND_UNSPECIFIED: KungFurCardKind
KUNG_FUR_CARD_KIND_ANIMAL: KungFurCardKind
KUNG_FUR_CARD_KIND_RANGER: KungFurCardKind
KUNG_FUR_CARD_KIND_ITEM: KungFurCardKind
KUNG_FUR_CARD_KIND_ACHIEVEMENT: KungFurCardKind
KUNG_FUR_SIDE_UNSPECIFIED: KungFurSide
KUNG_FUR_SIDE_CATS: KungFurSide
KUNG_FUR_SIDE_DOGS: KungFurSide
KUNG_FUR_PHASE_UNSPECIFIED: KungFurPhase
KUNG_FUR_PHASE_PLANNING: KungFurPhase
KUNG_FUR_PHASE_BATTLE: KungFurPhase
KUNG_FUR_PHASE_REGROUP: KungFurPhase
KUNG_FUR_PHASE_OVER: KungFurPhase
KUNG_FUR_BATTLE_STAGE_UNSPECIFIED: KungFurBattleStage
KUNG_FUR_BATTLE_STAGE_OPENING: KungFurBattleStage
KUNG_FUR_BATTLE_STAGE_FIGHT: KungFurBattleStage
KUNG_FUR_BATTLE_STAGE_REWARDS: KungFurBattleStage
KUNG_FUR_ARENA_NUMBER_UNSPECIFIED: KungFurArenaNumber
KUNG_FUR_ARENA_NUMBER_ONE: KungFurArenaNumber
KUNG_FUR_ARENA_NUMBER_TWO: KungFurArenaNumber
KUNG_FUR_ARENA_NUMBER_THREE: KungFurArenaNumber
KUNG_FUR_TOKEN_UNSPECIFIED: KungFurToken
KUNG_FUR_TOKEN_HIDDEN_WEAPON: KungFurToken
KUNG_FUR_TOKEN_COCONUT: KungFurToken
KUNG_FUR_TOKEN_RAIFU: KungFurToken
KUNG_FUR_TOKEN_HUA: KungFurToken
KUNG_FUR_TOKEN_SONGO_MUSHROOM: KungFurToken
KUNG_FUR_TOKEN_FOOD: KungFurToken
KUNG_FUR_TOKEN_SPECIAL_DISH: KungFurToken
KUNG_FUR_DISH_STATE_UNSPECIFIED: KungFurDishState
KUNG_FUR_DISH_STATE_NOT_TAKEN: KungFurDishState
KUNG_FUR_DISH_STATE_HELD: KungFurDishState
KUNG_FUR_DISH_STATE_EATEN: KungFurDishState
KUNG_FUR_DECISION_UNSPECIFIED: KungFurDecision
KUNG_FUR_DECISION_MASTER_SHU: KungFurDecision
KUNG_FUR_DECISION_RINGO: KungFurDecision
KUNG_FUR_DECISION_BANANA: KungFurDecision
KUNG_FUR_DECISION_KKAMI: KungFurDecision
KUNG_FUR_DECISION_RECOVERY: KungFurDecision
KUNG_FUR_RECOVERY_UNSPECIFIED: KungFurRecovery
KUNG_FUR_RECOVERY_FOOD: KungFurRecovery
KUNG_FUR_RECOVERY_SPECIAL_DISH: KungFurRecovery
KUNG_FUR_RECOVERY_HEAD_CHEF: KungFurRecovery
KUNG_FUR_RECOVERY_LEAVE_RESTING: KungFurRecovery

class KungFurCardType(_message.Message):
    __slots__ = ("card", "kind", "side", "attack_points", "copies")
    CARD_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    SIDE_FIELD_NUMBER: _ClassVar[int]
    ATTACK_POINTS_FIELD_NUMBER: _ClassVar[int]
    COPIES_FIELD_NUMBER: _ClassVar[int]
    card: KungFurCard
    kind: KungFurCardKind
    side: KungFurSide
    attack_points: int
    copies: int
    def __init__(self, card: _Optional[_Union[KungFurCard, str]] = ..., kind: _Optional[_Union[KungFurCardKind, str]] = ..., side: _Optional[_Union[KungFurSide, str]] = ..., attack_points: _Optional[int] = ..., copies: _Optional[int] = ...) -> None: ...

class KungFurTeam(_message.Message):
    __slots__ = ("seat", "leader", "assistants", "hidden_weapons", "coconuts", "attack_points")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    LEADER_FIELD_NUMBER: _ClassVar[int]
    ASSISTANTS_FIELD_NUMBER: _ClassVar[int]
    HIDDEN_WEAPONS_FIELD_NUMBER: _ClassVar[int]
    COCONUTS_FIELD_NUMBER: _ClassVar[int]
    ATTACK_POINTS_FIELD_NUMBER: _ClassVar[int]
    seat: int
    leader: KungFurCard
    assistants: _containers.RepeatedScalarFieldContainer[KungFurCard]
    hidden_weapons: int
    coconuts: int
    attack_points: int
    def __init__(self, seat: _Optional[int] = ..., leader: _Optional[_Union[KungFurCard, str]] = ..., assistants: _Optional[_Iterable[_Union[KungFurCard, str]]] = ..., hidden_weapons: _Optional[int] = ..., coconuts: _Optional[int] = ..., attack_points: _Optional[int] = ...) -> None: ...

class KungFurArena(_message.Message):
    __slots__ = ("number", "rewards", "teams", "raifu_token", "hua_token", "songo_mushrooms", "winner", "fought")
    NUMBER_FIELD_NUMBER: _ClassVar[int]
    REWARDS_FIELD_NUMBER: _ClassVar[int]
    TEAMS_FIELD_NUMBER: _ClassVar[int]
    RAIFU_TOKEN_FIELD_NUMBER: _ClassVar[int]
    HUA_TOKEN_FIELD_NUMBER: _ClassVar[int]
    SONGO_MUSHROOMS_FIELD_NUMBER: _ClassVar[int]
    WINNER_FIELD_NUMBER: _ClassVar[int]
    FOUGHT_FIELD_NUMBER: _ClassVar[int]
    number: KungFurArenaNumber
    rewards: _containers.RepeatedScalarFieldContainer[KungFurCard]
    teams: _containers.RepeatedCompositeFieldContainer[KungFurTeam]
    raifu_token: int
    hua_token: int
    songo_mushrooms: _containers.RepeatedScalarFieldContainer[int]
    winner: int
    fought: bool
    def __init__(self, number: _Optional[_Union[KungFurArenaNumber, str]] = ..., rewards: _Optional[_Iterable[_Union[KungFurCard, str]]] = ..., teams: _Optional[_Iterable[_Union[KungFurTeam, _Mapping]]] = ..., raifu_token: _Optional[int] = ..., hua_token: _Optional[int] = ..., songo_mushrooms: _Optional[_Iterable[int]] = ..., winner: _Optional[int] = ..., fought: _Optional[bool] = ...) -> None: ...

class KungFurPlayer(_message.Message):
    __slots__ = ("seat", "side", "hand", "rest_area", "sp", "vp", "limit", "food_tokens", "special_dish", "hidden_weapons", "hua_tokens", "coconuts", "items", "apples", "sinkings", "ginseng_recovery", "blockade_round", "animals_used", "plan_done", "plan_secret", "reinforced", "face_down_discards")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    SIDE_FIELD_NUMBER: _ClassVar[int]
    HAND_FIELD_NUMBER: _ClassVar[int]
    REST_AREA_FIELD_NUMBER: _ClassVar[int]
    SP_FIELD_NUMBER: _ClassVar[int]
    VP_FIELD_NUMBER: _ClassVar[int]
    LIMIT_FIELD_NUMBER: _ClassVar[int]
    FOOD_TOKENS_FIELD_NUMBER: _ClassVar[int]
    SPECIAL_DISH_FIELD_NUMBER: _ClassVar[int]
    HIDDEN_WEAPONS_FIELD_NUMBER: _ClassVar[int]
    HUA_TOKENS_FIELD_NUMBER: _ClassVar[int]
    COCONUTS_FIELD_NUMBER: _ClassVar[int]
    ITEMS_FIELD_NUMBER: _ClassVar[int]
    APPLES_FIELD_NUMBER: _ClassVar[int]
    SINKINGS_FIELD_NUMBER: _ClassVar[int]
    GINSENG_RECOVERY_FIELD_NUMBER: _ClassVar[int]
    BLOCKADE_ROUND_FIELD_NUMBER: _ClassVar[int]
    ANIMALS_USED_FIELD_NUMBER: _ClassVar[int]
    PLAN_DONE_FIELD_NUMBER: _ClassVar[int]
    PLAN_SECRET_FIELD_NUMBER: _ClassVar[int]
    REINFORCED_FIELD_NUMBER: _ClassVar[int]
    FACE_DOWN_DISCARDS_FIELD_NUMBER: _ClassVar[int]
    seat: int
    side: KungFurSide
    hand: _containers.RepeatedScalarFieldContainer[KungFurCard]
    rest_area: _containers.RepeatedScalarFieldContainer[KungFurCard]
    sp: int
    vp: int
    limit: int
    food_tokens: int
    special_dish: KungFurDishState
    hidden_weapons: int
    hua_tokens: int
    coconuts: int
    items: _containers.RepeatedScalarFieldContainer[KungFurCard]
    apples: int
    sinkings: int
    ginseng_recovery: bool
    blockade_round: int
    animals_used: int
    plan_done: bool
    plan_secret: bool
    reinforced: bool
    face_down_discards: int
    def __init__(self, seat: _Optional[int] = ..., side: _Optional[_Union[KungFurSide, str]] = ..., hand: _Optional[_Iterable[_Union[KungFurCard, str]]] = ..., rest_area: _Optional[_Iterable[_Union[KungFurCard, str]]] = ..., sp: _Optional[int] = ..., vp: _Optional[int] = ..., limit: _Optional[int] = ..., food_tokens: _Optional[int] = ..., special_dish: _Optional[_Union[KungFurDishState, str]] = ..., hidden_weapons: _Optional[int] = ..., hua_tokens: _Optional[int] = ..., coconuts: _Optional[int] = ..., items: _Optional[_Iterable[_Union[KungFurCard, str]]] = ..., apples: _Optional[int] = ..., sinkings: _Optional[int] = ..., ginseng_recovery: _Optional[bool] = ..., blockade_round: _Optional[int] = ..., animals_used: _Optional[int] = ..., plan_done: _Optional[bool] = ..., plan_secret: _Optional[bool] = ..., reinforced: _Optional[bool] = ..., face_down_discards: _Optional[int] = ...) -> None: ...

class KungFurPendingDecision(_message.Message):
    __slots__ = ("seat", "decision")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    DECISION_FIELD_NUMBER: _ClassVar[int]
    seat: int
    decision: KungFurDecision
    def __init__(self, seat: _Optional[int] = ..., decision: _Optional[_Union[KungFurDecision, str]] = ...) -> None: ...

class KungFurView(_message.Message):
    __slots__ = ("seat", "round", "phase", "players", "arenas", "current_arena", "stage", "ap_difference", "rewards_to_take", "decisions", "reward_deck_size", "discard", "your_face_down_discards", "banana_draw", "banana_draw_size", "unseen", "winners", "end_reason", "card_types", "starting_sp", "battle_loss_sp", "destruction_max_sp")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    ROUND_FIELD_NUMBER: _ClassVar[int]
    PHASE_FIELD_NUMBER: _ClassVar[int]
    PLAYERS_FIELD_NUMBER: _ClassVar[int]
    ARENAS_FIELD_NUMBER: _ClassVar[int]
    CURRENT_ARENA_FIELD_NUMBER: _ClassVar[int]
    STAGE_FIELD_NUMBER: _ClassVar[int]
    AP_DIFFERENCE_FIELD_NUMBER: _ClassVar[int]
    REWARDS_TO_TAKE_FIELD_NUMBER: _ClassVar[int]
    DECISIONS_FIELD_NUMBER: _ClassVar[int]
    REWARD_DECK_SIZE_FIELD_NUMBER: _ClassVar[int]
    DISCARD_FIELD_NUMBER: _ClassVar[int]
    YOUR_FACE_DOWN_DISCARDS_FIELD_NUMBER: _ClassVar[int]
    BANANA_DRAW_FIELD_NUMBER: _ClassVar[int]
    BANANA_DRAW_SIZE_FIELD_NUMBER: _ClassVar[int]
    UNSEEN_FIELD_NUMBER: _ClassVar[int]
    WINNERS_FIELD_NUMBER: _ClassVar[int]
    END_REASON_FIELD_NUMBER: _ClassVar[int]
    CARD_TYPES_FIELD_NUMBER: _ClassVar[int]
    STARTING_SP_FIELD_NUMBER: _ClassVar[int]
    BATTLE_LOSS_SP_FIELD_NUMBER: _ClassVar[int]
    DESTRUCTION_MAX_SP_FIELD_NUMBER: _ClassVar[int]
    seat: int
    round: int
    phase: KungFurPhase
    players: _containers.RepeatedCompositeFieldContainer[KungFurPlayer]
    arenas: _containers.RepeatedCompositeFieldContainer[KungFurArena]
    current_arena: KungFurArenaNumber
    stage: KungFurBattleStage
    ap_difference: int
    rewards_to_take: _containers.RepeatedScalarFieldContainer[KungFurCard]
    decisions: _containers.RepeatedCompositeFieldContainer[KungFurPendingDecision]
    reward_deck_size: int
    discard: _containers.RepeatedScalarFieldContainer[KungFurCard]
    your_face_down_discards: _containers.RepeatedScalarFieldContainer[KungFurCard]
    banana_draw: _containers.RepeatedScalarFieldContainer[KungFurCard]
    banana_draw_size: int
    unseen: _containers.RepeatedScalarFieldContainer[KungFurCard]
    winners: _containers.RepeatedScalarFieldContainer[int]
    end_reason: str
    card_types: _containers.RepeatedCompositeFieldContainer[KungFurCardType]
    starting_sp: int
    battle_loss_sp: int
    destruction_max_sp: int
    def __init__(self, seat: _Optional[int] = ..., round: _Optional[int] = ..., phase: _Optional[_Union[KungFurPhase, str]] = ..., players: _Optional[_Iterable[_Union[KungFurPlayer, _Mapping]]] = ..., arenas: _Optional[_Iterable[_Union[KungFurArena, _Mapping]]] = ..., current_arena: _Optional[_Union[KungFurArenaNumber, str]] = ..., stage: _Optional[_Union[KungFurBattleStage, str]] = ..., ap_difference: _Optional[int] = ..., rewards_to_take: _Optional[_Iterable[_Union[KungFurCard, str]]] = ..., decisions: _Optional[_Iterable[_Union[KungFurPendingDecision, _Mapping]]] = ..., reward_deck_size: _Optional[int] = ..., discard: _Optional[_Iterable[_Union[KungFurCard, str]]] = ..., your_face_down_discards: _Optional[_Iterable[_Union[KungFurCard, str]]] = ..., banana_draw: _Optional[_Iterable[_Union[KungFurCard, str]]] = ..., banana_draw_size: _Optional[int] = ..., unseen: _Optional[_Iterable[_Union[KungFurCard, str]]] = ..., winners: _Optional[_Iterable[int]] = ..., end_reason: _Optional[str] = ..., card_types: _Optional[_Iterable[_Union[KungFurCardType, _Mapping]]] = ..., starting_sp: _Optional[int] = ..., battle_loss_sp: _Optional[int] = ..., destruction_max_sp: _Optional[int] = ...) -> None: ...

class KungFurLead(_message.Message):
    __slots__ = ("arena", "animal")
    ARENA_FIELD_NUMBER: _ClassVar[int]
    ANIMAL_FIELD_NUMBER: _ClassVar[int]
    arena: KungFurArenaNumber
    animal: KungFurCard
    def __init__(self, arena: _Optional[_Union[KungFurArenaNumber, str]] = ..., animal: _Optional[_Union[KungFurCard, str]] = ...) -> None: ...

class KungFurAssist(_message.Message):
    __slots__ = ("arena", "animal")
    ARENA_FIELD_NUMBER: _ClassVar[int]
    ANIMAL_FIELD_NUMBER: _ClassVar[int]
    arena: KungFurArenaNumber
    animal: KungFurCard
    def __init__(self, arena: _Optional[_Union[KungFurArenaNumber, str]] = ..., animal: _Optional[_Union[KungFurCard, str]] = ...) -> None: ...

class KungFurPlaceToken(_message.Message):
    __slots__ = ("arena", "token")
    ARENA_FIELD_NUMBER: _ClassVar[int]
    TOKEN_FIELD_NUMBER: _ClassVar[int]
    arena: KungFurArenaNumber
    token: KungFurToken
    def __init__(self, arena: _Optional[_Union[KungFurArenaNumber, str]] = ..., token: _Optional[_Union[KungFurToken, str]] = ...) -> None: ...

class KungFurReinforce(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class KungFurFinishPlan(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class KungFurMasterShu(_message.Message):
    __slots__ = ("animal", "decline")
    ANIMAL_FIELD_NUMBER: _ClassVar[int]
    DECLINE_FIELD_NUMBER: _ClassVar[int]
    animal: KungFurCard
    decline: bool
    def __init__(self, animal: _Optional[_Union[KungFurCard, str]] = ..., decline: _Optional[bool] = ...) -> None: ...

class KungFurRingo(_message.Message):
    __slots__ = ("hidden_weapons",)
    HIDDEN_WEAPONS_FIELD_NUMBER: _ClassVar[int]
    hidden_weapons: int
    def __init__(self, hidden_weapons: _Optional[int] = ...) -> None: ...

class KungFurBananaPick(_message.Message):
    __slots__ = ("card",)
    CARD_FIELD_NUMBER: _ClassVar[int]
    card: KungFurCard
    def __init__(self, card: _Optional[_Union[KungFurCard, str]] = ...) -> None: ...

class KungFurKkami(_message.Message):
    __slots__ = ("animal",)
    ANIMAL_FIELD_NUMBER: _ClassVar[int]
    animal: KungFurCard
    def __init__(self, animal: _Optional[_Union[KungFurCard, str]] = ...) -> None: ...

class KungFurRecover(_message.Message):
    __slots__ = ("recovery",)
    RECOVERY_FIELD_NUMBER: _ClassVar[int]
    recovery: KungFurRecovery
    def __init__(self, recovery: _Optional[_Union[KungFurRecovery, str]] = ...) -> None: ...

class KungFurMove(_message.Message):
    __slots__ = ("lead", "assist", "place_token", "reinforce", "finish_plan", "master_shu", "ringo", "banana_pick", "kkami", "recover")
    LEAD_FIELD_NUMBER: _ClassVar[int]
    ASSIST_FIELD_NUMBER: _ClassVar[int]
    PLACE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    REINFORCE_FIELD_NUMBER: _ClassVar[int]
    FINISH_PLAN_FIELD_NUMBER: _ClassVar[int]
    MASTER_SHU_FIELD_NUMBER: _ClassVar[int]
    RINGO_FIELD_NUMBER: _ClassVar[int]
    BANANA_PICK_FIELD_NUMBER: _ClassVar[int]
    KKAMI_FIELD_NUMBER: _ClassVar[int]
    RECOVER_FIELD_NUMBER: _ClassVar[int]
    lead: KungFurLead
    assist: KungFurAssist
    place_token: KungFurPlaceToken
    reinforce: KungFurReinforce
    finish_plan: KungFurFinishPlan
    master_shu: KungFurMasterShu
    ringo: KungFurRingo
    banana_pick: KungFurBananaPick
    kkami: KungFurKkami
    recover: KungFurRecover
    def __init__(self, lead: _Optional[_Union[KungFurLead, _Mapping]] = ..., assist: _Optional[_Union[KungFurAssist, _Mapping]] = ..., place_token: _Optional[_Union[KungFurPlaceToken, _Mapping]] = ..., reinforce: _Optional[_Union[KungFurReinforce, _Mapping]] = ..., finish_plan: _Optional[_Union[KungFurFinishPlan, _Mapping]] = ..., master_shu: _Optional[_Union[KungFurMasterShu, _Mapping]] = ..., ringo: _Optional[_Union[KungFurRingo, _Mapping]] = ..., banana_pick: _Optional[_Union[KungFurBananaPick, _Mapping]] = ..., kkami: _Optional[_Union[KungFurKkami, _Mapping]] = ..., recover: _Optional[_Union[KungFurRecover, _Mapping]] = ...) -> None: ...

class KungFurScoreBreakdown(_message.Message):
    __slots__ = ("vp",)
    VP_FIELD_NUMBER: _ClassVar[int]
    vp: int
    def __init__(self, vp: _Optional[int] = ...) -> None: ...

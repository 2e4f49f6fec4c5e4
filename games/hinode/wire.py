"""Hinode's public messages (protos/tabletop/v1/hinode.proto) <-> its engine objects, exactly both ways.

The engine keeps colours, tribes, cards and Areas as small ints and flat tuples; the messages speak the game's
words (enums, a card as suit and number, resources per Area by colour). An enum value is the engine's int + 1
(0 is UNSPECIFIED, which stands for "none" where a field is optional).
"""

from __future__ import annotations

from functools import cache, lru_cache

from games.hinode.data import AREAS, COLS, HERO, NAWABARI, PLAYERS, SUIT_SIZE, WHITE
from games.hinode.moves import ChooseArea, ChooseTribe, PlayCard, TakeResource
from games.hinode.state import AREA, OVER, PICK, PLAY, TRIBE, Played, View
from tabletop.v1 import hinode_pb2 as hp
from tabletop.wire import GameWire, WireError, field_bytes

PHASES = {TRIBE: hp.HINODE_PHASE_CHOOSE_TRIBE, AREA: hp.HINODE_PHASE_CHOOSE_AREA, PLAY: hp.HINODE_PHASE_PLAY,
          PICK: hp.HINODE_PHASE_PICK_RESOURCE, OVER: hp.HINODE_PHASE_OVER}
PHASE_NAMES = {v: k for k, v in PHASES.items()}
# Nawabari card index <-> (colour, number): the table lists each colour's cards 1..4, then the white tower.
NAWABARI_BY_KEY = {(n.colour, 0 if n.colour == WHITE else int(n.key.rsplit("-", 1)[1])): i
                   for i, n in enumerate(NAWABARI)}


def _enum(value: int | None) -> int:
    return 0 if value is None else value + 1


def _code(value: int, limit: int, what: str) -> int:
    if not 1 <= value <= limit:
        raise WireError(f"{what} must be set to a known value, got {value}")
    return value - 1


def _optional_code(value: int, limit: int, what: str) -> int | None:
    return None if value == 0 else _code(value, limit, what)


def _optional(message, name: str) -> int | None:
    return getattr(message, name) if message.HasField(name) else None


def card_to_proto(card: int) -> hp.HinodeCard:
    if card == HERO:
        return hp.HinodeCard(hero=True)
    return hp.HinodeCard(suit=card // SUIT_SIZE + 1, number=card % SUIT_SIZE + 1)


def card_from_proto(message: hp.HinodeCard) -> int:
    if message.hero:
        if message.suit or message.number:
            raise WireError("a Hero card has no suit or number")
        return HERO
    suit = _code(message.suit, 3, "a battle card's suit (red, blue or yellow)")
    if not 1 <= message.number <= SUIT_SIZE:
        raise WireError(f"a battle card's number is 1..{SUIT_SIZE}, not {message.number}")
    return suit * SUIT_SIZE + message.number - 1


def _resource_values(message: hp.HinodeResources) -> tuple[int, int, int]:
    return message.red, message.blue, message.yellow


class HinodeWire(GameWire):
    view_message = hp.HinodeView
    move_message = hp.HinodeMove

    # --- moves ---

    def move_to_proto(self, move) -> hp.HinodeMove:
        if isinstance(move, PlayCard):
            return hp.HinodeMove(play_card=_play_to_proto(move))
        if isinstance(move, ChooseArea):
            return hp.HinodeMove(choose_area=hp.HinodeChooseArea(area=move.area))
        if isinstance(move, TakeResource):
            return hp.HinodeMove(take_resource=hp.HinodeTakeResource(colour=move.colour + 1, receiver=move.receiver))
        if isinstance(move, ChooseTribe):
            return hp.HinodeMove(choose_tribe=hp.HinodeChooseTribe(tribe=move.tribe + 1))
        raise WireError(f"not a Hinode move: {type(move).__name__}")

    def move_from_proto(self, message: hp.HinodeMove):
        kind = message.WhichOneof("kind")
        if kind == "play_card":
            return _play_from_proto(message.play_card)
        if kind == "choose_area":
            if not 0 <= message.choose_area.area < AREAS:
                raise WireError(f"an Area is an index 0..{AREAS - 1} into HinodeView.areas")
            return ChooseArea(message.choose_area.area)
        if kind == "take_resource":
            take = message.take_resource
            if not 0 <= take.receiver < PLAYERS:
                raise WireError("the receiver is a position 0..3")
            return TakeResource(_code(take.colour, 3, "the resource colour"), take.receiver)
        if kind == "choose_tribe":
            return ChooseTribe(_code(message.choose_tribe.tribe, 4, "the tribe"))
        raise WireError("HinodeMove has no move set")

    # --- views ---

    def view_to_proto(self, v: View) -> hp.HinodeView:
        return hp.HinodeView.FromString(self.view_bytes(v))

    def view_bytes(self, v: View) -> bytes:
        # Built from parts serialised once each: the scalars, a card in hand, a card played, the Areas and the
        # positions change rarely from one view to the next (the history of cards played only grows), so most of
        # a view is found, not built. Parts of one repeated field stay in order; a parser takes fields in any order.
        return b"".join((
            _head_fields(v.seat, v.num_players, v.advanced, v.phase, v.trick, v.actor, v.start, v.battlefield,
                         v.colour, v.hero_last, v.ranking, v.next_start),
            *map(_hand_field, v.hand),
            *map(_trick_field, v.plays),
            _areas_fields(v.layout, v.vp, v.cubes, v.first, v.second, v.skill_markers),
            _positions_fields(v.num_players, v.tribes, v.hand_sizes, v.heroes, v.resources),
            _history_fields(v.history),
        ))

    def view_from_proto(self, m: hp.HinodeView) -> View:
        if len(m.areas) != AREAS or len(m.positions) != PLAYERS:
            raise WireError(f"a Hinode view has {AREAS} areas and {PLAYERS} positions")
        _check_places(m)
        layout = [_nawabari_index(a.nawabari) for a in m.areas] + [_nawabari_index(m.bonus_area.nawabari)]
        if sorted(layout) != list(range(len(NAWABARI))):
            raise WireError("every Nawabari card lies on exactly one Area")
        vp = [0] * (2 * len(NAWABARI))
        for area, card in zip([*m.areas, m.bonus_area], layout, strict=True):
            vp[2 * card], vp[2 * card + 1] = area.nawabari.first_place_vp, area.nawabari.second_place_vp
        markers = [0] * PLAYERS
        for a, area in enumerate(m.areas):
            for p in area.samurai_markers:
                markers[p] |= 1 << a
        if m.phase not in PHASE_NAMES:
            raise WireError("the phase must be set")
        return View(
            seat=_optional(m, "seat"),
            num_players=m.num_players,
            advanced=m.advanced,
            vp=tuple(vp),
            layout=tuple(layout),
            cubes=tuple(c for a in m.areas for c in _resource_values(a.resources)),
            tribes=tuple(_optional_code(p.tribe, 4, "a tribe") for p in m.positions),
            hand=tuple(card_from_proto(c) for c in m.hand),
            hand_sizes=tuple(p.hand_size for p in m.positions),
            heroes=tuple(p.hero_available for p in m.positions),
            resources=tuple(c for p in m.positions for c in _resource_values(p.resources)),
            first=tuple(_optional(a, "first_place") for a in m.areas),
            second=tuple(_optional(a, "second_place") for a in m.areas),
            skill_markers=tuple(markers),
            trick=m.tricks_done,
            phase=PHASE_NAMES[m.phase],
            actor=_optional(m, "actor"),
            start=m.start_player,
            battlefield=_optional(m, "battlefield"),
            colour=_optional_code(m.battlefield_colour, 4, "the Battlefield's colour"),
            plays=tuple(_played_from_proto(p) for p in m.trick),
            history=tuple(_played_from_proto(p) for p in m.history),
            hero_last=_optional(m, "hero_last"),
            ranking=tuple(m.ranking),
            next_start=_optional(m, "next_start_player"),
        )


def _check_places(m: hp.HinodeView) -> None:
    """Every seat, position and Area a view names exists: a view from outside (the AI service's callers) is refused
    here rather than breaking the search that plays it."""
    if not 1 <= m.num_players <= PLAYERS:
        raise WireError(f"num_players is {m.num_players}: Hinode seats 1 to {PLAYERS} players")

    def position(value: int | None, what: str, limit: int = PLAYERS) -> None:
        if value is not None and not 0 <= value < limit:
            raise WireError(f"{what} is {value}: not one of the positions 0 to {limit - 1}")

    position(_optional(m, "seat"), "the seat", m.num_players)
    position(_optional(m, "actor"), "the actor")
    position(m.start_player, "the start player")
    position(_optional(m, "hero_last"), "the last Hero's position")
    position(_optional(m, "next_start_player"), "the next start player")
    for p in m.ranking:
        position(p, "a ranked position")
    for area in m.areas:
        position(_optional(area, "first_place"), "an Area's first place")
        position(_optional(area, "second_place"), "an Area's second place")
        for p in area.samurai_markers:
            position(p, "a Samurai marker's position")
    for played in (*m.trick, *m.history):
        position(played.position, "a played card's position")
    battlefield = _optional(m, "battlefield")
    if battlefield is not None and not 0 <= battlefield < AREAS:
        raise WireError(f"the Battlefield is Area {battlefield}: not one of the Areas 0 to {AREAS - 1}")


def _nawabari_index(m: hp.HinodeNawabari) -> int:
    key = (_code(m.colour, 4, "a Nawabari card's colour"), m.number)
    if key not in NAWABARI_BY_KEY:
        raise WireError(f"no Nawabari card has colour {m.colour} and number {m.number}")
    return NAWABARI_BY_KEY[key]


def _play_to_proto(move: PlayCard) -> hp.HinodePlayCard:
    return hp.HinodePlayCard(
        card=card_to_proto(move.card), resource=_enum(move.resource), skill=_enum(move.skill),
        skill_paid_with=_enum(move.pay), target_area=move.target_area, target_position=move.target_seat,
        target_colour=_enum(move.target_colour), declared_colour=_enum(move.declare),
    )


def _play_from_proto(m: hp.HinodePlayCard) -> PlayCard:
    target_area = _optional(m, "target_area")
    target_seat = _optional(m, "target_position")
    if target_area is not None and not 0 <= target_area < AREAS:
        raise WireError(f"target_area is an index 0..{AREAS - 1} into HinodeView.areas")
    if target_seat is not None and not 0 <= target_seat < PLAYERS:
        raise WireError("target_position is a position 0..3")
    return PlayCard(
        card=card_from_proto(m.card),
        resource=_optional_code(m.resource, 3, "the resource"),
        skill=_optional_code(m.skill, 4, "the skill"),
        pay=_optional_code(m.skill_paid_with, 3, "the skill's payment"),
        target_area=target_area,
        target_seat=target_seat,
        target_colour=_optional_code(m.target_colour, 3, "the colour taken"),
        declare=_optional_code(m.declared_colour, 3, "the declared colour"),
    )


def _played_to_proto(p: Played) -> hp.HinodePlay:
    return hp.HinodePlay(trick=p.trick + 1, position=p.seat, play=_play_to_proto(p.move), power=p.power,
                         follow=p.follow)


_VIEW_FIELDS = hp.HinodeView.DESCRIPTOR.fields_by_name
HISTORY, TRICK_FIELD, HAND_FIELD, AREAS_FIELD, BONUS_FIELD, POSITIONS_FIELD = (
    _VIEW_FIELDS[n].number for n in ("history", "trick", "hand", "areas", "bonus_area", "positions"))


def _nawabari_of(card: int, first_vp: int, second_vp: int) -> hp.HinodeNawabari:
    colour = NAWABARI[card].colour
    number = 0 if colour == WHITE else int(NAWABARI[card].key.rsplit("-", 1)[1])
    return hp.HinodeNawabari(colour=colour + 1, number=number, first_place_vp=first_vp, second_place_vp=second_vp)


@lru_cache(maxsize=4096)
def _head_fields(seat: int | None, num_players: int, advanced: bool, phase: str, trick: int, actor: int | None,
                 start: int, battlefield: int | None, colour: int | None, hero_last: int | None,
                 ranking: tuple[int, ...], next_start: int | None) -> bytes:
    """The view's scalar fields, serialised."""
    return hp.HinodeView(
        seat=seat, num_players=num_players, advanced=advanced, phase=PHASES[phase], tricks_done=trick, actor=actor,
        start_player=start, battlefield=battlefield, battlefield_colour=_enum(colour), hero_last=hero_last,
        ranking=ranking, next_start_player=next_start,
    ).SerializeToString()


@cache  # one entry per card
def _hand_field(card: int) -> bytes:
    return field_bytes(HAND_FIELD, card_to_proto(card).SerializeToString())


@lru_cache(maxsize=4096)
def _areas_fields(layout: tuple[int, ...], vp: tuple[int, ...], cubes: tuple[int, ...], first: tuple[int | None, ...],
                  second: tuple[int | None, ...], markers: tuple[int, ...]) -> bytes:
    """The Areas and the bonus Area, serialised: they change a few times a round, not at every move."""
    areas = b"".join(
        _area_field(a, layout[a], vp[2 * layout[a]], vp[2 * layout[a] + 1], cubes[3 * a], cubes[3 * a + 1],
                    cubes[3 * a + 2], first[a], second[a], tuple(p for p in range(PLAYERS) if markers[p] >> a & 1))
        for a in range(AREAS)
    )
    bonus = layout[AREAS]
    return areas + _bonus_field(bonus, vp[2 * bonus], vp[2 * bonus + 1])


@lru_cache(maxsize=4096)
def _positions_fields(num_players: int, tribes: tuple[int | None, ...], hand_sizes: tuple[int, ...],
                      heroes: tuple[bool, ...], resources: tuple[int, ...]) -> bytes:
    return b"".join(
        _position_field(p, p >= num_players, tribes[p], hand_sizes[p], heroes[p], resources[3 * p],
                        resources[3 * p + 1], resources[3 * p + 2])
        for p in range(PLAYERS)
    )


@lru_cache(maxsize=65536)
def _area_field(area: int, card: int, first_vp: int, second_vp: int, red: int, blue: int, yellow: int,
                first: int | None, second: int | None, markers: tuple[int, ...]) -> bytes:
    return field_bytes(AREAS_FIELD, hp.HinodeArea(
        row=area // COLS + 1, column=area % COLS + 1, nawabari=_nawabari_of(card, first_vp, second_vp),
        resources=hp.HinodeResources(red=red, blue=blue, yellow=yellow), first_place=first, second_place=second,
        samurai_markers=markers,
    ).SerializeToString())


@lru_cache(maxsize=4096)
def _bonus_field(card: int, first_vp: int, second_vp: int) -> bytes:
    return field_bytes(BONUS_FIELD, hp.HinodeArea(nawabari=_nawabari_of(card, first_vp, second_vp))
                       .SerializeToString())


@lru_cache(maxsize=16384)
def _position_field(position: int, proxy: bool, tribe: int | None, hand_size: int, hero: bool, red: int, blue: int,
                    yellow: int) -> bytes:
    return field_bytes(POSITIONS_FIELD, hp.HinodePosition(
        position=position, proxy=proxy, tribe=_enum(tribe), hand_size=hand_size, hero_available=hero,
        resources=hp.HinodeResources(red=red, blue=blue, yellow=yellow),
    ).SerializeToString())
HISTORY_CACHE_SIZE = 16384
# id of a card on the table -> (that card, its serialised HinodeView.history field). Keyed by identity: the cards
# of consecutive states are the same objects, and holding the card keeps its id from being reused meanwhile.
_history: dict[int, tuple[Played, bytes]] = {}


def _history_field(p: Played) -> bytes:
    entry = _history.get(id(p))
    if entry is None or entry[0] is not p:
        entry = _history[id(p)] = (p, field_bytes(HISTORY, _played_to_proto(p).SerializeToString()))
        if len(_history) > HISTORY_CACHE_SIZE:
            _history.pop(next(iter(_history)))
    return entry[1]


# id of a history of cards played -> (that history, its serialised HinodeView.history fields): every view of one
# state shares its history, and it stays the same object until the next card is played.
_histories: dict[int, tuple[tuple[Played, ...], bytes]] = {}


def _history_fields(history: tuple[Played, ...]) -> bytes:
    entry = _histories.get(id(history))
    if entry is None or entry[0] is not history:
        entry = _histories[id(history)] = (history, b"".join(map(_history_field, history)))
        if len(_histories) > HISTORY_CACHE_SIZE:
            _histories.pop(next(iter(_histories)))
    return entry[1]


@lru_cache(maxsize=4096)
def _trick_field(p: Played) -> bytes:
    """A card of the current trick, serialised (a Played is immutable and hashable)."""
    return field_bytes(TRICK_FIELD, _played_to_proto(p).SerializeToString())


def _played_from_proto(m: hp.HinodePlay) -> Played:
    return Played(trick=m.trick - 1, seat=m.position, move=_play_from_proto(m.play), power=m.power, follow=m.follow)


WIRE = HinodeWire()

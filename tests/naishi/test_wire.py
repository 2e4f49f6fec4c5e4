"""Naishi's public messages (protos/tabletop/v1/naishi.proto, games/naishi/wire.py): the AI worker rebuilds the
engine view from them, so views and moves must survive the trip through real bytes exactly; bad input is a
WireError with a reason; and a frontend reads them in the game's words (cards by name, Court spaces by kind)."""

from __future__ import annotations

import random

import pytest
from google.protobuf import any_pb2

from games import wire
from games.base import Score, SeatScore
from games.naishi.data import FORT, NAMES
from games.naishi.engine import GAME
from games.naishi.moves import MOVE_TYPES, Develop, Give, Recall, Switch
from games.naishi.scoring import CATEGORY_NAMES
from tabletop.v1 import naishi_pb2 as np
from tabletop.wire import WireError
from tests.support.messages import pack, view_message


def _games(count: int, seed: int = 1):
    """(state, seat, legal moves) along random games; a light bias against declaring the end early."""
    rng = random.Random(seed)
    for _ in range(count):
        state = GAME.new_game(2, {}, rng.getrandbits(32))
        while GAME.to_act(state):
            seat = rng.choice(sorted(GAME.to_act(state)))
            moves = GAME.legal_moves(state, seat)
            yield state, seat, moves
            early = [m for m in moves if m.id != "declare_end"] if rng.random() < 0.9 else []
            state = GAME.apply(state, seat, rng.choice(early or list(moves)))
        yield state, None, ()


def _through_bytes(packed: any_pb2.Any) -> any_pb2.Any:
    return any_pb2.Any.FromString(packed.SerializeToString())


def _view_message(state, seat) -> np.NaishiView:
    return view_message(GAME, state, seat, np.NaishiView)


def _after_gifts(seed: int = 9):
    state = GAME.new_game(2, {}, seed)
    for seat in (0, 1):
        state = GAME.apply(state, seat, GAME.legal_moves(state, seat)[0])
    return state


def test_every_view_and_move_round_trips_exactly():
    views = 0
    kinds: set[str] = set()
    for state, _, moves in _games(20):
        for observer in (0, 1, None):
            view = GAME.view(state, observer)
            assert wire.view_from_any(GAME, _through_bytes(wire.view_to_any(GAME, view))) == view
            views += 1
        for move in moves:
            packed = _through_bytes(wire.move_to_any(GAME, move))
            assert wire.move_from_any(GAME, packed) == move
            typed = np.NaishiMove()
            packed.Unpack(typed)
            kinds.add(typed.WhichOneof("kind"))
    assert views > 1000
    assert len(kinds) == len(MOVE_TYPES), kinds


def test_a_known_card_reads_as_its_name():
    """"Give 2 of the remaining 4 Development cards to each player": the offer is two NaishiCard names."""
    state = GAME.new_game(2, {}, 3)
    view = _view_message(state, 0)
    names = ["NAISHI_CARD_" + NAMES[c].upper().replace(" ", "_") for c in state.offers[0]]
    assert [np.NaishiCard.Name(c) for c in view.offer] == names
    assert view.phase == np.NAISHI_PHASE_GIFT
    # "places 5 mountain cards in a line"
    assert list(view.territories[1].line) == [np.NAISHI_CARD_MOUNTAIN] * 5
    assert wire.move_to_any(GAME, Give(FORT)).Unpack(typed := np.NaishiMove())
    assert typed.give.card == np.NAISHI_CARD_FORT


def test_the_court_is_six_spaces_by_kind_with_their_emissaries():
    state = _after_gifts()
    seat = state.turn
    state = GAME.apply(state, seat, Switch("line", 0, 1))
    view = _view_message(state, None)
    kinds = [np.NaishiCourtKind.Name(space.kind).removeprefix("NAISHI_COURT_KIND_") for space in view.court]
    assert kinds == ["SWITCH", "SWITCH", "SWITCH", "DISCARD", "DISCARD", "DECREE"]
    assert [space.emissary if space.HasField("emissary") else None for space in view.court] == [seat] + [None] * 5
    assert wire.move_to_any(GAME, Recall((0,))).Unpack(typed := np.NaishiMove())
    assert list(typed.recall.spaces) == [0]


def test_what_the_giver_knows_of_the_other_hand_is_in_words():
    """The giver knows its gift is in the other Hand, not where; the 3 Mountains are there too."""
    state = _after_gifts()
    for seat in (0, 1):
        view = _view_message(state, seat)
        other = view.territories[1 - seat]
        assert not other.hand, "the opponent's Hand is hidden"
        assert list(view.territories[seat].hand) == [c + 1 for c in state.hands[seat]]
        known = other.known_to_opponent
        assert list(known.places) == [np.NAISHI_CARD_UNSPECIFIED] * 5
        assert sorted(known.among) == sorted([np.NAISHI_CARD_MOUNTAIN] * 3 + [state.gifts[seat] + 1])
        assert list(other.known_to_everyone.among) == [np.NAISHI_CARD_MOUNTAIN] * 3
    spectator = _view_message(state, None)
    assert not spectator.HasField("seat")
    assert all(not t.hand and not t.HasField("known_to_opponent") for t in spectator.territories)
    assert all(t.HasField("known_to_everyone") for t in spectator.territories)


def test_a_card_taken_into_the_hand_is_known_in_its_place():
    """Develop: "Take the corresponding card from the River, IN THE SAME POSITION" — in plain sight."""
    state = _after_gifts()
    seat = state.turn
    taken = state.piles[2][0]
    state = GAME.apply(state, seat, Develop("hand", 2))
    view = _view_message(state, None)
    assert view.territories[seat].known_to_everyone.places[2] == taken + 1
    assert view.discard[-1] != np.NAISHI_CARD_UNSPECIFIED


def test_every_river_pile_has_its_top_card_and_size():
    state = _after_gifts()
    view = _view_message(state, 1)
    assert [pile.size for pile in view.river] == [6] * 5
    assert [pile.top for pile in view.river] == [pile[0] + 1 for pile in state.piles]


def _valid_view() -> np.NaishiView:
    return _view_message(_after_gifts(), 0)


def _broken_views():
    def unset_phase(v):
        v.phase = np.NAISHI_PHASE_UNSPECIFIED

    def bad_card(v):
        v.territories[0].line[2] = 99

    def unknown_in_line(v):
        v.territories[1].line[0] = np.NAISHI_CARD_UNSPECIFIED

    def one_territory(v):
        del v.territories[1]

    def seats_swapped(v):
        v.territories[0].seat, v.territories[1].seat = 1, 0

    def bad_seat(v):
        v.seat = 2

    def bad_turn(v):
        v.turn = -1

    def short_river(v):
        del v.river[4]

    def negative_pile(v):
        v.river[0].size = -1

    def court_out_of_order(v):
        v.court[0].kind = np.NAISHI_COURT_KIND_DECREE

    def court_short(v):
        del v.court[5]

    def bad_emissary(v):
        v.court[1].emissary = 5

    def no_public_knowledge(v):
        v.territories[0].ClearField("known_to_everyone")

    def short_knowledge(v):
        del v.territories[0].known_to_opponent.places[0]

    def bad_among(v):
        v.territories[0].known_to_opponent.among.append(0)

    def four_card_hand(v):
        del v.territories[0].hand[0]

    def bad_gift(v):
        v.gift_received = 13

    return [unset_phase, bad_card, unknown_in_line, one_territory, seats_swapped, bad_seat, bad_turn, short_river,
            negative_pile, court_out_of_order, court_short, bad_emissary, no_public_knowledge, short_knowledge,
            bad_among, four_card_hand, bad_gift]


@pytest.mark.parametrize("damage", _broken_views(), ids=lambda f: f.__name__)
def test_a_malformed_view_is_a_wire_error(damage):
    message = _valid_view()
    wire.view_from_any(GAME, pack(message))  # intact, it reads
    damage(message)
    with pytest.raises(WireError):
        wire.view_from_any(GAME, pack(message))


@pytest.mark.parametrize("message", [
    np.NaishiMove(),
    np.NaishiMove(give=np.NaishiGive()),
    np.NaishiMove(give=np.NaishiGive(card=13)),
    np.NaishiMove(develop=np.NaishiDevelop(place=1)),
    np.NaishiMove(develop=np.NaishiDevelop(row=np.NAISHI_ROW_HAND, place=5)),
    np.NaishiMove(develop=np.NaishiDevelop(row=7, place=0)),
    np.NaishiMove(switch_cards=np.NaishiSwitch(first_place=0, second_place=1)),
    np.NaishiMove(switch_cards=np.NaishiSwitch(kind=np.NAISHI_SWITCH_KIND_HAND, first_place=-1, second_place=1)),
    np.NaishiMove(discard_river=np.NaishiDiscardRiver(first_pile=0, second_pile=9)),
    np.NaishiMove(decree=np.NaishiDecree(row=np.NAISHI_ROW_LINE, place=-3)),
    np.NaishiMove(decree=np.NaishiDecree(place=2)),
    np.NaishiMove(recall=np.NaishiRecall(spaces=[6])),
], ids=str)
def test_a_malformed_move_is_a_wire_error(message):
    with pytest.raises(WireError):
        wire.move_from_any(GAME, pack(message))


def test_a_message_of_another_type_is_a_wire_error():
    with pytest.raises(WireError):
        wire.view_from_any(GAME, pack(np.NaishiMove()))
    with pytest.raises(WireError):
        wire.move_from_any(GAME, pack(np.NaishiView()))
    with pytest.raises(WireError):
        wire.view_from_any(GAME, any_pb2.Any(type_url="type.googleapis.com/tabletop.v1.NaishiView", value=b"\xff"))


def test_the_typed_score_breakdown_is_the_scorepad_and_adds_up():
    assert [f.name for f in np.NaishiScoreBreakdown.DESCRIPTOR.fields] == [
        c.lower().replace(" ", "_") for c in CATEGORY_NAMES]
    finals = 0
    for state, seat, _ in _games(4, seed=2):
        if seat is not None and state.phase != "turn":
            continue
        score = GAME.score(state)
        message = wire.score_to_proto(GAME, score, 1)
        for engine_seat, proto_seat in zip(score.seats, message.seats, strict=True):
            typed = np.NaishiScoreBreakdown()
            assert proto_seat.typed_breakdown.Unpack(typed)
            for category, points in engine_seat.breakdown:
                assert getattr(typed, category.lower().replace(" ", "_")) == points
            assert sum(getattr(typed, f.name) for f in typed.DESCRIPTOR.fields) == proto_seat.total
        finals += score.final
    assert finals == 4


def test_a_category_the_message_lacks_is_an_error_not_a_silent_loss():
    score = Score((SeatScore(0, 3, (("Dragon", 3),)),), ((0,),), final=False)
    with pytest.raises(WireError):
        wire.score_to_proto(GAME, score, 1)

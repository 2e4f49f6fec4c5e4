"""Naishi's typed messages (protos/tabletop/v1/naishi.proto): they mirror the engine's dataclasses, carry what each
observer may know of the hidden Hands, name every kind of move, and break the score down by the scorepad's rows.
The exact round trip of every view and move is checked for every typed game in tests/service/test_wire.py."""

from __future__ import annotations

import dataclasses
import random

import pytest

from games.base import Score, SeatScore
from games.naishi.engine import GAME
from games.naishi.moves import MOVE_TYPES
from games.naishi.scoring import CATEGORY_NAMES
from games.naishi.state import HandKnowledge, View
from tabletop import wire
from tabletop.v1 import naishi_pb2
from tabletop.wire.messages import WireError, snake_case


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


def test_the_messages_mirror_the_engine_field_by_field():
    def names(message) -> list[str]:
        return [f.name for f in message.DESCRIPTOR.fields]

    assert names(naishi_pb2.NaishiView) == [f.name for f in dataclasses.fields(View)]
    assert names(naishi_pb2.NaishiHandKnowledge) == [f.name for f in dataclasses.fields(HandKnowledge)]
    variants = {f.name: f.message_type.name for f in naishi_pb2.NaishiMove.DESCRIPTOR.fields}
    assert list(variants) == [snake_case(t.__name__) for t in MOVE_TYPES]
    for move_type in MOVE_TYPES:
        message = getattr(naishi_pb2, variants[snake_case(move_type.__name__)])
        assert names(message) == [f.name for f in dataclasses.fields(move_type)]
    assert names(naishi_pb2.NaishiScoreBreakdown) == [c.lower().replace(" ", "_") for c in CATEGORY_NAMES]


def test_every_kind_of_move_travels_as_its_own_typed_message():
    """Give, develop, the switch kinds, discard two, decree, recall, declare end, end turn."""
    seen: set[str] = set()
    switch_kinds: set[str] = set()
    for _, _, moves in _games(12):
        for legal in wire.legal_moves_to_proto(GAME, moves):
            typed = legal.move.naishi
            seen.add(typed.WhichOneof("kind"))
            if typed.HasField("switch"):
                switch_kinds.add(typed.switch.kind)
    assert seen == {snake_case(t.__name__) for t in MOVE_TYPES}
    assert switch_kinds == {"river", "line", "hand", "column"}


def test_the_opponents_hand_is_five_slots_of_what_the_viewer_knows():
    """A seat sees its own Hand in order and, of the other Hand, the cards known in place and the cards known to
    be somewhere in it (the 3 Mountains and its gift); a spectator sees only the public knowledge."""
    checked = 0
    for state, _, _ in _games(3, seed=4):
        if state.phase == "gift":
            continue
        for seat in (0, 1):
            typed = wire.view_to_proto(GAME, GAME.view(state, seat)).naishi
            assert list(typed.hand) == list(state.hands[seat])
            assert all(entry.HasField("value") for entry in typed.knowledge)
            other = typed.knowledge[seat].value  # what `seat` knows of the other Hand
            assert len(other.slots) == 5
            known = [slot.value for slot in other.slots if slot.HasField("value")]
            hidden = [card for p, card in enumerate(state.hands[1 - seat]) if not other.slots[p].HasField("value")]
            assert all(state.hands[1 - seat][p] == slot.value for p, slot in enumerate(other.slots)
                       if slot.HasField("value"))
            assert len(known) + len(hidden) == 5
            for card in set(other.among):
                assert list(other.among).count(card) <= hidden.count(card), "`among` is true of the hidden slots"
        spectator = wire.view_to_proto(GAME, GAME.view(state, None)).naishi
        assert not spectator.hand and not spectator.HasField("seat")
        assert [entry.HasField("value") for entry in spectator.knowledge] == [False, False, True, True]
        checked += 1
    assert checked > 30


def test_right_after_the_gifts_the_giver_knows_its_gift_is_somewhere_in_the_other_hand():
    state = GAME.new_game(2, {}, 9)
    for seat in (0, 1):
        state = GAME.apply(state, seat, GAME.legal_moves(state, seat)[0])
    for seat in (0, 1):
        typed = wire.view_to_proto(GAME, GAME.view(state, seat)).naishi
        assert typed.gift_given == state.gifts[seat] and typed.gift_received == state.gifts[1 - seat]
        assert sorted(typed.knowledge[seat].value.among) == sorted([0, 0, 0, state.gifts[seat]])
        assert not any(slot.HasField("value") for slot in typed.knowledge[seat].value.slots)


def test_the_typed_score_breakdown_is_the_scorepad_and_adds_up():
    finals = 0
    for state, seat, _ in _games(6, seed=2):
        if seat is not None and state.phase != "turn":
            continue
        score = GAME.score(state)
        message = wire.score_to_proto(score, 1, GAME)
        for engine_seat, proto_seat in zip(score.seats, message.seats, strict=True):
            typed = proto_seat.naishi
            assert proto_seat.WhichOneof("typed_breakdown") == "naishi"
            for category, points in engine_seat.breakdown:
                assert getattr(typed, category.lower().replace(" ", "_")) == points
            assert sum(getattr(typed, f.name) for f in typed.DESCRIPTOR.fields) == proto_seat.total
        finals += score.final
    assert finals == 6
    # Without the game, or for a game without a typed breakdown, only the generic one.
    assert wire.score_to_proto(score, 1).seats[0].WhichOneof("typed_breakdown") is None


def test_a_category_the_message_lacks_is_an_error_not_a_silent_loss():
    score = Score((SeatScore(0, 3, (("Dragon", 3),)),), ((0,),), final=False)
    with pytest.raises(WireError):
        wire.score_to_proto(score, 1, GAME)

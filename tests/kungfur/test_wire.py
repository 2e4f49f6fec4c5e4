"""Kung Fur Fight's public messages (protos/tabletop/v1/kungfur.proto, games/kungfur/wire.py): the AI worker
rebuilds the engine view from them, so views and moves must survive the trip through real bytes exactly; bad input
is a WireError with a reason; a frontend reads them in the game's words (cards, sides, arenas, tokens by name); and
a plan being made shows in no view but its own seat's."""

from __future__ import annotations

import random

import pytest
from google.protobuf import any_pb2

from games import wire
from games.kungfur import GAME
from games.kungfur.data import CARDS, NAMES
from games.kungfur.moves import MOVE_TYPES, RingoAdd, ShuAdd
from games.kungfur.wire import enum_name
from tabletop.v1 import kungfur_pb2 as kp
from tabletop.wire import WireError
from tests.kungfur.positions import CATS, DOGS, c, change, fight, play, player, position
from tests.support.messages import move_message, pack, view_message


def _games(count: int, seed: int = 1):
    """(state, seat, legal moves) along random games."""
    rng = random.Random(seed)
    for _ in range(count):
        state = GAME.new_game(2, {}, rng.getrandbits(32))
        while GAME.to_act(state):
            seat = rng.choice(sorted(GAME.to_act(state)))
            moves = GAME.legal_moves(state, seat)
            yield state, seat, moves
            state = GAME.apply(state, seat, rng.choice(moves))
        yield state, None, ()


def _through_bytes(packed: any_pb2.Any) -> any_pb2.Any:
    return any_pb2.Any.FromString(packed.SerializeToString())


def _view_message(state, seat) -> kp.KungFurView:
    return view_message(GAME, state, seat, kp.KungFurView)


def _move_message(move) -> kp.KungFurMove:
    return move_message(GAME, move, kp.KungFurMove)


def test_every_view_and_move_round_trips_exactly():
    views = 0
    kinds: set[str] = set()
    phases: set[int] = set()
    for state, _, moves in _games(30):
        for observer in (0, 1, None):
            view = GAME.view(state, observer)
            assert wire.view_from_any(GAME, _through_bytes(wire.view_to_any(GAME, view))) == view
            views += 1
        phases.add(_view_message(state, None).phase)
        for move in moves:
            packed = _through_bytes(wire.move_to_any(GAME, move))
            assert wire.move_from_any(GAME, packed) == move
            typed = kp.KungFurMove()
            packed.Unpack(typed)
            kinds.add(typed.WhichOneof("kind"))
    assert views > 3000
    assert len(kinds) == len(MOVE_TYPES), kinds
    assert len(phases) == 4


def test_a_view_with_a_changed_data_table_round_trips():
    """The `data` option changes AP, copies and the numbers: the view carries them, so a sample uses them too."""
    options = {"data": {"jonin": {"ap": 5, "copies": 3}, "genin": {"copies": 1}, "might": {"copies": 0},
                        "start_sp": 12, "destruction_max": 4}}
    state = GAME.new_game(2, options, 4)
    for observer in (0, 1, None):
        view = GAME.view(state, observer)
        assert wire.view_from_any(GAME, _through_bytes(wire.view_to_any(GAME, view))) == view
    message = _view_message(state, None)
    jonin = message.card_types[kp.KUNG_FUR_CARD_KOGA_JONIN - 1]
    assert (jonin.attack_points, jonin.copies, jonin.side, jonin.kind) == (
        5, 3, kp.KUNG_FUR_SIDE_CATS, kp.KUNG_FUR_CARD_KIND_ANIMAL)
    assert message.card_types[kp.KUNG_FUR_CARD_MIGHT - 1].copies == 0
    assert (message.starting_sp, message.destruction_max_sp) == (12, 4)


def test_every_card_has_its_english_name_in_the_enum():
    assert [kp.KungFurCard.Name(v) for v in range(1, len(CARDS) + 1)] == [enum_name(name) for name in NAMES]
    assert kp.KungFurCard.Name(c("bang") + 1) == "KUNG_FUR_CARD_SENIOR_BROTHER_BANG"
    assert kp.KungFurCard.Name(c("jonin") + 1) == "KUNG_FUR_CARD_KOGA_JONIN"


def test_the_view_in_the_games_words():
    """"고양이 플레이어는 '라이후우' 토큰 2개와 비밀 무기 토큰 4개를 가져갑니다. 강아지 플레이어는 '후아'토큰 3개를
    가져갑니다." and "보상 카드 더미에서 3장을 펼쳐 각 전장에 한 장씩 배치합니다." """
    state = position(rewards=(("might",), ("tumaz",), ("apple",)))
    view = _view_message(state, DOGS)
    assert view.seat == DOGS and view.phase == kp.KUNG_FUR_PHASE_PLANNING and view.round == 1
    cats, dogs = view.players
    assert (cats.side, dogs.side) == (kp.KUNG_FUR_SIDE_CATS, kp.KUNG_FUR_SIDE_DOGS)
    assert (cats.hidden_weapons, dogs.hua_tokens, cats.food_tokens, cats.sp) == (4, 3, 3, 10)
    assert cats.special_dish == kp.KUNG_FUR_DISH_STATE_NOT_TAKEN
    assert [kp.KungFurCard.Name(x) for x in dogs.hand] == [
        "KUNG_FUR_CARD_HUA", "KUNG_FUR_CARD_SENIOR_BROTHER_BANG", "KUNG_FUR_CARD_ELDEST_SENIOR_BROTHER_YE",
        "KUNG_FUR_CARD_MASTER_SHU", "KUNG_FUR_CARD_TEACHER_GONGMING", "KUNG_FUR_CARD_SIU_YAO",
        "KUNG_FUR_CARD_SHAOLIN_NOVICE", "KUNG_FUR_CARD_SHAOLIN_MONK", "KUNG_FUR_CARD_SHAOLIN_MONK"]
    assert [a.number for a in view.arenas] == [kp.KUNG_FUR_ARENA_NUMBER_ONE, kp.KUNG_FUR_ARENA_NUMBER_TWO,
                                               kp.KUNG_FUR_ARENA_NUMBER_THREE]
    assert [list(a.rewards) for a in view.arenas] == [[kp.KUNG_FUR_CARD_MIGHT], [kp.KUNG_FUR_CARD_TUMAZ],
                                                      [kp.KUNG_FUR_CARD_APPLE]]
    assert view.card_types[kp.KUNG_FUR_CARD_SHAOLIN_MONK - 1].attack_points == 5
    assert view.card_types[kp.KUNG_FUR_CARD_TUMAZ - 1].kind == kp.KUNG_FUR_CARD_KIND_RANGER


def test_a_plan_in_progress_shows_in_its_own_view_only():
    """"각 플레이어는 가림막 뒤에 동물 카드를 배치합니다." (behind the screen): the other seat and a spectator see that
    the cats are planning, never what, not even how much; the cats see their own teams and AP."""
    state = position()
    planned = play(state, CATS, "lead:1:jonin", "assist:1:genin", "lead:2:raifu", "weapon:1")
    for observer in (DOGS, None):
        assert _view_message(planned, observer) == _view_message(state, observer)
        message = _view_message(planned, observer)
        assert message.players[CATS].plan_secret and not message.players[CATS].plan_done
        assert all(not a.teams[CATS].leader and not a.teams[CATS].attack_points for a in message.arenas)
    own = _view_message(planned, CATS)
    assert not own.players[CATS].plan_secret and own.players[DOGS].plan_secret
    arena1 = own.arenas[0].teams[CATS]
    assert (arena1.leader, list(arena1.assistants), arena1.hidden_weapons) == (
        kp.KUNG_FUR_CARD_KOGA_JONIN, [kp.KUNG_FUR_CARD_KOGA_GENIN], 1)
    assert arena1.attack_points == 3 + 2 + 1
    assert own.arenas[1].teams[CATS].leader == kp.KUNG_FUR_CARD_RAIFU
    done = play(planned, CATS, "done")
    assert _view_message(done, DOGS).players[CATS].plan_done, "the table sees who has finished"
    revealed = play(done, DOGS, "lead:1:monk", "done")
    seen = _view_message(revealed, None)
    assert seen.arenas[0].teams[CATS].leader == kp.KUNG_FUR_CARD_KOGA_JONIN
    # Jōnin 3 + Genin 2 + a Hidden Weapon + Raifu's token 2 against a Shaolin Monk's 5.
    assert seen.arenas[0].fought and seen.arenas[0].winner == CATS


def test_a_battle_in_words_tokens_results_and_the_decision_due():
    """Raifu: "나머지 두 전장에 라이후우 토큰을 놓습니다"; Master Shu's ability is decided in the open."""
    state = player(position(rewards=(("might",), (), ())), DOGS, limit=3)
    state = fight(state, cats=("lead:2:raifu",), dogs=("lead:1:shu",))
    view = _view_message(state, None)
    assert view.phase == kp.KUNG_FUR_PHASE_BATTLE and view.current_arena == kp.KUNG_FUR_ARENA_NUMBER_ONE
    assert [(d.seat, d.decision) for d in view.decisions] == [(DOGS, kp.KUNG_FUR_DECISION_MASTER_SHU)]
    assert [a.raifu_token if a.HasField("raifu_token") else None for a in view.arenas] == [CATS, None, CATS]
    assert view.arenas[0].teams[CATS].attack_points == 2, "a Raifu token counts without animals"
    state = play(state, DOGS, "shu:monk")
    view = _view_message(state, CATS)
    assert list(view.arenas[0].teams[DOGS].assistants) == [kp.KUNG_FUR_CARD_SHAOLIN_MONK]
    assert view.arenas[0].winner == DOGS and view.arenas[0].fought
    assert kp.KUNG_FUR_CARD_MIGHT in view.discard
    assert _move_message(ShuAdd(None)).master_shu.decline
    assert _move_message(RingoAdd(3)).ringo.hidden_weapons == 3


def test_the_banana_draw_is_shown_to_its_chooser_only():
    """"고른 카드는 상대에게 보여주고 나머지 2장은 뒷면을 위로하여 버립니다." """
    state = change(position(rewards=(("banana",), (), ())), deck=(c("tumaz"), c("might"), c("apple"), c("ginseng")))
    state = fight(state, cats=("lead:1:jonin",))
    mine, theirs = _view_message(state, CATS), _view_message(state, DOGS)
    assert list(mine.banana_draw) == [kp.KUNG_FUR_CARD_GINSENG, kp.KUNG_FUR_CARD_APPLE, kp.KUNG_FUR_CARD_MIGHT]
    assert not theirs.banana_draw and theirs.banana_draw_size == 3
    assert kp.KUNG_FUR_CARD_MIGHT in theirs.unseen and kp.KUNG_FUR_CARD_MIGHT not in mine.unseen
    state = play(state, CATS, "banana:might")
    assert list(_view_message(state, CATS).your_face_down_discards) == [kp.KUNG_FUR_CARD_GINSENG,
                                                                        kp.KUNG_FUR_CARD_APPLE]
    assert not _view_message(state, DOGS).your_face_down_discards
    assert _view_message(state, DOGS).players[CATS].face_down_discards == 2


def test_the_typed_score_breakdown_is_the_vp():
    for state, seat, _ in _games(2, seed=3):
        if seat is not None:
            continue
        score = GAME.score(state)
        message = wire.score_to_proto(GAME, score, 1)
        for engine_seat, proto_seat in zip(score.seats, message.seats, strict=True):
            typed = kp.KungFurScoreBreakdown()
            assert proto_seat.typed_breakdown.Unpack(typed)
            assert typed.vp == engine_seat.total == state.players[engine_seat.seat].vp


# --- malformed input ----------------------------------------------------------------------------------------
def _valid_view() -> kp.KungFurView:
    state = play(position(rewards=(("might",), (), ())), CATS, "lead:1:jonin", "assist:1:genin")
    return _view_message(state, CATS)


def _broken_views():
    def unset_phase(v):
        v.phase = kp.KUNG_FUR_PHASE_UNSPECIFIED

    def bad_card(v):
        v.players[0].hand[0] = 99

    def unset_card_in_hand(v):
        v.players[1].hand[0] = kp.KUNG_FUR_CARD_UNSPECIFIED

    def unsorted_hand(v):
        v.players[1].hand[0], v.players[1].hand[-1] = v.players[1].hand[-1], v.players[1].hand[0]

    def one_player(v):
        del v.players[1]

    def seats_swapped(v):
        v.players[0].seat, v.players[1].seat = 1, 0

    def two_cats(v):
        v.players[1].side = kp.KUNG_FUR_SIDE_CATS

    def unset_side(v):
        v.players[0].side = kp.KUNG_FUR_SIDE_UNSPECIFIED

    def bad_seat(v):
        v.seat = 2

    def two_arenas(v):
        del v.arenas[2]

    def arenas_out_of_order(v):
        v.arenas[0].number = kp.KUNG_FUR_ARENA_NUMBER_TWO

    def one_team(v):
        del v.arenas[0].teams[1]

    def assistant_without_leader(v):
        v.arenas[1].teams[0].assistants.append(kp.KUNG_FUR_CARD_KOGA_GENIN)

    def four_animals(v):
        v.arenas[0].teams[0].assistants.extend([kp.KUNG_FUR_CARD_HIMIKO, kp.KUNG_FUR_CARD_RINGO])

    def a_secret_plan_showing(v):
        v.arenas[0].teams[1].leader = kp.KUNG_FUR_CARD_HUA

    def negative_weapons(v):
        v.arenas[0].teams[0].hidden_weapons = -1

    def negative_sp(v):
        v.players[0].sp = -3

    def sp_past_the_track(v):
        v.players[0].sp = 13

    def unset_current_arena(v):
        v.current_arena = kp.KUNG_FUR_ARENA_NUMBER_UNSPECIFIED

    def unset_stage(v):
        v.stage = kp.KUNG_FUR_BATTLE_STAGE_UNSPECIFIED

    def unset_dish(v):
        v.players[0].special_dish = kp.KUNG_FUR_DISH_STATE_UNSPECIFIED

    def unset_decision(v):
        v.decisions.add(seat=0)

    def bad_raifu_owner(v):
        v.arenas[1].raifu_token = 7

    def bad_winner(v):
        v.winners.append(-1)

    def round_zero(v):
        v.round = 0

    def card_types_short(v):
        del v.card_types[5]

    def huge_copies(v):
        v.card_types[0].copies = 10 ** 6

    def blockade_round_zero(v):
        v.players[0].blockade_round = 0

    return [unset_phase, bad_card, unset_card_in_hand, unsorted_hand, one_player, seats_swapped, two_cats, unset_side,
            bad_seat, two_arenas, arenas_out_of_order, one_team, assistant_without_leader, four_animals,
            a_secret_plan_showing, negative_weapons, negative_sp, sp_past_the_track, unset_current_arena, unset_stage,
            unset_dish, unset_decision, bad_raifu_owner, bad_winner, round_zero, card_types_short, huge_copies,
            blockade_round_zero]


@pytest.mark.parametrize("damage", _broken_views(), ids=lambda f: f.__name__)
def test_a_malformed_view_is_a_wire_error(damage):
    message = _valid_view()
    wire.view_from_any(GAME, pack(message))  # intact, it reads
    damage(message)
    with pytest.raises(WireError):
        wire.view_from_any(GAME, pack(message))


@pytest.mark.parametrize("message", [
    kp.KungFurMove(),
    kp.KungFurMove(lead=kp.KungFurLead(animal=kp.KUNG_FUR_CARD_HUA)),
    kp.KungFurMove(lead=kp.KungFurLead(arena=kp.KUNG_FUR_ARENA_NUMBER_ONE)),
    kp.KungFurMove(lead=kp.KungFurLead(arena=4, animal=kp.KUNG_FUR_CARD_HUA)),
    kp.KungFurMove(assist=kp.KungFurAssist(arena=kp.KUNG_FUR_ARENA_NUMBER_TWO, animal=33)),
    kp.KungFurMove(place_token=kp.KungFurPlaceToken(arena=kp.KUNG_FUR_ARENA_NUMBER_ONE)),
    kp.KungFurMove(place_token=kp.KungFurPlaceToken(arena=kp.KUNG_FUR_ARENA_NUMBER_ONE,
                                                    token=kp.KUNG_FUR_TOKEN_RAIFU)),
    kp.KungFurMove(place_token=kp.KungFurPlaceToken(token=kp.KUNG_FUR_TOKEN_COCONUT)),
    kp.KungFurMove(master_shu=kp.KungFurMasterShu()),
    kp.KungFurMove(master_shu=kp.KungFurMasterShu(animal=kp.KUNG_FUR_CARD_HUA, decline=True)),
    kp.KungFurMove(ringo=kp.KungFurRingo(hidden_weapons=5)),
    kp.KungFurMove(ringo=kp.KungFurRingo(hidden_weapons=-1)),
    kp.KungFurMove(banana_pick=kp.KungFurBananaPick()),
    kp.KungFurMove(kkami=kp.KungFurKkami(animal=-2)),
    kp.KungFurMove(recover=kp.KungFurRecover()),
    kp.KungFurMove(recover=kp.KungFurRecover(recovery=9)),
], ids=str)
def test_a_malformed_move_is_a_wire_error(message):
    with pytest.raises(WireError):
        wire.move_from_any(GAME, pack(message))


def test_a_message_of_another_type_is_a_wire_error():
    with pytest.raises(WireError):
        wire.view_from_any(GAME, pack(kp.KungFurMove()))
    with pytest.raises(WireError):
        wire.move_from_any(GAME, pack(kp.KungFurView()))
    with pytest.raises(WireError):
        wire.view_from_any(GAME, any_pb2.Any(type_url="type.googleapis.com/tabletop.v1.KungFurView", value=b"\xff"))
    with pytest.raises(WireError):
        wire.view_from_any(GAME, pack(kp.KungFurView()))

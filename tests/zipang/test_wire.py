"""Zipang's public messages (protos/tabletop/v1/zipang.proto, games/zipang/wire.py): the AI worker rebuilds the
engine view from them, so views and moves must survive the trip through real bytes exactly; bad input is a
WireError with a reason; and a frontend reads them in the game's words (cards by name, the pending out-of-turn
decision as a message of its own)."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from google.protobuf import any_pb2

from games import wire
from games.zipang import GAME
from games.zipang.data import KEYS, TITLES
from games.zipang.moves import MOVE_TYPES, Play, React, Take, Use
from tabletop.v1 import zipang_pb2 as zp
from tabletop.wire import WireError
from tests.support.messages import move_message, pack, view_message
from tests.zipang.positions import act, card, position


def _games(count: int, seed: int = 1):
    """(state, seat to act, its legal moves) along random games of 2 to 6 seats; (state, None, ()) at the end."""
    rng = random.Random(seed)
    for g in range(count):
        state = GAME.new_game(2 + g % 5, {}, rng.getrandbits(32))
        while GAME.to_act(state):
            (seat,) = GAME.to_act(state)
            moves = GAME.legal_moves(state, seat)
            yield state, seat, moves
            state = GAME.apply(state, seat, rng.choice(moves))
        yield state, None, ()


def _through_bytes(packed: any_pb2.Any) -> any_pb2.Any:
    return any_pb2.Any.FromString(packed.SerializeToString())


def _view_message(state, seat) -> zp.ZipangView:
    return view_message(GAME, state, seat, zp.ZipangView)


def _move_message(move) -> zp.ZipangMove:
    return move_message(GAME, move, zp.ZipangMove)


def test_every_view_and_move_round_trips_exactly():
    views = records = knew = 0
    kinds: set[str] = set()
    answers: set[int] = set()
    phases: set[int] = set()
    seat_counts: set[int] = set()
    for state, _, moves in _games(60):
        seat_counts.add(state.num_players)
        for observer in [*range(state.num_players), None]:
            view = GAME.view(state, observer)
            packed = _through_bytes(wire.view_to_any(GAME, view))
            assert wire.view_from_any(GAME, packed) == view
            views += 1
            records += sum(d is not None for d in view.plays + view.answers)
            knew += any(d is not None and any(d.known) for d in view.plays + view.answers)
        phases.add(_view_message(state, None).phase)
        for move in moves:
            packed = _through_bytes(wire.move_to_any(GAME, move))
            assert wire.move_from_any(GAME, packed) == move
            typed = zp.ZipangMove()
            packed.Unpack(typed)
            kinds.add(typed.WhichOneof("kind"))
            if typed.HasField("react"):
                answers.add(typed.react.answer)
    assert views > 10_000 and records > 10_000 and knew > 100, (views, records, knew)
    assert seat_counts == {2, 3, 4, 5, 6}
    assert len(kinds) == len(MOVE_TYPES), kinds
    assert answers == {zp.ZIPANG_ANSWER_MONK, zp.ZIPANG_ANSWER_COIN_BLOCK, zp.ZIPANG_ANSWER_DEFEND,
                       zp.ZIPANG_ANSWER_ACCEPT}
    assert phases == set(zp.ZipangPhase.values()) - {zp.ZIPANG_PHASE_UNSPECIFIED}


def test_cards_read_as_their_names_with_their_values():
    """The card enum names the characters; each card type's BTL, HNR and copies in play travel in the view."""
    assert [zp.ZipangCard.Name(c + 1) for c in range(len(KEYS))] == [
        "ZIPANG_CARD_" + t.upper().replace(" ", "_") for t in TITLES]
    view = _view_message(GAME.new_game(3, {"cards": {"warlord": {"btl": 7}}}, 5), None)
    warlord = view.card_types[card("warlord")]
    assert (warlord.card, warlord.battle_points, warlord.honor_points) == (zp.ZIPANG_CARD_WARLORD, 7, 2)
    # "Depending on the number of players, remove the following cards": 2 of the 3 Bandits stay out at 3 players
    assert view.card_types[card("bandit")].copies == 1
    assert sum(t.copies for t in view.card_types) == 18


def test_coins_hands_and_the_table_are_in_words():
    """ "Each player starts the game with 5 Mangoku coins", puts 1 in the center, "and 1 coin is then removed";
    2 cards each, a face-down discard, the rest is the draw pile."""
    state = GAME.new_game(4, {"start_player": "seat2"}, 7)
    view = _view_message(state, 1)
    assert [p.coins for p in view.players] == [4, 4, 4, 4] and view.coin_area == 3
    assert [p.hand_size for p in view.players] == [2, 2, 3, 2], "seat 2 has drawn for its turn"
    assert list(view.hand) == [c + 1 for c in state.hands[1]]
    assert (view.face_down_discards, view.draw_pile_size, list(view.discard)) == (1, 25 - 9 - 1, [])
    assert view.phase == zp.ZIPANG_PHASE_PLAY and view.active == view.actor == 2
    assert not view.HasField("effect") and not view.HasField("reaction")
    assert view.battle == 1 and view.battle_starter == 2 and not view.battle_results
    spectator = _view_message(state, None)
    assert not spectator.HasField("seat") and not spectator.hand


def test_an_attack_before_the_first_turn_is_a_decision_in_words():
    """ "If you are attacked before your first turn of each battle: you can block the attack by adding 1 Mangoku
    coin to the coin area"; a Monk cancels an effect aimed at you; or you defend with your hand."""
    hands = {0: ("warlord", "peasant", "captain"), 1: ("monk", "commander"), 2: ("bandit", "peasant")}
    state = act(position(3, hands), (0, "play:warlord>s1"))
    mine = _view_message(state, 1)
    assert mine.phase == zp.ZIPANG_PHASE_REACT and mine.actor == 1 and mine.active == 0
    assert mine.effect == zp.ZipangEffect(user=0, card=zp.ZIPANG_CARD_WARLORD, attack_strength=6, targets=[1])
    assert mine.reaction == zp.ZipangReaction(seat=1, from_seat=0, card=zp.ZIPANG_CARD_WARLORD, attack_strength=6,
                                              coin_block_allowed=True, monk_allowed=True, defence=5)
    # Whether seat 1 holds a Monk, and its hand's strength, are its own secret.
    for observer in (0, 2, None):
        reaction = _view_message(state, observer).reaction
        assert (reaction.monk_allowed, reaction.defence, reaction.coin_block_allowed) == (False, 0, True)
    answers = [_move_message(m).react for m in GAME.legal_moves(state, 1)]
    assert answers == [zp.ZipangReact(answer=a, card=zp.ZIPANG_CARD_WARLORD) for a in (
        zp.ZIPANG_ANSWER_MONK, zp.ZIPANG_ANSWER_COIN_BLOCK, zp.ZIPANG_ANSWER_DEFEND)]


def test_an_ikki_and_its_targets():
    """ "If you play 2 Peasants at the same time, you can make an attack of BTL 5 against all the other
    players." """
    hands = {0: ("peasant", "peasant", "bandit"), 1: ("monk", "commander"), 2: ("warlord", "captain")}
    state = position(3, hands)
    ikki = next(m for m in GAME.legal_moves(state, 0) if m.id == "play:peasant+ikki")
    assert _move_message(ikki).play == zp.ZipangPlay(card=zp.ZIPANG_CARD_PEASANT, ikki=True)
    view = _view_message(GAME.apply(state, 0, ikki), None)
    assert (view.effect.card, view.effect.ikki, view.effect.attack_strength) == (zp.ZIPANG_CARD_PEASANT, True, 5)
    assert list(view.effect.targets) == [1, 2] and view.reaction.seat == 1 and view.reaction.ikki


def test_the_shrine_maiden_shows_a_hand_to_its_player_only():
    hands = {0: ("maiden", "peasant", "peasant"), 1: ("bandit", "warlord"), 2: ("monk", "kabuki")}
    state = act(position(3, hands), (0, "play:maiden>s1"), (1, "accept"))
    mine = _view_message(state, 0)
    assert mine.phase == zp.ZIPANG_PHASE_TAKE and mine.effect.looked_at == 1
    assert list(mine.players[1].known_cards) == [zp.ZIPANG_CARD_BANDIT, zp.ZIPANG_CARD_WARLORD]
    assert list(_view_message(state, 1).players[0].knows_of_your_hand) == [zp.ZIPANG_CARD_BANDIT,
                                                                           zp.ZIPANG_CARD_WARLORD]
    assert not _view_message(state, 2).players[1].known_cards and not _view_message(state, None).players[1].known_cards
    takes = [_move_message(m).take for m in GAME.legal_moves(state, 0)]
    assert takes[-1] == zp.ZipangTake(from_seat=1), "take no card: the card is unspecified"
    assert zp.ZipangTake(card=zp.ZIPANG_CARD_WARLORD, from_seat=1) in takes
    state = act(state, (0, "take:warlord"))
    used = _view_message(state, 2)
    assert used.phase == zp.ZIPANG_PHASE_USE and used.effect.taken_card == zp.ZIPANG_CARD_WARLORD
    assert list(used.effect.usable) == [zp.ZIPANG_CARD_WARLORD]


def test_the_kabuki_offers_the_face_up_discards():
    """Kabuki: "Choose 1 card from the discard pile and use it immediately." """
    hands = {0: ("kabuki", "peasant", "captain"), 1: ("monk", "commander"), 2: ("warlord", "peasant")}
    state = act(position(3, hands, discard=("bandit", "captain")), (0, "play:kabuki"))
    view = _view_message(state, None)
    assert view.phase == zp.ZIPANG_PHASE_USE and list(view.effect.usable) == [zp.ZIPANG_CARD_BANDIT,
                                                                               zp.ZIPANG_CARD_CAPTAIN]
    assert list(view.discard) == [zp.ZIPANG_CARD_BANDIT, zp.ZIPANG_CARD_CAPTAIN, zp.ZIPANG_CARD_KABUKI]
    use = _move_message(Use(card("captain"), (2,))).use
    assert use == zp.ZipangUse(card=zp.ZIPANG_CARD_CAPTAIN, targets=[2])


def test_battle_results_name_the_winner_or_the_tie():
    state = position(3, {0: ("emperor", "peasant", "captain"), 1: ("monk", "commander"), 2: ("bandit", "peasant")},
                     winners=(2, None))
    view = _view_message(state, None)
    assert [(r.battle, r.winner if r.HasField("winner") else None) for r in view.battle_results] == [(1, 2), (2, None)]


def test_the_typed_score_breakdown_is_the_coins():
    assert [f.name for f in zp.ZipangScoreBreakdown.DESCRIPTOR.fields] == ["coins"]
    state = GAME.new_game(5, {}, 3)
    message = wire.score_to_proto(GAME, GAME.score(state), 1)
    for seat in message.seats:
        typed = zp.ZipangScoreBreakdown()
        assert seat.typed_breakdown.Unpack(typed)
        assert typed.coins == seat.total == 4


# --- malformed input -----------------------------------------------------------------------------------------


def _valid_view() -> zp.ZipangView:
    hands = {0: ("warlord", "peasant", "captain"), 1: ("monk", "commander"), 2: ("bandit", "peasant")}
    return _view_message(act(position(3, hands, winners=(1,)), (0, "play:warlord>s1")), 1)


def _broken_views():
    def unset_phase(v):
        v.phase = zp.ZIPANG_PHASE_UNSPECIFIED

    def unknown_phase(v):
        v.phase = 9

    def bad_card_in_hand(v):
        v.hand[0] = 12

    def unset_card_in_discard(v):
        v.discard.append(zp.ZIPANG_CARD_UNSPECIFIED)

    def one_player(v):
        del v.players[1:]

    def seven_players(v):
        for p in range(3, 7):
            v.players.add(seat=p)

    def players_out_of_order(v):
        v.players[0].seat, v.players[1].seat = 1, 0

    def card_types_short(v):
        del v.card_types[10]

    def card_types_out_of_order(v):
        v.card_types[0].card = zp.ZIPANG_CARD_MONK

    def negative_copies(v):
        v.card_types[3].copies = -1

    def negative_coins(v):
        v.players[2].coins = -2

    def negative_hand_size(v):
        v.players[0].hand_size = -1

    def bad_viewer(v):
        v.seat = 3

    def bad_actor(v):
        v.actor = -1

    def bad_active(v):
        v.active = 5

    def bad_starter(v):
        v.battle_starter = 4

    def unset_effect_card(v):
        v.effect.card = zp.ZIPANG_CARD_UNSPECIFIED

    def effect_of_another_seat(v):
        v.effect.user = 2

    def target_out_of_range(v):
        v.effect.targets.append(3)

    def ikki_of_a_warlord(v):
        v.effect.ikki = True

    def negative_strength(v):
        v.effect.attack_strength = -6

    def bad_looked_at(v):
        v.effect.looked_at = 9

    def bad_usable(v):
        v.effect.usable.append(0)

    def bad_taken_card(v):
        v.effect.taken_card = 40

    def battles_misnumbered(v):
        v.battle_results[0].battle = 2

    def bad_winner(v):
        v.battle_results[0].winner = 3

    def negative_draw_pile(v):
        v.draw_pile_size = -1

    def negative_coin_area(v):
        v.coin_area = -1

    def bad_known_card(v):
        v.players[0].known_cards.append(0)

    def bad_card_known_of_your_hand(v):
        v.players[0].knows_of_your_hand.append(13)

    def spectator_with_a_hand(v):
        v.ClearField("seat")

    def a_play_recorded_as_an_answer(v):
        v.players[0].last_play.move.CopyFrom(zp.ZipangMove(react=zp.ZipangReact(
            answer=zp.ZIPANG_ANSWER_ACCEPT, card=zp.ZIPANG_CARD_BANDIT)))

    def more_held_than_kept(v):
        v.players[0].last_play.held = v.players[0].last_play.kept + 1

    def a_record_short_of_seats(v):
        del v.players[0].last_play.coins[1:]

    def negative_coins_in_a_record(v):
        v.players[0].last_play.coins[2] = -1

    def bad_card_in_a_records_discard(v):
        v.players[0].last_play.discard.append(0)

    def a_record_without_its_move(v):
        v.players[0].last_play.ClearField("move")

    def negative_strength_in_a_record(v):
        v.players[0].last_play.attack_strength = -1

    return [spectator_with_a_hand, unset_phase, unknown_phase, bad_card_in_hand, unset_card_in_discard, one_player,
            seven_players, players_out_of_order, card_types_short, card_types_out_of_order, negative_copies,
            negative_coins, negative_hand_size, bad_viewer, bad_actor, bad_active, bad_starter, unset_effect_card,
            effect_of_another_seat, target_out_of_range, ikki_of_a_warlord, negative_strength, bad_looked_at,
            bad_usable, bad_taken_card, battles_misnumbered, bad_winner, negative_draw_pile, negative_coin_area,
            bad_known_card, bad_card_known_of_your_hand, a_play_recorded_as_an_answer, more_held_than_kept,
            a_record_short_of_seats, negative_coins_in_a_record, bad_card_in_a_records_discard,
            a_record_without_its_move, negative_strength_in_a_record]


@pytest.mark.parametrize("damage", _broken_views(), ids=lambda f: f.__name__)
def test_a_malformed_view_is_a_wire_error(damage):
    message = _valid_view()
    wire.view_from_any(GAME, pack(message))  # intact, it reads
    damage(message)
    with pytest.raises(WireError):
        wire.view_from_any(GAME, pack(message))


@pytest.mark.parametrize("message", [
    zp.ZipangMove(),
    zp.ZipangMove(play=zp.ZipangPlay()),
    zp.ZipangMove(play=zp.ZipangPlay(card=12)),
    zp.ZipangMove(play=zp.ZipangPlay(card=zp.ZIPANG_CARD_CAPTAIN, targets=[6])),
    zp.ZipangMove(play=zp.ZipangPlay(card=zp.ZIPANG_CARD_CAPTAIN, targets=[-1])),
    zp.ZipangMove(play=zp.ZipangPlay(card=zp.ZIPANG_CARD_CAPTAIN, ikki=True)),
    zp.ZipangMove(use=zp.ZipangUse(targets=[1])),
    zp.ZipangMove(use=zp.ZipangUse(card=zp.ZIPANG_CARD_BANDIT, targets=[7])),
    zp.ZipangMove(use=zp.ZipangUse(card=zp.ZIPANG_CARD_MONK, ikki=True)),
    zp.ZipangMove(take=zp.ZipangTake(card=99, from_seat=1)),
    zp.ZipangMove(take=zp.ZipangTake(card=zp.ZIPANG_CARD_MONK, from_seat=6)),
    zp.ZipangMove(react=zp.ZipangReact(card=zp.ZIPANG_CARD_WARLORD)),
    zp.ZipangMove(react=zp.ZipangReact(answer=7, card=zp.ZIPANG_CARD_WARLORD)),
    zp.ZipangMove(react=zp.ZipangReact(answer=zp.ZIPANG_ANSWER_DEFEND)),
    zp.ZipangMove(react=zp.ZipangReact(answer=zp.ZIPANG_ANSWER_MONK, card=zp.ZIPANG_CARD_BANDIT, ikki=True)),
], ids=str)
def test_a_malformed_move_is_a_wire_error(message):
    with pytest.raises(WireError):
        wire.move_from_any(GAME, pack(message))


def test_a_message_of_another_type_is_a_wire_error():
    with pytest.raises(WireError):
        wire.view_from_any(GAME, pack(zp.ZipangMove()))
    with pytest.raises(WireError):
        wire.move_from_any(GAME, pack(zp.ZipangView()))
    with pytest.raises(WireError):
        wire.view_from_any(GAME, any_pb2.Any(type_url="type.googleapis.com/tabletop.v1.ZipangView", value=b"\xff"))


def test_a_move_names_any_seat_and_the_engine_judges_it():
    """The wire checks the shape (a seat 0..5, a card type); legality is the engine's."""
    move = wire.move_from_any(GAME, pack(zp.ZipangMove(play=zp.ZipangPlay(card=zp.ZIPANG_CARD_CAPTAIN,
                                                                           targets=[5, 1]))))
    assert move == Play(card("captain"), (5, 1))
    assert wire.move_from_any(GAME, pack(zp.ZipangMove(take=zp.ZipangTake(from_seat=2)))) == Take(None, 2)
    react = zp.ZipangReact(answer=zp.ZIPANG_ANSWER_COIN_BLOCK, card=zp.ZIPANG_CARD_PEASANT, ikki=True)
    assert wire.move_from_any(GAME, pack(zp.ZipangMove(react=react))) == React("coin", card("peasant"), True)


def test_an_engine_view_the_message_cannot_hold_is_refused():
    """An effect's details without the effect would be lost on the way: a schema drift, not a silent loss."""
    state = position(3, {0: ("captain", "peasant", "bandit"), 1: ("monk", "peasant"), 2: ("warlord", "kabuki")})
    view = GAME.view(state, 0)
    with pytest.raises(WireError):
        wire.view_to_any(GAME, replace(view, targets=(1,)))

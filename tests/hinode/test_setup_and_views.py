"""Setup, options, tribe choice, and what each seat may see."""

from __future__ import annotations

import json
import random

import pytest

from games.base import IllegalMove, InvalidOptions
from games.hinode import GAME
from games.hinode.data import NAWABARI, NAWABARI_KEYS, vp_table
from games.hinode.state import AREA, TRIBE
from tests.hinode.position import act, ids, position


def test_setup_lays_out_twelve_areas_a_bonus_area_and_three_cubes_each():
    """ "lay them out face up at random in a grid of 4 across x 3 down [...] Place the one remaining Nawabari card
    face up [...] as the Bonus Area. [...] place 3 resource cubes at random on each Area." """
    state = GAME.new_game(4, {}, seed=1)
    assert sorted(state.layout) == list(range(13))
    assert all(sum(state.cubes[a * 3 : a * 3 + 3]) == 3 for a in range(12))
    assert [sum(state.cubes[c::3]) for c in range(3)] == [12, 12, 12]  # "12 cubes of each of the 3 colors"


def test_nine_cards_each_the_rest_removed_and_a_hero_each():
    """ "deal 9 to each player as their hand. The rest are not used [...]. Deal 1 Hero card to every player" """
    state = GAME.new_game(4, {}, seed=2)
    dealt = [c for h in state.hands for c in h] + list(state.removed)
    assert sorted(dealt) == list(range(39)) and all(len(h) == 9 for h in state.hands)
    assert state.heroes == (True,) * 4


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_start_player_is_the_creators_choice_or_random(players):
    """ "each player decides the start player by rock-paper-scissors or any method they like" """
    for seat in range(players):
        assert GAME.new_game(players, {"start_player": f"seat{seat}"}, seed=3).actor == seat
    starts = {GAME.new_game(players, {}, seed=s).start for s in range(40)}
    assert starts == set(range(players))


def test_tribes_are_chosen_from_the_start_player_clockwise():
    """ "starting from the start player and going clockwise, each player chooses one tribe they like" """
    state = GAME.new_game(3, {"start_player": "seat1"}, seed=4)
    assert state.phase == TRIBE
    order = []
    for _ in range(3):
        (seat,) = GAME.to_act(state)
        order.append(seat)
        state = act(state, (seat, ids(state, seat)[-1]))
    assert order == [1, 2, 0]
    assert state.tribes == (1, 3, 2, 0) and state.phase == AREA and state.actor == 1
    with pytest.raises(IllegalMove):  # "that tribe is taken"
        act(GAME.new_game(2, {"start_player": "seat0"}, seed=4), (0, "tribe:kansai"), (1, "tribe:kansai"))


def test_the_vp_table_is_one_table_of_assumed_rows():
    assert len(NAWABARI) == 13 and all(n.assumed for n in NAWABARI)
    assert [n.colour for n in NAWABARI].count(3) == 1
    assert any(n.first < 0 or n.second < 0 for n in NAWABARI)  # "the VP may decrease"


def test_nawabari_vp_option_overrides_the_table():
    """The unknown printed VP can be set per game: the `nawabari_vp` option (JSON)."""
    override = {"red-1": [10, -5], "white": [1, 1]}
    from_struct = {"red-1": [10.0, -5.0], "white": [1.0, 1.0]}  # what a protobuf Struct carries
    for given in (override, json.dumps(override), from_struct):
        state = GAME.new_game(4, {"nawabari_vp": given}, seed=5)
        assert state.vp[0:2] == (10, -5) and state.vp[24:26] == (1, 1)
        assert state.vp[2:24] == vp_table()[2:24]
        assert all(type(v) is int for v in state.vp)
    state = position(options={"nawabari_vp": override}, hands={0: (), 1: (), 2: (), 3: ()},
                     first=(0,) + (None,) * 11, second=(1,) + (None,) * 11, trick=9, phase="over", actor=None)
    totals = [dict(s.breakdown)["ranking points"] for s in GAME.score(state).seats]
    assert totals[:2] == [10, -5]


@pytest.mark.parametrize(
    "options",
    [
        {"nawabari_vp": {"green-1": [1, 1]}},
        {"nawabari_vp": {"red-1": [1]}},
        {"nawabari_vp": {"red-1": [1, "2"]}},
        {"nawabari_vp": {"red-1": [1, 1000]}},
        {"nawabari_vp": {"red-1": [1, 2.5]}},
        {"nawabari_vp": [1, 2]},
        {"nawabari_vp": "{not json"},
        {"advanced": "yes"},
        {"start_player": "seat9"},
        {"start_player": "seat3"},  # only 2 seats
        {"colour": "red"},
    ],
)
def test_bad_options_are_rejected(options):
    with pytest.raises(InvalidOptions):
        GAME.new_game(2, options, seed=1)


@pytest.mark.parametrize("seats", [0, 5, True])
def test_bad_seat_counts_are_rejected(seats):
    with pytest.raises(InvalidOptions):
        GAME.new_game(seats, {}, seed=1)


def _midgame(players: int, seed: int, steps: int):
    state = GAME.new_game(players, {"advanced": True}, seed)
    rng = random.Random(seed)
    for _ in range(steps):
        (seat,) = GAME.to_act(state)
        state = GAME.apply(state, seat, rng.choice(GAME.legal_moves(state, seat)))
    return state


def test_a_view_shows_the_own_hand_and_the_public_table_only():
    state = _midgame(2, seed=9, steps=12)
    view = GAME.view(state, 0)
    assert view.hand == state.hands[0]
    assert view.hand_sizes == tuple(len(h) for h in state.hands)
    assert view.history == state.history and view.resources == state.resources
    text = GAME.dump_view(view).decode()
    assert "seed" not in text and "removed" not in text and '"hands"' not in text
    assert GAME.view(state, None).hand == ()


def test_samples_keep_the_view_and_deal_the_unseen_cards():
    state = _midgame(3, seed=10, steps=20)
    view = GAME.view(state, 1)
    rng = random.Random(1)
    for _ in range(20):
        sample = GAME.sample(view, rng)
        assert GAME.view(sample, 1) == view
        cards = [c for h in sample.hands for c in h] + list(sample.removed)
        cards += [p.move.card for p in sample.history if p.move.card < 39]
        assert sorted(cards) == list(range(39)) and len(sample.removed) == 3


def test_keys_match_the_table():
    assert NAWABARI_KEYS[-1] == "white" and len(set(NAWABARI_KEYS)) == 13


def test_a_decoded_move_is_as_good_as_the_listed_one():
    """Moves arrive from the wire as equal copies, not the engine's own objects."""
    state = _midgame(3, seed=12, steps=7)
    (seat,) = GAME.to_act(state)
    for move in GAME.legal_moves(state, seat)[:5]:
        copy = GAME.load_move(GAME.dump_move(move))
        assert copy == move and copy is not move
        assert GAME.apply(state, seat, copy) == GAME.apply(state, seat, move)


@pytest.mark.parametrize("advanced", [False, True])
def test_every_move_is_made_in_plain_sight(advanced):
    """ "each player chooses one tribe they like", then Areas are chosen, cards played with a resource or a skill
    and resources taken, all at the open table: no Hinode move is secret, so every move is public."""
    rng = random.Random(5)
    for seed, players in enumerate((2, 3, 4)):
        state = GAME.new_game(players, {"advanced": advanced}, seed)
        while not GAME.is_over(state):
            (seat,) = GAME.to_act(state)
            moves = GAME.legal_moves(state, seat)
            assert all(GAME.move_is_public(state, seat, m) for m in moves)
            state = GAME.apply(state, seat, rng.choice(moves))


@pytest.mark.parametrize("field, value", [
    ("num_players", 0), ("num_players", 56), ("seat", 3), ("actor", 4), ("start_player", 78), ("hero_last", 9),
    ("next_start_player", -1), ("battlefield", 99),
])
def test_a_view_naming_a_seat_position_or_area_that_does_not_exist_is_refused_at_the_wire(field, value):
    """A view from outside (the AI service's caller) that names a seat, position or Area the table lacks is refused
    as a WireError (INVALID_VIEW), not left to break the search that plays it (`make fuzz` sent such views)."""
    from games.hinode.wire import WIRE
    from tabletop.wire import WireError

    state = GAME.new_game(2, {}, seed=3)
    message = WIRE.view_to_proto(GAME.view(state, 0))
    WIRE.view_from_proto(message)  # the sound view reads back
    setattr(message, field, value)
    with pytest.raises(WireError):
        WIRE.view_from_proto(message)

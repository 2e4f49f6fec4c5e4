"""Playing with 3 or fewer players: proxies fill the table to four, exactly as the rulebook says."""

from __future__ import annotations

import pytest

from games.base import InvalidOptions
from games.hinode import GAME
from games.hinode.data import HERO
from games.hinode.state import AREA, PICK
from tests.hinode.position import act, card, ids, position, resources


def cubes_on(area: int, red: int, blue: int, yellow: int) -> tuple[int, ...]:
    cubes = [1] * 36
    cubes[area * 3 : area * 3 + 3] = (red, blue, yellow)
    return tuple(cubes)


@pytest.mark.parametrize("players", [1, 2, 3])
def test_cards_and_tribes_are_dealt_as_if_four_played(players):
    """ "Deal battle cards and tribe cards as if there were 4 players." """
    state = GAME.new_game(players, {"start_player": "seat0"}, seed=11)
    assert [len(h) for h in state.hands] == [9, 9, 9, 9] and len(state.removed) == 3
    for seat in range(players):
        state = GAME.apply(state, seat, GAME.legal_moves(state, seat)[0])
    assert sorted(state.tribes) == [0, 1, 2, 3]  # the proxies got the remaining tribes
    assert state.phase == AREA


@pytest.mark.parametrize("players", [1, 2, 3])
def test_only_real_seats_ever_act(players):
    """A proxy "plays one card chosen at random from their hand": the engine turns its cards itself."""
    state = GAME.new_game(players, {}, seed=5)
    while GAME.to_act(state):
        (seat,) = GAME.to_act(state)
        assert seat < players
        state = GAME.apply(state, seat, GAME.legal_moves(state, seat)[-1])
    assert len(GAME.score(state).seats) == players


def test_a_proxy_turns_over_the_top_card_of_its_pile_and_never_plays_its_hero():
    """ "It is good to keep the proxy's hand as a face-down pile and turn over the top card to play it.) Proxy
    players do not play Hero cards." """
    hands = {0: ("r2",), 1: ("r3",), 2: ("y5", "r13"), 3: ("b7", "b1")}
    state = position(num_players=2, hands=hands)
    state = act(state, (0, "area:0"), (0, "play:r2"), (1, "play:r3"))
    assert [(p.seat, p.move.card) for p in state.history] == [(0, card("r2")), (1, card("r3")), (2, card("y5")),
                                                             (3, card("b7"))]
    assert all(p.move.card != HERO for p in state.history)


def test_a_proxy_cannot_be_start_player():
    """ "However, a proxy player cannot become the start player." """
    with pytest.raises(InvalidOptions):
        GAME.new_game(2, {"start_player": "seat2"}, seed=1)
    for seed in range(30):
        assert GAME.new_game(2, {}, seed).start in (0, 1)


def test_when_a_proxy_wins_the_trick_the_best_real_player_starts():
    """ "When there are 3 or fewer players and a proxy player is in 1st place, the highest-ranked player among
    the (real) players becomes the start player." """
    hands = {0: ("r2",), 1: ("r3",), 2: ("r13",), 3: ("r12",)}
    state = position(num_players=2, hands=hands, cubes=cubes_on(0, 3, 0, 0))
    state = act(state, (0, "area:0"), (0, "play:r2"), (1, "play:r3"))
    assert state.ranking == (2, 3, 1, 0)
    assert state.start == 1 and state.phase == AREA and GAME.to_act(state) == {1}


def test_proxy_resources_are_removed_from_the_game():
    """ "When there are 3 or fewer players, proxy players do not use resources. Remove any resources a proxy
    player gains from the game." """
    hands = {0: ("r13",), 1: ("r12",), 2: ("r3",), 3: ("r1",)}
    state = position(num_players=2, hands=hands, cubes=cubes_on(0, 2, 1, 0))
    state = act(state, (0, "area:0"), (0, "play:r13"), (1, "play:r12"))
    assert state.ranking == (0, 1, 2, 3)
    assert state.resources == (0,) * 12 and state.cubes[0:3] == (0, 0, 0)


def test_a_fourth_place_proxy_takes_the_battlefield_colour():
    """ "If a proxy player is in 4th place, they preferentially choose a resource of the same color as the
    Battlefield." """
    hands = {0: ("r13",), 1: ("r12",), 2: ("r3",), 3: ("r1",)}
    state = position(num_players=3, hands=hands, cubes=cubes_on(0, 1, 1, 1))
    state = act(state, (0, "area:0"), (0, "play:r13"), (1, "play:r12"), (2, "play:r3"))
    assert state.ranking == (0, 1, 2, 3)
    assert state.phase == AREA  # nobody had to choose
    assert state.resources[6:9] == (0, 1, 1)  # 3rd (seat 2) got the blue and yellow; the red left the game


def test_otherwise_the_best_real_player_chooses_for_the_proxy():
    """ "If there is none, the highest-ranked player chooses one resource of their liking." """
    hands = {0: ("r12",), 1: ("r13",), 2: ("r3",), 3: ("r1",)}
    state = position(num_players=3, hands=hands, cubes=cubes_on(0, 0, 2, 1))
    state = act(state, (0, "area:0"), (0, "play:r12"), (1, "play:r13"), (2, "play:r3"))
    assert state.ranking == (1, 0, 2, 3)
    assert state.phase == PICK and GAME.to_act(state) == {1}  # out of turn: the trick's winner decides
    assert sorted(ids(state, 1)) == ["take:blue", "take:yellow"]
    state = act(state, (1, "take:blue"))
    assert state.resources[6:9] == (0, 1, 1)  # the proxy's blue left the game; 3rd got the rest


def test_the_best_real_player_wins_even_if_a_proxy_scores_more():
    """FAQ: "What happens if a proxy player gains the most VP? A: The player with the most VP among the (real)
    players wins the game." """
    first = (2, 2, 2, 0) + (None,) * 8
    second = (3, 3, 3, 1) + (None,) * 8
    state = position(num_players=2, hands={0: (), 1: (), 2: (), 3: ()}, first=first, second=second,
                     trick=9, phase="over", actor=None, resources=resources(s1=(0, 0, 2)))
    score = GAME.score(state)
    assert [s.seat for s in score.seats] == [0, 1]
    assert score.final and score.ranking[0] == (1,)

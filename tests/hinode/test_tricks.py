"""A trick, as the rulebook tells it: Area decision, Follow / Not Follow, Hero, resources, judgment, rewards."""

from __future__ import annotations

import pytest

from games.base import IllegalMove
from games.hinode import GAME
from games.hinode.data import BLUE, RED, YELLOW
from games.hinode.state import AREA, OVER, PICK
from tests.hinode.position import act, card, ids, position, resources

FOUR_HANDS = {
    0: ("r10", "r3", "b2"),
    1: ("b8", "r5", "y1"),
    2: ("r12", "y7", "y9"),
    3: ("r1", "b13", "y2"),
}


def cubes_on(area: int, red: int, blue: int, yellow: int) -> tuple[int, ...]:
    cubes = [1] * 36
    cubes[area * 3 : area * 3 + 3] = (red, blue, yellow)
    return tuple(cubes)


def test_rulebook_judgment_example():
    """ "Example (the Battlefield is red): Player A plays a red 10 (Follow). Player D plays a red 1 (Follow).
    Player B plays a blue 8 (Not Follow). Player C plays the Hero card. [...] The ranking is therefore
    C -> A -> D -> B." (A, B, C, D sit at positions 0, 1, 2, 3.)"""
    state = position(hands=FOUR_HANDS)
    state = act(state, (0, "area:0"), (0, "play:r10"), (1, "play:b8"), (2, "play:hero"), (3, "play:r1"))
    assert state.ranking == (2, 0, 3, 1)
    assert state.first[0] == 2 and state.second[0] == 0


def test_the_start_player_chooses_a_not_yet_selected_area():
    """ "The start player chooses one Area they like that is "not yet selected" (that is, no tribe markers are
    placed in 1st or 2nd place)." """
    state = position(hands=FOUR_HANDS, first=(1,) + (None,) * 11, second=(2,) + (None,) * 11)
    assert "area:0" not in ids(state, 0)
    assert len(ids(state, 0)) == 11
    with pytest.raises(IllegalMove):
        act(state, (0, "area:0"))


def test_turns_go_clockwise_from_the_start_player():
    """ "Turns proceed clockwise, starting from the start player." """
    state = act(position(start=2, hands=FOUR_HANDS), (2, "area:0"))
    order = []
    for _ in range(4):
        (seat,) = GAME.to_act(state)
        order.append(seat)
        state = GAME.apply(state, seat, GAME.legal_moves(state, seat)[0])
    assert order == [2, 3, 0, 1]


def test_follow_cards_rank_before_not_follow_cards_by_number():
    """ "Among the players who Followed [...] rank them by number, highest first. [...] If there are players
    who Not Followed, rank them after the Follow players, also by number, highest first." """
    state = position(hands=FOUR_HANDS)
    state = act(state, (0, "area:0"), (0, "play:r3"), (1, "play:y1"), (2, "play:y9"), (3, "play:b13"))
    assert state.ranking == (0, 3, 2, 1)


def test_equal_numbers_go_to_the_player_who_acted_earlier():
    """ "If numbers are equal, the player who acted earlier takes precedence." (red 4 made 10 by a red resource,
    then a red 10: the earlier one wins.)"""
    hands = {0: ("r4",), 1: ("r10",), 2: ("y1",), 3: ("y2",)}
    state = position(hands=hands, resources=resources(s0=(1, 0, 0)))
    state = act(state, (0, "area:0"), (0, "play:r4+red"), (1, "play:r10"), (2, "play:y1"), (3, "play:y2"))
    assert state.ranking[:2] == (0, 1)


def test_only_one_hero_per_trick():
    """ "Once a Hero card has been played, other players cannot play a Hero card until that trick ends." """
    state = act(position(hands=FOUR_HANDS), (0, "area:0"), (0, "play:hero"))
    assert not any(i.startswith("play:hero") for i in ids(state, 1))
    with pytest.raises(IllegalMove):
        act(state, (1, "play:hero"))


def test_hero_is_strongest_and_always_follow():
    """ "Hero cards are multi-suit and always count as Follow." "The Hero card is the strongest regardless of
    anything else." """
    state = act(position(hands=FOUR_HANDS), (0, "area:4"), (0, "play:b2"), (1, "play:b8"), (2, "play:hero"))
    assert state.plays[-1].follow and state.plays[-1].power == 14
    state = act(state, (3, "play:b13"))
    assert state.ranking[0] == 2


def test_red_on_a_hero_makes_it_zero():
    """FAQ: "If I use a red resource when playing the Hero card, what happens? [...] A: Treat the number as 0." """
    state = position(hands=FOUR_HANDS, resources=resources(s0=(1, 0, 0)))
    state = act(state, (0, "area:0"), (0, "play:hero+red"), (1, "play:r5"), (2, "play:r12"), (3, "play:r1"))
    assert state.history[0].power == 0 and state.history[0].follow
    assert state.ranking == (2, 1, 3, 0)


def test_blue_on_a_hero_makes_it_not_follow():
    """FAQ: "You may also use a blue resource to treat the card as Not Follow." """
    state = position(hands=FOUR_HANDS, resources=resources(s0=(0, 1, 0)))
    state = act(state, (0, "area:0"), (0, "play:hero+blue"), (1, "play:r5"), (2, "play:y9"), (3, "play:r1"))
    assert not state.history[0].follow
    assert state.ranking == (1, 3, 0, 2)  # Not Follow: after the Follow cards, first among the others (14)


def test_red_resource_turns_the_number_into_14_minus_it():
    """ "Red resource: Change the battle power (= the number played) to "14 minus the current value." " """
    state = position(hands=FOUR_HANDS, resources=resources(s0=(1, 0, 0)))
    state = act(state, (0, "area:0"), (0, "play:r3+red"))
    assert state.plays[0].power == 11
    assert state.resources[0 * 3 + RED] == 0  # "Place the resources you used [...] on top of the card you played."


@pytest.mark.parametrize(("play", "follow"), [("play:b2+blue", True), ("play:r10+blue", False)])
def test_blue_resource_toggles_follow(play, follow):
    """ "Blue resource: When the card is Not Follow, treat it as Follow. Or, when the card is Follow, treat it
    as Not Follow." """
    state = position(hands=FOUR_HANDS, resources=resources(s0=(0, 1, 0)))
    state = act(state, (0, "area:0"), (0, play))
    assert state.plays[0].follow is follow


def test_one_resource_at_a_time_and_never_yellow():
    """ "Only one of resources or skills can be used at a time. You cannot use different kinds of resources
    together" and "Yellow resource: No effect." """
    state = position(hands=FOUR_HANDS, resources=resources(s0=(2, 2, 2)))
    state = act(state, (0, "area:0"))
    moves = GAME.legal_moves(state, 0)
    assert all(m.resource in (None, RED, BLUE) and m.skill is None for m in moves)
    assert {m.id for m in moves if m.card == card("r10")} == {"play:r10", "play:r10+red", "play:r10+blue"}


def test_resources_need_to_be_held():
    """ "If you gained resources in previous tricks, you may use them" (and not otherwise)."""
    state = act(position(hands=FOUR_HANDS), (0, "area:0"))
    assert all("+" not in i for i in ids(state, 0))


def test_white_area_takes_the_start_players_suit():
    """ "It is treated as the same color as the suit played by the start player. [...] if the start player
    plays a red suit, the Hinode Tower is treated as a red Area." """
    layout = (12, *range(1, 12), 0)  # the white card on area 0, red-1 as Bonus Area
    state = position(hands=FOUR_HANDS, layout=layout)
    state = act(state, (0, "area:0"))
    assert state.colour is None
    state = act(state, (0, "play:r3"), (1, "play:r5"), (2, "play:y9"), (3, "play:r1"))
    assert [p.follow for p in state.history] == [True, True, False, True]
    assert state.ranking == (1, 0, 3, 2)


def test_white_area_with_a_start_hero_takes_the_declared_colour():
    """ "If the start player played the Hero card, the start player declares any color they like." """
    layout = (12, *range(1, 12), 0)
    state = act(position(hands=FOUR_HANDS, layout=layout), (0, "area:0"))
    assert {"play:hero@red", "play:hero@blue", "play:hero@yellow"} <= set(ids(state, 0))
    assert "play:hero" not in ids(state, 0)
    state = act(state, (0, "play:hero@yellow"))
    assert state.colour == YELLOW
    state = act(state, (1, "play:y1"), (2, "play:r12"), (3, "play:y2"))
    assert [p.follow for p in state.history] == [True, True, False, True]


def test_first_and_second_place_markers_and_resources_to_fourth_and_third():
    """ "The players in 1st and 2nd place each place 1 of their own tribe markers [...]. The player in 4th
    place gains 1 resource of their choice from the Battlefield. The player in 3rd place gains the 2 remaining
    resources." """
    state = position(hands=FOUR_HANDS, cubes=cubes_on(0, 1, 1, 1))
    state = act(state, (0, "area:0"), (0, "play:r10"), (1, "play:b8"), (2, "play:r12"), (3, "play:r1"))
    assert (state.first[0], state.second[0]) == (2, 0)
    assert state.phase == PICK and GAME.to_act(state) == {1}
    assert sorted(ids(state, 1)) == ["take:blue", "take:red", "take:yellow"]
    state = act(state, (1, "take:yellow"))
    assert state.resources[3:6] == (0, 0, 1)  # 4th: the yellow it chose
    assert state.resources[9:12] == (1, 1, 0)  # 3rd: the other two
    assert state.cubes[0:3] == (0, 0, 0)


def test_the_first_place_becomes_the_new_start_player():
    """ "The player in 1st place becomes the new start player, and the next trick begins." """
    state = position(hands=FOUR_HANDS, cubes=cubes_on(0, 3, 0, 0))
    state = act(state, (0, "area:0"), (0, "play:r10"), (1, "play:b8"), (2, "play:r12"), (3, "play:r1"))
    assert state.phase == AREA and state.start == 2 and GAME.to_act(state) == {2}


def test_the_game_ends_after_nine_tricks():
    """ "When 9 tricks have been completed, the game ends." """
    state = GAME.new_game(4, {}, seed=3)
    tricks_seen = set()
    while GAME.to_act(state):
        (seat,) = GAME.to_act(state)
        tricks_seen.add(state.trick)
        state = GAME.apply(state, seat, GAME.legal_moves(state, seat)[0])
    assert state.phase == OVER and state.trick == 9 and tricks_seen == set(range(9))
    # Nine plays from nine cards and a Hero: whoever played the Hero keeps one card, unplayed.
    assert all(len(state.hands[p]) + state.heroes[p] == 1 for p in range(4))
    assert sum(f is not None for f in state.first) == 9


def test_a_hero_is_played_only_once():
    """ "play one card of your choice from your hand, or (if you still have it) your Hero card" """
    hands = {0: ("r2", "r3"), 1: ("r4", "r5"), 2: ("r6", "r7"), 3: ("r8", "r9")}
    state = position(hands=hands, cubes=tuple([3, 0, 0] * 12))
    state = act(state, (0, "area:0"), (0, "play:hero"), (1, "play:r4"), (2, "play:r6"), (3, "play:r8"))
    state = act(state, (0, "area:1"))
    assert ids(state, 0) == ["play:r2", "play:r3"]


def test_a_pick_among_identical_resources_is_no_decision():
    """Interpretation: when the Battlefield's resources are all of one colour the 4th place has nothing to
    choose, so the engine hands them out without asking."""
    state = position(hands=FOUR_HANDS, cubes=cubes_on(0, 0, 3, 0))
    state = act(state, (0, "area:0"), (0, "play:r10"), (1, "play:b8"), (2, "play:r12"), (3, "play:r1"))
    assert state.phase == AREA
    assert state.resources[3:6] == (0, 1, 0) and state.resources[9:12] == (0, 2, 0)

"""Advanced rules: the four tribe skills (draft 11) and the English FAQ rulings on them.

Tribe = position in these positions: 0 Kansai Gōgakuren, 1 Blue SAMURAI, 2 Yozakura-kai, 3 Charmont.
Battlefield 5 (blue-2) is adjacent to Areas 1, 4, 6 and 9.
"""

from __future__ import annotations

import pytest

from games.base import IllegalMove
from games.hinode import GAME
from games.hinode.data import BLUE, RED, YELLOW
from games.hinode.state import AREA
from tests.hinode.position import act, ids, position, resources

HANDS = {
    0: ("b1", "r1", "y1"),
    1: ("b5", "r5", "y5"),
    2: ("b9", "r9", "y9"),
    3: ("b13", "r13", "y13"),
}
NONE12 = (None,) * 12


def markers(**by_area: int) -> tuple:
    out = list(NONE12)
    for key, pos in by_area.items():
        out[int(key[1:])] = pos
    return tuple(out)


def fight_on_5(**fields):
    return act(position(advanced=True, hands=HANDS, **fields), (0, "area:5"))


def skill_ids(state, seat):
    return [i for i in ids(state, seat) if "/" in i]


def test_skills_only_in_the_advanced_rules():
    """ "Once you are used to the game, start with the tribe cards on their back sides!" """
    state = act(position(hands=HANDS, resources=resources(s0=(2, 2, 2))), (0, "area:5"))
    assert skill_ids(state, 0) == []


def test_a_skill_costs_two_identical_resources():
    """ "[a skill] can be used by spending 2 identical resources of a color of your choice" """
    state = fight_on_5(resources=resources(s1=(1, 1, 1)))
    state = act(state, (0, "play:b1"))
    assert skill_ids(state, 1) == []
    state = fight_on_5(resources=resources(s1=(2, 1, 2)))
    state = act(state, (0, "play:b1"))
    pays = {i.split("/")[1][:3] for i in skill_ids(state, 1)}
    assert pays == {"red", "yel"}


def test_a_skill_instead_of_a_resource_and_payment_is_spent():
    """ "Only one of resources or skills can be used at a time. You cannot use [...] a resource and a skill
    together." "Place [...] any resources you paid to use a skill, on top of the card you played." """
    state = fight_on_5(resources=resources(s2=(0, 2, 0)), first=markers(a1=0, a4=0))
    state = act(state, (0, "play:b1"), (1, "play:b5"))
    moves = GAME.legal_moves(state, 2)
    assert not any(m.skill is not None and m.resource is not None for m in moves)
    state = act(state, (2, "play:b9+yozakura/blue"))
    assert state.resources[6:9] == (0, 1, 0)


def test_kansai_needs_markers_on_two_areas_next_to_the_battlefield():
    """Kansai Gōgakuren: "if you have tribe markers on 2 Areas adjacent to the Battlefield, you take 1st place
    whatever the judgment; everyone else moves down one place." """
    state = fight_on_5(resources=resources(s0=(2, 0, 0)), first=markers(a1=0, a11=0))
    assert skill_ids(state, 0) == []  # only Area 1 is adjacent to 5
    state = fight_on_5(resources=resources(s0=(2, 0, 0)), first=markers(a1=0), second=markers(a6=0))
    assert "play:b1+kansai/red" in skill_ids(state, 0)
    state = act(state, (0, "play:b1+kansai/red"), (1, "play:b5"), (2, "play:b9"), (3, "play:b13"))
    assert state.ranking == (0, 3, 2, 1)
    assert state.first[5] == 0 and state.second[5] == 3


def test_blue_samurai_marks_an_adjacent_area_neither_first_nor_second():
    """Blue SAMURAI: "place one of your tribe markers on one Area adjacent to the Battlefield. It is neither
    1st nor 2nd place, but counts for Power Points" """
    state = fight_on_5(resources=resources(s1=(0, 0, 2)))
    state = act(state, (0, "play:b1"))
    targets = sorted(i.split(">a")[1] for i in skill_ids(state, 1) if i.startswith("play:b5"))
    assert targets == ["1", "4", "6", "9"]
    state = act(state, (1, "play:b5+samurai/yellow>a6"), (2, "play:b9"), (3, "play:b13"))
    assert state.skill_markers[1] == 1 << 6
    assert state.first[6] is None and state.second[6] is None
    assert state.ranking == (3, 2, 1, 0)  # the skill did not change the judgment
    assert state.first[5] != 1 and state.second[5] != 1  # seat 1 holds no ranking space anywhere...
    assert dict(GAME.score(state).seats[1].breakdown)["power points"] == 2  # ...but its skill marker counts


def test_an_area_holding_only_a_samurai_marker_can_still_be_chosen():
    """ "an Area is "selected" once it has a 1st or 2nd marker"; draft 11: "if that marker is not placed on
    1st or 2nd, you may choose that Area." """
    state = position(advanced=True, hands=HANDS, skill_markers=(0, 1 << 6, 0, 0))
    assert "area:6" in ids(state, 0)


def test_yozakura_takes_first_and_second_and_the_one_pushed_to_fifth_gets_nothing():
    """Yozakura-kai (cost 1): "if you end 1st, you also place a marker on 2nd; the rest move down one place,
    and the player pushed to 5th gets nothing." """
    cubes = [0] * 36
    cubes[15:18] = (1, 1, 1)
    state = fight_on_5(resources=resources(s2=(1, 0, 0)), cubes=tuple(cubes))
    state = act(state, (0, "play:b1"), (1, "play:b5"), (2, "play:hero+yozakura/red"), (3, "play:b13"))
    assert state.first[5] == 2 and state.second[5] == 2
    assert state.ranking == (2, 2, 3, 1)  # seat 0 (old 4th) is 5th
    assert GAME.to_act(state) == {1}  # the new 4th picks
    state = act(state, (1, "take:yellow"))
    assert state.resources[0:3] == (0, 0, 0)
    assert state.resources[3:6] == (0, 0, 1) and state.resources[9:12] == (1, 1, 0)


def test_yozakura_fails_and_the_payment_is_lost():
    """FAQ: "I declared the skill's use in a trick, but I could not become 1st. What happens? A: The skill effect
    is not applied, and the resources you paid are not returned." """
    state = fight_on_5(resources=resources(s2=(0, 0, 1)))
    state = act(state, (0, "play:b1"), (1, "play:b5"), (2, "play:b9+yozakura/yellow"), (3, "play:b13"))
    assert state.first[5] == 3 and state.second[5] == 2
    assert state.resources[6 + YELLOW] == 0


def test_charmont_robs_an_unused_resource_and_starts_next():
    """Charmont: "take 1 unused resource of your choice from another player, and you are start player of the
    next trick whatever the judgment" """
    cubes = [0] * 36
    cubes[15] = 3
    state = fight_on_5(resources=resources(s3=(0, 2, 0), s0=(0, 0, 1)), cubes=tuple(cubes))
    state = act(state, (0, "play:b1"), (1, "play:r5"), (2, "play:b9"))
    assert "play:y13+charmont/blue>s0:yellow" in skill_ids(state, 3)
    state = act(state, (3, "play:y13+charmont/blue>s0:yellow"))
    assert state.ranking == (2, 0, 3, 1)
    assert state.resources[0:3] == (0, 0, 0)  # robbed of its yellow
    assert state.resources[9:12] == (2, 0, 1)  # paid 2 blue, took the yellow, and as 3rd got 2 red cubes
    assert state.phase == AREA and state.start == 3 and GAME.to_act(state) == {3}


def test_charmont_cannot_take_used_resources():
    """FAQ: "Can the Charmont skill target resources that have already been used? A: No. It can only target
    unused resources. The same applies to resources paid to use the skill." """
    state = fight_on_5(resources=resources(s0=(1, 0, 0), s3=(2, 0, 0)))
    state = act(state, (0, "play:b1+red"), (1, "play:b5"), (2, "play:b9"))
    assert not any(">s0" in i for i in skill_ids(state, 3))  # seat 0's red lies on its card now
    with pytest.raises(IllegalMove):
        act(state, (3, "play:y13+charmont/red>s0:red"))


def test_paid_resources_do_not_count_as_treasure():
    """ "Gain 1 VP for every 2 yellow resources you have. (Resources paid to use a skill are not counted.)" """
    state = fight_on_5(resources=resources(s1=(0, 0, 2)))
    before = dict(GAME.score(act(state, (0, "play:b1"))).seats[1].breakdown)["treasure"]
    state = act(state, (0, "play:b1"), (1, "play:b5+samurai/yellow>a6"))
    after = dict(GAME.score(state).seats[1].breakdown)["treasure"]
    assert (before, after) == (1 + 6, 0)


def test_unused_colours_stay_put():
    state = fight_on_5(resources=resources(s1=(2, 2, 0)))
    state = act(state, (0, "play:b1"), (1, "play:b5+samurai/red>a4"))
    assert state.resources[3 + RED] == 0 and state.resources[3 + BLUE] == 2


def test_charmont_with_nobody_to_rob_still_starts_next():
    """Interpretation: the skill is "take 1 unused resource [...] from another player, and you are start player
    of the next trick"; with nothing to take, it does what it can: you still start the next trick."""
    state = fight_on_5(resources=resources(s3=(2, 0, 0)), cubes=tuple([0, 0, 3] * 12))
    state = act(state, (0, "play:b1"), (1, "play:b5"), (2, "play:b9"))
    assert [i for i in skill_ids(state, 3) if i.startswith("play:y13")] == ["play:y13+charmont/red"]
    state = act(state, (3, "play:y13+charmont/red"))
    assert state.ranking == (2, 1, 0, 3) and state.start == 3
    assert state.resources[9:12] == (0, 0, 1)  # paid both reds; as 4th it took a yellow


def test_blue_samurai_only_marks_areas_without_its_markers():
    """Interpretation: a second marker of yours on an Area changes nothing, so such Areas are not offered."""
    state = fight_on_5(resources=resources(s1=(2, 0, 0)), first=markers(a4=1), skill_markers=(0, 1 << 9, 0, 0))
    state = act(state, (0, "play:b1"))
    targets = sorted({i.split(">a")[1] for i in skill_ids(state, 1)})
    assert targets == ["1", "6"]


def test_yozakura_double_markers_count_twice_for_the_bonus_and_once_for_power():
    """Interpretation: Yozakura's 1st and 2nd are two tribe markers ("1 VP for each tribe marker") on one Area."""
    layout = (12, *range(1, 12), 4)  # the Bonus Area is blue-1, so Area 5 (blue-2) is of its suit
    state = position(advanced=True, hands={0: (), 1: (), 2: (), 3: ()}, layout=layout,
                     first=markers(a5=2), second=markers(a5=2), trick=9, phase="over", actor=None)
    parts = dict(GAME.score(state).seats[2].breakdown)
    assert parts["ranking points"] == 5 + 2 and parts["bonus area"] == 2 and parts["power points"] == 2

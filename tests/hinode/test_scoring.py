"""Final scoring, in the rulebook's order, and who wins."""

from __future__ import annotations

from games.hinode import GAME
from games.hinode.data import HERO
from games.hinode.scoring import CATEGORIES, TIE_BREAK
from tests.hinode.position import act, position, resources

EMPTY = {0: (), 1: (), 2: (), 3: ()}
NONE12 = (None,) * 12


def markers(**by_area: int) -> tuple:
    """A per-Area tuple with a position on the named Areas, e.g. markers(a0=1, a5=2)."""
    out = list(NONE12)
    for key, pos in by_area.items():
        out[int(key[1:])] = pos
    return tuple(out)


def finished(**fields):
    return position(hands=EMPTY, trick=9, phase="over", actor=None, **fields)


def points(state, seat: int) -> dict[str, int]:
    return dict(GAME.score(state).seats[seat].breakdown)


def test_breakdown_has_the_rulebooks_categories_in_order():
    """ "Settle the scoring in the following order." Ranking Points, Bonus Area Points, Power Points, Hero
    Comes Last!, Treasure Points."""
    score = GAME.score(finished())
    assert score.final
    for seat in score.seats:
        assert tuple(c for c, _ in seat.breakdown) == CATEGORIES


def test_ranking_points_may_be_negative():
    """ "Players who have tribe markers in the 1st and 2nd places of an Area gain the VP defined for that rank
    on that Area [...] the VP may decrease. In that case, a player's VP may fall to 0 or below." """
    state = finished(first=markers(a0=0, a3=1), second=markers(a3=0, a0=2))
    assert points(state, 0)["ranking points"] == 6 - 1  # red-1 1st, red-4 2nd (assumed table)
    assert points(state, 1)["ranking points"] == -2
    assert points(state, 2)["ranking points"] == 3


def test_bonus_area_one_vp_per_marker_on_its_suit_but_never_the_white_area():
    """ "If you placed tribe markers in the 1st and 2nd places of Areas of the same suit as the Bonus Area, gain
    1 VP for each tribe marker. However, the white Area (= Hinode Tower) is not eligible for this bonus." """
    layout = (12, *range(1, 12), 0)  # white on area 0, red on 1-3, red-1 is the Bonus Area
    state = finished(layout=layout, first=markers(a0=0, a1=0, a4=0), second=markers(a2=0, a1=1))
    assert points(state, 0)["bonus area"] == 2  # areas 1 and 2 are red; 0 is white, 4 is blue
    assert points(state, 1)["bonus area"] == 1


def test_no_bonus_at_all_when_the_bonus_area_is_white():
    """ "Also, if the Bonus Area is the white Area (= Hinode Tower), this bonus does not apply at all." """
    state = finished(first=markers(a0=0, a1=0), second=markers(a2=0))  # default layout: white Bonus Area
    assert points(state, 0)["bonus area"] == 0


def test_power_points_count_the_largest_connected_group_twice():
    """ "Areas that are connected (= adjacent vertically or horizontally) form a group. Gain VP equal to the
    number of connected Areas x 2. If there are multiple groups, count only the group with the most connected
    Areas." """
    state = finished(first=markers(a0=0, a5=0, a11=0, a6=1), second=markers(a1=0, a10=0))
    assert points(state, 0)["power points"] == 2 * 3  # 0-1-5 beats 10-11; 5 and 10 only touch diagonally
    assert points(state, 1)["power points"] == 2  # "if you have 1st or 2nd place on any one Area, [...] 2 VP"
    assert points(state, 2)["power points"] == 0


def test_power_points_count_skill_markers():
    """ "Tribe markers placed outside the ranking spaces by a skill may also be counted." """
    state = finished(first=markers(a0=1), skill_markers=(0, 0b10, 0, 0))
    assert points(state, 1)["power points"] == 4


def test_hero_comes_last():
    """ "Among all players, the player who played their Hero card last gains 3 VP. Note that Hero cards still
    in hand, unplayed, are not revealed or counted." """
    hands = {0: ("r2", "r3"), 1: ("r4", "r5"), 2: ("r6", "r7"), 3: ("r8", "r9")}
    cubes = tuple([3, 0, 0] * 12)
    state = position(hands=hands, cubes=cubes)
    state = act(state, (0, "area:0"), (0, "play:r2"), (1, "play:r4"), (2, "play:hero"), (3, "play:r8"))
    assert state.hero_last == 2
    state = act(state, (2, "area:1"), (2, "play:r6"), (3, "play:r9"), (0, "play:hero"), (1, "play:r5"))
    assert state.hero_last == 0 and state.heroes == (False, True, False, True)
    assert [points(state, s)["hero comes last"] for s in range(4)] == [3, 0, 0, 0]
    assert [p.seat for p in state.history if p.move.card == HERO] == [2, 0]


def test_treasure_points_and_the_majority():
    """ "Gain 1 VP for every 2 yellow resources you have. [...] the player who has the most yellow resources
    gains an additional 6 VP. If several players are tied for the most, they divide the 6 VP evenly among
    themselves (rounded down)." """
    state = finished(resources=resources(s0=(0, 0, 5), s1=(3, 3, 3)))
    assert points(state, 0)["treasure"] == 2 + 6
    assert points(state, 1)["treasure"] == 1
    tied = finished(resources=resources(s0=(0, 0, 4), s1=(0, 0, 4), s2=(0, 0, 4), s3=(0, 0, 1)))
    assert [points(tied, s)["treasure"] for s in range(4)] == [2 + 2, 2 + 2, 2 + 2, 0]
    two = finished(resources=resources(s0=(0, 0, 3), s1=(0, 0, 3)))
    assert [points(two, s)["treasure"] for s in range(2)] == [1 + 3, 1 + 3]


def test_nobody_has_the_most_yellow_when_nobody_has_any():
    state = finished()
    assert all(points(state, s)["treasure"] == 0 for s in range(4))


def test_most_vp_wins():
    """ "After calculating the above, the player with the most VP wins the game." """
    state = finished(first=markers(a0=3, a1=3, a4=2), second=markers(a4=1))
    score = GAME.score(state)
    assert [s.total for s in score.seats] == [0, 3 + 2, 6 + 2, 6 + 5 + 4]
    assert score.ranking == ((3,), (2,), (1,), (0,)) and score.tie_breaks == ()


def test_tie_broken_by_more_areas_with_markers():
    """ "If players are tied, the player with more Areas on which tribe markers are placed wins." """
    # seat 0: red-1 1st (6) + power 2 = 8 on one Area; seat 1: red-2 and blue-2 2nd (2 + 2) + power 4 = 8 on two
    state = finished(first=markers(a0=0), second=markers(a1=1, a5=1))
    score = GAME.score(state)
    assert [s.total for s in score.seats][:2] == [8, 8]
    assert score.ranking[:2] == ((1,), (0,)) and score.tie_breaks == (TIE_BREAK,)


def test_still_tied_is_a_draw():
    """ "If that is still tied, the game is a draw." """
    state = finished(first=markers(a0=0, a4=1))  # red-1 and blue-1: same VP, one Area each
    score = GAME.score(state)
    assert score.ranking[0] == (0, 1)
    assert score.tie_breaks == (TIE_BREAK,)

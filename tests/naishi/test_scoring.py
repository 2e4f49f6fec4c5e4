"""Final Scoring and Card Types, as the rulebook states them (each test quotes its sentence)."""

from __future__ import annotations

import random
from itertools import product

from games.naishi import GAME
from games.naishi.data import COPIABLE, NAMES, RONIN_TYPES
from games.naishi.scoring import best_territory, grid_points, score_territory, territory_key, territory_total
from tests.naishi.positions import MOUNTAINS, A, B, F, H, J, K, M, N, P, R, S, T, position


def points(line, hand, category: str) -> int:
    return dict(score_territory(tuple(line), tuple(hand)).breakdown())[category]


def test_rulebook_scoring_example_totals_62():
    """"Example of scoring: Mountain = 5, banner = 3, advisor = 3 + 4 (naishi), rice fields = 20, fort = 12,
    sentinel = 3 + 4 (fort), naishi = 8. Total = 62 points.\""""
    line = (F, S, A, B, P)
    hand = (F, M, N, P, P)
    state = position(hands=(hand, MOUNTAINS), lines=(line, MOUNTAINS), phase="over")
    score = GAME.score(state).seats[0]
    breakdown = dict(score.breakdown)
    assert breakdown == {
        "Mountain": 5,
        "Naishi": 8,
        "Advisor": 3 + 4,
        "Monk": 0,
        "Rice field": 20,
        "Banner": 3,
        "Horseman": 0,
        "Fort": 12,
        "Sentinel": 3 + 4,
        "Torii": 0,
        "Ronin": 0,
    }
    assert score.total == 62


def test_hand_goes_under_the_line_in_the_same_position():
    """"The leftmost card from your Hand under the leftmost card from your Line and so on": a Rice field in
    Hand position 1 and one in Line position 1 are adjacent, not Hand 1 and Line 5."""
    assert points((P, M, M, M, M), (P, M, M, M, M), "Rice field") == 10
    assert points((M, M, M, M, P), (P, M, M, M, M), "Rice field") == 0


def test_mountain():
    """"Count the number of mountains in your territory. If you have 1, score 5 points. If you have 2 or more,
    lose 5 points.\""""
    no_mountain = (N, A, S, K, H)
    assert points(no_mountain, no_mountain, "Mountain") == 0
    assert points((M, A, S, K, H), no_mountain, "Mountain") == 5
    assert points((M, A, S, K, H), (M, A, S, K, H), "Mountain") == -5
    assert points(MOUNTAINS, MOUNTAINS, "Mountain") == -5


def test_naishi_scores_only_in_the_central_column():
    """"Each naishi scores points if she is placed in the central column of your territory. In your Line she is
    worth 12 points. In your Hand she is worth 8 points.\""""
    assert points((M, M, N, M, M), MOUNTAINS, "Naishi") == 12
    assert points(MOUNTAINS, (M, M, N, M, M), "Naishi") == 8
    assert points((M, M, N, M, M), (M, M, N, M, M), "Naishi") == 20
    assert points((N, M, M, N, M), (M, N, M, M, N), "Naishi") == 0


def test_advisor_by_position_plus_adjacent_naishi():
    """"he will score 2 points in positions 1 and 5; 4 points in positions 2 and 4; and 3 points in the 3rd
    position. In any case, he also gives 4 bonus points per adjacent Naishi.\""""
    for pos, expected in enumerate((2, 4, 3, 4, 2)):
        line = tuple(A if i == pos else M for i in range(5))
        assert points(line, MOUNTAINS, "Advisor") == expected
        assert points(MOUNTAINS, line, "Advisor") == expected  # "Whether he is in your Hand or in your Line"
    # Line position 2 with Naishis left, right and below: 4 + 3 * 4
    assert points((N, A, N, M, M), (M, N, M, M, M), "Advisor") == 4 + 12
    # a diagonal Naishi is not adjacent
    assert points((A, M, M, M, M), (M, N, M, M, M), "Advisor") == 2


def test_monk_in_hand_plus_adjacent_torii():
    """"Each monk in your Hand scores 5 points. In any case, score 2 bonus points for every adjacent torii.\""""
    assert points(MOUNTAINS, (M, K, M, M, M), "Monk") == 5
    assert points((M, K, M, M, M), MOUNTAINS, "Monk") == 0
    assert points((T, K, T, M, M), (M, T, M, M, M), "Monk") == 6
    assert points((T, M, T, M, M), (M, K, M, M, M), "Monk") == 5  # diagonal Torii are not adjacent
    assert points((M, T, M, M, M), (T, K, T, M, M), "Monk") == 5 + 6


def test_rice_fields_score_by_group_size():
    """"2 adjacent cards are worth 10 points, 3 adjacent cards are worth 20 points, and 4 or more rice fields
    are worth 30 points.\""""
    assert points((P, M, M, M, M), MOUNTAINS, "Rice field") == 0
    assert points((P, P, M, M, M), MOUNTAINS, "Rice field") == 10
    assert points((P, P, M, M, M), (P, M, M, M, M), "Rice field") == 20
    assert points((P, P, P, M, M), (P, P, M, M, M), "Rice field") == 30
    # two separate groups each score
    assert points((P, P, M, P, P), MOUNTAINS, "Rice field") == 20


def test_banners_count_only_in_the_line():
    """"Count the number of banners in your Line. If you have 1, score 3 points. If you have 2, score 8 points.\""""
    assert points((B, M, M, M, M), MOUNTAINS, "Banner") == 3
    assert points((B, M, M, M, B), MOUNTAINS, "Banner") == 8
    assert points(MOUNTAINS, (B, M, M, M, B), "Banner") == 0
    assert points((B, M, M, M, M), (M, B, M, M, M), "Banner") == 3


def test_horseman_in_hand_with_banner_above():
    """"Each horseman in your Hand is worth 3 points. He also scores 10 bonus points if a banner is in the same
    position in your Line.\""""
    assert points(MOUNTAINS, (M, H, M, M, M), "Horseman") == 3
    assert points((M, B, M, M, M), (M, H, M, M, M), "Horseman") == 13
    assert points((B, M, M, M, M), (M, H, M, M, M), "Horseman") == 3
    assert points((M, H, M, M, M), (M, B, M, M, M), "Horseman") == 0


def test_forts_score_in_the_corners():
    """"Count up the total number of forts in the corners in your territory. You score 6 points per fort on these
    extremities.\""""
    assert points((F, M, M, M, F), (F, M, M, M, F), "Fort") == 24
    assert points((M, F, F, F, M), (M, F, M, F, M), "Fort") == 0
    assert points((F, F, M, M, M), MOUNTAINS, "Fort") == 6


def test_sentinel_alone_plus_adjacent_forts():
    """"The sentinel scores 3 points only if she isn't adjacent to another sentinel. In any case, she scores 4
    bonus points per adjacent fort.\""""
    assert points((M, S, M, M, M), MOUNTAINS, "Sentinel") == 3
    assert points((M, S, S, M, M), MOUNTAINS, "Sentinel") == 0
    assert points((F, S, F, M, M), (M, F, M, M, M), "Sentinel") == 3 + 12
    assert points((F, S, S, M, M), MOUNTAINS, "Sentinel") == 4
    assert points((S, M, M, M, M), (M, S, M, M, M), "Sentinel") == 6  # diagonal: not adjacent


def test_torii_by_count():
    """"If you have 1, you lose 5 points. If you have 2, score 0 points. If you have 3 or more, score 30 points.\""""
    assert points(MOUNTAINS, MOUNTAINS, "Torii") == 0
    assert points((T, M, M, M, M), MOUNTAINS, "Torii") == -5
    assert points((T, M, M, M, M), (M, M, M, M, T), "Torii") == 0
    assert points((T, M, T, M, M), (M, M, M, M, T), "Torii") == 30
    assert points((T, T, T, T, M), MOUNTAINS, "Torii") == 30


def test_ronin_by_number_of_different_types():
    """"8 different types score 8 points, 9 different types score 15 points, and 10 different types score 45
    points." The Mountain is not a Character or Province card."""
    ten = ((N, A, S, K, H), (R, F, T, P, B))
    assert points(*ten, "Ronin") == 45
    assert points((N, A, S, K, H), (R, F, T, P, M), "Ronin") == 15
    assert points((N, A, S, K, M), (R, F, T, P, M), "Ronin") == 8
    assert points((N, A, S, M, M), (R, F, T, P, M), "Ronin") == 0
    assert points((N, A, S, K, H), (R, R, T, P, B), "Ronin") == 2 * 15  # each ronin scores


def test_ninja_adds_no_type_for_the_ronin():
    """"Attention: The ninja does not count as a card type when scoring the ronin!\""""
    result = score_territory((J, A, S, K, H), (R, F, T, P, B))
    # 9 types (no Naishi): 15 for the Ronin, and 15 for the Ninja, whose best copy is the Ronin; not 45 each
    assert result.ninja_copies == (R,)
    assert dict(result.breakdown())["Ronin"] == 15 + 15


def test_ninja_copies_the_character_that_scores_most():
    """"each ninja must copy a character card present in your territory. He then becomes that character card and
    copies its color and its scoring conditions": here a Naishi in the Hand's centre (8) that also makes the
    Advisor above it score 4 more, rather than a second Advisor (3)."""
    result = score_territory((N, M, A, M, M), (M, M, J, M, M))
    assert result.ninja_copies == (N,)
    breakdown = dict(result.breakdown())
    assert breakdown["Naishi"] == 8
    assert breakdown["Advisor"] == 3 + 4


def test_ninja_copies_only_a_character_present():
    """A Ninja copies "a character card present in your territory": with none, it scores nothing; it never
    copies a Province."""
    result = score_territory((F, M, J, M, F), MOUNTAINS)
    assert result.ninja_copies == (None,)
    assert result.total == 12 - 5
    # with a Sentinel present, the Ninja becomes a Sentinel between two Forts (3 + 8)... and spoils the other
    # Sentinel's "not adjacent" bonus, unless it is elsewhere
    result = score_territory((F, J, F, M, S), MOUNTAINS)
    assert result.ninja_copies == (S,)
    assert dict(result.breakdown())["Sentinel"] == 3 + 8 + 3


def test_tie_break_most_colours():
    """"In case of a tie, the player with the most different colors in their territory wins. If there is still a
    tie... play again!\""""
    state = position(hands=(MOUNTAINS, (N, M, M, M, M)), phase="over")
    score = GAME.score(state)
    assert score.seats[0].total == score.seats[1].total == -5
    assert score.ranking == ((1,), (0,))
    assert score.tie_breaks
    same = position(phase="over")
    assert GAME.score(same).ranking == ((0, 1),)


def test_tie_break_ninja_takes_the_colour_it_copies():
    """Game Park's confirmation: for the tie-break a Ninja has the colour of the card it copies, not black."""
    ninja_monk = (J, K, M, M, M)  # 5 + 5, Mountains -5: 5 points, white and orange
    three_colours = (K, K, M, N, M)  # 5 + 5, off-centre Naishi 0, Mountains -5: 5 points, 3 colours
    state = position(hands=(ninja_monk, three_colours), phase="over")
    score = GAME.score(state)
    assert score.seats[0].total == score.seats[1].total == 5
    assert score.ranking == ((1,), (0,))


def test_live_score_counts_the_territory_as_it_is_now():
    """score() mid-game: as if the game ended now, marked not final."""
    state = position(hands=((M, M, N, M, M), MOUNTAINS))
    score = GAME.score(state)
    assert not score.final
    assert dict(score.seats[0].breakdown)["Naishi"] == 8


def test_the_ninjas_copy_what_scores_most_the_first_such_choice():
    """"Each ninja must copy a character card present in your territory": on random territories rich in Ninjas and
    Ronin, the scoring's choice (found cell by cell, near the Ninjas only) is the first of every choice, tried in
    turn and scored whole, that totals most; `territory_key` (the search's) and `territory_total` (the playout
    policy's) agree with it."""
    rng = random.Random(5)
    cards = list(range(len(NAMES))) + [J, J, R]
    ninjas_seen = 0
    for _ in range(3000):
        line, hand = [rng.choice(cards) for _ in range(5)], [rng.choice(cards) for _ in range(5)]
        total, colours, points, copies = best_territory(line, hand)
        cells = line + hand
        ninjas = [i for i, card in enumerate(cells) if card == J]
        present = sorted({card for card in cells if card in COPIABLE})
        real_types = len({card for card in cells if card in RONIN_TYPES})
        if ninjas and present:
            ninjas_seen += 1
            best = None
            for choice in product(present, repeat=len(ninjas)):
                copied = list(cells)
                for i, copy in zip(ninjas, choice, strict=True):
                    copied[i] = copy
                whole = sum(grid_points(copied, real_types))
                if best is None or whole > best[0]:
                    best = (whole, choice)
            assert (total, copies) == best, (line, hand)
        assert sum(points) == total and colours == len(set(cells) - {J})
        assert territory_key(line, hand) == (total, colours), (line, hand)
        assert territory_total(line, hand) == total, (line, hand)
    assert ninjas_seen > 500

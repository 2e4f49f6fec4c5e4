"""Zipang's playout policy (games.zipang.policy): the search's cheap model of a player, on the working state."""

from __future__ import annotations

import random

from games.zipang import GAME, rules
from games.zipang.moves import ACCEPT, COIN_BLOCK, DEFEND, MONK_CANCEL, Play, React, Take
from games.zipang.policy import EXPLORE, POLICY, choose
from games.zipang.state import PLAY, REACT, TAKE, USE
from tests.zipang.positions import act, card, cards, position


def never_random() -> float:
    return 0.99  # above EXPLORE: the rule of thumb decides


def pick(state, seat: int):
    work = rules.thaw(state)
    return choose(work, seat, rules.legal_moves(work, seat), never_random)


def test_the_descriptor_plays_out_with_it():
    from games.registry import descriptor

    assert descriptor("zipang").playout == "games.zipang.policy:POLICY"
    assert POLICY.choose is choose


def test_picks_one_of_the_given_moves_in_every_phase_of_random_games():
    """Many random games of 2 to 6 seats, the policy deciding for every seat: each pick is one of the moves it was
    given, and every phase (play, react, take, use) was met."""
    phases = set()
    for seed in range(60):
        n = 2 + seed % 5
        work = rules.thaw(GAME.new_game(n, {}, seed))
        rng = random.Random(seed)
        steps = 0
        while rules.to_act(work) and steps < 2000:
            seat = rules.to_act(work)[0]
            moves = rules.legal_moves(work, seat)
            phases.add(work.phase)
            move = choose(work, seat, moves, rng.random)
            assert any(move is m for m in moves), (move, moves)
            rules.play(work, seat, move)
            steps += 1
        assert not rules.to_act(work)  # the game ended
    assert phases == {PLAY, REACT, TAKE, USE}


def test_the_same_draws_make_the_same_picks():
    """Given the same draws, the same pick, in every position of a few random games (and a different draw makes a
    different pick somewhere)."""
    differ = 0
    for seed in range(20):
        n = 2 + seed % 5
        work = rules.thaw(GAME.new_game(n, {}, seed))
        step = 0
        while rules.to_act(work):
            seat = rules.to_act(work)[0]
            moves = rules.legal_moves(work, seat)
            move = choose(work, seat, moves, random.Random(1000 * seed + step).random)
            assert choose(work, seat, moves, random.Random(1000 * seed + step).random) is move
            differ += choose(work, seat, moves, random.Random(-1 - step).random) is not move
            rules.play(work, seat, move)
            step += 1
    assert differ > 0


def shown(n: int, observer: int, owner: int, *names: str) -> tuple[tuple[int, ...], ...]:
    """`known` where `observer` has seen `names` in `owner`'s hand."""
    known: list[tuple[int, ...]] = [()] * (n * n)
    known[observer * n + owner] = cards(*names)
    return tuple(known)


def test_attacks_a_hand_it_knows_will_not_hold_and_not_one_it_does_not_know():
    """Seat 1 holds Shrine Maiden + Peasant (BTL 1, no coin block: its first turn is had). Seen, it falls to the
    Captain for sure, which is worth more than keeping the Captain; unseen, the Captain's chance (about half) is
    not, and the lone Peasant goes."""
    hands = {0: ("captain", "peasant", "monk"), 1: ("maiden", "peasant")}
    seen = position(n=2, hands=hands, had_turn=(True, True), known=shown(2, 0, 1, "maiden", "peasant"))
    assert pick(seen, 0) == Play(card("captain"), (1,))
    unseen = position(n=2, hands=hands, had_turn=(True, True))
    assert pick(unseen, 0) == Play(card("peasant"))


def test_does_not_attack_a_hand_it_knows_will_hold():
    hands = {0: ("captain", "peasant", "monk"), 1: ("warlord", "maiden")}
    state = position(n=2, hands=hands, had_turn=(True, True), known=shown(2, 0, 1, "warlord", "maiden"))
    assert pick(state, 0) == Play(card("peasant"))


def test_steals_from_the_richest():
    state = position(n=3, hands={0: ("bandit", "peasant", "monk"), 1: ("captain", "maiden"),
                                 2: ("commander", "maiden")}, coins=(4, 2, 6))
    assert pick(state, 0) == Play(card("bandit"), (2,))


def test_ends_the_battle_with_the_emperor_only_when_the_hand_left_wins_on_honour():
    """Kabuki + Peasant (HNR 3) beat the Captain + Peasant seen in seat 1's hand (1): the Emperor takes the 5
    coins in the center; against a Princess + Captain (4) it is kept."""
    hands = {0: ("emperor", "kabuki", "peasant"), 1: ("captain", "peasant")}
    winning = position(n=2, hands=hands, had_turn=(True, True), pot=5, known=shown(2, 0, 1, "captain", "peasant"))
    assert pick(winning, 0) == Play(card("emperor"))
    hands = {0: ("emperor", "kabuki", "peasant"), 1: ("princess", "captain")}
    losing = position(n=2, hands=hands, had_turn=(True, True), pot=5, known=shown(2, 0, 1, "princess", "captain"))
    assert pick(losing, 0).card != card("emperor")


def test_cancels_or_blocks_an_attack_the_hand_would_not_hold_and_defends_one_it_holds():
    hands = {0: ("warlord", "peasant", "peasant"), 1: ("monk", "peasant")}
    attacked = act(position(n=2, hands=hands, had_turn=(True, True)), (0, "play:warlord>s1"))
    assert attacked.phase == REACT
    assert pick(attacked, 1) == React(MONK_CANCEL, card("warlord"))  # Monk + Peasant: BTL 2 < 6
    held = act(position(n=2, hands={0: ("captain", "peasant", "peasant"), 1: ("monk", "commander")},
                        had_turn=(True, True)), (0, "play:captain>s1"))
    assert pick(held, 1) == React(DEFEND, card("captain"))  # BTL 5 >= 3: the Monk is kept
    no_monk = act(position(n=2, hands={0: ("warlord", "peasant", "peasant"), 1: ("maiden", "peasant")},
                           had_turn=(True, False), coins=(3, 3)), (0, "play:warlord>s1"))
    assert pick(no_monk, 1) == React(COIN_BLOCK, card("warlord"))  # before its first turn, with coins to spare


def test_cancels_a_bandit_with_a_monk_while_it_has_coins():
    hands = {0: ("bandit", "peasant", "peasant"), 1: ("monk", "captain")}
    robbed = act(position(n=2, hands=hands, had_turn=(True, True)), (0, "play:bandit>s1"))
    assert pick(robbed, 1) == React(MONK_CANCEL, card("bandit"))
    broke = act(position(n=2, hands=hands, had_turn=(True, True), coins=(3, 0)), (0, "play:bandit>s1"))
    assert pick(broke, 1) == React(ACCEPT, card("bandit"))


def test_takes_the_card_whose_effect_is_worth_most():
    """From Warlord + Bandit (BTL 8, seen: the Warlord would not knock seat 1 out) the Bandit, a coin; from a
    seat without coins, the Warlord."""
    hands = {0: ("maiden", "peasant", "peasant"), 1: ("warlord", "bandit")}
    state = act(position(n=2, hands=hands, had_turn=(True, True), discard=("monk", "monk")), (0, "play:maiden>s1"))
    assert state.phase == TAKE
    assert pick(state, 0) == Take(card("bandit"), 1)
    broke = act(position(n=2, hands=hands, had_turn=(True, True), discard=("monk", "monk"), coins=(3, 0)),
                (0, "play:maiden>s1"))
    assert pick(broke, 0) == Take(card("warlord"), 1)


def test_a_taken_bandit_is_worth_the_richest_seat_s_coin():
    """Three seats: the Bandit taken from seat 1 (without coins) would steal from seat 2 (5 coins), which beats a
    Warlord that knocks out nobody (both hands seen, both hold 6)."""
    hands = {0: ("maiden", "peasant", "peasant"), 1: ("warlord", "bandit"), 2: ("commander", "captain")}
    state = act(position(n=3, hands=hands, had_turn=(True, True, True), discard=("monk", "monk"), coins=(3, 0, 5),
                         known=shown(3, 0, 2, "commander", "captain")), (0, "play:maiden>s1"))
    assert state.phase == TAKE
    assert pick(state, 0) == Take(card("bandit"), 1)


def test_a_share_of_the_picks_stays_uniformly_random():
    state = position(n=2, hands={0: ("captain", "peasant", "monk"), 1: ("maiden", "peasant")},
                     had_turn=(True, True), known=shown(2, 0, 1, "maiden", "peasant"))
    work = rules.thaw(state)
    moves = rules.legal_moves(work, 0)
    rng = random.Random(7)
    picks = [choose(work, 0, moves, rng.random) for _ in range(3000)]
    best = Play(card("captain"), (1,))
    other = sum(1 for move in picks if move != best) / len(picks)
    expected = EXPLORE * (len(moves) - 1) / len(moves)
    assert expected * 0.8 < other < expected * 1.2
    assert {m.id for m in picks} == {m.id for m in moves}  # every move is still tried


def _decisions(n: int, games: int):
    """Every decision with a choice in `games` random games of `n` seats (the policy deciding, from the draws of the
    game's seed), as (work, seat, moves); `work` is a copy, free to change."""
    for seed in range(games):
        work = rules.thaw(GAME.new_game(n, {}, seed))
        rng = random.Random(seed)
        while rules.to_act(work):
            seat = rules.to_act(work)[0]
            moves = rules.legal_moves(work, seat)
            if len(moves) > 1:
                yield rules.thaw(rules.freeze(work)), seat, moves
            rules.play(work, seat, choose(work, seat, moves, rng.random))


def test_in_the_tree_a_two_seat_table_asks_the_greedy_player_itself():
    """At two seats another seat's move in the search's tree (`tree_choose`, the policy's `tree_choose`) is the
    greedy player's own choice, from that seat's view of the determinization; it differs from the policy's pick
    somewhere (the policy only imitates it)."""
    from games.zipang.greedy import ZipangGreedy
    from games.zipang.policy import GREEDY_SEATS, tree_choose

    assert GREEDY_SEATS == 2 and POLICY.tree_choose is tree_choose
    greedy = ZipangGreedy()
    asked = differ = 0
    for work, seat, moves in _decisions(2, 12):
        move = tree_choose(work, seat, moves, never_random)
        assert move is greedy.choose(None, GAME.view(rules.freeze(work), seat), moves, None)
        asked += 1
        differ += move is not choose(work, seat, moves, never_random)
    assert asked > 100 and differ > 0


def test_in_the_tree_a_larger_table_plays_the_policy_s_pick():
    """At three seats and more the greedy player costs too much to ask in the tree (docs/ai.md): the policy's pick,
    from the same draws."""
    from games.zipang.policy import tree_choose

    for n in (3, 4, 6):
        for i, (work, seat, moves) in enumerate(_decisions(n, 3)):
            assert tree_choose(work, seat, moves, random.Random(i).random) is choose(
                work, seat, moves, random.Random(i).random)


def test_the_greedy_player_in_the_tree_cannot_see_the_hand_it_was_not_shown():
    """What the greedy player decides in the tree comes from its seat's view: deal the other seat's hand otherwise
    (its cards that seat has not seen swapped with the draw pile's) and every choice is the same."""
    from games.zipang.policy import tree_choose

    compared = 0
    for work, seat, moves in _decisions(2, 12):
        other = 1 - seat
        seen = work.known[seat * 2 + other]
        hidden = list(work.hands[other])
        for c in seen:
            hidden.remove(c)
        deck = list(work.deck)
        if not hidden or len(deck) < len(hidden) or sorted(deck[: len(hidden)]) == sorted(hidden):
            continue
        before = tree_choose(work, seat, moves, never_random)
        swapped = rules.thaw(rules.freeze(work))
        swapped.hands[other] = tuple(sorted(list(seen) + deck[: len(hidden)]))
        swapped.deck = tuple(hidden + deck[len(hidden):])
        assert tree_choose(swapped, seat, moves, never_random) is before
        compared += 1
    assert compared > 50

"""Zipang's playout policy: the search's cheap model of a player (strategy, not rules: it reads the working state,
games.zipang.work, and picks among the legal moves it is given).

After the greedy player's ideas (games.zipang.greedy), at the cost of a few sums over two-card hands: a hand is
worth its defence (BTL) and honour (HNR); attack whom the card knocks out; steal from the richest; end the battle
with the Emperor when the hand left wins on honour; take the best card a Shrine Maiden shows; cancel with a Monk,
or block with a coin, what would hurt. Of the hands it reads the deciding seat's own, and of the others only what
that seat has seen of them (`Work.known`) and their sizes: never the cards a determinization dealt them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Final, cast

from games import search_rules
from games.base import Move, PlayoutPolicy
from games.tuples import count
from games.zipang import rules
from games.zipang.data import (
    ATTACK,
    CANCEL,
    EFFECTS,
    END,
    IKKI,
    MONK,
    PEASANT,
    REUSE,
    STEAL,
    TAX,
    TRIBUTE,
    TYPES,
)
from games.zipang.data import TAKE as TAKE_EFFECT
from games.zipang.greedy import ZipangGreedy
from games.zipang.moves import COIN_BLOCK, MONK_CANCEL, Play, React, Take, Use
from games.zipang.state import REACT, TAKE, USE, State
from games.zipang.views import view
from games.zipang.work import Work

EXPLORE: Final = 0.2  # share of the policy's picks made uniformly at random (so that every move is still tried)
NOISE: Final = 0.05  # a random share added to each move's worth: breaks ties, varies near-equal choices

# What a card in the hand is worth, in coins (the greedy player's weights): its defence, its honour, a Monk's
# cancel, and the Ikki two Peasants make.
KEEP_BTL: Final = 0.25
KEEP_HNR: Final = 0.3
KEEP_MONK: Final = 0.4
KEEP_PAIR: Final = 0.8

KNOCK_OUT: Final = 0.6  # knocking a seat out of the battle, besides its share of the coin area
ESCAPE: Final = 0.3  # share of a knock-out left when the target may block with a coin (before its first turn)
LOOK: Final = 0.1  # an attack that does not knock out shows the hand
HONOUR_SLOPE: Final = 0.18  # the chance to win on honour grows by this for each HNR point ahead of the expected
TAKEN: Final = 0.5  # a card taken from a hand (it is not there any more)
STEAL_WORTH: Final = 1.1  # a coin taken from a seat that has one
MAIDEN_WORTH: Final = 0.9  # a look at a hand and a card from it

# Effects as small codes (the data's are strings), by card type.
_ATTACK: Final = 1
_IKKI: Final = 2
_STEAL: Final = 3
_TAX: Final = 4
_TRIBUTE: Final = 5
_END: Final = 6
_TAKE: Final = 7
_REUSE: Final = 8
_NONE: Final = 0
# A lone Peasant does nothing (two make an Ikki: the move's `ikki`).
_CODES: Final = {ATTACK: _ATTACK, IKKI: _NONE, STEAL: _STEAL, TAX: _TAX, TRIBUTE: _TRIBUTE, END: _END,
                 TAKE_EFFECT: _TAKE, REUSE: _REUSE, CANCEL: _NONE}
_EFFECT: Final = tuple(_CODES[EFFECTS[card]] for card in range(TYPES))


def choose(work: Work, seat: int, moves: Sequence[Move], random_: Callable[[], float]) -> Move:
    """A cheap rule of thumb for the playouts, the greedy player's at a fraction of its cost: each move's rough
    worth in coins (what the card was worth in the hand, less, plus its effect: an attack by the chance that the
    target's hand does not hold, from what `seat` knows of it), the best one taken; a fifth of the picks stay
    uniformly random."""
    if len(moves) == 1:
        return moves[0]
    if random_() < EXPLORE:
        return moves[int(random_() * len(moves))]
    phase = work.phase
    if phase == REACT:
        return _react(work, seat, moves)
    if phase == TAKE:
        return _take(work, seat, moves)
    best = moves[0]
    best_worth = -1000.0
    hand = work.hands[seat]
    use = phase == USE
    terms: list[float] = []  # each seat's term of an attack of `strength` (the moves of a card come together)
    strength = -1
    for move in moves:
        if use:
            assert type(move) is Use
            card, targets, ikki = move.card, move.targets, move.ikki
            worth = -_keep(work, PEASANT, hand) if ikki else 0.0
        else:
            assert type(move) is Play
            card, targets, ikki = move.card, move.targets, move.ikki
            worth = -_keep(work, card, hand)
            if ikki:
                worth -= _keep(work, PEASANT, hand)
        if not ikki and _EFFECT[card] == _ATTACK:
            if work.btl[card] != strength:
                strength = work.btl[card]
                terms = _attack_terms(work, seat, strength)
            effect = 0.0
            for target in targets:
                effect += terms[target]
            worth += effect + NOISE * random_()
        else:
            worth += _effect(work, seat, card, targets, ikki, hand, use) + NOISE * random_()
        if worth > best_worth:
            best, best_worth = move, worth
    return best


def _attack_terms(work: Work, seat: int, strength: int) -> list[float]:
    """What an attack of `strength` by `seat` is worth on each other seat in the battle (as `_effect` adds it up)."""
    knock_out = KNOCK_OUT + _share(work)
    terms = [0.0] * work.n
    for target in range(work.n):
        if target != seat and work.in_battle[target]:
            terms[target] = _attack_term(work, seat, target, strength, knock_out)
    return terms


def _attack_term(work: Work, seat: int, target: int, strength: int, knock_out: float) -> float:
    lose = _lose_chance(work, seat, target, strength)
    if not work.had_turn[target] and work.coins[target] > 1:
        lose *= ESCAPE  # it may block with a coin
    return lose * knock_out + LOOK


def _keep(work: Work, card: int, hand: tuple[int, ...]) -> float:
    """What `card` is worth in `hand` (which holds it)."""
    worth = KEEP_BTL * work.btl[card] + KEEP_HNR * work.hnr[card]
    if card == MONK:
        worth += KEEP_MONK
    elif card == PEASANT and count(hand, PEASANT) == 2:
        worth += KEEP_PAIR
    return worth


def _in_battle(work: Work) -> int:
    n = 0
    for still in work.in_battle:
        if still:
            n += 1
    return n


def _share(work: Work) -> float:
    """A seat's rough share of the coin area if the battle went on."""
    return work.pot / max(1, _in_battle(work))


def _sum(values: tuple[int, ...], cards: tuple[int, ...]) -> int:
    total = 0
    for card in cards:
        total += values[card]
    return total


# By the game's card values (btl, hnr, copies): the chance that `free` cards drawn from the whole composition
# total less than each BTL (`[free][btl]`), and the mean HNR of a card. Fixed for a game, so made once: what a seat
# has seen (the discard pile) is left out of the reckoning, which the greedy player's exact count keeps in.
_TABLES: Final[dict[tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]],
                    tuple[tuple[tuple[float, ...], ...], float]]] = {}
_FREE: Final = 3  # unknown cards in a hand reckoned with: 0 to 2 (a hand holds 2 between turns)
_TOP: Final = 64  # BTL totals reckoned with


_LAST: Final[list[object]] = [None, None, None, None]  # the values and tables of the game last asked about


def _tables(work: Work) -> tuple[tuple[tuple[float, ...], ...], float]:
    last = _LAST
    if work.btl is last[0] and work.hnr is last[1] and work.copies is last[2]:
        return cast(tuple[tuple[tuple[float, ...], ...], float], last[3])
    key = (work.btl, work.hnr, work.copies)
    tables = _TABLES.get(key)
    if tables is None:
        btl, copies = work.btl, work.copies
        deck = [card for card in range(len(copies)) for _ in range(copies[card])]
        rows: list[tuple[float, ...]] = [tuple(0.0 if s <= 0 else 1.0 for s in range(_TOP))]
        singles = [btl[c] for c in deck]
        rows.append(tuple(sum(1 for v in singles if v < s) / len(singles) for s in range(_TOP)))
        pairs = [btl[a] + btl[b] for i, a in enumerate(deck) for b in deck[i + 1 :]]
        rows.append(tuple(sum(1 for v in pairs if v < s) / len(pairs) for s in range(_TOP)))
        mean_hnr = sum(work.hnr[c] for c in deck) / len(deck)
        tables = _TABLES[key] = (tuple(rows), mean_hnr)
    last[0], last[1], last[2], last[3] = work.btl, work.hnr, work.copies, tables
    return tables


def _lose_chance(work: Work, seat: int, target: int, strength: int) -> float:
    """The chance, as `seat` sees it, that `target`'s hand totals less BTL than `strength`."""
    known = work.known[seat * work.n + target]
    base = rules.defence(work.btl, known)
    free = len(work.hands[target]) - len(known)
    if free <= 0:
        return 1.0 if base < strength else 0.0
    need = strength - base
    if need <= 0:
        return 0.0
    return _tables(work)[0][min(free, _FREE - 1)][min(need, _TOP - 1)]


def _honour_chance(work: Work, seat: int, mine: int) -> float:
    """The chance, as `seat` sees it, that `mine` HNR beats every other hand in the battle (the greedy player's
    rough rule: even odds, and 0.18 more for each point ahead of the expected HNR)."""
    mean = _tables(work)[1]
    n, in_battle = work.n, work.in_battle
    chance = 1.0
    for p in range(n):
        if p == seat or not in_battle[p]:
            continue
        known = work.known[seat * n + p]
        free = len(work.hands[p]) - len(known)
        expected = _sum(work.hnr, known) + mean * free
        if free <= 0:
            if expected >= mine:
                return 0.0
        else:
            chance *= min(1.0, max(0.0, 0.5 + HONOUR_SLOPE * (mine - expected)))
    return chance


def _effect(work: Work, seat: int, card: int, targets: tuple[int, ...], ikki: bool, hand: tuple[int, ...],
            use: bool) -> float:
    """The rough worth of `card`'s effect used by `seat` on `targets` (`hand`: the seat's hand before it)."""
    effect = _IKKI if ikki else _EFFECT[card]
    n = work.n
    if effect == _ATTACK or effect == _IKKI:
        strength = rules.attack_strength(work.btl, card, ikki)
        if effect == _IKKI:
            in_battle = work.in_battle
            targets = tuple(p for p in range(n) if p != seat and in_battle[p])
        worth = 0.0
        knock_out = KNOCK_OUT + _share(work)
        for target in targets:
            worth += _attack_term(work, seat, target, strength, knock_out)
        return worth
    if effect == _STEAL:
        held = work.coins[targets[0]]
        return STEAL_WORTH + 0.05 * held if held else -0.2
    if effect == _TRIBUTE:
        payers = 0
        for p in range(n):
            if p != seat and work.coins[p]:
                payers += 1
        return float(payers)
    if effect == _TAX:
        payers = 0
        for p in range(n):
            if work.coins[p]:
                payers += 1
        return -1.0 + payers / max(1, _in_battle(work))
    if effect == _END:
        kept = hand
        if not use:
            i = hand.index(card)
            kept = hand[:i] + hand[i + 1 :]
        return _honour_chance(work, seat, _sum(work.hnr, kept)) * work.pot - _share(work) - 0.2
    if effect == _TAKE:
        return MAIDEN_WORTH
    if effect == _REUSE:
        best = 0.0
        for other in work.discard:
            if _EFFECT[other] != _REUSE:
                worth = _effect(work, seat, other, _aim(work, seat, other), False, hand, True)
                if worth > best:
                    best = worth
        return best
    return 0.0  # a lone Peasant, a Monk on one's own turn


def _aim(work: Work, seat: int, card: int) -> tuple[int, ...]:
    """Where the greedy player aims a card it has not chosen yet: a Bandit at the richest other seat, anything
    else at every other seat in the battle."""
    n = work.n
    if _EFFECT[card] == _STEAL:
        richest = -1
        for p in range(n):
            if p != seat and (richest < 0 or work.coins[p] > work.coins[richest]):
                richest = p
        return (richest,)
    in_battle = work.in_battle
    return tuple(p for p in range(n) if p != seat and in_battle[p])


def _take(work: Work, seat: int, moves: Sequence[Move]) -> Move:
    """Shrine Maiden: take the card whose effect is worth most (none when none is worth anything)."""
    best = moves[-1]  # none, listed last
    best_worth = 0.0
    hand = work.hands[seat]
    for move in moves:
        assert type(move) is Take
        card = move.card
        if card is not None:
            worth = TAKEN + _effect(work, seat, card, _aim(work, seat, card), False, hand, True)
            if worth > best_worth:
                best, best_worth = move, worth
    return best


def _react(work: Work, seat: int, moves: Sequence[Move]) -> Move:
    """The greedy player's answers: cancel (a Monk) an attack the hand would not hold, else block it with a coin
    while one is left after; cancel a Bandit, Princess or Merchant while there are coins to lose, or a Shrine
    Maiden's look at a hand holding 3 HNR; else let it be."""
    strength = work.strength
    hand = work.hands[seat]
    if strength:
        if rules.blocks(work.btl, hand, strength):
            return moves[-1]  # defend: the hand holds
        for move in moves:
            assert type(move) is React
            if move.kind == MONK_CANCEL or (move.kind == COIN_BLOCK and work.coins[seat] > 1):
                return move
        return moves[-1]
    first = moves[0]
    assert type(first) is React
    if first.kind != MONK_CANCEL:
        return moves[-1]
    effect = work.effect
    assert effect is not None
    code = _EFFECT[effect]
    if code == _STEAL or code == _TRIBUTE or code == _TAX:
        return first if work.coins[seat] else moves[-1]
    hnr = work.hnr
    for card in hand:
        if hnr[card] >= 3:
            return first
    return moves[-1]


# The search draws the other seats' moves in its tree on each determinization, so that an opponent plays the hand it
# is dealt there as the greedy player would (ai.ismcts._iterate): at small tables by asking the greedy player itself
# (`tree_choose`), at larger ones by this policy; docs/ai.md has the arena runs.
GREEDY_SEATS: Final = 2  # tables up to this size ask the greedy player in the tree (its cost grows with them)
_GREEDY: Final = ZipangGreedy()


def tree_choose(work: Work, seat: int, moves: Sequence[Move], random_: Callable[[], float]) -> Move:
    """Another seat's move in the search's tree: at tables of up to `GREEDY_SEATS`, the greedy player's own choice
    from what `seat` sees of this determinization (its dealt hand, and of the other hands only what it knows:
    `views.view`); else the policy's pick (`choose`). The policy imitates the greedy player at a fraction of its
    cost, for the playouts; in the tree, a few decisions an iteration, the player itself won more (docs/ai.md,
    *Zipang: the greedy player in the tree*)."""
    if work.n > GREEDY_SEATS:
        return choose(work, seat, moves, random_)
    if len(moves) == 1:
        return moves[0]
    return cast(Move, _GREEDY.choose(None, view(rules.freeze(work), seat), moves, None))


class Search(search_rules.SearchRules):
    """Zipang's rules and this playout policy, for the compiled search's loop and the
    checked engine (games/search_rules.py)."""

    def thaw(self, state: Any) -> Any:
        return rules.thaw(state)

    def freeze(self, work: Any) -> Any:
        return rules.freeze(work)

    def to_act(self, work: Any) -> tuple[int, ...]:
        return rules.to_act(work)

    def acting(self, state: Any) -> tuple[int, ...]:
        frozen: State = state
        return frozen.acting

    def legal_moves(self, work: Any, seat: int) -> Sequence[Move]:
        return rules.legal_moves(work, seat)

    def play(self, work: Any, seat: int, move: Move) -> None:
        rules.play(work, seat, move)

    def outcome(self, work: Any) -> tuple[list[int], tuple[int, ...]]:
        return rules.outcome(work)

    def pick(self, work: Any, seat: int) -> Move:
        moves = rules.legal_moves(work, seat)
        if self.by_policy:
            return choose(work, seat, moves, self.random_)
        return search_rules.uniform(moves, self.random_)

    def tree_pick(self, work: Any, seat: int) -> Move:
        if self.by_policy:
            return tree_choose(work, seat, rules.legal_moves(work, seat), self.random_)
        return self.pick(work, seat)


POLICY = PlayoutPolicy(choose=choose, tree_opponents=True, search=Search, tree_choose=tree_choose)

"""What a seat's moves this battle tell of its hand: how likely a deal of the unseen cards makes them.

Every Zipang move is made in plain sight, and the state keeps, per seat, what the table saw happen to its hand this
battle (`State.record`): its decisions with the table as it saw them, the cards that left the hand face up, and a
DREW for each card it drew unseen. A seat that lets a Bandit through while it has coins, blocks an attack with a
coin or plays a Peasant while it keeps two cards back says something about its hand, under a model of how it plays.
The model is the greedy player (games.zipang.greedy), whose rules the search's playout policy imitates: a decision
counts 1 when the greedy player, holding the hand the seat held then, would have made it, and `UNLIKELY` when it
would not. So no deal is ruled out, and a seat that plays otherwise (a person) only weakens the evidence. (A softer
model, the playout policy's own best pick with its fifth of random picks, did not gain; docs/ai.md, "Zipang: what a
seat's moves tell".)

Which hand it held at each decision follows from the hand a deal gives it now, up to the order of its draws: undone
from the newest entry, a card that left goes back into the hand, a card drawn leaves it, any of the hand's cards
alike (in a shuffled draw pile every order of the cards the seat drew is as likely), and where this seat saw the
whole hand (a `Look`) only the hand it saw is kept. A seat that defended against an attack and is still in the
battle held at least the attack's BTL then: a rule, so a hand short of it weighs 0. `_likelihood` sums over those
orders exactly: a hand of two or three cards from a few dozen gives a few dozen hands at each step at most.

`weight(view, pool)` is the chance of the record for the deal `views.sample` makes from `pool`, relative to the
likeliest deal met so far for this view (per seat), so from 0 to 1; sample keeps a deal with that chance. A search
meets the likeliest hands in its first few samples, and when no hand explains the moves better than another every
deal weighs 1: no draw is wasted. Reads the view alone: what a seat knew of a third seat's hand is not in it
(views._redacted). The weights, and the greedy player's verdict on each decision from each hand, are remembered for
the last view asked about (a search asks of one view thousands of times). Tables of more than `MAX_SEATS` seats are
left out: there the greedy player's reckoning of every aim of an attack, for each hand asked about, cost a quarter
of a second over a view's first 300 samples.
"""

from __future__ import annotations

from typing import Any, Final

from games.zipang.data import MONK
from games.zipang.legal import may_block, play_moves, react_moves
from games.zipang.moves import DEFEND, Play
from games.zipang.state import DREW, PLAY, REACT, Decision, Entry, Look, View

UNLIKELY: Final = 0.01  # a deal's weight for each move the greedy player would not have made from it
MAX_SEATS: Final = 4  # the greedy player costs too much to ask about each hand of a larger table (docs/ai.md)

_greedy: Any = None  # games.zipang.greedy.ZipangGreedy, made at first use
# The view last asked about, its seats that have something to tell, per seat and hand its weight, per seat the
# best weight met so far, and per (seat, decision, hand then) the greedy player's verdict: one tuple, replaced
# whole, so that a search in another thread only costs this one its memo.
_Memo = tuple[
    View | None, list[tuple[int, int, int, tuple[Entry, ...]]], dict[tuple[int, tuple[int, ...]], float],
    dict[int, float], dict[tuple[int, int, tuple[int, ...]], float],
]
_memo: _Memo = (None, [], {}, {}, {})


def weight(v: View, pool: list[int]) -> float:
    """The chance of the other seats' moves this battle had `views.sample` dealt `pool`, relative to the likeliest
    deal met so far for this view (per seat: its best so far, this deal's included), so from 0 to 1; 1.0 when no
    move tells anything."""
    global _memo
    memo = _memo
    if memo[0] is not v:
        memo = _memo = (v, _telling(v), {}, {}, {})
    _, seats, weights, bests, verdicts = memo
    chance = 1.0
    for p, start, free, entries in seats:
        hand = tuple(sorted(v.known[p] + tuple(pool[start : start + free])))
        key = (p, hand)
        w = weights.get(key)
        if w is None:
            w = weights[key] = _likelihood(v, p, hand, entries, verdicts)
        best = bests.get(p, 0.0)
        if w > best:
            bests[p] = best = w
        if best == 0.0:  # no deal met so far could have made these moves: this one neither
            return 0.0
        chance *= w / best
    return chance


def _sum(values: tuple[int, ...], cards: tuple[int, ...]) -> int:
    total = 0
    for c in cards:
        total += values[c]
    return total


def _telling(v: View) -> list[tuple[int, int, int, tuple[Entry, ...]]]:
    """Per other seat whose hand is not all known and that made a decision this battle: the seat, where its dealt
    cards start in the pool, how many it is dealt, and its record."""
    out: list[tuple[int, int, int, tuple[Entry, ...]]] = []
    if v.num_players > MAX_SEATS:
        return out
    start = 0
    for p in range(v.num_players):
        if p == v.seat:
            continue
        free = v.hand_sizes[p] - len(v.known[p])
        entries = v.record[p]
        if free > 0 and any(isinstance(e, Decision) for e in entries):
            out.append((p, start, free, entries))
        start += max(0, free)
    return out


def _likelihood(v: View, p: int, hand: tuple[int, ...], entries: tuple[Entry, ...],
                verdicts: dict[tuple[int, int, tuple[int, ...]], float]) -> float:
    """The chance that seat `p`, holding `hand` now, made its decisions of this battle: the mean over the orders in
    which it may have drawn its cards of the product of each decision's chance (`_chance`) from the hand it held
    then. The record is undone from the newest entry: a card that left face up goes back into the hand, a card
    drawn leaves it (each card of the hand then alike: in a shuffled draw pile every order is as likely), so the
    hands it may have held at each decision are weighed exactly, a few dozen at most."""
    hands: dict[tuple[int, ...], float] = {hand: 1.0}
    for i in range(len(entries) - 1, -1, -1):
        e = entries[i]
        before: dict[tuple[int, ...], float] = {}
        if isinstance(e, Decision):
            for h, w in hands.items():
                key = (p, i, h)
                c = verdicts.get(key)
                if c is None:
                    c = verdicts[key] = _chance(v, p, e, h)
                before[h] = w * c
        elif isinstance(e, Look):
            if e.observer == v.seat:  # this seat saw the whole hand then: every other hand is ruled out
                seen = hands.get(e.cards, 0.0)
                before = {e.cards: seen} if seen else {}
            else:
                before = hands
        elif e == DREW:
            for h, w in hands.items():
                k = len(h)
                if k == 0:  # more cards drawn than the hand holds: not this seat's record (a made-up position)
                    before[h] = before.get(h, 0.0) + w
                    continue
                share = w / k
                for j in range(k):
                    if j and h[j] == h[j - 1]:
                        continue
                    same = 1
                    while j + same < k and h[j + same] == h[j]:
                        same += 1
                    sub = h[:j] + h[j + 1 :]
                    before[sub] = before.get(sub, 0.0) + share * same
        else:
            for h, w in hands.items():
                back = tuple(sorted(h + (e,)))
                before[back] = before.get(back, 0.0) + w
        hands = before
    return sum(hands.values())


def _chance(v: View, p: int, d: Decision, hand: tuple[int, ...]) -> float:
    """1.0 when seat `p`, holding `hand` (sorted) before the move, makes move `d.move` as the greedy player would,
    else `UNLIKELY`."""
    move = d.move
    n = v.num_players
    if isinstance(move, Play):
        moves: tuple[Any, ...] = play_moves(hand, p, n, d.in_battle)
        phase, effect, ikki, strength = PLAY, None, False, 0
    else:
        effect, ikki, strength = move.card, move.ikki, d.strength
        if move.kind == DEFEND and strength and _sum(v.btl, hand) < strength:
            return 0.0  # a rule, not the model: the attack would have excluded the seat, whose record it ends
        moves = react_moves(MONK in hand, may_block(strength, d.had_turn[p], d.coins[p]), effect, ikki, strength > 0)
        phase = REACT
    if move not in moves:
        return UNLIKELY
    if len(moves) == 1:
        return 1.0
    # The seat's view then, holding `hand`: of the other hands only their sizes and what it knew of the viewer's.
    then = View(
        p, n, v.btl, v.hnr, v.copies, d.coins, d.pot, v.battle, v.starter, v.winners, hand, d.hand_sizes,
        v.deck_size, v.facedown_size, d.discard, d.in_battle, d.had_turn, v.active, phase, p, effect, ikki,
        strength, (), None, (), None, d.known, ((),) * n, ((),) * n,
    )
    global _greedy
    if _greedy is None:
        from games.zipang.greedy import ZipangGreedy  # here: the greedy player reads games.zipang.views

        _greedy = ZipangGreedy()
    try:
        chosen = _greedy.choose(None, then, moves, None)
    except AssertionError:  # more copies of a card than the game has (`unseen`): no such hand then
        return UNLIKELY
    return 1.0 if chosen == move else UNLIKELY

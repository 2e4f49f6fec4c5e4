"""What a seat's last moves tell of its hand: how likely a deal of the unseen cards makes them.

Every Zipang move is made in plain sight, and the state keeps each seat's last play and last answer of the battle
(`State.plays`, `State.answers`: the move, the table as the seat saw it, and how many of the cards it kept are
still in its hand for certain). A seat that lets a Bandit through while it has coins, blocks an attack with a coin
or plays a Peasant while it keeps two cards back says something about its hand, under a model of how it plays.
The model is the greedy player (games.zipang.greedy), whose rules the search's playout policy imitates: a deal
weighs 1 for each move the greedy player, holding the cards the deal gives that seat, would have made, and
`UNLIKELY` for each it would not. So no deal is ruled out, and a seat that plays otherwise (a person) only
weakens the evidence. (A softer model, the playout policy's own best pick with its fifth of random picks, did
not gain; docs/ai.md, "Zipang: what a seat's moves tell".)

`weight(view, pool)` is that weight for the deal `views.sample` makes from `pool`, relative to the likeliest deal
met so far for this view (per seat), so from 0 to 1; sample keeps a deal with that chance. A search meets the
likeliest hands in its first few samples (a seat's kept cards are one of a few dozen pairs), and when no hand
explains a move better than another every deal weighs 1: no draw is wasted. A record says something only while
every card the seat kept after the move is still in its hand (`held == kept`: those cards are then the oldest in
it, and the cards drawn since the newer); the cards the viewer knows in that hand are taken to be the oldest,
then the first ones dealt it. Reads the view alone: what a seat knew of a third seat's hand is not in it
(views._redacted). The weights are remembered for the last view asked about (a search asks of one view
thousands of times). Tables of more than `MAX_SEATS` seats are left out: there the greedy player's reckoning of
every aim of an attack, for each hand asked about, cost a quarter of a second over a view's first 300 samples.
"""

from __future__ import annotations

from typing import Any, Final

from games.zipang.data import MONK
from games.zipang.legal import may_block, play_moves, react_moves
from games.zipang.moves import Play
from games.zipang.rules import laid_down
from games.zipang.state import PLAY, REACT, Decision, View

UNLIKELY: Final = 0.01  # a deal's weight for each move the greedy player would not have made from it
MAX_SEATS: Final = 4  # the greedy player costs too much to ask about each hand of a larger table (docs/ai.md)

_greedy: Any = None  # games.zipang.greedy.ZipangGreedy, made at first use
# The view last asked about, its seats that have something to tell, and per seat its deals' weights and the best
# of them met so far: one tuple, replaced whole, so that a search in another thread only costs this one its memo.
_Memo = tuple[View | None, list[tuple[int, int, int, tuple[Decision, ...]]], dict[tuple[int, tuple[int, ...]], float],
              dict[int, float]]
_memo: _Memo = (None, [], {}, {})


def weight(v: View, pool: list[int]) -> float:
    """The chance of the other seats' last moves had `views.sample` dealt `pool`, relative to the likeliest deal
    met so far for this view (per seat: its best so far, this deal's included), so from 0 to 1; 1.0 when no move
    tells anything."""
    global _memo
    memo = _memo
    if memo[0] is not v:
        memo = _memo = (v, _telling(v), {}, {})
    _, seats, weights, bests = memo
    chance = 1.0
    for p, start, need, records in seats:
        oldest = v.known[p] + tuple(pool[start : start + need])
        key = (p, oldest)
        w = weights.get(key)
        if w is None:
            w = 1.0
            for d in records:
                w *= _chance(v, p, d, tuple(sorted(oldest[: d.kept])))
            weights[key] = w
        best = bests.get(p, 0.0)
        if w > best:
            bests[p] = best = w
        chance *= w / best
    return chance


def _telling(v: View) -> list[tuple[int, int, int, tuple[Decision, ...]]]:
    """Per other seat whose hand is not all known and whose last moves say something: the seat, where its dealt
    cards start in the pool, how many of them are among the cards it kept from those moves, and the moves.

    A move's kept cards are the oldest in the hand (the cards drawn since are newer); the ones the viewer knows
    are taken to be the oldest, then the cards dealt in the order dealt."""
    out: list[tuple[int, int, int, tuple[Decision, ...]]] = []
    if v.num_players > MAX_SEATS:
        return out
    start = 0
    for p in range(v.num_players):
        if p == v.seat:
            continue
        free = v.hand_sizes[p] - len(v.known[p])
        records = tuple(d for d in (v.plays[p], v.answers[p]) if d is not None and 0 < d.held == d.kept)
        if free > 0 and records:
            need = min(free, max(d.kept for d in records) - len(v.known[p]))
            if need > 0:
                out.append((p, start, need, records))
        start += max(0, free)
    return out


def _chance(v: View, p: int, d: Decision, kept: tuple[int, ...]) -> float:
    """1.0 when seat `p`, keeping `kept` after the move (its hand then less what the move laid down), makes move
    `d.move` as the greedy player would, else `UNLIKELY`."""
    move = d.move
    n = v.num_players
    hand = tuple(sorted(kept + laid_down(move)))
    if isinstance(move, Play):
        moves: tuple[Any, ...] = play_moves(hand, p, n, d.in_battle)
        phase, effect, ikki, strength = PLAY, None, False, 0
    else:
        effect, ikki, strength = move.card, move.ikki, d.strength
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
        strength, (), None, (), None, d.known, ((),) * n, (None,) * n, (None,) * n,
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

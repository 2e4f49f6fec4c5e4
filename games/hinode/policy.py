"""Hinode's playout policy: how the search plays on past its tree (strategy over the working state, not rules)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Final

from games import search_rules
from games.base import Move, PlayoutPolicy
from games.hinode import rules
from games.hinode.data import (
    CHARMONT,
    HERO,
    HERO_POWER,
    KANSAI,
    SAMURAI,
    SUIT_SIZE,
    TRICKS,
    YELLOW,
    YOZAKURA,
)
from games.hinode.moves import ChooseArea, ChooseTribe
from games.hinode.rules import hero_playable, legal_moves, pickable, plain_play
from games.hinode.state import AREA, PICK, PLAY, TRIBE, State
from games.hinode.work import Work

EXPLORE: Final = 0.25  # share of the policy's picks made uniformly at random (skills and resources come from these)
# The greedy player's tribes in its order of preference (games.hinode.greedy takes the first offered, as the policy)
TRIBE_PREFERENCE: Final[tuple[int, ...]] = (YOZAKURA, KANSAI, CHARMONT, SAMURAI)

_SUIT: Final = tuple(c // SUIT_SIZE for c in range(HERO)) + (-1,)  # the Hero's is never read (not in a hand)
_POWER: Final = tuple(c % SUIT_SIZE + 1 for c in range(HERO)) + (HERO_POWER,)
_FOLLOW: Final = 20  # a strength: 20 for following the colour, plus the power (judgment order, ties aside)


def choose(work: Work, seat: int, moves: Sequence[Any] | None, random_: Callable[[], float]) -> Any:
    """A cheap rule of thumb for the playouts, after the greedy player's first ideas: fight on the Area worth most;
    where 1st place is worth something take the lead as cheaply as possible (lead high), else dump the lowest
    card; a quarter of the picks stay uniformly random. What the greedy player does by a fixed rule the policy
    does likewise, with no random pick: it plays its Hero in the last trick ("the player who played their Hero
    card last gains 3 VP"), takes the tribe it prefers, and picks the resource it finds most useful.

    `moves` are `seat`'s legal moves, or None: then they are listed here where needed. Most plays need none (they
    are read off the hand), so the search's playouts pass None and skip three in four of the lists."""
    phase = work.phase
    if phase == PLAY:
        if work.trick == TRICKS - 1 and hero_playable(work, seat):
            return plain_play(work, HERO)
        if random_() < EXPLORE:
            listed = moves if moves is not None else legal_moves(work, seat)
            return listed[int(random_() * len(listed))]
        # Of the plays with no resource and no skill (one per card, the Hero's where it may be played), in
        # legal_moves' order: read off the hand's ints, not the moves (their fields are attribute reads).
        field = work.battlefield
        assert field is not None, "set in the play phase"  # and indexed as an int, not a Python object compiled
        wanted = work.vp[2 * work.layout[field]] > 0
        colour = work.colour
        best = -1  # the strength to beat
        for _, _, power, follow in work.plays:
            strength = _FOLLOW * follow + power
            if strength > best:
                best = strength
        pick = -1
        pick_key = 1000
        for card in work.hands[seat]:
            strength = (_FOLLOW if colour is None or _SUIT[card] == colour else 0) + _POWER[card]
            key = _key(strength, wanted, best)
            if key < pick_key:
                pick, pick_key = card, key
        if hero_playable(work, seat) and _key(_FOLLOW + HERO_POWER + 1, wanted, best) < pick_key:
            pick = HERO  # a Hero is the last resort of a winner
        if pick >= 0:
            return plain_play(work, pick)
    listed = moves if moves is not None else legal_moves(work, seat)
    if phase == AREA:
        if random_() >= EXPLORE:
            return _richest_area(work, listed)
    elif phase == PICK:
        return _pick(work, seat, listed)
    elif phase == TRIBE:
        return _tribe(listed)
    return listed[int(random_() * len(listed))]


def usefulness(colour: int, held: int) -> float:
    """How useful one more resource of `colour` is to a player holding `held` of it, as the greedy player reckons
    it (games.hinode.greedy picks by it too): yellow most, a colour less useful the more of it is held."""
    if colour == YELLOW:
        return 1.2 + 0.1 * held
    return 1.0 - 0.3 * held


def _pick(work: Work, seat: int, moves: Sequence[Any]) -> Any:
    """The 4th place's pick, as the greedy player makes it: the resource most useful to the picker; choosing for a
    proxy from 3rd place, the least useful (what the proxy takes leaves the game, the rest comes to the 3rd). Read
    off `rules.pickable`, whose order the moves follow, not the moves' fields (attribute reads of an interpreted
    class), which every trick of every playout would pay."""
    resources, ranking = work.resources, work.ranking
    lowest = ranking[3] != seat and ranking[2] == seat
    pick = -1
    best = 0.0
    for i, colour in enumerate(pickable(work)):
        worth = usefulness(colour, resources[seat * 3 + colour])
        if pick < 0 or ((worth < best) if lowest else (worth > best)):
            pick, best = i, worth
    return moves[pick]


def _tribe(moves: Sequence[ChooseTribe]) -> ChooseTribe:
    """The first tribe offered in the greedy player's order of preference."""
    for tribe in TRIBE_PREFERENCE:
        for move in moves:
            if move.tribe == tribe:
                return move
    return moves[0]


def _richest_area(work: Work, moves: Sequence[ChooseArea]) -> ChooseArea:
    """The Area whose 1st place is worth most (the first of equals). The moves typed as what they are, so that
    compiled, `move.area` is a native field read, not a Python attribute lookup (2.7% of a compiled iteration)."""
    vp, layout = work.vp, work.layout
    pick, most = moves[0], -1
    for move in moves:
        worth = vp[2 * layout[move.area]]
        if worth > most:
            pick, most = move, worth
    return pick


def _key(strength: int, wanted: bool, best: int) -> int:
    """A play's rank, lowest first: where the Area is worth nothing dump the weakest card; else lead with the
    strongest, or play the cheapest winner, else the lowest."""
    if not wanted:
        return strength
    if best < 0:
        return -strength
    return strength if strength > best else 100 + strength


# The search draws the other seats' moves in its tree with this policy on each determinization, as Naishi's does
# (ai.ismcts._iterate). Against three greedy players at 5,000 iterations, on the same deals as UCB1-picked opponents:
# 42.5 of 75 games won against 33.5 (seed 4574), 16.5 of 40 against 21.0 (seed 3193): not shown better either way
# (docs/ai.md, "Strength"); it models an opponent playing its own hand, as the arena's greedy player does.
class Search(search_rules.SearchRules):
    """Hinode's rules and this playout policy, for the compiled search's loop and the
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
        if self.by_policy:
            return choose(work, seat, None, self.random_)
        return search_rules.uniform(rules.legal_moves(work, seat), self.random_)


POLICY = PlayoutPolicy(choose=choose, tree_opponents=True, lists_moves=True, search=Search)

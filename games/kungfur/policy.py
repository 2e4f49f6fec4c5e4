"""Kung Fur Fight's playout policy: how the search (ai.ismcts) plays on past its tree, and how `sample` draws the
plans a seat cannot see (games.kungfur.views). Strategy only: what is legal is the rules' to say."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Final

from games import search_rules
from games.base import Move, PlayoutPolicy
from games.kungfur import rules
from games.kungfur.data import ARENAS, HIMIKO
from games.kungfur.moves import ASSISTS, COCONUT_TOKENS, DONE, LEADS, WEAPON_TOKENS
from games.kungfur.planning import LONER, derive
from games.kungfur.state import PLAN, RECOVER, State
from games.kungfur.work import Side, Work, tokens

EXPLORE: Final = 0.25  # share of uniformly random picks
WEAPON: Final = 0.8  # chance to put down another Hidden Weapon


def choose(work: Work, seat: int, moves: Sequence[Move] | None, random_: Callable[[], float]) -> Move:
    """A cheap rule of thumb for the playouts: plan animals up to the card limit where the rewards are (lead the
    arena with the most reward cards, half the time with the strongest animal), then the Coconuts and most
    Hidden Weapons, and finish; recover when the hand runs short (the greedy player's rule). A quarter of the
    picks, and the decisions of the battle phase, stay uniformly random. As a player on its own it beat uniformly
    random play in 81-84% of 1000 games (docs/ai.md); a variant that planned fewer animals (it stopped with chance
    0.4 after each) won only 33%.

    `moves` are `seat`'s legal moves, or None: then they are listed here where needed. A plan is made without them,
    so the search's playouts and its sampled plans pass None and skip most of the lists."""
    if random_() >= EXPLORE:
        if work.phase == PLAN:
            move = _plan_pick(work, work.sides[seat], random_)
            if move is not None:
                return move
        elif work.queue[0][1] == RECOVER:
            listed = moves if moves is not None else rules.legal_moves(work, seat)
            side = work.sides[seat]
            if len(side.hand) > side.limit and len(side.rest) < 4:
                return listed[-1]  # leave them: "none" is listed last
            return listed[0]
    listed = moves if moves is not None else rules.legal_moves(work, seat)
    return listed[int(random_() * len(listed))]


def _plan_pick(work: Work, side: Side, random_: Callable[[], float]) -> Move | None:
    if not side.derived:
        derive(work, side)
    stacks = side.stacks
    if not side.tokens:
        avail = side.avail
        cards: list[int]
        if side.room > 0:
            cards = avail
        else:
            cards = [HIMIKO] if HIMIKO in avail else []
        if cards:
            best, best_key = -1, -1.0
            rewards = work.rewards
            shapes = side.shapes
            for k in range(ARENAS):  # a C loop compiled (over a tuple constant: Python objects)
                shape = shapes[k]
                if shape == 0:
                    key = 2 * len(rewards[k]) + 1 + random_()
                elif shape == 1:
                    key = 2 * len(rewards[k]) + random_()
                else:
                    continue
                if key > best_key:
                    best, best_key = k, key
            if best >= 0:
                lead = not stacks[best]
                if random_() < 0.5:
                    card = _strongest(cards, work.ap)
                else:
                    card = cards[int(random_() * len(cards))]
                if lead:
                    return LEADS[best][card]
                if card != LONER:
                    return ASSISTS[best][card]
    used = [k for k in range(ARENAS) if stacks[k]]
    if used:
        if side.coconuts > tokens(side.pc):
            return COCONUT_TOKENS[used[int(random_() * len(used))]]
        if side.weapons > tokens(side.pw) and random_() < WEAPON:
            return WEAPON_TOKENS[used[int(random_() * len(used))]]
    return DONE


def _strongest(cards: list[int], ap: tuple[int, ...]) -> int:
    """The card of most AP (the first of equals): a loop, where `max` with a key costs a call per card compiled."""
    best, most = cards[0], ap[cards[0]]
    for card in cards:
        if ap[card] > most:
            best, most = card, ap[card]
    return best


class Search(search_rules.SearchRules):
    """Kung Fur Fight's rules and this playout policy, for the compiled search's loop and the
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


POLICY = PlayoutPolicy(choose=choose, lists_moves=True, search=Search)

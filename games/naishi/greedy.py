"""A greedy Naishi player: plan the current turn to maximise its own territory's live score.

It knows only its view: its Hand and Line, the River's face-up cards and the opponent's Line. Each decision
scores the plans that start with a legal move (develop, then perhaps switch two of its own cards; switch first
and then develop; a Decree) and takes the best, re-planning at the next decision of the same turn. An unknown
card (the opponent's Hand card a Decree would bring) comes from one determinization, `game.sample(view)`.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from games.naishi.data import BANNER, FORT, NAISHI, RONIN, SENTINEL, TORII
from games.naishi.knowledge import knowledge_index
from games.naishi.moves import DeclareEnd, Decree, Develop, DiscardRiver, EndTurn, Give, Recall, Switch
from games.naishi.rules import PAIRS
from games.naishi.scoring import score_territory
from games.naishi.state import View
from games.tuples import with_item

# Setup: give away what is worth least in a Hand (a lone Torii even costs its receiver 5 points).
GIVE_FIRST = (TORII, BANNER, FORT, SENTINEL)
KEEP_FIRST = (NAISHI, RONIN)
DECLARE_MARGIN = 5  # declare the end only with a clear lead over the opponent's expected score
DECLARE_SAMPLES = 8

Territory = tuple[tuple[int, ...], tuple[int, ...]]  # (Line, Hand)


def _swap(row: tuple[int, ...], a: int, b: int) -> tuple[int, ...]:
    cells = list(row)
    cells[a], cells[b] = cells[b], cells[a]
    return tuple(cells)


def own_switches(territory: Territory) -> list[Territory]:
    """Every territory one "switch 2 cards" of the player's own cards can make."""
    line, hand = territory
    out = [(_swap(line, a, b), hand) for a, b in PAIRS] + [(line, _swap(hand, a, b)) for a, b in PAIRS]
    out += [(with_item(line, p, hand[p]), with_item(hand, p, line[p])) for p in range(5)]
    return out


def developed(territory: Territory, row: str, pos: int, card: int) -> Territory:
    line, hand = territory
    return (with_item(line, pos, card), hand) if row == "line" else (line, with_item(hand, pos, card))


class NaishiGreedy:
    name = "greedy"

    def choose(self, game, view: View, moves: Sequence, rng: random.Random):
        if view.phase == "gift":
            return self._give(moves)
        self._cache: dict[Territory, int] = {}
        territory: Territory = (view.lines[view.seat], view.hand)
        can_switch_later = not view.developed and any(isinstance(m, Switch) for m in moves)
        now = self._score(territory)
        best_value, best = None, []
        for move in moves:
            value = self._value(game, view, move, territory, now, can_switch_later, rng)
            if best_value is None or value > best_value:
                best_value, best = value, [move]
            elif value == best_value:
                best.append(move)
        return best[rng.randrange(len(best))]

    def _give(self, moves: Sequence) -> Give:
        gives = [m for m in moves if isinstance(m, Give)]

        def keep_rank(move: Give) -> int:
            if move.card in GIVE_FIRST:
                return GIVE_FIRST.index(move.card)
            return 10 + (KEEP_FIRST.index(move.card) if move.card in KEEP_FIRST else -1)

        return min(gives, key=keep_rank)

    def _score(self, territory: Territory) -> int:
        if territory not in self._cache:
            self._cache[territory] = score_territory(*territory).total
        return self._cache[territory]

    def _best_develop(self, territory: Territory, river: tuple[int | None, ...]) -> int:
        values = [
            self._score(developed(territory, row, p, card))
            for p, card in enumerate(river)
            if card is not None
            for row in ("line", "hand")
        ]
        return max(values) if values else self._score(territory)

    def _value(self, game, view: View, move, territory: Territory, now: int, can_switch_later: bool, rng) -> float:
        line, hand = territory
        pre_develop = not view.developed
        if isinstance(move, Develop):
            after = developed(territory, move.row, move.pos, view.river[move.pos])
            value = self._score(after)
            if can_switch_later:
                value = max(value, *(self._score(t) for t in own_switches(after)))
            return value + 0.5  # developing also keeps the game moving
        if isinstance(move, Switch):
            if move.kind == "river":
                if not pre_develop:
                    return now - 1
                river = list(view.river)
                river[move.a], river[move.b] = river[move.b], river[move.a]
                return self._best_develop(territory, tuple(river)) - 0.25  # keep the Emissary unless it helps
            if move.kind == "line":
                after = (_swap(line, move.a, move.b), hand)
            elif move.kind == "hand":
                after = (line, _swap(hand, move.a, move.b))
            else:
                after = (with_item(line, move.a, hand[move.a]), with_item(hand, move.a, line[move.a]))
            value = self._best_develop(after, view.river) if pre_develop else self._score(after)
            return value - 0.25
        if isinstance(move, Decree):
            return self._decree_value(game, view, move, territory, rng)
        if isinstance(move, DiscardRiver):
            return now - 1
        if isinstance(move, Recall):
            placed = sum(1 for owner in view.court if owner == view.seat)
            return now - 0.5 + (0.75 if placed == 2 and len(move.spaces) == 2 else 0)
        if isinstance(move, DeclareEnd):
            opponent = self._opponent_estimate(game, view, rng)
            return float("inf") if now >= opponent + DECLARE_MARGIN else float("-inf")
        if isinstance(move, EndTurn):
            return now
        return now - 1

    def _opponent_hand(self, game, view: View, rng) -> tuple[int, ...]:
        if not hasattr(self, "_sampled") or self._sampled[0] is not view:
            self._sampled = (view, game.sample(view, rng))
        return self._sampled[1].hands[1 - view.seat]

    def _opponent_estimate(self, game, view: View, rng) -> float:
        """The opponent's expected score, over a few determinizations of its Hand."""
        opp = 1 - view.seat
        hands = [game.sample(view, rng).hands[opp] for _ in range(DECLARE_SAMPLES)]
        totals = [score_territory(view.lines[opp], hand).total for hand in hands]
        return sum(totals) / len(totals)

    def _decree_value(self, game, view: View, move: Decree, territory: Territory, rng) -> float:
        """My score after the exchange minus what the opponent gains from it."""
        line, hand = territory
        opp = 1 - view.seat
        opp_line = view.lines[opp]
        if move.row == "line":
            theirs = opp_line[move.pos]
            mine_after = (with_item(line, move.pos, theirs), hand)
            opp_hand = self._opponent_hand(game, view, rng)
            opp_before = score_territory(opp_line, opp_hand).total
            opp_after = score_territory(with_item(opp_line, move.pos, line[move.pos]), opp_hand).total
        else:
            known = view.knowledge[knowledge_index(view.seat, opp)]
            opp_hand = self._opponent_hand(game, view, rng)
            theirs = known.slots[move.pos] if known is not None and known.slots[move.pos] is not None else None
            theirs = opp_hand[move.pos] if theirs is None else theirs
            mine_after = (line, with_item(hand, move.pos, theirs))
            opp_before = score_territory(opp_line, opp_hand).total
            opp_after = score_territory(opp_line, with_item(opp_hand, move.pos, hand[move.pos])).total
        return self._score(mine_after) - (opp_after - opp_before) - 1

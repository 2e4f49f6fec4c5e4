"""A greedy Hinode player: one-ply estimates of each move's worth from the public table and its own hand.

It wins valuable Areas as cheaply as it can, dumps low cards where winning is worthless or hurts, takes useful
resources, spends red/blue (and skills) when that changes the likely outcome, and keeps its Hero for late.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from games.hinode.data import (
    ADJACENT_MASK,
    BATTLE_CARDS,
    CHARMONT,
    HERO,
    HERO_POWER,
    KANSAI,
    NAWABARI_COLOUR,
    PLAYERS,
    RED,
    SAMURAI,
    SUIT_SIZE,
    TRICKS,
    WHITE,
    YOZAKURA,
)
from games.hinode.policy import TRIBE_PREFERENCE, usefulness
from games.hinode.scoring import marked_areas
from games.hinode.state import AREA, PICK, PLAY, TRIBE, ChooseArea, ChooseTribe, PlayCard, TakeResource, View

RESOURCE_WORTH = 0.9  # a rough VP worth of one resource in hand


class HinodeGreedy:
    name = "greedy"

    def choose(self, game, view: View, moves: Sequence, rng: random.Random):
        phase = view.phase
        if phase == TRIBE:
            offered = {m.tribe: m for m in moves if isinstance(m, ChooseTribe)}
            return next(offered[t] for t in TRIBE_PREFERENCE if t in offered)
        if phase == AREA:
            return max(moves, key=lambda m: (self._area_worth(view, m), -m.area))
        if phase == PICK:
            return self._pick(view, moves)
        if phase == PLAY:
            scored = [(self._play_worth(view, m), i) for i, m in enumerate(moves)]
            return moves[max(scored)[1]]
        return moves[0]

    # --- what the Areas are worth to me -------------------------------------------------------------------
    def _place_worth(self, view: View, area: int) -> tuple[float, float]:
        """VP of 1st and 2nd place on `area`, counting the bonus colour and my power group."""
        card = view.layout[area]
        first, second = view.vp[2 * card], view.vp[2 * card + 1]
        colour = NAWABARI_COLOUR[card]
        bonus_colour = NAWABARI_COLOUR[view.layout[12]]
        bonus = 1 if bonus_colour != WHITE and colour == bonus_colour else 0
        mine = marked_areas(view.skill_markers, list(view.first), list(view.second), view.seat)
        if mine & (1 << area):
            power = 0.0
        elif not mine or ADJACENT_MASK[area] & mine:
            power = 2.0
        else:
            power = 0.7  # a new separate group may later join the main one
        return first + bonus + power, second + bonus + power

    def _area_worth(self, view: View, move: ChooseArea) -> float:
        area = move.area
        colour = NAWABARI_COLOUR[view.layout[area]]
        colours = (0, 1, 2) if colour == WHITE else (colour,)
        cubes = view.cubes[area * 3 : area * 3 + 3]
        best = -99.0
        for c in colours:
            for card in view.hand:
                if card // SUIT_SIZE == c:
                    best = max(best, self._outcome(view, area, True, card % SUIT_SIZE + 1, [], 3, cubes))
            if view.heroes[view.seat]:
                best = max(best, self._outcome(view, area, True, HERO_POWER, [], 3, cubes) - self._hero_cost(view))
        if best == -99.0:  # nothing to follow with: I will dump a card here
            best = self._outcome(view, area, False, 1, [], 3, cubes)
        return best

    # --- a move's expected worth -----------------------------------------------------------------------------
    def _play_worth(self, view: View, move: PlayCard) -> float:
        area = view.battlefield
        colour = view.colour if view.colour is not None else move.declare
        if move.card == HERO:
            power, follow = HERO_POWER, True
        else:
            if colour is None:
                colour = move.card // SUIT_SIZE
            power, follow = move.card % SUIT_SIZE + 1, move.card // SUIT_SIZE == colour
        cost = 0.0
        if move.resource == RED:
            power = HERO_POWER - power
            cost += RESOURCE_WORTH
        elif move.resource is not None:
            follow = not follow
            cost += RESOURCE_WORTH
        played = [(p.follow, p.power) for p in view.plays]
        later = PLAYERS - len(view.plays) - 1
        cubes = view.cubes[area * 3 : area * 3 + 3]
        worth = self._outcome(view, area, follow, power, played, later, cubes, colour, move.card == HERO)
        if move.skill is not None:
            cost += RESOURCE_WORTH * (1 if move.skill == YOZAKURA else 2)
            worth = self._skill_worth(view, move, worth, follow, power, played, later, cubes, colour)
        if move.card == HERO:
            cost += self._hero_cost(view)
        else:
            cost += 0.12 * (move.card % SUIT_SIZE + 1)  # keep high cards for later fights
        return worth - cost

    def _skill_worth(self, view, move, worth, follow, power, played, later, cubes, colour) -> float:
        first, second = self._place_worth(view, view.battlefield)
        if move.skill == KANSAI:
            return first
        if move.skill == YOZAKURA:
            probs = self._rank_probabilities(view, follow, power, played, later, colour, move.card == HERO)
            return worth + probs[0] * second
        if move.skill == SAMURAI:
            mine = marked_areas(view.skill_markers, list(view.first), list(view.second), view.seat)
            return worth + (2.0 if ADJACENT_MASK[move.target_area] & mine else 0.8)
        if move.skill == CHARMONT:
            return worth + RESOURCE_WORTH + 1.0
        return worth

    def _hero_cost(self, view: View) -> float:
        if view.trick == TRICKS - 1:
            return -3.0  # played in the last trick it is surely the last Hero: 3 VP
        return 4.5 - 0.4 * view.trick

    def _outcome(self, view, area, follow, power, played, later, cubes, colour=None, hero=False) -> float:
        """Expected VP of ending on each rank with this (follow, power) on `area`."""
        first, second = self._place_worth(view, area)
        probs = self._rank_probabilities(view, follow, power, played, later, colour, hero)
        third = RESOURCE_WORTH * (sum(cubes) - 1)
        fourth = RESOURCE_WORTH * 1.1
        return probs[0] * first + probs[1] * second + probs[2] * third + probs[3] * fourth

    def _rank_probabilities(self, view, follow, power, played, later, colour, hero) -> list[float]:
        """Chances of ending 1st..4th: the cards already played are known, later players are guessed."""
        ahead = sum(1 for f, p in played if (f, p) >= (follow, power))
        if hero and follow and power == HERO_POWER:
            beat = 0.0
        else:
            beat = self._beat_chance(view, follow, power, colour)
        dist = [1.0]  # how many later players beat me
        for _ in range(later):
            nxt = [0.0] * (len(dist) + 1)
            for k, pk in enumerate(dist):
                nxt[k] += pk * (1 - beat)
                nxt[k + 1] += pk * beat
            dist = nxt
        probs = [0.0] * 4
        for k, pk in enumerate(dist):
            probs[min(3, ahead + k)] += pk
        return probs

    def _beat_chance(self, view: View, follow: bool, power: int, colour) -> float:
        seen = set(view.hand) | {p.move.card for p in view.history if p.move.card != HERO}
        unseen = [c for c in range(BATTLE_CARDS) if c not in seen]
        if not unseen or colour is None:
            return 0.5
        same = [c for c in unseen if c // SUIT_SIZE == colour]
        hero_threat = 0.2 if not any(p.move.card == HERO for p in view.plays) else 0.0
        if follow:
            higher = sum(1 for c in same if c % SUIT_SIZE + 1 > power)
            return min(1.0, 0.8 * higher / len(unseen) * 3 + hero_threat)
        return min(1.0, 0.4 + 2 * len(same) / len(unseen))

    # --- the 4th-place pick ------------------------------------------------------------------------------
    def _pick(self, view: View, moves: Sequence[TakeResource]):
        seat = view.seat
        mine = view.resources[seat * 3 : seat * 3 + 3]

        def useful(m: TakeResource) -> float:
            return usefulness(m.colour, mine[m.colour])

        if moves[0].receiver == seat:
            return max(moves, key=useful)
        # Choosing for a proxy: what it takes leaves the game, the rest goes to the 3rd place.
        if view.ranking[2] == seat:
            return min(moves, key=useful)
        return max(moves, key=useful)


__all__ = ["HinodeGreedy"]

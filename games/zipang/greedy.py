"""A greedy Zipang player: one-ply estimates of each move's worth in coins, from its view only.

It values a hand by its defence (BTL) and honour (HNR), attacks everyone it may knock out, steals from the
richest, ends the battle with the Emperor only when its hand should win on honour, cancels with a Monk what
would hurt it, and blocks with a coin when its hand would not hold.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence

from games.zipang.data import (
    ATTACK,
    EFFECTS,
    END,
    IKKI,
    MONK,
    PEASANT,
    REUSE,
    STEAL,
    TAKE,
    TAX,
    TRIBUTE,
)
from games.zipang.moves import COIN_BLOCK, MONK_CANCEL, Play, React, Take
from games.zipang.rules import attack_strength, defence
from games.zipang.state import View
from games.zipang.views import unseen


class ZipangGreedy:
    name = "greedy"

    def choose(self, game, view: View, moves: Sequence, rng: random.Random | None):
        pool = unseen(view)
        scored = [(self._worth(view, m, pool), -i) for i, m in enumerate(moves)]
        return moves[-max(scored)[1]]

    # --- estimates ----------------------------------------------------------------------------------------
    def _lose_chance(self, view: View, seat: int, strength: int, pool: list[int]) -> float:
        """Chance that `seat`'s hand totals less BTL than `strength` (its unknown cards drawn from `pool`)."""
        known = view.known[seat] if view.seat is not None else ()
        base = defence(view.btl, known)
        free = view.hand_sizes[seat] - len(known)
        if free <= 0 or not pool:
            return float(base < strength)
        values = [view.btl[c] for c in pool]
        if free == 1:
            return sum(base + v < strength for v in values) / len(values)
        # Two unknown cards: of the unordered pairs of the pool, those whose BTL with `base` falls short. Counted by
        # BTL value (a few distinct ones), not pair by pair: the same counts, so the same float, for a fraction of
        # the work (pair by pair, it was half of a Zipang conformance test, through the evidence's calls).
        total = len(values) * (len(values) - 1) // 2
        if not total:
            return float(base < strength)
        short = strength - base  # a pair falls short when a + b < short
        counts = Counter(values)
        kinds = sorted(counts)
        hits = 0
        for i, a in enumerate(kinds):
            if 2 * a < short:
                hits += counts[a] * (counts[a] - 1) // 2
            for b in kinds[i + 1 :]:
                if a + b < short:
                    hits += counts[a] * counts[b]
        return hits / total

    def _hand_worth(self, view: View, cards) -> float:
        worth = 0.0
        for c in cards:
            worth += 0.25 * view.btl[c] + 0.3 * view.hnr[c]
            if c == MONK:
                worth += 0.4
        if list(cards).count(PEASANT) >= 2:
            worth += 0.8
        return worth

    def _share(self, view: View) -> float:
        """My rough share of the coin area if the battle went on."""
        return view.pot / max(1, sum(view.in_battle))

    def _honour_win_chance(self, view: View, kept) -> float:
        mine = sum(view.hnr[c] for c in kept)
        pool = unseen(view)
        mean = sum(view.hnr[c] for c in pool) / len(pool) if pool else 0.0
        chance = 1.0
        for p in range(view.num_players):
            if p == view.seat or not view.in_battle[p]:
                continue
            known = view.known[p]
            expected = sum(view.hnr[c] for c in known) + mean * (view.hand_sizes[p] - len(known))
            if len(known) == view.hand_sizes[p]:
                chance *= 1.0 if expected < mine else 0.0
            else:
                chance *= min(1.0, max(0.0, 0.5 + 0.18 * (mine - expected)))
        return chance

    # --- a move's worth ---------------------------------------------------------------------------------------
    def _worth(self, view: View, move, pool: list[int]) -> float:
        me = view.seat
        if isinstance(move, React):
            return self._react_worth(view, move, pool)
        if isinstance(move, Take):
            if move.card is None:
                return 0.0
            card = move.card
            return 0.5 + self._effect_worth(view, card, self._best_targets(view, card), False, pool, list(view.hand))
        hand = list(view.hand)
        if isinstance(move, Play):
            hand.remove(move.card)
            if move.ikki:
                hand.remove(PEASANT)
            worth = self._hand_worth(view, hand) - self._hand_worth(view, view.hand)
        else:  # Use: the card is free; an Ikki costs a Peasant of the hand
            worth = 0.0
            if move.ikki:
                hand.remove(PEASANT)
                worth -= 0.3
        assert me is not None
        return worth + self._effect_worth(view, move.card, move.targets, move.ikki, pool, hand)

    def _effect_worth(self, view: View, card: int, targets, ikki: bool, pool: list[int], kept) -> float:
        effect = EFFECTS[card]
        me = view.seat
        others_in = [p for p in range(view.num_players) if p != me and view.in_battle[p]]
        if ikki or effect == ATTACK:
            strength = attack_strength(view.btl, card, ikki)
            if ikki:
                targets = others_in
            worth = 0.0
            for t in targets:
                lose = self._lose_chance(view, t, strength, pool)
                blockable = not view.had_turn[t] and view.coins[t] > 1
                worth += lose * (0.3 if blockable else 1.0) * (0.6 + self._share(view)) + 0.1
            return worth
        if effect == STEAL:
            t = targets[0]
            return 1.1 + 0.05 * view.coins[t] if view.coins[t] else -0.2
        if effect == TRIBUTE:
            return sum(1.0 for p in range(view.num_players) if p != me and view.coins[p])
        if effect == TAX:
            payers = sum(1 for p in range(view.num_players) if view.coins[p])
            return -1.0 + payers / max(1, sum(view.in_battle))
        if effect == END:
            chance = self._honour_win_chance(view, kept)
            return chance * view.pot - self._share(view) - 0.2
        if effect == TAKE:
            return 0.9
        if effect == REUSE:
            offer = set(view.discard) - {card}
            return max((self._effect_worth(view, c, self._best_targets(view, c), False, pool, kept)
                        for c in offer if EFFECTS[c] != REUSE), default=0.0)
        return 0.0  # a lone Peasant, a Monk on my own turn

    def _best_targets(self, view: View, card: int) -> tuple[int, ...]:
        others = [p for p in range(view.num_players) if p != view.seat]
        if EFFECTS[card] == STEAL:
            return (max(others, key=lambda p: view.coins[p]),)
        return tuple(p for p in others if view.in_battle[p])

    def _react_worth(self, view: View, move: React, pool: list[int]) -> float:
        me = view.seat
        assert me is not None, "a seat's answer"
        hand = view.hand
        effect = EFFECTS[move.card] if not move.ikki else IKKI
        if view.strength:
            btl = defence(view.btl, hand)
            if move.kind == MONK_CANCEL:
                return (1.5 + self._share(view)) if btl < view.strength else -0.5
            if move.kind == COIN_BLOCK:
                return (0.2 + self._share(view) - 1.0) if btl < view.strength and view.coins[me] > 1 else -1.0
            return -(0.6 + self._share(view)) if btl < view.strength else 0.0
        if move.kind == MONK_CANCEL:
            if effect in (STEAL, TRIBUTE, TAX):
                return 0.9 if view.coins[me] else -0.5
            return 0.3 if any(view.hnr[c] >= 3 for c in hand) else -0.3
        return 0.0

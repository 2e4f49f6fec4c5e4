"""Zipang Portable (2-6 players): battles for the Mangoku coins with two cards in hand.

Rules: docs/rules/zipang.md. The engine splits into data (the card types and the one table of assumed values),
moves, state, work (the mutable working state), legal (legal moves) and rules (setup, a move's effect, the
outcome: games.base.Rules, run by the checked engine and the search alike), views (views, samples), scoring and
engine (the Game object); greedy is the baseline player; wire maps its public messages
(protos/tabletop/v1/zipang.proto) and render draws it in the terminal.
"""

from games.registry import GameDescriptor, register
from games.zipang.engine import GAME, Zipang

DESCRIPTOR = register(GameDescriptor(
    engine=GAME,
    wire="games.zipang.wire:WIRE",
    renderer="games.zipang.render",
    baselines={"greedy": "games.zipang.greedy:ZipangGreedy"},
    rules_doc="docs/rules/zipang.md",
    playout="games.zipang.policy:POLICY",
    clairvoyance="games.zipang.views:unknown_reshuffled",
))

__all__ = ["DESCRIPTOR", "GAME", "Zipang"]

"""Naishi (2 players): see docs/rules/naishi.md for the rules as implemented."""

from games.naishi.engine import GAME, Naishi
from games.registry import GameDescriptor, register

DESCRIPTOR = register(GameDescriptor(
    engine=GAME,
    wire="games.naishi.wire:WIRE",
    renderer="games.naishi.render",
    baselines={"greedy": "games.naishi.greedy:NaishiGreedy"},
    rules_doc="docs/rules/naishi.md",
    clairvoyance="games.naishi.views:unknown_reshuffled",
    playout="games.naishi.policy:POLICY",
))

__all__ = ["DESCRIPTOR", "GAME", "Naishi"]

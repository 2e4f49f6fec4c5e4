"""Top of the Hinode Town (日の出横丁ニャンばーわん): a trick-taking fight over the Areas of a floating town.

1-4 seats; proxies fill the table to four. Rules: docs/rules/hinode.md. The engine splits into data (cards and
the assumed VP table), state and moves (frozen), work (the working state: thaw, freeze), rules (setup, legal
moves, play, written once for the engine and the search), scoring, views (views, samples) and engine (the Game
object); policy is the search's playouts; wire, render and greedy adapt it to the API, the terminal and the arena.
"""

from games.hinode.engine import GAME, Hinode
from games.registry import GameDescriptor, register

DESCRIPTOR = register(GameDescriptor(
    engine=GAME,
    wire="games.hinode.wire:WIRE",
    renderer="games.hinode.render",
    baselines={"greedy": "games.hinode.greedy:HinodeGreedy"},
    rules_doc="docs/rules/hinode.md",
    clairvoyance="games.hinode.views:unknown_reshuffled",
    playout="games.hinode.policy:POLICY",
))

__all__ = ["DESCRIPTOR", "GAME", "Hinode"]

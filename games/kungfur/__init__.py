"""Kung Fur Fight (功夫擂台, 쿵푸 파이트): cats against dogs on three arenas, planned in secret, fought in the open.

2 seats. Rules: docs/rules/kung-fur-fight.md. The engine splits into data (cards and the one assumed data table),
state (the frozen state and views), work (the working state the rules change in place), rules (thaw and freeze,
setup, the dispatch of moves), planning, battle (the battle phase, rewards), regroup (win checks, regroup,
preparation), views (views, samples), scoring and engine (the Game object); policy is the search's playout
policy, greedy the baseline player; wire maps its public messages (protos/tabletop/v1/kungfur.proto) and render
draws it in the terminal.
"""

from games.kungfur.engine import GAME, KungFur
from games.registry import GameDescriptor, register

DESCRIPTOR = register(GameDescriptor(
    engine=GAME,
    wire="games.kungfur.wire:WIRE",
    renderer="games.kungfur.render",
    baselines={"greedy": "games.kungfur.greedy:KungFurGreedy"},
    rules_doc="docs/rules/kung-fur-fight.md",
    playout="games.kungfur.policy:POLICY",
))

__all__ = ["DESCRIPTOR", "GAME", "KungFur"]

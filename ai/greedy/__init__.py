"""Greedy heuristic players, one per game: game name -> player class (see ai.players.make_player)."""

from __future__ import annotations

from ai.greedy.hinode import HinodeGreedy
from ai.greedy.naishi import NaishiGreedy

GREEDY: dict[str, type] = {
    "hinode": HinodeGreedy,
    "naishi": NaishiGreedy,
}

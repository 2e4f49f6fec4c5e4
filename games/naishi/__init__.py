"""Naishi (2 players): see docs/rules/naishi.md for the rules as implemented."""

from games.naishi.engine import GAME, Naishi

__all__ = ["GAME", "Naishi"]

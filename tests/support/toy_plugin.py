"""Hosts the toy game in a process of its own: TABLETOP_GAME_MODULES=tests.support.toy_plugin."""

from games.registry import register
from tests.support.toygame import DESCRIPTOR

register(DESCRIPTOR)

"""Secret Duel (tests/support/toygame.py) hosted as a plugin would be: a package of its own with its own messages
(toy.proto, compiled by the plugin's build into `toy_pb2`: here by tests/test_plugins.py), their mapping (wire.py)
and this one registration. A service or worker process hosts it with TABLETOP_GAME_MODULES=tests.support.toy_plugin;
no file outside tests/ names it, and every client learns its messages at run time from ListGameTypes."""

from games.registry import GameDescriptor, register
from tests.support.toygame import GAME

register(GameDescriptor(engine=GAME, wire="tests.support.toy_plugin.wire:WIRE"))

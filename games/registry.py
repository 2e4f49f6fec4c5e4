"""The registry of game types: name -> engine. Games are imported on first use."""

from __future__ import annotations

import importlib

from games.base import Game

# name -> "module:attribute" of the engine object. Add a line here to host a new game.
_ENGINES: dict[str, str] = {
    "hinode": "games.hinode:GAME",
    "naishi": "games.naishi:GAME",
}

_loaded: dict[str, Game] = {}


class UnknownGame(KeyError):
    """No game type of that name is registered."""


def names() -> tuple[str, ...]:
    return tuple(sorted(_ENGINES))


def get(name: str) -> Game:
    try:
        return _loaded[name]
    except KeyError:
        pass
    if name not in _ENGINES:
        raise UnknownGame(name)
    module, attr = _ENGINES[name].split(":")
    game = getattr(importlib.import_module(module), attr)
    _loaded[name] = game
    return game


def all_games() -> list[Game]:
    return [get(n) for n in names()]

"""The registry of game types: one descriptor per game, registered by the game's own package.

A game is a plugin. Its package calls `register(GameDescriptor(...))` once, naming its engine and, by
"module:attribute" references that are imported only by the layer that needs them, its public wire mapping
(service and AI worker), its terminal renderer (clients) and its baseline players (arena, tests). The rules
engine stays free of protobuf, terminals and search: importing the registry imports engines only (and, with each,
its policy module's native rules class, through which its compiled engine calls the rules: games/checked.py).

The built-in games are the packages in `BUILTIN`; a game from elsewhere registers itself with `register` when
its module is imported (the service and the worker import the modules named by `TABLETOP_GAME_MODULES`).
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass, field
from typing import Any

from games.base import Game

# The built-in games: a package per game, each calling `register` on import. Add one line to host a new game.
BUILTIN: tuple[str, ...] = (
    "games.hinode",
    "games.naishi",
    "games.zipang",
    "games.kungfur",
)


class UnknownGame(KeyError):
    """No game type of that name is registered."""


@dataclass(frozen=True)
class GameDescriptor:
    """Everything the service, the worker, the clients and the tests need to know of one game.

    wire: "module:attr" of the game's `tabletop.wire.GameWire` (its public proto messages and their mapping).
    renderer: the module of the game's terminal renderer (see clients.render: `render` and `changes`).
    baselines: player name -> "module:attr" of a player class (see ai.players.Player), e.g. {"greedy": ...}.
    rules_doc: the rules as implemented, relative to the repository root.
    playout: "module:attr" of the game's `games.base.PlayoutPolicy`, the search's playouts (None: uniform).
    clairvoyance: "module:attr" of `(state, rng) -> state`, the true state with only what no seat knows drawn anew:
        what the arena's cheating baseline searches (None: the game has no cheating baseline).
    """

    engine: Game
    wire: str | None = None
    renderer: str | None = None
    baselines: dict[str, str] = field(default_factory=dict)
    rules_doc: str | None = None
    playout: str | None = None
    clairvoyance: str | None = None

    @property
    def name(self) -> str:
        return self.engine.info.name


_games: dict[str, GameDescriptor] = {}
_builtins_loaded = False


def register(descriptor: GameDescriptor) -> GameDescriptor:
    """Host a game type. Registering the same descriptor twice is harmless; another game of a taken name is not."""
    name = descriptor.name
    known = _games.get(name)
    if known is not None and known != descriptor:
        raise ValueError(f"a different game is already registered as {name!r}")
    _games[name] = descriptor
    return descriptor


def unregister(name: str) -> None:
    """Stop hosting a game type (for tests that register a game of their own)."""
    _games.pop(name, None)


def _load_builtins() -> None:
    global _builtins_loaded
    if not _builtins_loaded:
        for module in BUILTIN:
            importlib.import_module(module)
        _builtins_loaded = True


def names() -> tuple[str, ...]:
    _load_builtins()
    return tuple(sorted(_games))


def descriptor(name: str) -> GameDescriptor:
    _load_builtins()
    try:
        return _games[name]
    except KeyError:
        raise UnknownGame(name) from None


def get(name: str) -> Game:
    """The engine of a game type."""
    return descriptor(name).engine


def all_games() -> list[Game]:
    return [get(n) for n in names()]


def resolve(reference: str) -> Any:
    """The object a "module:attr" reference of a descriptor names."""
    module, _, attr = reference.partition(":")
    return getattr(importlib.import_module(module), attr)

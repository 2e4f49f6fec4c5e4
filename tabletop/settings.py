"""Reading TABLETOP_* environment variables, shared by the service and the worker (12-factor configuration)."""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from typing import TypeVar

T = TypeVar("T")


class ConfigError(ValueError):
    """A configuration value that cannot be used; the message names the variable."""


def env_reader(env: Mapping[str, str]) -> Callable[[str, T], T]:
    """`get(NAME, default)`: TABLETOP_NAME converted to the default's type, the default when unset or empty."""

    def get(name: str, default: T) -> T:
        raw = env.get(f"TABLETOP_{name}")
        if raw in (None, ""):
            return default
        try:
            return type(default)(raw)
        except ValueError:
            raise ConfigError(f"TABLETOP_{name}={raw!r} is not a valid {type(default).__name__}") from None

    return get


TRUE = ("1", "true", "yes", "on")
FALSE = ("", "0", "false", "no", "off")


def flag(env: Mapping[str, str], name: str, default: bool = False) -> bool:
    """TABLETOP_NAME as a boolean (unset or empty: `default`); anything but a yes/no word is a ConfigError, not a
    silent no."""
    raw = env.get(f"TABLETOP_{name}", "").strip().lower()
    if not raw:
        return default
    if raw not in TRUE + FALSE:
        raise ConfigError(f"TABLETOP_{name}={raw!r} is not true or false")
    return raw in TRUE


def game_modules(env: Mapping[str, str]) -> tuple[str, ...]:
    """TABLETOP_GAME_MODULES: comma-separated modules of games hosted beside the built-in ones (each module
    registers its game with games.registry.register when imported)."""
    raw = env.get("TABLETOP_GAME_MODULES", "")
    return tuple(m.strip() for m in raw.split(",") if m.strip())


def load_game_modules(env: Mapping[str, str]) -> None:
    """Import the modules TABLETOP_GAME_MODULES names, so their games are registered; a bad name is a ConfigError.
    Each registers itself on import, so this layer, below the games, never names the registry."""
    for module in game_modules(env):
        try:
            importlib.import_module(module)
        except ImportError as exc:
            raise ConfigError(f"TABLETOP_GAME_MODULES names {module!r}, which cannot be imported: {exc}") from None

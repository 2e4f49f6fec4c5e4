"""Reading TABLETOP_* environment variables, shared by the service and the worker (12-factor configuration)."""

from __future__ import annotations

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

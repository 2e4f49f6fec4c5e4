"""The engine interface every game implements: pure functions over immutable state.

A game is a module-level `Game` object registered in `games.registry`. State, views and moves are frozen
dataclasses of tuples, ints, strings and other frozen dataclasses, so they are hashable, cheap to share and
serialisable by `games.codec` without pickle.

Contract (checked by tests/conformance for every registered game):
- `new_game(num_seats, options, seed)` is deterministic; all chance is drawn from data inside the state.
- `to_act(state)` is the set of seats that must decide now; empty when the game is over. Several seats in it
  means a simultaneous choice: each seat's move is collected and stays hidden from the others until all are in.
- `legal_moves(state, seat)` lists typed moves; each has a stable `id` and a human `label`.
- `apply(state, seat, move)` returns a new state, or raises `IllegalMove` saying why; it never mutates.
- `view(state, seat)` is exactly what that seat may know (`seat=None`: a spectator).
- `sample(view, rng)` returns a full state consistent with the view (a determinization): it gets the view,
  never the state, so a searcher built on it cannot peek.
- `score(state)` gives every seat's total with its breakdown by the rulebook's categories, and the ranking.
- `move_is_public(state, seat, move)` (state before the move) says whether every other seat and spectator may
  learn the move itself (its id and label), not only its effect on their views; the default is False (hidden).
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Generic, TypeVar

from games import codec

S = TypeVar("S")  # state type
V = TypeVar("V")  # view type


class GameError(Exception):
    """Base class of the errors an engine raises; `reason` is a stable UPPER_SNAKE code."""

    reason: str = "GAME_ERROR"

    def __init__(self, message: str, reason: str | None = None):
        super().__init__(message)
        if reason is not None:
            self.reason = reason

    @property
    def message(self) -> str:
        return str(self.args[0]) if self.args else ""


class IllegalMove(GameError):
    """The move is well formed but not allowed now; the message says why."""

    reason = "ILLEGAL_MOVE"


class NotYourTurn(IllegalMove):
    reason = "NOT_YOUR_TURN"


class GameOver(IllegalMove):
    reason = "GAME_OVER"


class UnknownMove(IllegalMove):
    """No legal move of this seat has the given id."""

    reason = "UNKNOWN_MOVE"


class InvalidOptions(GameError):
    """The options or seat count given to `new_game` are not valid for this game."""

    reason = "INVALID_OPTIONS"


@dataclass(frozen=True)
class Move:
    """Base of every typed move. Subclasses are frozen dataclasses and define `id` and `label`.

    `id` is stable (the same move in the same position always has the same id) and short; a frontend can
    render `label` and send back `id`.
    """

    @property
    def id(self) -> str:  # pragma: no cover - every subclass overrides
        raise NotImplementedError

    @property
    def label(self) -> str:  # pragma: no cover
        raise NotImplementedError


@dataclass(frozen=True)
class OptionSpec:
    """One game option as listed to clients.

    kind: "bool", "int", "choice" or "json" (a JSON document, e.g. an override of a data table).
    """

    name: str
    kind: str
    default: Any
    description: str
    choices: tuple[str, ...] = ()
    minimum: int | None = None
    maximum: int | None = None


@dataclass(frozen=True)
class SeatScore:
    """One seat's score: `total` is the sum of `breakdown`, a tuple of (category, points) in rulebook order."""

    seat: int
    total: int
    breakdown: tuple[tuple[str, int], ...]


@dataclass(frozen=True)
class Score:
    """Scores of every seat, and the ranking best first; seats tied after the tie-breaks share a group."""

    seats: tuple[SeatScore, ...]
    ranking: tuple[tuple[int, ...], ...]
    final: bool
    tie_breaks: tuple[str, ...] = ()  # the rulebook's tie-breaks, in the order they were applied

    def winners(self) -> tuple[int, ...]:
        return self.ranking[0] if self.ranking else ()


@dataclass(frozen=True)
class GameInfo:
    name: str  # registry key, lower_snake_case, e.g. "hinode"
    title: str
    min_seats: int
    max_seats: int
    options: tuple[OptionSpec, ...] = field(default=())
    description: str = ""


class Game(ABC, Generic[S, V]):
    """A rules engine. Implementations are stateless: every method is a pure function of its arguments."""

    info: ClassVar[GameInfo]
    state_type: ClassVar[type]
    view_type: ClassVar[type]
    move_types: ClassVar[tuple[type, ...]]

    # --- lifecycle -------------------------------------------------------------------------------------------
    @abstractmethod
    def new_game(self, num_seats: int, options: Mapping[str, Any], seed: int) -> S:
        """Set up a game; raise InvalidOptions for a bad seat count or option."""

    @abstractmethod
    def to_act(self, state: S) -> frozenset[int]:
        """Seats that must decide now; empty when the game is over."""

    @abstractmethod
    def legal_moves(self, state: S, seat: int) -> Sequence[Move]:
        """The moves `seat` may make now (empty if it is not to act)."""

    @abstractmethod
    def apply(self, state: S, seat: int, move: Move) -> S:
        """Return the state after `seat` makes `move`, or raise IllegalMove (or a subclass) saying why."""

    @abstractmethod
    def view(self, state: S, seat: int | None) -> V:
        """What `seat` may know; `None` is the spectator."""

    @abstractmethod
    def sample(self, view: V, rng: random.Random) -> S:
        """A full state consistent with `view`, the hidden parts drawn from `rng`."""

    @abstractmethod
    def score(self, state: S) -> Score:
        """Live or final scores with breakdowns and the ranking with the rulebook's tie-breaks."""

    @abstractmethod
    def num_seats(self, state: S) -> int:
        """How many seats (players that a person or an AI controls) the game has."""

    # --- optional, with a safe default ------------------------------------------------------------------------
    def move_is_public(self, state: S, seat: int, move: Move) -> bool:
        """Whether others may learn `seat`'s legal `move` in `state` (before it) by id and label; hidden by default."""
        return False

    # --- derived, shared by every game ----------------------------------------------------------------------
    def is_over(self, state: S) -> bool:
        return not self.to_act(state)

    def move_by_id(self, state: S, seat: int, move_id: str) -> Move:
        """The legal move of `seat` whose id is `move_id`, or raise the error that says why there is none."""
        self.check_can_act(state, seat)
        for move in self.legal_moves(state, seat):
            if move.id == move_id:
                return move
        raise UnknownMove(f"seat {seat} has no legal move with id {move_id!r}")

    def apply_id(self, state: S, seat: int, move_id: str) -> S:
        return self.apply(state, seat, self.move_by_id(state, seat, move_id))

    def check_can_act(self, state: S, seat: int) -> None:
        """Raise GameOver / NotYourTurn when `seat` may not move now (the bookkeeping every game shares)."""
        if not 0 <= seat < self.num_seats(state):
            raise NotYourTurn(f"there is no seat {seat} in this game")
        acting = self.to_act(state)
        if not acting:
            raise GameOver("the game is over")
        if seat not in acting:
            raise NotYourTurn(f"seat {seat} is not to act (waiting for seats {sorted(acting)})")

    def check_legal(self, state: S, seat: int, move: Move) -> None:
        """Raise unless `move` is among `seat`'s legal moves; engines call this first in `apply`."""
        self.check_can_act(state, seat)
        if move not in self.legal_moves(state, seat):
            raise IllegalMove(f"{move.label} is not a legal move for seat {seat} now")

    # --- serialisation (games.codec: versioned JSON, never pickle) -----------------------------------------
    def dump_state(self, state: S) -> bytes:
        return codec.dumps(self.info.name, "state", state)

    def load_state(self, raw: bytes | str) -> S:
        return codec.loads(self.info.name, "state", self.state_type, raw)

    def dump_view(self, view: V) -> bytes:
        return codec.dumps(self.info.name, "view", view)

    def load_view(self, raw: bytes | str) -> V:
        return codec.loads(self.info.name, "view", self.view_type, raw)

    def dump_move(self, move: Move) -> bytes:
        return codec.dumps(self.info.name, "move", {"type": type(move).__name__, "move": codec.encode(move)})

    def load_move(self, raw: bytes | str) -> Move:
        doc = codec.loads(self.info.name, "move", Any, raw)
        types_by_name = {t.__name__: t for t in self.move_types}
        if not isinstance(doc, dict) or doc.get("type") not in types_by_name:
            raise codec.CodecError("unknown move type")
        return codec.decode(types_by_name[doc["type"]], doc.get("move"))

    def resolve_options(self, options: Mapping[str, Any] | None) -> dict[str, Any]:
        """Fill defaults and type-check options against `info.options`; raise InvalidOptions."""
        return resolve_options(self.info, options)

    def resolve_setup(self, num_seats: int, options: Mapping[str, Any] | None) -> dict[str, Any]:
        """Check the seat count and resolve the options; engines call this first in `new_game`."""
        info = self.info
        if isinstance(num_seats, bool) or not isinstance(num_seats, int) or not (
            info.min_seats <= num_seats <= info.max_seats
        ):
            raise InvalidOptions(
                f"{info.title} is played by {info.min_seats} to {info.max_seats} seats, not {num_seats}"
            )
        return resolve_options(info, options)

    def variants(self) -> list[tuple[int, dict[str, Any]]]:
        """Every seat count crossed with every combination of the boolean options (for tests and arenas)."""
        combos: list[dict[str, Any]] = [{}]
        for spec in self.info.options:
            if spec.kind == "bool":
                combos = [dict(c, **{spec.name: v}) for c in combos for v in (False, True)]
        return [(n, c) for n in range(self.info.min_seats, self.info.max_seats + 1) for c in combos]


def resolve_options(info: GameInfo, options: Mapping[str, Any] | None) -> dict[str, Any]:
    options = dict(options or {})
    known = {spec.name: spec for spec in info.options}
    unknown = sorted(set(options) - set(known))
    if unknown:
        raise InvalidOptions(f"unknown option(s) for {info.name}: {', '.join(unknown)}")
    resolved: dict[str, Any] = {}
    for name, spec in known.items():
        value = options.get(name, spec.default)
        if spec.kind == "bool":
            if not isinstance(value, bool):
                raise InvalidOptions(f"option {name} must be true or false")
        elif spec.kind == "int":
            if isinstance(value, bool) or not isinstance(value, int):
                raise InvalidOptions(f"option {name} must be an integer")
            if spec.minimum is not None and value < spec.minimum:
                raise InvalidOptions(f"option {name} must be at least {spec.minimum}")
            if spec.maximum is not None and value > spec.maximum:
                raise InvalidOptions(f"option {name} must be at most {spec.maximum}")
        elif spec.kind == "choice":
            if value not in spec.choices:
                raise InvalidOptions(f"option {name} must be one of {', '.join(spec.choices)}")
        resolved[name] = value
    return resolved


def chance(seed: int, *salt: int | str) -> random.Random:
    """A random generator determined by a state's seed and a salt naming the chance event."""
    return random.Random(f"{seed}:{':'.join(map(str, salt))}")

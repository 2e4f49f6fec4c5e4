"""The engine interface every game implements: pure functions over immutable state.

A game is a module-level `Game` object registered in `games.registry`. State, views and moves are immutable
dataclasses of tuples, ints, strings and other such dataclasses, so they are hashable, cheap to share and
serialisable by `games.codec` without pickle (a game's compiled states are immutable by contract rather than
frozen: docs/architecture.md, *Frozen states*).

Contract (checked by tests/conformance for every registered game):
- `new_game(num_seats, options, seed)` is deterministic; all chance is drawn from data inside the state.
- `to_act(state)` is the set of seats that must decide now; empty when the game is over. Several seats in it
  means a simultaneous choice: each seat's move is collected and stays hidden from the others until all are in.
- `legal_moves(state, seat)` lists typed moves; each has a stable `id` and a human `label`.
- `apply(state, seat, move)` returns a new state, or raises `IllegalMove` saying why; it never mutates. The base
  checks game over, whose turn and legality once; `transition` is a legal move's effect, unchecked.
- `view(state, seat)` is exactly what that seat may know (`seat=None`: a spectator).
- `sample(view, rng)` returns a full state consistent with the view (a determinization): it gets the view,
  never the state, so a searcher built on it cannot peek.
- `score(state)` gives every seat's total with its breakdown by the rulebook's categories, and the ranking.
- `move_is_public(state, seat, move)` (state before the move) says whether every other seat and spectator may
  learn the move itself (its id and label), not only its effect on their views; the default is False (hidden).

Rules written once. A game writes its rules against one mutable working state (`Rules`, below): `thaw` a frozen
state into plain typed objects with `__slots__`, list and play moves on it in place, read its outcome, `freeze`
it back. The base's `to_act`, `legal_moves`, `transition` and `apply` run that code on a thawed copy; the
search (ai.ismcts) runs the very same functions on one working state per iteration. No rule exists twice.
Every frozen state is made by `freeze`, which records the seats to act (`State.acting`), so `to_act(state)`
needs no thaw.
"""

from __future__ import annotations

import json
import random
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Generic, Protocol, TypeVar, Union

from games import codec
from games.checked import Engine  # `to_act`, `legal_moves`, `transition`: compiled with the rules
from games.deal import randbelow
from games.move import Move  # the base of the typed moves, compiled with them (games/move.py)
from games.values import chance

S = TypeVar("S")  # state type
V = TypeVar("V")  # view type
W = TypeVar("W")  # working state type


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
class Words:
    """Who is told about a move, so that its text fits the reader: "You develop ..." to the mover, "Ann develops
    ..." to everyone else. `names` are the seats' display names; `viewer` is None for a spectator."""

    names: tuple[str, ...]
    mover: int
    viewer: int | None

    @property
    def you(self) -> bool:
        return self.viewer == self.mover

    @property
    def subject(self) -> str:
        return "You" if self.you else self.seat(self.mover)

    @property
    def possessive(self) -> str:
        return "your" if self.you else "their"

    def seat(self, seat: int) -> str:
        """A seat as the reader calls it: "you" for the reader's own, else its name."""
        if seat == self.viewer:
            return "you"
        return self.names[seat] if 0 <= seat < len(self.names) else f"seat {seat + 1}"

    def verb(self, base: str) -> str:
        """`base` conjugated for the subject: "develop" -> "develops" unless the reader is the mover."""
        return base if self.you else third_person(base)


def third_person(verb: str) -> str:
    if verb.endswith(("s", "sh", "ch", "x", "z", "o")):
        return verb + "es"
    if len(verb) > 1 and verb.endswith("y") and verb[-2] not in "aeiou":
        return verb[:-1] + "ies"
    return verb + "s"


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
    decided_by: str = ""  # a rule that decided the ranking regardless of the totals (e.g. a sudden win)
    estimated: bool = False  # reckoned on a guess of what its reader cannot see (service.tables.visible_score)

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


class Rules(Protocol[S, W]):
    """A game's rules, written once against its mutable working state `W` (usually the game's `rules` module).

    `W` is plain typed classes with `__slots__` and no dynamic attributes, so that a compiler for typed Python can
    build it. Nothing in `W` is shared with the frozen state it was thawed from or is frozen into.

    A game whose chance goes on during play (a deal each battle, a shuffle) may also have `draw_chance(work, rng)`:
    from then on `work` draws that chance from `rng` instead of from its seed. The search calls it on every
    determinization it thaws: its seed is drawn at random anyway, so the draws are alike in law, and a generator
    seeded from a string per event (`chance`) is not paid for in every playout. The checked engine never calls it:
    a game's chance stays a function of its seed."""

    def thaw(self, state: S) -> W:
        """A working copy of `state`, which stays unchanged."""
        ...

    def freeze(self, work: W) -> S:
        """The frozen state of `work` (with `acting`: the seats `to_act` gives); `work` may be played on after."""
        ...

    def to_act(self, work: W) -> tuple[int, ...]:
        """The seats that must decide now, ascending; empty when the game is over."""
        ...

    def legal_moves(self, work: W, seat: int) -> Sequence[Move]:
        """The moves `seat` may make now, in a stable order (empty if it is not to act); `work` is not changed."""
        ...

    def play(self, work: W, seat: int, move: Move) -> None:
        """Make `move`, which the caller guarantees is among `legal_moves(work, seat)`, changing `work` in place."""
        ...

    def outcome(self, work: W) -> tuple[list[int], tuple[int, ...]]:
        """Every seat's score total and the seats ranked first after the rulebook's tie-breaks (live when the game
        is not over): the same totals and winners as `Game.score`, without the breakdown."""
        ...


@dataclass(frozen=True)
class PlayoutPolicy:
    """How the search plays a game on past its tree: a cheap stochastic pick over the working state.

    `choose(work, seat, moves, random)` picks one of `moves` (the legal moves of `seat` in `work`) with `random()`
    draws in [0, 1); with `lists_moves`, `moves` may be None, and `choose` lists them itself where it needs them
    (the search passes None: a policy that decides most moves without the list does not pay for it). With
    `tree_opponents`, the search also draws the other seats' moves in its tree with it, so that an opponent plays
    the hand each determinization deals it (ai.ismcts._iterate says why), or with `tree_choose` (the same
    arguments; `moves` always listed) where there is one: a costlier model of the player, which the tree asks a
    few times an iteration where a playout asks at every move (Zipang's asks the greedy player itself)."""

    choose: Any  # Callable[[W, int, Sequence[Move], Callable[[], float]], Move]
    tree_opponents: bool = False
    lists_moves: bool = False
    tree_choose: Any = None  # like `choose`, for the other seats' moves in the tree; None: `choose`
    # The game's `games.search_rules.SearchRules` subclass (its rules and this policy as one native object), which
    # the compiled search's loop calls through C; None: the loop calls the rules module's functions.
    search: Any = None


def _one_of(types_: tuple[type, ...]) -> Any:
    """The union of a game's move types, as the codec stores a move: [the index of its type, its fields]."""
    return Union[types_]  # noqa: UP007 - a union built from a tuple of types


class Game(Engine, ABC, Generic[S, V]):
    """A rules engine. Implementations are stateless: every method is a pure function of its arguments."""

    info: ClassVar[GameInfo]
    rules: ClassVar[Any]  # the game's `Rules` (its rules module)
    state_type: ClassVar[type]
    view_type: ClassVar[type]
    move_types: ClassVar[tuple[type, ...]]
    # The live score depends only on what every seat sees (Zipang's coins), so a reader's is exact; otherwise it is
    # reckoned on a guess of the hidden part and marked as an estimate. tests/service/test_views.py checks the claim.
    live_score_public: ClassVar[bool] = False

    # --- lifecycle -------------------------------------------------------------------------------------------
    @abstractmethod
    def new_game(self, num_seats: int, options: Mapping[str, Any], seed: int) -> S:
        """Set up a game; raise InvalidOptions for a bad seat count or option."""

    # `to_act(state)`, `legal_moves(state, seat)` and `transition(state, seat, move)`: games.checked.Engine.

    def outcome(self, state: S) -> tuple[list[int], tuple[int, ...]]:
        """Every seat's total and the winners, as `score` ranks them (the search's cheap reading of a score)."""
        rules = self.rules
        return rules.outcome(rules.thaw(state))

    @abstractmethod
    def view(self, state: S, seat: int | None) -> V:
        """What `seat` may know; `None` is the spectator."""

    @abstractmethod
    def sample(self, view: V, rng: random.Random) -> S:
        """A full state consistent with `view`, the hidden parts drawn from `rng`."""

    def sample_work(self, view: V, rng: random.Random) -> Any:
        """`sample(view, rng)` thawed: the working state the search plays a determinization on, drawn as `sample`
        draws it. A game whose `sample` builds a working state anyway returns that one here, and saves the search a
        freeze and a thaw per iteration; the conformance suite checks that such a game's `freeze(sample_work(view,
        rng))` equals `sample(view, rng)` from the same draws, and for every game that it shows the view."""
        return self.rules.thaw(self.sample(view, rng))

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

    def why_illegal(self, state: S, seat: int, move: Move) -> str:
        """Why `move` (not among `seat`'s legal moves) cannot be made now; a game may say more precisely."""
        label = move.label if isinstance(move, self.move_types) else type(move).__name__
        return f"{label} is not a legal move for seat {seat} now"

    # --- the checks, once for every game ----------------------------------------------------------------------
    def apply(self, state: S, seat: int, move: Move) -> S:
        """Return the state after `seat` makes `move`, or raise GameOver / NotYourTurn / IllegalMove saying why."""
        self.check_legal(state, seat, move)
        return self.transition(state, seat, move)

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

    def play_id(self, state: S, seat: int, move_id: str) -> tuple[Move, S]:
        """The legal move of `seat` whose id is `move_id` and the state after it; raise as `move_by_id` does. Checked
        as `apply` is, listing the legal moves once."""
        move = self.move_by_id(state, seat, move_id)
        return move, self.transition(state, seat, move)

    def apply_id(self, state: S, seat: int, move_id: str) -> S:
        return self.play_id(state, seat, move_id)[1]

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
        """Raise unless `move` is among `seat`'s legal moves (moves are values: an equal one built elsewhere,
        decoded or from another process, is the same move)."""
        self.check_can_act(state, seat)
        if move not in self.legal_moves(state, seat):
            raise IllegalMove(self.why_illegal(state, seat, move))

    # --- serialisation (games.codec: versioned JSON, never pickle) -----------------------------------------
    def dump_state(self, state: S) -> bytes:
        return codec.pack(self.info.name, "state", self.state_type, state)

    def load_state(self, raw: bytes | str) -> S:
        return codec.unpack(self.info.name, "state", self.state_type, raw)

    def dump_view(self, view: V) -> bytes:
        return codec.pack(self.info.name, "view", self.view_type, view)

    def load_view(self, raw: bytes | str) -> V:
        return codec.unpack(self.info.name, "view", self.view_type, raw)

    def dump_move(self, move: Move) -> bytes:
        return codec.pack(self.info.name, "move", _one_of(self.move_types), move)

    def load_move(self, raw: bytes | str) -> Move:
        return codec.unpack(self.info.name, "move", _one_of(self.move_types), raw)

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
        valid = f"its options: {', '.join(known)}" if known else f"{info.name} has no options"
        raise InvalidOptions(f"unknown option(s) for {info.name}: {', '.join(unknown)} ({valid})")
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


def seat_option(name: str, description: str, max_seats: int) -> OptionSpec:
    """An option naming a seat, "random" (drawn from the seed) by default: who starts, who plays which side."""
    choices = ("random", *(f"seat{s}" for s in range(max_seats)))
    help_ = f"{description}: random (from the seed), or the creator's choice of seat"
    return OptionSpec(name, "choice", "random", help_, choices=choices)


def chosen_seat(options: Mapping[str, Any], name: str, num_seats: int, seed: int, event: str) -> int:
    """The seat a `seat_option` names in resolved `options`; when random, drawn from the seed as the chance event
    `event` (each game names its own, so its seeded deals are its own); raise InvalidOptions for a seat the game
    does not have."""
    value = options[name]
    if value == "random":
        return randbelow(chance(seed, event), num_seats)
    seat = int(value[4:])
    if seat >= num_seats:
        raise InvalidOptions(f"{name} {value} is not a seat of a {num_seats}-seat game")
    return seat


def json_object(name: str, override: Any) -> dict[str, Any]:
    """A data-table override as given in an option (a JSON object, or its text): the object, or {} for None;
    raise ValueError saying what is wrong."""
    if override is None:
        return {}
    if isinstance(override, str):
        try:
            override = json.loads(override)
        except ValueError as exc:
            raise ValueError(f"{name} is not JSON: {exc}") from exc
    if not isinstance(override, dict):
        raise ValueError(f"{name} must be a JSON object")
    return override

"""A game's rules and its playout pick as one object, the one the search's loop (ai/search/loop.py) calls, and
through which the compiled checked engine (games/checked.py) calls the rules.

Compiled (setup.py), `SearchRules` is a native class. A game's policy module derives its own from it
(`games.<game>.policy.Search`), whose methods call the game's compiled rules directly, so the compiled loop reaches
the rules through a native method call: no Python call, no boxed seat, no parsed arguments. Called as the rules
module's functions, those Python calls were 8% of a compiled Hinode search iteration (docs/ai.md, *Eighth step*).

ai.ismcts.search_rules builds the object: the game's own class on the compiled path. Otherwise it holds the rules
module's functions and the pick as plain attributes. On the pure path they are a module's, which CPython reads as
fast as a global (a method that calls the function would add an interpreted frame to every call: 3% of a pure
Hinode iteration). On the compiled path, for a game with no class of its own (a plugin's, a test's) or a custom
playout policy, they are an interpreted subclass's, which the class is open to.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from mypy_extensions import mypyc_attr

from games.move import Move


@mypyc_attr(allow_interpreted_subclasses=True)
class SearchRules:
    """`thaw`, `freeze`, `to_act`, `legal_moves`, `play` and `outcome` are the game's `games.base.Rules` (`thaw` and
    `freeze` for the checked engine, games/checked.py, which calls the rules through this object too, and reads a
    frozen state's seats to act by `acting`); `pick`
    chooses a playout's move for a seat with `random_()` draws: by the game's playout policy when `by_policy`, else
    uniformly among its legal moves. It lists them itself, so a policy that can decide without the list (Hinode's
    plays, `PlayoutPolicy.lists_moves`) does not pay for it. `tree_pick` is another seat's move at a node of the
    search's tree, where the policy draws the other seats' moves (`PlayoutPolicy.tree_opponents`): the same pick
    unless the game overrides it with a costlier model, which a tree asks a few times an iteration where a
    playout asks at every move (Zipang's asks the greedy player itself)."""

    def __init__(self, random_: Callable[[], float], by_policy: bool) -> None:
        self.random_ = random_
        self.by_policy = by_policy

    def thaw(self, state: Any) -> Any:  # pragma: no cover - every subclass overrides
        raise NotImplementedError

    def freeze(self, work: Any) -> Any:  # pragma: no cover
        raise NotImplementedError

    def freeze_after(self, work: Any, before: Any, seat: int, move: Move) -> Any:
        """`freeze(work)` after `seat` made `move` from `before`, the state `work` was thawed from or last frozen
        to: a game may share `before`'s parts the move left unchanged (the checked engine's transition calls
        this)."""
        return self.freeze(work)

    def to_act(self, work: Any) -> tuple[int, ...]:  # pragma: no cover
        raise NotImplementedError

    def acting(self, state: Any) -> tuple[int, ...]:
        """The seats to act a frozen state recorded (`state.acting`): a game's class reads it from its typed
        state, a field, where `state.acting` on any object is a generic attribute lookup (the checked engine's
        `to_act` calls this)."""
        found: tuple[int, ...] = state.acting
        return found

    def legal_moves(self, work: Any, seat: int) -> Sequence[Move]:  # pragma: no cover
        raise NotImplementedError

    def play(self, work: Any, seat: int, move: Move) -> None:  # pragma: no cover
        raise NotImplementedError

    def outcome(self, work: Any) -> tuple[list[int], tuple[int, ...]]:  # pragma: no cover
        raise NotImplementedError

    def pick(self, work: Any, seat: int) -> Move:  # pragma: no cover
        raise NotImplementedError

    def tree_pick(self, work: Any, seat: int) -> Move:
        return self.pick(work, seat)


def uniform(moves: Sequence[Move], random_: Callable[[], float]) -> Move:
    """A uniformly random one of `moves`, by one `random_()` draw (cheaper than `randrange`). Compiled, a list's or
    a tuple's item is read natively; a `Sequence`'s would be a Python subscript with the index boxed."""
    index = int(random_() * len(moves))
    if isinstance(moves, list):
        return moves[index]
    if isinstance(moves, tuple):
        return moves[index]
    return moves[index]

"""The checked engine's moves on frozen states, compiled with the rules (setup.py): `Engine`, the native base of
`games.base.Game`, whose `to_act`, `legal_moves` and `transition` every game inherits. From an interpreted `Game`
each was a Python frame a call, three a move of the public engine (about a fifth of a compiled checked move in
Hinode, by callgrind); as methods of a native base they are C calls. A game's own class (interpreted, a plugin's
or a test's too) derives `Game` as before.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, ClassVar, Final

from mypy_extensions import mypyc_attr

from games.move import Move

# The seats to act as `to_act` gives them, one frozenset per tuple a state records.
_ACTING: Final[dict[tuple[int, ...], frozenset[int]]] = {}

# The last state the checked engine thawed or froze, with its working state (which `freeze` leaves playable, the same
# as a thaw of the state it made): a checked move lists the legal moves and then makes one from the same state, and
# a caller that plays a game on (the arena, a replay, a checked playout) lists and moves from the state just made, so
# such a game thaws once, not twice a move (a thaw was a fifth of a compiled checked move, Hinode). The state is
# kept, so no other object can take its identity while the pair is here. Each user takes the pair with one
# `list.pop`, atomic under the GIL, and puts it back when done (keeping only the newest pair): one thread at a time
# holds a working state, and a thread that finds none thaws its own. (A list, not a dict: mypyc calls `list.pop`
# and `append` natively, where `dict.pop` with a default was a Python method call.)
spare: Final[list[tuple[Any, Any]]] = []


def _working(thaw: Callable[[Any], Any], state: Any) -> Any:
    """A working state of `state` for the caller alone: the spare one if it is of `state`, else a new thaw."""
    try:
        pair = spare.pop()
    except IndexError:  # none spare (another thread holds it, or nothing was played yet)
        return thaw(state)
    return pair[1] if pair[0] is state else thaw(state)


@mypyc_attr(allow_interpreted_subclasses=True)
class Engine:
    """The moves of a game on its frozen states, through its rules (`rules`: the game's `games.base.Rules`), whose
    functions it binds once, at construction: a call then reads a C field, not an attribute of a module."""

    rules: ClassVar[Any]

    def __init__(self) -> None:
        rules = self.rules
        self._thaw: Callable[[Any], Any] = rules.thaw
        self._legal_moves: Callable[[Any, int], Sequence[Move]] = rules.legal_moves
        self._play: Callable[[Any, int, Move], None] = rules.play
        self._freeze: Callable[[Any], Any] = rules.freeze

    def to_act(self, state: Any) -> frozenset[int]:
        """Seats that must decide now; empty when the game is over (the seats its freeze recorded: no thaw)."""
        acting: tuple[int, ...] = state.acting
        found = _ACTING.get(acting)
        if found is None:
            found = _ACTING[acting] = frozenset(acting)
        return found

    def legal_moves(self, state: Any, seat: int) -> Sequence[Move]:
        """The moves `seat` may make now (empty if it is not to act)."""
        work = _working(self._thaw, state)
        moves = self._legal_moves(work, seat)
        spare.append((state, work))  # unchanged by legal_moves: a transition from `state` next plays on it
        if len(spare) > 1:
            del spare[:-1]  # an older pair: a thread's that lost the race for it
        return moves

    def transition(self, state: Any, seat: int, move: Move) -> Any:
        """The state after `seat` makes `move`, which the caller guarantees is one of its legal moves now
        (unchecked: everyone but the rules' own tests calls `apply`, which checks first)."""
        work = _working(self._thaw, state)
        self._play(work, seat, move)
        after = self._freeze(work)
        spare.append((after, work))  # `work` is `after` thawed: the next move from `after` plays on it
        if len(spare) > 1:
            del spare[:-1]
        return after

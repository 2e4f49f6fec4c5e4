"""The checked engine's moves on frozen states, compiled with the rules (setup.py): `Engine`, the native base of
`games.base.Game`, whose `to_act`, `legal_moves` and `transition` every game inherits. From an interpreted `Game`
each was a Python frame a call, three a move of the public engine (about a fifth of a compiled checked move in
Hinode, by callgrind); as methods of a native base they are C calls. A game's own class (interpreted, a plugin's
or a test's too) derives `Game` as before.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any, ClassVar, Final

from mypy_extensions import mypyc_attr

from games import compiled
from games.move import Move
from games.search_rules import SearchRules

# The seats to act as `to_act` gives them, one frozenset per set of seats, made once: a seat alone (most states) by
# its number below `_SMALL` (every table of the games here), an index (hashing the state's tuple for a dict was 4% of
# a compiled checked Naishi move, by callgrind); any other, by the tuple a state records.
_SMALL: Final = 6
_ALONE: Final[tuple[frozenset[int], ...]] = tuple(frozenset((seat,)) for seat in range(_SMALL))
_ACTING: Final[dict[tuple[int, ...], frozenset[int]]] = {}

# The last state the checked engine thawed or froze, with its working state (which `freeze` leaves playable, the same
# as a thaw of the state it made): a checked move lists the legal moves and then makes one from the same state, and
# a caller that plays a game on (the arena, a replay, a checked playout) lists and moves from the state just made, so
# such a game thaws once, not twice a move (a thaw was a fifth of a compiled checked move, Hinode). The state is
# kept, so no other object can take its identity while the pair is here. Each user takes the top of the list with
# one `list.pop`, atomic under the GIL, and puts a pair back when done (keeping only the newest): one thread at a
# time holds a working state, and a thread that finds none thaws its own. (A list, not a dict: mypyc calls
# `list.pop` and `append` natively, where `dict.pop` with a default was a Python method call.)
#
# The pair sits on `_FLOOR` placeholders (None), which a thread that pops one puts back at once: a list popped empty
# frees its storage and allocates it again at the next append, two reallocations a call (6% of a compiled checked
# Hinode move, by callgrind); between 4 and 5 items CPython resizes nothing. Where threads raced, the next put-back
# finds the list longer and lays the placeholders afresh under the newest item.
_FLOOR: Final = 4
_PLACEHOLDERS: Final[list[tuple[Any, ...] | None]] = [None] * _FLOOR
spare: Final[list[tuple[Any, ...] | None]] = [None] * _FLOOR


def _working(native: SearchRules | None, thaw: Callable[[Any], Any], state: Any) -> tuple[Any, ...]:
    """`state` with a working state of it for the caller alone: the spare pair if it is of `state`, else a new one
    with a new thaw (through `native` where there is one). A caller that leaves the working state as it was puts
    the pair itself back (no new pair to make, no old one to free). A function, not a method: called on a game's
    engine, an interpreted subclass of `Engine`, a method goes through a Python-level call (mypyc's glue for a
    method it might override)."""
    try:
        pair = spare.pop()
    except IndexError:  # other threads hold every placeholder
        pass
    else:
        if pair is None:  # a placeholder: none spare (another thread holds it, or nothing was played yet)
            spare.append(None)
        elif pair[0] is state:
            return pair
    return (state, native.thaw(state) if native is not None else thaw(state))


@mypyc_attr(allow_interpreted_subclasses=True)
class Engine:
    """The moves of a game on its frozen states, through its rules (`rules`: the game's `games.base.Rules`).

    On the compiled path, a game whose `native_rules` names its `games.search_rules.SearchRules` class (its policy's
    `Search`, compiled with it) is played through one of those: native method calls, with no Python call, boxed
    seat or parsed arguments (3% of a compiled checked Hinode move, 6% of Naishi's, by callgrind). Otherwise the
    engine binds the rules module's functions once, at construction, so that a call reads a C field, not an
    attribute of a module; on the pure path that is also the cheaper way (a method calling the function would be one
    more interpreted frame)."""

    rules: ClassVar[Any]
    native_rules: ClassVar[Any] = None  # the game's SearchRules subclass, or None

    def __init__(self) -> None:
        rules = self.rules
        self._thaw: Callable[[Any], Any] = rules.thaw
        self._legal_moves: Callable[[Any, int], Sequence[Move]] = rules.legal_moves
        self._play: Callable[[Any, int, Move], None] = rules.play
        self._freeze: Callable[[Any], Any] = rules.freeze
        native = self.native_rules
        # Built as the search builds it; the engine never calls its `pick`, so its generator and policy flag are idle.
        self._native: SearchRules | None = (
            native(random.random, False) if native is not None and compiled.COMPILED else None
        )

    def to_act(self, state: Any) -> frozenset[int]:
        """Seats that must decide now; empty when the game is over (the seats its freeze recorded: no thaw)."""
        native = self._native
        acting: tuple[int, ...] = native.acting(state) if native is not None else state.acting
        if len(acting) == 1:
            seat = acting[0]
            if seat < _SMALL:
                return _ALONE[seat]
        found = _ACTING.get(acting)
        if found is None:
            found = _ACTING[acting] = frozenset(acting)
        return found

    def legal_moves(self, state: Any, seat: int) -> Sequence[Move]:
        """The moves `seat` may make now (empty if it is not to act)."""
        native = self._native
        pair = _working(native, self._thaw, state)
        work = pair[1]
        moves = native.legal_moves(work, seat) if native is not None else self._legal_moves(work, seat)
        spare.append(pair)  # unchanged by legal_moves: a transition from `state` next plays on it
        if len(spare) > _FLOOR + 1:  # threads raced: an older pair below, or a placeholder put back above a pair
            spare[:-1] = _PLACEHOLDERS  # one store, atomic under the GIL; the newest item stays on top
        return moves

    def transition(self, state: Any, seat: int, move: Move) -> Any:
        """The state after `seat` makes `move`, which the caller guarantees is one of its legal moves now
        (unchecked: everyone but the rules' own tests calls `apply`, which checks first)."""
        native = self._native
        work = _working(native, self._thaw, state)[1]
        if native is not None:
            native.play(work, seat, move)
            after = native.freeze_after(work, state, seat, move)  # `work` was `state` before the move
        else:
            self._play(work, seat, move)
            after = self._freeze(work)
        spare.append((after, work))  # `work` is `after` thawed: the next move from `after` plays on it
        if len(spare) > _FLOOR + 1:
            spare[:-1] = _PLACEHOLDERS
        return after

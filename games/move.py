"""The base of every game's typed moves, compiled with them (setup.py), re-exported by games.base.

mypyc compiles each game's `moves.py` into native classes, whose fields the compiled rules and policies read as C
fields rather than by dictionary lookups on interpreted objects. A native class can only derive from a native one,
so the base is compiled too, and marked to allow interpreted subclasses: a game whose moves are not compiled (a
plugin's, a test's) derives from it as before.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from mypy_extensions import mypyc_attr

if TYPE_CHECKING:
    from games.base import Words


@mypyc_attr(allow_interpreted_subclasses=True)
class Move:
    """Base of every typed move. Subclasses are frozen dataclasses and define `id` and `label`.

    `id` is stable (the same move in the same position always has the same id) and short; a frontend sends it
    back. `label` is the move in the imperative, for its mover ("Develop: ..."); `describe(words)` is the
    sentence a given reader sees ("You develop ...", "Ann develops ..."). The default sentence conjugates the
    label's first word and turns "your" into "their"; a move that names other seats overrides `describe`.
    """

    # `id` once read through `known_id`. Not a field: no dataclass base declares it, and unannotated, it is no
    # field type either (the codec's, games.compiled.field_types), which mypyc infers (str) all the same.
    _known_id = ""

    @property
    def id(self) -> str:  # pragma: no cover - every subclass overrides
        raise NotImplementedError

    @property
    def label(self) -> str:  # pragma: no cover
        raise NotImplementedError

    def describe(self, words: Words) -> str:
        verb, _, rest = self.label.partition(" ")
        verb = verb.rstrip(":").lower()
        if not words.you:
            rest = rest.replace("your ", "their ").replace("yourself", "themselves")
        return f"{words.subject} {words.verb(verb)} {rest}".rstrip()


def known_id(move: Move) -> str:
    """`move.id`, formatted once per move object and kept on it (`id` is a property that formats its string on
    every read, and the search reads the id of every legal move at every node it passes). The moves are frozen, so
    the id is set past their `__setattr__`: a cache, not a field (it takes no part in equality, hashing or the
    codec's wire form)."""
    known = move._known_id
    if not known:
        known = move.id
        object.__setattr__(move, "_known_id", known)
    return known

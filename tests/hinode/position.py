"""Build Hinode positions directly, so a scenario test sets up exactly the table its rule talks about."""

from __future__ import annotations

from dataclasses import replace

from games.hinode import GAME, rules
from games.hinode.data import BATTLE_CARDS, COLOUR_LETTERS, HERO, SUIT_SIZE
from games.hinode.state import AREA, State

# Area grid used by default: row 1 red-1..red-4, row 2 blue-1..4, row 3 yellow-1..4; the Bonus Area is white.
#   0 1 2 3        VP (assumed table): x-1 6/3, x-2 5/2, x-3 4/1, x-4 -2/-1, white 8/4
#   4 5 6 7
#   8 9 10 11
ROWS_BY_COLOUR = tuple(range(13))


def card(name: str) -> int:
    """The card code of "r10", "b3", "y13" or "hero"."""
    if name == "hero":
        return HERO
    return COLOUR_LETTERS.index(name[0]) * SUIT_SIZE + int(name[1:]) - 1


def cards(*names: str) -> tuple[int, ...]:
    return tuple(sorted(card(n) for n in names))


def position(
    num_players: int = 4,
    advanced: bool = False,
    start: int = 0,
    hands: dict[int, tuple[str, ...]] | None = None,
    layout: tuple[int, ...] = ROWS_BY_COLOUR,
    options: dict | None = None,
    **fields,
) -> State:
    """A table after tribe choice (tribe = position), the start player about to choose an Area.

    `hands` replaces the hands of the positions it names (proxy piles keep the given order, top first); the
    removed pile becomes every card nobody holds.
    """
    opts = {"advanced": advanced, "start_player": f"seat{start}", **(options or {})}
    state = GAME.new_game(num_players, opts, seed=7)
    new_hands = list(state.hands)
    for pos, names in (hands or {}).items():
        held = tuple(card(n) for n in names)
        new_hands[pos] = tuple(sorted(held)) if pos < num_players else held
    if hands:
        taken = {c for h in new_hands for c in h}
        for pos in range(4):
            if pos not in hands:  # keep the other hands disjoint from the named ones
                new_hands[pos] = ()
        removed = tuple(c for c in range(BATTLE_CARDS) if c not in taken)
        fields.setdefault("removed", removed)
    base = {"tribes": (0, 1, 2, 3), "phase": AREA, "actor": start, "start": start, "layout": layout}
    base.update(fields)
    # made through the rules' freeze, as every state is, so that the seats to act follow the fields set here
    return rules.freeze(rules.thaw(replace(state, hands=tuple(new_hands), **base)))


def resources(**by_seat: tuple[int, int, int]) -> tuple[int, ...]:
    """Resource counts (red, blue, yellow) per position, e.g. resources(s0=(1, 0, 2))."""
    out = [0] * 12
    for key, triple in by_seat.items():
        pos = int(key[1:])
        out[pos * 3 : pos * 3 + 3] = triple
    return tuple(out)


def act(state: State, *steps: tuple[int, str]) -> State:
    """Apply (seat, move id) steps in order."""
    for seat, move_id in steps:
        state = GAME.apply_id(state, seat, move_id)
    return state


def ids(state: State, seat: int) -> list[str]:
    return [m.id for m in GAME.legal_moves(state, seat)]

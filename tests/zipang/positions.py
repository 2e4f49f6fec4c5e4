"""Build Zipang positions directly, so a scenario test sets up exactly the table its rule talks about."""

from __future__ import annotations

from dataclasses import replace

from games.zipang import GAME
from games.zipang.data import KEYS
from games.zipang.state import PLAY, State


def card(name: str) -> int:
    """The card type of "captain", "maiden", ..."""
    return KEYS.index(name)


def cards(*names: str) -> tuple[int, ...]:
    return tuple(sorted(card(n) for n in names))


def position(
    n: int = 4,
    hands: dict[int, tuple[str, ...]] | None = None,
    deck: tuple[str, ...] = (),
    active: int = 0,
    discard: tuple[str, ...] = (),
    had_turn: tuple[bool, ...] | None = None,
    fill: bool = True,
    **fields,
) -> State:
    """A battle in progress, `active` about to play with the hand given to it (3 cards after its draw).

    `hands` gives every seat's hand (seats not named have none and are out of the battle unless `in_battle` is
    given); `deck` is the top of the draw pile. With `fill`, the cards placed nowhere else become the face-down
    discard and the rest of the draw pile (sorted), so every card of the game is somewhere; without it the draw
    pile is exactly `deck`.
    """
    state = GAME.new_game(n, {"start_player": f"seat{active}"}, seed=11)
    hands = hands or {}
    new_hands = tuple(cards(*hands.get(p, ())) for p in range(n))
    top = tuple(card(c) for c in deck)
    counts = list(state.copies)
    for c in (*top, *(c for h in new_hands for c in h), *(card(c) for c in discard)):
        counts[c] -= 1
        assert counts[c] >= 0, f"more {KEYS[c]} than the game has"
    rest = [c for c in range(len(counts)) for _ in range(counts[c])]
    base = {
        "hands": new_hands,
        "deck": top + tuple(rest[1:]) if fill else top,
        "facedown": tuple(rest[:1]),
        "discard": tuple(card(c) for c in discard),
        "in_battle": tuple(bool(h) for h in new_hands),
        "had_turn": had_turn if had_turn is not None else tuple(p == active for p in range(n)),
        "active": active,
        "phase": PLAY,
        "acting": (active,),  # as the rules have it: the active seat plays
        "starter": active,
        "known": ((),) * (n * n),
    }
    base.update(fields)
    return replace(state, **base)


def act(state: State, *steps: tuple[int, str]) -> State:
    """Apply (seat, move id) steps in order."""
    for seat, move_id in steps:
        state = GAME.apply_id(state, seat, move_id)
    return state


def ids(state: State, seat: int) -> list[str]:
    return [m.id for m in GAME.legal_moves(state, seat)]


def known(state: State, observer: int, owner: int) -> tuple[int, ...]:
    return state.known[observer * state.num_players + owner]

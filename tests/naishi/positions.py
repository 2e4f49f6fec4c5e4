"""Build Naishi positions for scenario tests: a turn-phase state from the cards that matter."""

from __future__ import annotations

from dataclasses import replace

from games.naishi import GAME, rules
from games.naishi.data import (
    ADVISOR,
    BANNER,
    FORT,
    HORSEMAN,
    MONK,
    MOUNTAIN,
    NAISHI,
    NINJA,
    RICE,
    RONIN,
    SENTINEL,
    TORII,
)
from games.naishi.state import HandKnowledge, State

M, N, A, S, K, H, R, J, F, T, P, B = (
    MOUNTAIN, NAISHI, ADVISOR, SENTINEL, MONK, HORSEMAN, RONIN, NINJA, FORT, TORII, RICE, BANNER,
)  # fmt: skip

MOUNTAINS = (M,) * 5
# Five piles of six, all different tops, so a test can tell the River cards apart.
RIVER = ((N, F, T, P, B, A), (A, S, K, H, R, J), (S, P, P, T, F, N), (K, T, F, A, S, P), (H, R, B, J, P, A))


def position(
    hands=(MOUNTAINS, MOUNTAINS),
    lines=(MOUNTAINS, MOUNTAINS),
    piles=RIVER,
    turn=0,
    first=0,
    court=(None,) * 6,
    phase="turn",
    **fields,
) -> State:
    """A state in the middle of the game (turn phase, unless `phase` says otherwise). Knowledge of hidden Hands:
    nothing known."""
    base = GAME.new_game(2, {}, 1)
    unknown = HandKnowledge((None,) * 5, ())
    return changed(
        base,
        phase=phase,
        first=first,
        turn=turn,
        offers=((), ()),
        gifts=(None, None),  # not part of these scenarios
        hands=tuple(tuple(h) for h in hands),
        lines=tuple(tuple(line) for line in lines),
        piles=tuple(tuple(p) for p in piles),
        court=tuple(court),
        knowledge=(unknown,) * 4,
        **fields,
    )


def changed(state: State, **fields) -> State:
    """`state` with some fields changed, as the rules would make it (with the seats to act its phase, turn and gifts
    give): frozen from a working state thawed from it."""
    return rules.freeze(rules.thaw(replace(state, **fields)))


def play(state: State, seat: int, *move_ids: str) -> State:
    """Apply moves by id (each must be legal)."""
    for move_id in move_ids:
        state = GAME.apply_id(state, seat, move_id)
    return state


def ids(state: State, seat: int) -> set[str]:
    return {m.id for m in GAME.legal_moves(state, seat)}

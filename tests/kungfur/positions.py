"""Build Kung Fur Fight positions for scenario tests: seat 0 plays the cats, seat 1 the dogs."""

from __future__ import annotations

from games.base import evolve
from games.kungfur import GAME
from games.kungfur.data import CODE
from games.kungfur.state import State

CATS, DOGS = 0, 1


def c(key: str) -> int:
    return CODE[key]


def cards(*keys: str) -> tuple[int, ...]:
    return tuple(sorted(CODE[k] for k in keys))


def position(rewards=((), (), ()), seed: int = 1, **fields) -> State:
    """A fresh game (cats at seat 0) with empty arenas unless `rewards` says otherwise."""
    state = GAME.new_game(2, {"cats": "seat0"}, seed)
    return evolve(state, rewards=tuple(tuple(CODE[k] for k in r) for r in rewards), **fields)


def player(state: State, seat: int, **fields) -> State:
    """Change fields of one seat's board; card keys are accepted for hand, rest and items."""
    for name in ("hand", "rest", "items"):
        if name in fields and fields[name] and isinstance(fields[name][0], str):
            fields[name] = cards(*fields[name])
    players = list(state.players)
    players[seat] = evolve(players[seat], **fields)
    return evolve(state, players=tuple(players))


def ids(state: State, seat: int) -> list[str]:
    return [m.id for m in GAME.legal_moves(state, seat)]


def play(state: State, seat: int, *move_ids: str) -> State:
    for move_id in move_ids:
        state = GAME.apply(state, seat, GAME.move_by_id(state, seat, move_id))
    return state


def fight(state: State, cats: tuple[str, ...] = (), dogs: tuple[str, ...] = ()) -> State:
    """Both seats plan (cats first) and finish: the battle runs until its first open decision."""
    state = play(state, CATS, *cats, "done")
    return play(state, DOGS, *dogs, "done")

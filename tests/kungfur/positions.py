"""Build Kung Fur Fight positions for scenario tests: seat 0 plays the cats, seat 1 the dogs.

A position is changed field by field and then thawed and frozen again (`change`), so that it carries the seats to
act that the rules give it, as every state the game makes does."""

from __future__ import annotations

from dataclasses import replace

from games.kungfur import GAME, rules
from games.kungfur.battle import arena_aps
from games.kungfur.data import CODE
from games.kungfur.state import State

CATS, DOGS = 0, 1


def c(key: str) -> int:
    return CODE[key]


def cards(*keys: str) -> tuple[int, ...]:
    return tuple(sorted(CODE[k] for k in keys))


def change(state: State, **fields) -> State:
    """`state` with some fields changed, frozen by the rules (so with its seats to act)."""
    return rules.freeze(rules.thaw(replace(state, **fields)))


def position(rewards=((), (), ()), seed: int = 1, **fields) -> State:
    """A fresh game (cats at seat 0) with empty arenas unless `rewards` says otherwise."""
    state = GAME.new_game(2, {"cats": "seat0"}, seed)
    return change(state, rewards=tuple(tuple(CODE[k] for k in r) for r in rewards), **fields)


def player(state: State, seat: int, **fields) -> State:
    """Change fields of one seat's board; card keys are accepted for hand, rest and items."""
    for name in ("hand", "rest", "items"):
        if name in fields and fields[name] and isinstance(fields[name][0], str):
            fields[name] = cards(*fields[name])
    players = list(state.players)
    players[seat] = replace(players[seat], **fields)
    return change(state, players=tuple(players))


def ap(state: State, seat: int, arena: int) -> int:
    """`seat`'s AP on `arena` (0-2) in `state`, as the rules count it."""
    work = rules.thaw(state)
    rules.materialize(work)  # a planning state is thawed in part
    return arena_aps(work, arena)[seat]


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

"""Hinode's working state: a frozen `State` thawed into a plain typed object that games.hinode.rules plays on in
place.

The checked engine thaws a state, plays one move and freezes it back; the search thaws a determinization once and
plays a whole game on it. Both run the same rules on this one class (games.base.Rules).
"""

from __future__ import annotations

from typing import Final

from games.hinode.data import HERO, PLAYERS
from games.hinode.moves import PlayCard
from games.hinode.state import Played, State, View

# A card on the table while the rules play: Played's (position, move, power, follow) as a tuple, which costs a
# tenth of a frozen Played; `freeze` turns the new ones into Played (the trick is their place in the history).
Card = tuple[int, PlayCard, int, bool]

# The seats to act, by the actor: one seat decides at a time in Hinode (`acting`). A tuple indexed by an int, not a
# dict keyed by `int | None`: the search asks every move, and a dict lookup there was 1.9% of a compiled iteration.
_ACTING: Final[tuple[tuple[int, ...], ...]] = ((0,), (1,), (2,), (3,))


def acting(actor: int | None) -> tuple[int, ...]:
    """The seats to act when `actor` decides (None: nobody, the game is over)."""
    return _ACTING[actor] if actor is not None else ()


class Work:
    """A Hinode state changed in place. Field names and meanings follow `State`, except that `plays` holds the
    current trick as `Card`s, `hero_in_trick` says whether a Hero is among them, and the history is `history`
    (frozen Played, as thawed or last frozen) followed by `fresh` (the Cards played since).

    What changes at most once a trick (cubes, tribes, heroes, skill markers, the ranking), and each hand, stays a
    tuple and is replaced when it changes: thawing and freezing share it instead of copying it (copies were most of
    their cost, and the checked engine pays them on every move; a list per hand made a checked move 13% dearer
    and a playout 1% cheaper, by instruction counts). The 1st and 2nd place markers (`first`, `second`) are lists,
    set in place at every judgment: a tuple made anew for each cost a compiled mid-game search iteration 3.7%, a
    list each costs a thaw and a freeze one copy."""

    __slots__ = (
        "seed", "removed", "num_players", "advanced", "vp", "layout", "cubes", "tribes", "hands", "heroes",
        "resources", "first", "second", "skill_markers", "trick", "phase", "actor", "start", "battlefield", "colour",
        "plays", "hero_in_trick", "history", "fresh", "hero_last", "ranking", "next_start",
    )

    seed: int
    removed: tuple[int, ...]
    num_players: int
    advanced: bool
    vp: tuple[int, ...]
    layout: tuple[int, ...]
    cubes: tuple[int, ...]
    tribes: tuple[int | None, ...]
    hands: list[tuple[int, ...]]
    heroes: tuple[bool, ...]
    resources: list[int]
    first: list[int | None]
    second: list[int | None]
    skill_markers: tuple[int, ...]
    trick: int
    phase: str
    actor: int | None
    start: int
    battlefield: int | None
    colour: int | None
    plays: list[Card]
    hero_in_trick: bool
    history: tuple[Played, ...]
    fresh: list[Card]
    hero_last: int | None
    ranking: tuple[int, ...]
    next_start: int | None


def to_act(work: Work) -> tuple[int, ...]:
    return acting(work.actor)


def thaw(state: State) -> Work:
    work = Work()
    work.seed = state.seed
    work.removed = state.removed
    work.num_players = state.num_players
    work.advanced = state.advanced
    work.vp = state.vp
    work.layout = state.layout
    work.cubes = state.cubes
    work.tribes = state.tribes
    work.hands = list(state.hands)
    work.heroes = state.heroes
    work.resources = list(state.resources)
    work.first = list(state.first)
    work.second = list(state.second)
    work.skill_markers = state.skill_markers
    work.trick = state.trick
    work.phase = state.phase
    work.actor = state.actor
    work.start = state.start
    work.battlefield = state.battlefield
    work.colour = state.colour
    _thaw_trick(work, state.plays)
    work.history = state.history
    work.fresh = []
    work.hero_last = state.hero_last
    work.ranking = state.ranking
    work.next_start = state.next_start
    return work


def thaw_view(v: View, hands: list[tuple[int, ...]], removed: tuple[int, ...], seed: int) -> Work:
    """The working state of the full state that `v` shows, with the hidden parts given: every hand, the removed
    cards and the seed (views.sample_work's determinization). It copies the fields `thaw` copies, from the view:
    compiled, a `View`'s are native reads and a `State`'s Python attribute lookups, so one function over both would
    read the view as slowly as the state."""
    work = Work()
    work.seed = seed
    work.removed = removed
    work.num_players = v.num_players
    work.advanced = v.advanced
    work.vp = v.vp
    work.layout = v.layout
    work.cubes = v.cubes
    work.tribes = v.tribes
    work.hands = hands
    work.heroes = v.heroes
    work.resources = list(v.resources)
    work.first = list(v.first)
    work.second = list(v.second)
    work.skill_markers = v.skill_markers
    work.trick = v.trick
    work.phase = v.phase
    work.actor = v.actor
    work.start = v.start
    work.battlefield = v.battlefield
    work.colour = v.colour
    _thaw_trick(work, v.plays)
    work.history = v.history
    work.fresh = []
    work.hero_last = v.hero_last
    work.ranking = v.ranking
    work.next_start = v.next_start
    return work


def _thaw_trick(work: Work, trick: tuple[Played, ...]) -> None:
    plays: list[Card] = []
    hero = False
    for p in trick:
        move = p.move
        plays.append((p.seat, move, p.power, p.follow))
        if move.card == HERO:
            hero = True
    work.plays = plays
    work.hero_in_trick = hero


def freeze(work: Work) -> State:
    history = work.history
    fresh = work.fresh
    if fresh:
        # A trick is four cards, so a card's trick is its place in the history over four. Remembered, so that
        # freezing again does not build the same Played twice; the work means the same.
        at = len(history)
        played: list[Played] = []
        for seat, move, power, follow in fresh:
            played.append(Played(trick=at // PLAYERS, seat=seat, move=move, power=power, follow=follow))
            at += 1
        history = work.history = history + tuple(played)
        work.fresh = []
    count = len(work.plays)  # the current trick is the end of the history
    return State(
        seed=work.seed, num_players=work.num_players, advanced=work.advanced, vp=work.vp, layout=work.layout,
        cubes=work.cubes, tribes=work.tribes, hands=tuple(work.hands), removed=work.removed, heroes=work.heroes,
        resources=tuple(work.resources), first=tuple(work.first), second=tuple(work.second),
        skill_markers=work.skill_markers, trick=work.trick, phase=work.phase, actor=work.actor, start=work.start,
        battlefield=work.battlefield, colour=work.colour, plays=history[len(history) - count :] if count else (),
        history=history, hero_last=work.hero_last, ranking=work.ranking, next_start=work.next_start,
        acting=acting(work.actor),
    )

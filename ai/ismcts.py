"""Single-observer information-set MCTS (Cowling, Powley & Whitehouse 2012) over the engine interface.

`search(game, view, seat, budget, rng)` takes the searching seat's *view*, never a state: every iteration draws
a fresh determinization with `game.sample_work(view, rng)` (`game.sample` thawed), so the search cannot peek by
construction.

The tree is the observer's: nodes are reached by move ids, and every seat's decisions live in it, each edge
carrying the reward of the seat that chose it (a reward vector per seat, so 2 to 6 players work). Selection is
UCB1 with availability counts: a child's availability grows each time its move was legal in the iteration's
determinization, and stands in for the parent's visit count.

Simultaneous choices (several seats to act at once) are decided decoupled: each seat picks from its own
statistics at the node where the step starts, so nobody's pick depends on another's hidden pick in that step.
The observer's decision there is a child of its information set only; what follows the step hangs under the
observer's choice, keyed by the others' (then revealed) choices.
"""

from __future__ import annotations

import gc
import random
import threading
import time
import types
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, cast

from ai.search.loop import (  # the inner loop, compiled where the build could (setup.py); re-exported here
    MARGIN_WEIGHT,
    SIMULTANEOUS_EXPLORATION,
    Node,
    _iterate,
    _match_regret,
    _others_first,
    _playout,
    _select,
    outcome_rewards,
)
from games import compiled, registry
from games.base import Game, Move, PlayoutPolicy, Rules
from games.search_rules import SearchRules

EXPLORATION = 0.7  # UCB constant; rewards lie in [0, 1]

__all__ = [
    "EXPLORATION", "MARGIN_WEIGHT", "PRESETS", "SIMULTANEOUS_EXPLORATION", "Budget", "Candidate", "IsmctsPlayer",
    "Node", "Pick", "SearchConfig", "SearchResult", "_iterate", "_match_regret", "_others_first", "_playout",
    "_select", "outcome_rewards", "parse_budget", "rewards", "rules_and_policy", "search", "search_rules",
]

Pick = Callable[[Any, int], Move]  # a playout's move for a seat: (work, seat), SearchRules.pick


@dataclass(frozen=True)
class Budget:
    """When to stop searching: after `iterations`, after `seconds` of wall-clock time, whichever comes first."""

    iterations: int | None = None
    seconds: float | None = None

    def __post_init__(self) -> None:
        if self.iterations is None and self.seconds is None:
            raise ValueError("a budget needs iterations, seconds or both")


# Presets are bounded by iterations (so a seeded game is reproducible) with a wall-clock cap as a safety net.
PRESETS: dict[str, Budget] = {
    "easy": Budget(iterations=500, seconds=0.3),
    "normal": Budget(iterations=5000, seconds=1.5),
    "hard": Budget(iterations=16000, seconds=5.0),
}


def parse_budget(text: str) -> Budget:
    """Read a strength: a preset name, an iteration count ("500") or seconds ("2s", "0.5s")."""
    text = text.strip().lower()
    if text in PRESETS:
        return PRESETS[text]
    try:
        if text.endswith("s"):
            return Budget(seconds=float(text[:-1]))
        return Budget(iterations=int(text))
    except ValueError:
        raise ValueError(
            f"unknown strength {text!r}: use {', '.join(PRESETS)}, an iteration count or seconds like 2s"
        ) from None


@dataclass(frozen=True)
class Candidate:
    """Root statistics of one of the observer's moves."""

    move_id: str
    label: str
    visits: int
    mean_reward: float  # in [0, 1]: 0.9 x the win share + 0.1 x the scaled score margin (outcome_rewards)
    win_rate: float  # the share of the iterations through this move that ended in a win (ties split)


@dataclass(frozen=True)
class SearchResult:
    move: Move
    candidates: tuple[Candidate, ...]  # most visited first
    iterations: int
    seconds: float


@dataclass
class SearchConfig:
    """Tuning knobs; the defaults are what the presets were measured with."""

    exploration: float = EXPLORATION
    # Playouts longer than this stop and are judged by the live score (None: play to the end).
    playout_depth: int | None = None
    # A playout policy picks a move for a seat: (rules, working state, seat, moves, rng) -> move. Default: the
    # game's own (its descriptor's `playout`) if it has one and `game_policy` is on, else uniform.
    playout_policy: Callable[[Any, Any, int, Sequence[Move], random.Random], Move] | None = None
    game_policy: bool = True
    processes: int = 1  # root parallelism: independent trees in forked processes, root statistics merged
    # Above 0: the search runs in forked processes (one or `processes`) this many steps below the caller's CPU
    # priority, so that the kernel gives a busy core to the caller's other work first (the worker's lanes).
    nice: int = 0
    # Other seats' moves in the tree (not the observer's, not simultaneous steps) drawn by the playout policy on
    # the determinization instead of by UCB1 at the observer's nodes: see `_iterate`. None: the game's policy
    # says (its `tree_opponents`).
    opponent_policy: bool | None = None


@dataclass
class _Tree:
    root: Node = field(default_factory=Node)
    iterations: int = 0


def rewards(game: Game, state: Any) -> list[float]:
    """Each seat's reward in [0, 1] in a frozen state: 0.9 for a win (split among tied winners) plus up to 0.1
    for its score margin (`outcome_rewards`)."""
    return outcome_rewards(*game.outcome(state))


def rules_and_policy(game: Game) -> tuple[Rules, PlayoutPolicy | None]:
    """The game's rules (written once on its working state) and its own playout policy (its descriptor's `playout`),
    if it has one: all the search reads of a game besides `sample`."""
    try:
        reference = registry.descriptor(game.info.name).playout
    except registry.UnknownGame:
        reference = None
    return game.rules, registry.resolve(reference) if reference else None


class _ModuleRules(SearchRules):
    """The search's rules as plain attributes on the compiled path, for a game with no class of its own or a custom
    playout policy: the rules module's functions and a pick, set on the instance, where they shadow `SearchRules`'
    methods (the compiled loop reads them as an interpreted subclass's attributes)."""

    def __init__(self, rules: Rules, random_: Callable[[], float], by_policy: bool, pick: Pick, tree_pick: Pick
                 ) -> None:
        super().__init__(random_, by_policy)
        self.to_act = rules.to_act  # type: ignore[method-assign]
        self.legal_moves = rules.legal_moves  # type: ignore[method-assign]
        self.play = rules.play  # type: ignore[method-assign]
        self.outcome = rules.outcome  # type: ignore[method-assign]
        self.pick = pick  # type: ignore[method-assign, assignment]
        self.tree_pick = tree_pick  # type: ignore[method-assign, assignment]


def _module_rules(rules: Rules, pick: Pick, tree_pick: Pick) -> SearchRules:
    """The rules' functions and the picks as a module's attributes, on the pure path (the picks close over their own
    draws: nothing there reads `random_` or `by_policy`). A call through a module's attribute is CPython's fastest
    (a specialised LOAD_METHOD, as cheap as the local it replaced), where an instance attribute that shadows a
    method of its class takes the generic lookup every time (2.3% of a pure Hinode iteration). Duck-typed: the
    interpreted loop reads the attributes and never checks the type."""
    namespace = types.ModuleType("search_rules")
    namespace.__dict__.update(to_act=rules.to_act, legal_moves=rules.legal_moves, play=rules.play,
                              outcome=rules.outcome, pick=pick, tree_pick=tree_pick)
    return cast(SearchRules, namespace)


def search_rules(rules: Rules, policy: PlayoutPolicy | None, config: SearchConfig, rng: random.Random) -> SearchRules:
    """The rules and the playout pick as the search's loop calls them (games/search_rules.py): the config's policy,
    else the game's own (if `game_policy`), else uniform, each drawing from the search's generator `rng` (its
    `random`, bound once: binding it at every pick cost a compiled Hinode iteration 3%). On the compiled path a game
    with a class of its own (`PlayoutPolicy.search`) gets it, unless the config brings its own policy."""
    random_ = rng.random
    custom = config.playout_policy
    by_policy = custom is None and policy is not None and config.game_policy
    if custom is None and compiled.COMPILED and policy is not None and policy.search is not None:
        return policy.search(random_, by_policy)
    legal_moves = rules.legal_moves
    pick: Pick
    if custom is not None:
        pick = lambda work, seat: custom(rules, work, seat, legal_moves(work, seat), rng)  # noqa: E731
    elif by_policy:
        choose = policy.choose  # type: ignore[union-attr]  # by_policy: there is a policy
        if policy.lists_moves:  # type: ignore[union-attr]
            pick = lambda work, seat: choose(work, seat, None, random_)  # noqa: E731
        else:
            pick = lambda work, seat: choose(work, seat, legal_moves(work, seat), random_)  # noqa: E731
    else:
        def pick(work: Any, seat: int) -> Move:  # uniform, inline
            moves = legal_moves(work, seat)
            return moves[int(random_() * len(moves))]
    tree_pick = pick
    tree_choose = policy.tree_choose if by_policy else None  # type: ignore[union-attr]  # by_policy: a policy
    if tree_choose is not None:
        tree_pick = lambda work, seat: tree_choose(work, seat, legal_moves(work, seat), random_)  # noqa: E731
    if compiled.COMPILED:
        return _ModuleRules(rules, random_, by_policy, pick, tree_pick)
    return _module_rules(rules, pick, tree_pick)


def search(
    game: Game,
    view: Any,
    seat: int,
    budget: Budget,
    rng: random.Random,
    config: SearchConfig | None = None,
) -> SearchResult:
    """Choose a move for `seat` from what it may know (`view`) within `budget`; seeded by `rng`."""
    if not isinstance(view, game.view_type):
        raise TypeError(f"search takes a {game.view_type.__name__} (a seat's view), not a {type(view).__name__}")
    config = config or SearchConfig()
    started = time.perf_counter()
    first = game.sample(view, rng)
    if seat not in game.to_act(first):
        raise ValueError(f"seat {seat} is not to act in this view")
    legal = list(game.legal_moves(first, seat))
    if len(legal) == 1:
        only = legal[0]
        return SearchResult(only, (Candidate(only.id, only.label, 0, 0.0, 0.0),), 0, time.perf_counter() - started)
    if config.processes > 1 or config.nice > 0:
        from ai.search.parallel import root_parallel_search

        stats, iterations = root_parallel_search(game, view, seat, budget, rng, config)
    else:
        stats, iterations = root_statistics(game, view, seat, budget, rng, config, started)
    return _result(legal, stats, iterations, time.perf_counter() - started)


def root_statistics(
    game: Game,
    view: Any,
    seat: int,
    budget: Budget,
    rng: random.Random,
    config: SearchConfig,
    started: float | None = None,
) -> tuple[dict[str, tuple[int, float, float]], int]:
    """Grow one tree and return the observer's root statistics {move id: (visits, total reward, wins)}."""
    # The tree lives and dies with the collector paused: resumed while the tree lived, the collector's next pass
    # traversed every node of it (about 3 M of the 500 M instructions of a 500-iteration Kung Fur Fight search).
    with collector_paused():
        tree = _Tree()
        _grow(tree, game, view, seat, budget, rng, config, time.perf_counter() if started is None else started)
        children = (tree.root.children or {}).get(seat, {})
        stats = {mid: (n.visits, n.total, n.wins) for mid, n in children.items()}
        iterations = tree.iterations
        del tree, children
    return stats, iterations


def _result(
    legal: list[Move], stats: dict[str, tuple[int, float, float]], iterations: int, seconds: float
) -> SearchResult:
    by_id = {m.id: m for m in legal}
    candidates = []
    for order, move in enumerate(legal):
        visits, total, wins = stats.get(move.id, (0, 0.0, 0.0))
        candidates.append((visits, total / visits if visits else 0.0, -order, move, wins / visits if visits else 0.0))
    candidates.sort(key=lambda c: (c[0], c[1], c[2]), reverse=True)
    best = candidates[0][3]
    return SearchResult(
        by_id[best.id],
        tuple(Candidate(m.id, m.label, v, mean, win_rate) for v, mean, _, m, win_rate in candidates),
        iterations,
        seconds,
    )


# The cyclic garbage collector, paused while a tree grows. A search allocates a tree of nodes that all survive it
# and throws away lists and tuples by the million; CPython runs a collection every 2,000 net allocations and a full
# one each time the long-lived objects grew by a quarter, so it traversed the growing tree again and again: 10% of a
# compiled Kung Fur Fight search (perf), 1.2x its mid-game iterations once paused. Nothing a search makes holds a
# cycle (the tree points down only; the working states hold lists of ints), so reference counting frees it all; the
# collector resumes when the last search in the process ends, and collects then whatever others made meanwhile.
_PAUSE_LOCK = threading.Lock()
_paused = 0  # searches running with the collector paused, in this process
_resume = False  # whether the collector was on when the first of them began


@contextmanager
def collector_paused() -> Iterator[None]:
    """Pause the cyclic garbage collector while the block runs (nested and concurrent uses count)."""
    global _paused, _resume
    with _PAUSE_LOCK:
        if _paused == 0:
            _resume = gc.isenabled()
            gc.disable()
        _paused += 1
    try:
        yield
    finally:
        with _PAUSE_LOCK:
            _paused -= 1
            if _paused == 0 and _resume:
                gc.enable()


@collector_paused()  # each call of _grow runs with the collector paused
def _grow(
    tree: _Tree,
    game: Game,
    view: Any,
    seat: int,
    budget: Budget,
    rng: random.Random,
    config: SearchConfig,
    started: float,
) -> None:
    deadline = started + budget.seconds if budget.seconds is not None else None
    limit = budget.iterations
    sample_work = game.sample_work
    rules, policy = rules_and_policy(game)
    draw_chance = getattr(rules, "draw_chance", None)  # the chance to come drawn from `rng`, not the seed's
    searched = search_rules(rules, policy, config, rng)  # once per search, not per iteration
    by_policy = config.opponent_policy
    if by_policy is None:
        by_policy = policy is not None and policy.tree_opponents
    while True:
        if limit is not None and tree.iterations >= limit:
            return
        # Checking the clock every iteration costs little next to a playout.
        if deadline is not None and tree.iterations and time.perf_counter() >= deadline:
            return
        # The rules only ever work on a determinization drawn from the view: the search cannot peek.
        work = sample_work(view, rng)
        if draw_chance is not None:
            draw_chance(work, rng)
        _others_first(searched, work, seat)
        _iterate(tree.root, searched, work, seat, rng, config, by_policy)
        tree.iterations += 1



class IsmctsPlayer:
    """A player (the `ai.players.Player` protocol) that searches with ISMCTS within a budget."""

    def __init__(self, budget: Budget, config: SearchConfig | None = None, seat: int | None = None, name: str = ""):
        self.name = name or "ismcts"
        self.budget = budget
        self.config = config or SearchConfig()
        self.seat = seat  # when None, read from the view (every engine's view names its seat)
        self.last: SearchResult | None = None

    def choose(self, game: Game, view: Any, moves: Sequence[Move], rng: random.Random) -> Move:
        seat = self.seat if self.seat is not None else view.seat
        if len(moves) == 1:
            return moves[0]
        self.last = search(game, view, seat, self.budget, rng, self.config)
        chosen = self.last.move.id
        return next(m for m in moves if m.id == chosen)

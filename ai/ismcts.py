"""Single-observer information-set MCTS (Cowling, Powley & Whitehouse 2012) over the engine interface.

`search(game, view, seat, budget, rng)` takes the searching seat's *view*, never a state: every iteration draws
a fresh determinization with `game.sample(view, rng)`, so the search cannot peek by construction.

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

import math
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from games import registry
from games.base import Game, Move, PlayoutPolicy, Rules

EXPLORATION = 0.7  # UCB constant; rewards lie in [0, 1]
MARGIN_WEIGHT = 0.1  # share of the reward that is the normalised score margin; the rest is winning

Pick = Callable[[Any, int, Sequence[Move], random.Random], Move]  # a playout's choice: (work, seat, moves, rng)


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
    "easy": Budget(iterations=250, seconds=0.3),
    "normal": Budget(iterations=2500, seconds=1.5),
    "hard": Budget(iterations=8000, seconds=5.0),
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


class Node:
    """An edge-and-node of the observer's tree: statistics of the move that led here, for the seat that chose it."""

    __slots__ = ("visits", "total", "wins", "avail", "regret", "children", "after")

    def __init__(self) -> None:
        self.visits = 0
        self.regret = 0.0  # cumulative regret, for the regret matching of simultaneous steps
        self.total = 0.0
        self.wins = 0.0  # games won (a tie for first counts as a share), for the win rate a player reads
        self.avail = 0
        self.children: dict[int, dict[str, Node]] = {}  # seat -> move id -> child
        self.after: dict[tuple[str, ...], Node] = {}  # what follows a simultaneous step, by the others' move ids


@dataclass
class _Tree:
    root: Node = field(default_factory=Node)
    iterations: int = 0


def outcome_rewards(totals: Sequence[int], winners: Sequence[int]) -> list[float]:
    """Every seat's reward in [0, 1]: winning (split among tied winners) is worth 0.9, the score margin 0.1.

    The margin term is `MARGIN_WEIGHT x (1 + (own total - best other total) / spread) / 2`, with the spread the
    highest total minus the lowest: 0 for the worst possible margin, 0.1 for the best. So 1 is a sure win by the
    widest margin and 0 a sure loss by it; a mean reward is mostly the chance of winning."""
    n = len(totals)
    spread = (max(totals) - min(totals)) or 1
    win = 1.0 - MARGIN_WEIGHT
    half = MARGIN_WEIGHT / 2
    result = [0.0] * n
    if n > 1:
        # the best other total is the best total, unless this seat holds it alone: then the second best
        ordered = sorted(totals, reverse=True)
        top, second = ordered[0], ordered[1]
        for seat in range(n):
            own = totals[seat]
            best_other = second if own == top else top
            result[seat] = half * (1 + (own - best_other) / spread)
    share = win / len(winners) if winners else 0.0
    for seat in winners:
        result[seat] += share
    return result


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
    tree = _Tree()
    _grow(tree, game, view, seat, budget, rng, config, time.perf_counter() if started is None else started)
    children = tree.root.children.get(seat, {})
    return {mid: (n.visits, n.total, n.wins) for mid, n in children.items()}, tree.iterations


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
    sample = game.sample
    rules, policy = rules_and_policy(game)
    thaw = rules.thaw
    pick = _playout_pick(rules, policy, config)  # once per search, not per iteration
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
        work = thaw(sample(view, rng))
        _others_first(rules, work, seat, rng, pick)
        _iterate(tree.root, rules, work, seat, rng, config, pick, by_policy)
        tree.iterations += 1


def _others_first(rules: Rules, work: Any, observer: int, rng: random.Random, pick: Pick) -> None:
    """At a root the observer shares with other seats (a simultaneous step: Kung Fur Fight's secret plans, Naishi's
    gifts), what the others choose in it is hidden from the observer until the step ends, as their hands are: each
    determinization draws it, by the playout policy, before the observer chooses, and the observer then picks by
    UCB1 among its own moves alone. Searched in the tree (regret matching over both seats' moves), the seat that
    planned first played far worse than the one that planned once the other was done (83% and 65% of equal
    games won by the second planner): the choice was the same, only the search differed."""
    to_act = rules.to_act
    acting = to_act(work)
    if len(acting) < 2 or observer not in acting:
        return
    legal_moves = rules.legal_moves
    play = rules.play
    for _ in range(1000):  # a simultaneous step ends; the bound only guards against rules that never end it
        others = [s for s in acting if s != observer]
        if not others or observer not in acting:
            break
        seat = others[0]
        play(work, seat, pick(work, seat, legal_moves(work, seat), rng))
        acting = to_act(work)


def _iterate(
    root: Node,
    rules: Rules,
    work: Any,
    observer: int,
    rng: random.Random,
    config: SearchConfig,
    pick: Pick,
    by_policy: bool = False,
) -> None:
    """One iteration on one determinization (`work`, played on in place): select and expand, play out, back up.

    With `by_policy`, another seat's move in the tree is the playout policy's pick on this determinization, not a
    UCB1 pick from the observer's statistics. Those statistics are shared by every determinization, so by UCB1 the
    opponent would choose as if it did not know its own hand (strategy fusion, Cowling et al. 2012), where a
    search on the true state lets it play its hand. In Naishi at normal's budget, not peeking cost 5.7 points with
    these over 600 games (44.3% against the cheating twin); UCB1 opponents lost 5.5 and 10.5 points more on the
    deals of two of those seeds (docs/ai.md). The policy sees the determinized hand,
    so the opponent plays it; the tree still branches on every move it makes."""
    to_act = rules.to_act
    legal_moves = rules.legal_moves
    play = rules.play  # unchecked: every move made here was listed by legal_moves
    c = config.exploration
    path: list[tuple[Node, int]] = []  # (edge node, seat whose reward it keeps)
    matched: list[tuple[Node, int, list[Node], float]] = []  # simultaneous picks: (edge, seat, siblings, prob)
    node = root
    expanded = False
    while not expanded:
        acting = to_act(work)
        if not acting:
            break
        if len(acting) == 1:
            (seat,) = acting
            if by_policy and seat != observer:
                move = pick(work, seat, legal_moves(work, seat), rng)
                table = node.children.get(seat)
                if table is None:
                    table = node.children[seat] = {}
                child = table.get(move.id)
                if child is None:
                    child = table[move.id] = Node()
                    expanded = True
                play(work, seat, move)
                node = child
                continue
            child, move, expanded = _select(node, seat, legal_moves(work, seat), c, rng)
            path.append((child, seat))
            play(work, seat, move)
            node = child
            continue
        # A simultaneous step: the observer first, from its information set; every seat decoupled, by regret
        # matching (UCB1 is deterministic and cycles, or moves in lockstep with the other seat, in such steps).
        order = list(acting)
        if observer in acting:
            order.remove(observer)
            order.insert(0, observer)
        mover_ids: list[str] = []
        observer_child: Node | None = None
        for seat in order:
            child, move, new, siblings, prob = _match_regret(node, seat, legal_moves(work, seat), rng)
            expanded = expanded or new
            matched.append((child, seat, siblings, prob))
            play(work, seat, move)
            if seat == observer:
                observer_child = child
            else:
                mover_ids.append(move.id)
        holder = observer_child if observer_child is not None else node
        key = tuple(mover_ids)
        following = holder.after.get(key)
        if following is None:
            following = holder.after[key] = Node()
        node = following
    if to_act(work):
        _playout(rules, work, rng, config, pick)
    totals, winners = rules.outcome(work)
    result = outcome_rewards(totals, winners)
    share = 1.0 / len(winners) if winners else 0.0
    for edge, seat in path:
        edge.visits += 1
        edge.total += result[seat]
        if seat in winners:
            edge.wins += share
    for edge, seat, siblings, prob in matched:
        # Outcome-sampling regret update: the chosen move's reward is estimated by reward / probability.
        reward = result[seat]
        edge.visits += 1
        edge.total += reward
        if seat in winners:
            edge.wins += share
        for sibling in siblings:
            sibling.regret -= reward
        edge.regret += reward / prob


def _select(node: Node, seat: int, moves: Sequence[Move], c: float, rng: random.Random) -> tuple[Node, Move, bool]:
    """Pick `seat`'s move at `node` by UCB1 with availability; expand an untried move first. Returns new=True
    when the child was just created."""
    table = node.children.get(seat)
    if table is None:
        table = node.children[seat] = {}
    untried: list[tuple[str, Move]] = []
    best: Node | None = None
    best_move: Move | None = None
    best_value = -math.inf
    ties = 0
    log = math.log
    sqrt = math.sqrt
    for move in moves:
        mid = move.id
        child = table.get(mid)
        if child is None:
            untried.append((mid, move))
            continue
        child.avail += 1
        visits = child.visits
        value = child.total / visits + c * sqrt(log(child.avail) / visits)
        if value > best_value:
            best_value, best, best_move, ties = value, child, move, 1
        elif value == best_value:
            # Break ties at random: decoupled seats breaking them alike would move in lockstep.
            ties += 1
            if rng.randrange(ties) == 0:
                best, best_move = child, move
    if untried:
        mid, move = untried[rng.randrange(len(untried))] if len(untried) > 1 else untried[0]
        child = table[mid] = Node()
        child.avail = 1
        return child, move, True
    assert best is not None and best_move is not None
    return best, best_move, False


SIMULTANEOUS_EXPLORATION = 0.15  # share of uniform picks mixed into regret matching


def _match_regret(
    node: Node, seat: int, moves: Sequence[Move], rng: random.Random
) -> tuple[Node, Move, bool, list[Node], float]:
    """Pick `seat`'s move in a simultaneous step by regret matching over the moves legal now."""
    table = node.children.get(seat)
    if table is None:
        table = node.children[seat] = {}
    children: list[Node] = []
    new = False
    for move in moves:
        child = table.get(move.id)
        if child is None:
            child = table[move.id] = Node()
            new = True
        child.avail += 1
        children.append(child)
    positive = [max(child.regret, 0.0) for child in children]
    total = sum(positive)
    k = len(children)
    gamma = SIMULTANEOUS_EXPLORATION
    probs = [(1 - gamma) * p / total + gamma / k for p in positive] if total > 0 else [1.0 / k] * k
    pick = rng.random()
    index = k - 1
    for i, p in enumerate(probs):
        pick -= p
        if pick < 0:
            index = i
            break
    return children[index], moves[index], new, children, probs[index]


def _playout(rules: Rules, work: Any, rng: random.Random, config: SearchConfig, pick: Pick) -> None:
    """Play on in `work` (random moves, or a policy's) to the end or the depth cut."""
    to_act = rules.to_act
    legal_moves = rules.legal_moves
    play = rules.play  # unchecked: every move made here was listed by legal_moves
    depth = config.playout_depth
    steps = 0
    while True:
        acting = to_act(work)
        if not acting:
            break
        if depth is not None and steps >= depth:
            break
        seat = acting[0]
        play(work, seat, pick(work, seat, legal_moves(work, seat), rng))
        steps += 1


def _playout_pick(rules: Rules, policy: PlayoutPolicy | None, config: SearchConfig) -> Pick:
    """How playouts pick a move: the config's policy, else the game's own (if `game_policy`), else uniformly."""
    custom = config.playout_policy
    if custom is not None:
        return lambda work, seat, moves, rng: custom(rules, work, seat, moves, rng)
    if policy is not None and config.game_policy:
        choose = policy.choose
        return lambda work, seat, moves, rng: choose(work, seat, moves, rng.random)
    return lambda work, seat, moves, rng: moves[int(rng.random() * len(moves))]  # random() beats randrange()


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

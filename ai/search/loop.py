"""The search's inner loop (ai.ismcts): one iteration's selection, expansion, playout and back-up on a working
state, and the tree's nodes. A module of its own so that the build compiles it (mypyc, setup.py) beside the games'
rules; ai.ismcts keeps the search's interface (budgets, results, the tree's growth) and re-exports these names.
Typed for mypyc: the rules are a `games.search_rules.SearchRules` (a native call each, compiled), the working state
and the moves stay `Any` (each game's own), the tree is native."""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from math import log, sqrt  # by name: compiled, mypyc calls C's sqrt (as a local it was a Python call)
from typing import Any, Final

from games.base import Move
from games.deal import randbelow
from games.move import known_id
from games.search_rules import SearchRules

MARGIN_WEIGHT: Final = 0.1  # share of the reward that is the normalised score margin; the rest is winning



class Node:
    """An edge-and-node of the observer's tree: statistics of the move that led here, for the seat that chose it."""

    __slots__ = ("visits", "total", "wins", "avail", "regret", "children", "after")

    def __init__(self) -> None:
        self.visits = 0
        self.regret = 0.0  # cumulative regret, for the regret matching of simultaneous steps
        self.total = 0.0
        self.wins = 0.0  # games won (a tie for first counts as a share), for the win rate a player reads
        self.avail = 0
        # Made when first needed (`table`): most nodes of a tree are leaves, and two empty dicts each were a third of
        # a node's memory and an allocation an iteration.
        self.children: dict[int, dict[str, Node]] | None = None  # seat -> move id -> child
        self.after: dict[tuple[str, ...], Node] | None = None  # what follows a simultaneous step, by the others' ids


def table(node: Node, seat: int) -> dict[str, Node]:
    """`node`'s children by `seat`'s move ids (made empty the first time)."""
    children = node.children
    if children is None:
        children = node.children = {}
    found = children.get(seat)
    if found is None:
        found = children[seat] = {}
    return found


def outcome_rewards(totals: list[int], winners: tuple[int, ...]) -> list[float]:
    """Every seat's reward in [0, 1]: winning (split among tied winners) is worth 0.9, the score margin 0.1.

    The margin term is `MARGIN_WEIGHT x (1 + (own total - best other total) / spread) / 2`, with the spread the
    highest total minus the lowest: 0 for the worst possible margin, 0.1 for the best. So 1 is a sure win by the
    widest margin and 0 a sure loss by it; a mean reward is mostly the chance of winning. At two seats the spread
    is the margin itself, so the term is 0.1 for the winner and 0 for the loser whatever the margin: the reward is
    the win alone (docs/ai.md, *Zipang: the tree's constant and the observer's nodes*)."""
    n = len(totals)
    # The highest and lowest totals, and the second of them sorted from the highest (the highest again when two hold
    # it), by loops on ints: typed so, compiled, they are C comparisons (max, min and sorted compare Python objects).
    top = low = totals[0]
    for total in totals:
        if total > top:
            top = total
        elif total < low:
            low = total
    second = low
    tops = 0
    for total in totals:
        if total == top:
            tops += 1
        elif total > second:
            second = total
    if tops > 1:
        second = top
    spread = (top - low) or 1
    win = 1.0 - MARGIN_WEIGHT
    half = MARGIN_WEIGHT / 2
    result = [0.0] * n
    if n > 1:
        # the best other total is the best total, unless this seat holds it alone: then the second best
        for seat in range(n):
            own = totals[seat]
            best_other = second if own == top else top
            result[seat] = half * (1 + (own - best_other) / spread)
    share = win / len(winners) if winners else 0.0
    for seat in winners:
        result[seat] = result[seat] + share
    return result



def _others_first(rules: SearchRules, work: Any, observer: int) -> None:
    """At a root the observer shares with other seats (a simultaneous step: Kung Fur Fight's secret plans, Naishi's
    gifts), what the others choose in it is hidden from the observer until the step ends, as their hands are: each
    determinization draws it, by the playout policy, before the observer chooses, and the observer then picks by
    UCB1 among its own moves alone. Searched in the tree (regret matching over both seats' moves), the seat that
    planned first played far worse than the one that planned once the other was done (83% and 65% of equal
    games won by the second planner): the choice was the same, only the search differed."""
    acting = rules.to_act(work)
    if len(acting) < 2 or observer not in acting:
        return
    for _ in range(1000):  # a simultaneous step ends; the bound only guards against rules that never end it
        others = [s for s in acting if s != observer]
        if not others or observer not in acting:
            break
        seat = others[0]
        rules.play(work, seat, rules.pick(work, seat))
        acting = rules.to_act(work)


def _iterate(
    root: Node,
    rules: SearchRules,
    work: Any,
    observer: int,
    rng: random.Random,
    config: Any,
    by_policy: bool = False,
) -> None:
    """One iteration on one determinization (`work`, played on in place): select and expand, play out, back up.

    With `by_policy`, another seat's move in the tree is the playout policy's pick on this determinization
    (`rules.tree_pick`: the same pick, or a fuller model of the player where the game has one), not a UCB1 pick from
    the observer's statistics. Those statistics are shared by every determinization, so by UCB1 the
    opponent would choose as if it did not know its own hand (strategy fusion, Cowling et al. 2012), where a
    search on the true state lets it play its hand. In Naishi at normal's budget, not peeking cost 5.7 points with
    these over 600 games (44.3% against the cheating twin); UCB1 opponents lost 5.5 and 10.5 points more on the
    deals of two of those seeds (docs/ai.md). The policy sees the determinized hand,
    so the opponent plays it; the tree still branches on every move it makes. Every move made here was listed by
    `legal_moves`, so `play` is the unchecked one."""
    c = config.exploration
    path: list[tuple[Node, int]] = []  # (edge node, seat whose reward it keeps)
    matched: list[tuple[Node, int, list[Node], float]] = []  # simultaneous picks: (edge, seat, siblings, prob)
    node = root
    expanded = False
    while not expanded:
        acting = rules.to_act(work)
        if not acting:
            break
        if len(acting) == 1:
            (seat,) = acting
            if by_policy and seat != observer:
                move = rules.tree_pick(work, seat)
                followed = table(node, seat)
                mid = known_id(move)
                child = followed.get(mid)
                if child is None:
                    child = followed[mid] = Node()
                    expanded = True
                rules.play(work, seat, move)
                node = child
                continue
            child, move, expanded = _select(node, seat, rules.legal_moves(work, seat), c, rng)
            path.append((child, seat))
            rules.play(work, seat, move)
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
            child, move, new, siblings, prob = _match_regret(node, seat, rules.legal_moves(work, seat), rng)
            expanded = expanded or new
            matched.append((child, seat, siblings, prob))
            rules.play(work, seat, move)
            if seat == observer:
                observer_child = child
            else:
                mover_ids.append(known_id(move))
        holder = observer_child if observer_child is not None else node
        key = tuple(mover_ids)
        after = holder.after
        if after is None:
            after = holder.after = {}
        following = after.get(key)
        if following is None:
            following = after[key] = Node()
        node = following
    if rules.to_act(work):
        _playout(rules, work, config)
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


# math.log(n) for UCB1's availability counts below the table's size: log stays a Python call compiled (mypyc has no
# primitive for it), a third of _select's own time in a compiled Naishi search. The same function of the same ints,
# so the same floats.
_LOG_TABLE: Final = 4096
_LOGS: Final = tuple(log(n) if n else 0.0 for n in range(_LOG_TABLE))


def _select(node: Node, seat: int, moves: Sequence[Move], c: float, rng: random.Random) -> tuple[Node, Move, bool]:
    """Pick `seat`'s move at `node` by UCB1 with availability; expand an untried move first. Returns new=True
    when the child was just created."""
    moves_of = table(node, seat)
    untried: list[tuple[str, Move]] = []
    best: Node | None = None
    best_move: Move | None = None
    best_value = -math.inf
    ties = 0
    for move in moves:
        mid = known_id(move)
        child = moves_of.get(mid)
        if child is None:
            untried.append((mid, move))
            continue
        avail = child.avail = child.avail + 1
        visits = child.visits
        value = child.total / visits + c * sqrt((_LOGS[avail] if avail < _LOG_TABLE else log(avail)) / visits)
        if value > best_value:
            best_value, best, best_move, ties = value, child, move, 1
        elif value == best_value:
            # Break ties at random: decoupled seats breaking them alike would move in lockstep.
            ties += 1
            if randbelow(rng, ties) == 0:
                best, best_move = child, move
    if untried:
        mid, move = untried[randbelow(rng, len(untried))] if len(untried) > 1 else untried[0]
        child = moves_of[mid] = Node()
        child.avail = 1
        return child, move, True
    assert best is not None and best_move is not None
    return best, best_move, False


SIMULTANEOUS_EXPLORATION: Final = 0.15  # share of uniform picks mixed into regret matching


def _match_regret(
    node: Node, seat: int, moves: Sequence[Move], rng: random.Random
) -> tuple[Node, Move, bool, list[Node], float]:
    """Pick `seat`'s move in a simultaneous step by regret matching over the moves legal now."""
    moves_of = table(node, seat)
    children: list[Node] = []
    new = False
    for move in moves:
        mid = known_id(move)
        child = moves_of.get(mid)
        if child is None:
            child = moves_of[mid] = Node()
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


def _playout(rules: SearchRules, work: Any, config: Any) -> int:
    """Play on in `work` (by `rules.pick`) to the end or the depth cut; return how many moves that took (`tabletop
    bench engine` counts its fast path's moves by it). `play` is unchecked: every move was listed by legal_moves."""
    depth = config.playout_depth
    steps = 0
    while True:
        acting = rules.to_act(work)
        if not acting:
            break
        if depth is not None and steps >= depth:
            break
        seat = acting[0]
        rules.play(work, seat, rules.pick(work, seat))
        steps += 1
    return steps

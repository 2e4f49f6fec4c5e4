"""ISMCTS: it cannot peek (it only ever sees a view), and it searches sensibly, reproducibly, within budget."""

from __future__ import annotations

import inspect
import random

import pytest

from ai import ismcts
from ai.ismcts import Budget, SearchConfig, search
from games import registry
from games.base import Game, Move
from tests.ai.pennies import GAME as PENNIES
from tests.support.toygame import GAME as TOY
from tests.support.toygame import State as ToyState

GAMES = [TOY, *registry.all_games()]
IDS = [g.info.name for g in GAMES]
SMALL = Budget(iterations=60)


def _positions(game: Game, seed: int, count: int):
    """Positions of a random game where the seat to act has a real choice: (state, seat)."""
    n = game.info.max_seats if game.info.max_seats <= 4 else game.info.min_seats
    rng = random.Random(seed)
    state = game.new_game(n, {}, seed)
    found = []
    while game.to_act(state) and len(found) < count:
        seat = min(game.to_act(state))
        moves = game.legal_moves(state, seat)
        if len(moves) > 1 and rng.random() < 0.3:
            found.append((state, seat))
        state = game.apply(state, seat, rng.choice(moves))
    return found


class _Spy:
    """Wraps an engine and checks every determinization the search draws against the view it was given."""

    def __init__(self, game: Game, seat: int, view):
        self._game, self._seat, self._view = game, seat, view
        self.samples = 0

    def __getattr__(self, name):
        return getattr(self._game, name)

    def sample(self, view, rng):
        assert view == self._view, "the search asked for a determinization of some other view"
        state = self._game.sample(view, rng)
        self.samples += 1
        # Everything the seat knows stays where it knows it is: the determinization shows it the same view.
        assert self._game.view(state, self._seat) == view
        return state

    def sample_work(self, view, rng):
        """The search's determinizations, as working states (Game.sample_work), checked alike: the frozen copy of
        each shows the seat its view (a freeze leaves the working state as it was, to be played on)."""
        assert view == self._view, "the search asked for a determinization of some other view"
        work = self._game.sample_work(view, rng)
        self.samples += 1
        assert self._game.view(self._game.rules.freeze(work), self._seat) == view
        return work

    def is_over(self, state):
        return self._game.is_over(state)


def test_search_takes_a_view_never_a_state():
    params = list(inspect.signature(search).parameters)
    assert params[:5] == ["game", "view", "seat", "budget", "rng"]
    state = TOY.new_game(2, {}, 1)
    with pytest.raises(TypeError, match="view"):
        search(TOY, state, 0, SMALL, random.Random(1))


@pytest.mark.parametrize("game", GAMES, ids=IDS)
def test_states_the_seat_cannot_tell_apart_get_the_same_move(game: Game):
    for state, seat in _positions(game, seed=7, count=3):
        view = game.view(state, seat)
        other = game.sample(view, random.Random(99))
        assert game.view(other, seat) == view
        first = search(game, game.view(state, seat), seat, SMALL, random.Random(5))
        second = search(game, game.view(other, seat), seat, SMALL, random.Random(5))
        assert first.move == second.move
        assert first.candidates == second.candidates


@pytest.mark.parametrize("game", GAMES, ids=IDS)
def test_every_determinization_keeps_what_the_seat_knows(game: Game):
    for state, seat in _positions(game, seed=11, count=2):
        view = game.view(state, seat)
        spy = _Spy(game, seat, view)
        result = search(spy, view, seat, SMALL, random.Random(3))
        assert spy.samples == result.iterations + 1  # one per iteration, plus one to list the moves
        legal = {m.id for m in game.legal_moves(state, seat)}
        assert {c.move_id for c in result.candidates} == legal
        assert result.move.id in legal


def test_finds_the_winning_move():
    # Secret Duel: "the last round scores double". Seat 0 holds 9 and 2 after losing round 1 to an 8; keeping
    # the 9 for the doubled last round wins whatever seat 1 holds, playing it now loses.
    state = ToyState(
        seed=1, hands=((2, 9), (3, 6)), committed=(None, None), revealed=((1, 8),), points=(0, 8), double=True
    )
    result = search(TOY, TOY.view(state, 0), 0, Budget(iterations=400), random.Random(1))
    assert result.move.id == "card:2"
    best, worst = result.candidates
    assert best.mean_reward > 0.9 and worst.mean_reward < 0.1


def test_a_simultaneous_choice_stays_hidden_from_the_other_seats():
    # Matching Pennies is worth 1/2 to each seat. Were seat 1 shown seat 0's pick inside the tree, every pick of
    # seat 0 would look lost.
    state = PENNIES.new_game(2, {}, 1)
    result = search(PENNIES, PENNIES.view(state, 0), 0, Budget(iterations=3000), random.Random(2))
    for candidate in result.candidates:
        assert 0.3 < candidate.mean_reward < 0.7, result.candidates


def test_same_seed_same_search():
    state = TOY.new_game(3, {}, 4)
    view = TOY.view(state, 1)
    runs = [search(TOY, view, 1, Budget(iterations=300), random.Random(8)) for _ in range(2)]
    assert runs[0].move == runs[1].move and runs[0].candidates == runs[1].candidates


def test_respects_the_iteration_budget():
    state = TOY.new_game(2, {}, 4)
    result = search(TOY, TOY.view(state, 0), 0, Budget(iterations=123), random.Random(8))
    assert result.iterations == 123
    assert sum(c.visits for c in result.candidates) == 123


def test_root_parallel_search_merges_every_tree():
    state = TOY.new_game(2, {}, 4)
    view = TOY.view(state, 0)
    config = SearchConfig(processes=2)
    result = search(TOY, view, 0, Budget(iterations=200), random.Random(8), config)
    again = search(TOY, view, 0, Budget(iterations=200), random.Random(8), config)
    assert result.iterations == 200 and sum(c.visits for c in result.candidates) == 200
    assert result.candidates == again.candidates


def test_a_forced_move_needs_no_search():
    state = ToyState(seed=1, hands=((4,), (5,)), committed=(None, None), revealed=((1, 2), (3, 6)),
                     points=(0, 6), double=False)
    result = search(TOY, TOY.view(state, 0), 0, Budget(iterations=50), random.Random(1))
    assert result.move.id == "card:4" and result.iterations == 0


def test_rewards_split_a_tie_and_add_the_margin():
    state = ToyState(seed=1, hands=((), ()), committed=(None, None), revealed=((1, 2), (3, 4), (5, 6)),
                     points=(6, 6), double=False)
    assert ismcts.rewards(TOY, state) == [0.5, 0.5]
    state = ToyState(seed=1, hands=((), ()), committed=(None, None), revealed=((1, 2), (3, 4), (5, 6)),
                     points=(10, 2), double=False)
    assert ismcts.rewards(TOY, state) == [1.0, 0.0]


class _CountedMove(Move):
    """A move whose id counts its reads (a fresh object per instance, as a game that does not intern its moves)."""

    reads = 0

    def __init__(self, name: str):
        self.name = name

    @property
    def id(self) -> str:
        _CountedMove.reads += 1
        return self.name


def test_the_tree_reads_each_move_objects_id_once_and_keeps_it_on_the_move(monkeypatch):
    from dataclasses import replace

    from games.move import known_id

    monkeypatch.setattr(_CountedMove, "reads", 0)
    moves = [_CountedMove(f"m{i}") for i in range(5)]
    assert [known_id(m) for m in moves * 3] == [m.name for m in moves] * 3
    assert _CountedMove.reads == 5
    twin = _CountedMove("m0")  # an equal move, another object: read once of its own
    assert known_id(twin) == "m0" and _CountedMove.reads == 6
    # every game's moves (frozen dataclasses, compiled where the build could), as the search meets them: the id
    # kept is the move's own, and keeping it changes neither equality nor hashing
    for game in registry.all_games():
        for state, seat in _positions(game, 3, 3):
            for move in game.legal_moves(state, seat):
                fresh = replace(move)  # an equal move, its id not yet read
                assert known_id(move) == move.id and known_id(move) == move.id
                assert fresh == move and hash(fresh) == hash(move)
                assert known_id(fresh) == move.id


@pytest.mark.parametrize("text,budget", [
    ("normal", ismcts.PRESETS["normal"]), ("500", Budget(iterations=500)), ("2s", Budget(seconds=2.0)),
])
def test_strengths(text, budget):
    assert ismcts.parse_budget(text) == budget
    with pytest.raises(ValueError):
        ismcts.parse_budget("mighty")


@pytest.mark.parametrize("game", GAMES, ids=IDS)
def test_candidates_most_visited_first_with_rewards_and_win_rates_in_zero_one(game: Game):
    for state, seat in _positions(game, seed=13, count=2):
        result = search(game, game.view(state, seat), seat, Budget(iterations=80), random.Random(4))
        visits = [c.visits for c in result.candidates]
        assert visits == sorted(visits, reverse=True) and result.move.id == result.candidates[0].move_id
        for c in result.candidates:
            assert 0.0 <= c.mean_reward <= 1.0 and 0.0 <= c.win_rate <= 1.0
            # the reward is 0.9 x the win share plus at most 0.1 of margin
            assert 0.9 * c.win_rate - 1e-9 <= c.mean_reward <= 0.9 * c.win_rate + 0.1 + 1e-9


def _rewards_by_the_rule(totals: list[int], winners: tuple[int, ...]) -> list[float]:
    """outcome_rewards as its docstring states it, by max, min and sorted."""
    spread = (max(totals) - min(totals)) or 1
    result = [0.0] * len(totals)
    if len(totals) > 1:
        ordered = sorted(totals, reverse=True)
        for seat, own in enumerate(totals):
            best_other = ordered[1] if own == ordered[0] else ordered[0]
            result[seat] = 0.05 * (1 + (own - best_other) / spread)
    for seat in winners:
        result[seat] = result[seat] + 0.9 / len(winners)
    return result


def test_the_rewards_are_the_win_and_the_margin_as_stated():
    """Every seat's reward from its total and the winners, for 1 to 6 seats with ties for the top and the bottom:
    the same floats as the rule written with max, min and sorted (the loop's are loops on ints, for the compiled
    path)."""
    rng = random.Random(8)
    for _ in range(3000):
        n = rng.randint(1, 6)
        totals = [rng.randint(-3, 4) for _ in range(n)]
        best = max(totals)
        winners = tuple(s for s, t in enumerate(totals) if t == best)
        assert ismcts.outcome_rewards(totals, winners) == _rewards_by_the_rule(totals, winners), (totals, winners)
    assert ismcts.outcome_rewards([5, 5, 1], (0, 1)) == [0.5, 0.5, 0.0]


def test_win_rate_counts_the_games_won():
    state = ToyState(
        seed=1, hands=((2, 9), (3, 6)), committed=(None, None), revealed=((1, 8),), points=(0, 8), double=True
    )
    result = search(TOY, TOY.view(state, 0), 0, Budget(iterations=400), random.Random(1))
    best, worst = result.candidates
    assert best.win_rate == 1.0 and worst.win_rate == 0.0


class _Thaws:
    """A game's rules, recording every state the search thaws outside its determinizations (`sample_work`, which
    thaws or builds them from the view alone: Kung Fur Fight draws hidden plans by the playout policy)."""

    def __init__(self, rules, sampling: list[bool]):
        self._rules = rules
        self._sampling = sampling
        self.thawed: list = []

    def __getattr__(self, name):
        return getattr(self._rules, name)

    def thaw(self, state):
        if not self._sampling[0]:
            self.thawed.append(state)
        return self._rules.thaw(state)


@pytest.mark.parametrize("game", GAMES, ids=IDS)
def test_the_search_only_ever_plays_on_determinizations_of_the_view(game: Game, monkeypatch):
    """Every working state an iteration plays on is one `sample_work` drew from the view, and the search thaws
    nothing else (never the true state)."""
    for state, seat in _positions(game, seed=17, count=2):
        view = game.view(state, seat)
        spy = _Spy(game, seat, view)
        drawn: list = []
        sampling = [False]
        sample_work = spy.sample_work

        def recording_sample_work(v, rng, *, drawn=drawn, sample_work=sample_work, sampling=sampling):
            sampling[0] = True
            try:
                drawn.append(sample_work(v, rng))
            finally:
                sampling[0] = False
            return drawn[-1]

        spy.sample_work = recording_sample_work
        found = ismcts.rules_and_policy
        recorders: list[_Thaws] = []

        def recording_rules(g, *, found=found, recorders=recorders, sampling=sampling):
            rules, policy = found(g)
            recorders.append(_Thaws(rules, sampling))
            return recorders[-1], policy

        played: list = []
        iterate = ismcts._iterate

        def recording_iterate(root, searched, work, *rest, played=played, iterate=iterate):
            played.append(work)
            return iterate(root, searched, work, *rest)

        monkeypatch.setattr(ismcts, "rules_and_policy", recording_rules)
        monkeypatch.setattr(ismcts, "_iterate", recording_iterate)
        result = search(spy, view, seat, SMALL, random.Random(3))
        monkeypatch.undo()
        assert len(played) == result.iterations == len(drawn)
        assert all(w is d for w, d in zip(played, drawn, strict=True))  # each iteration on its own draw
        assert not [s for r in recorders for s in r.thawed]  # nothing else thawed: not the true state


def test_at_a_shared_root_the_others_choices_are_drawn_before_the_observer_picks():
    """Kung Fur Fight's seats plan at the same time, in secret. At such a root the search draws the other seat's
    plan (the playout policy) as part of each determinization, so the observer's own moves are the only ones its
    tree holds there, picked by UCB1, whether the other seat has finished its plan or not."""
    game = registry.get("kung-fur-fight")
    rules, policy = ismcts.rules_and_policy(game)
    rng = random.Random(5)
    searched = ismcts.search_rules(rules, policy, SearchConfig(), rng)
    state = game.new_game(2, {"cats": "seat0"}, 3)
    assert sorted(game.to_act(state)) == [0, 1]
    for observer in (0, 1):
        work = rules.thaw(game.sample(game.view(state, observer), rng))
        ismcts._others_first(searched, work, observer)
        assert list(rules.to_act(work)) == [observer]
    # Only one seat to act: nothing is drawn, nothing is played.
    alone = game.apply_id(state, 1, "done")
    drawn = game.sample(game.view(alone, 0), random.Random(6))
    work = rules.thaw(drawn)
    ismcts._others_first(searched, work, 0)
    assert list(rules.to_act(work)) == [0] and rules.legal_moves(work, 0) == game.legal_moves(drawn, 0)

    tree = ismcts._Tree()
    ismcts._grow(tree, game, game.view(state, 0), 0, Budget(iterations=200), random.Random(1), SearchConfig(), 0.0)
    assert set(tree.root.children) == {0} and not tree.root.after
    assert sum(child.visits for child in tree.root.children[0].values()) == 200
    assert all(child.regret == 0.0 for child in tree.root.children[0].values())  # UCB1, not regret matching


def test_with_policy_opponents_the_other_seat_plays_the_policy_s_pick_on_each_determinization():
    """Naishi's playout policy asks for it: the opponent's moves in the tree are the playout policy's picks on the
    determinization (which sees the opponent's dealt Hand), not UCB1 picks from statistics that every
    determinization shares; the observer's own moves are still chosen by UCB1."""
    game = registry.get("naishi")
    _, policy = ismcts.rules_and_policy(game)
    assert policy is not None and policy.tree_opponents is True
    state = game.new_game(2, {}, 4)
    for seat in (0, 1):
        state = game.apply(state, seat, game.legal_moves(state, seat)[0])
    observer = next(iter(game.to_act(state)))
    picked: list[str] = []

    def stub(rules, work, seat, moves, rng):
        assert seat != observer, "the observer's moves are not the policy's in the tree"
        picked.append(moves[-1].id)
        return moves[-1]

    def grow(config: SearchConfig) -> ismcts._Tree:
        tree = ismcts._Tree()
        ismcts._grow(tree, game, game.view(state, observer), observer, Budget(iterations=300), random.Random(2),
                     config, 0.0)
        return tree

    def opponent_moves(node: ismcts.Node, seat: int, depth: int = 0) -> set[str]:
        children = node.children or {}  # None: a leaf (made when first needed)
        found = set(children.get(1 - seat, {}))
        for child in (c for table in children.values() for c in table.values()):
            if depth < 6:
                found |= opponent_moves(child, seat, depth + 1)
        return found

    # Without the game's policy the picks are uniform; either way the observer's root gets every iteration.
    policy_tree = grow(SearchConfig(playout_depth=0, game_policy=False, opponent_policy=True))
    ucb_tree = grow(SearchConfig(playout_depth=0, game_policy=False, opponent_policy=False))
    for tree in (policy_tree, ucb_tree):
        assert sum(c.visits for c in tree.root.children[observer].values()) == 300
    # The opponent's edges keep statistics only when UCB1 picks them.
    def opponent_visits(tree: ismcts._Tree) -> int:
        return sum(edge.visits for c in tree.root.children[observer].values()
                   for edge in (c.children or {}).get(1 - observer, {}).values())
    assert opponent_visits(policy_tree) == 0 < opponent_visits(ucb_tree)
    assert not picked
    with_stub = grow(SearchConfig(playout_depth=0, playout_policy=stub, opponent_policy=True))
    assert picked and opponent_moves(with_stub.root, observer) == set(picked)


def test_the_collector_is_paused_while_a_tree_grows_and_as_it_was_after(monkeypatch):
    import gc

    seen: list[bool] = []
    real_sample = TOY.sample

    def sample(view, rng):
        seen.append(gc.isenabled())
        return real_sample(view, rng)

    monkeypatch.setattr(TOY, "sample", sample)
    state = TOY.new_game(2, {}, seed=3)
    view = TOY.view(state, 0)
    was = gc.isenabled()
    try:
        for before in (True, False):
            (gc.enable if before else gc.disable)()
            seen.clear()
            search(TOY, view, 0, Budget(iterations=20), random.Random(1))
            # the first draw is the search's own look at who acts, before the tree grows
            assert len(seen) == 21 and not any(seen[1:]), "the collector ran while the tree grew"
            assert gc.isenabled() is before, "the search left the collector otherwise than it found it"
        gc.enable()
        with ismcts.collector_paused():  # another search still running: the collector stays paused after this one
            search(TOY, view, 0, Budget(iterations=20), random.Random(1))
            assert not gc.isenabled()
        assert gc.isenabled()
    finally:
        (gc.enable if was else gc.disable)()


def _played_on(game: Game, state, draws: random.Random | None) -> list[str]:
    """The moves, and the last state, of a game played on from `state` by moves picked at random from a fixed
    stream, on one working state, its chance drawn from `draws` (`draw_chance`) or, without it, from its seed."""
    rules, _ = ismcts.rules_and_policy(game)
    work = rules.thaw(state)
    if draws is not None:
        rules.draw_chance(work, draws)
    picks = random.Random(11)
    played = []
    while acting := rules.to_act(work):
        seat = acting[int(picks.random() * len(acting))]
        moves = rules.legal_moves(work, seat)
        move = moves[int(picks.random() * len(moves))]
        played.append(f"{seat}:{move.id}")
        rules.play(work, seat, move)
    return [*played, repr(rules.freeze(work))]  # and where every card ended (a shuffled Hand's order too)


class _Counted(random.Random):
    """A generator that counts its draws (shuffles and `randrange` draw by `getrandbits`, Python's and ours)."""

    drawn = 0

    def getrandbits(self, k: int) -> int:
        self.drawn += 1
        return super().getrandbits(k)

    def random(self) -> float:
        self.drawn += 1
        return super().random()


@pytest.mark.parametrize(
    ("name", "games", "changed"), [("zipang", 12, 6), ("naishi", 12, 6), ("kung-fur-fight", 90, 0)],
)
def test_a_determinization_draws_the_chance_to_come_from_the_generator_it_is_given(name, games, changed):
    """Zipang's deal each battle, Naishi's shuffles after the gifts and Kung Fur Fight's rock-paper-scissors (who
    chooses first between Shu and Ringo: seldom met, and seldom changing a game): from the seed on the engine's
    path (the same game each time), from the search's generator after `draw_chance` (equal generators, equal games;
    another generator, another game from the same state)."""
    game = registry.get(name)
    rules, _ = ismcts.rules_and_policy(game)
    assert callable(rules.draw_chance)
    differ = drawn = 0
    for seed in range(games):
        state = game.new_game(game.info.min_seats, {}, seed)
        assert _played_on(game, state, None) == _played_on(game, state, None)
        one = _played_on(game, state, random.Random(1))
        assert one == _played_on(game, state, random.Random(1))
        counted = _Counted(2)
        differ += one != _played_on(game, state, counted)
        drawn += counted.drawn
    assert drawn > 0  # the chance during play came from the generator
    assert differ >= changed, differ


def test_the_search_gives_each_determinization_its_own_generator_for_the_chance_to_come(monkeypatch):
    game = registry.get("zipang")
    rules, _ = ismcts.rules_and_policy(game)
    given: list = []
    monkeypatch.setattr(rules, "draw_chance", lambda work, rng: given.append((work, rng)))
    rng = random.Random(4)
    state = game.new_game(2, {}, 4)
    seat = min(game.to_act(state))
    search(game, game.view(state, seat), seat, Budget(iterations=30), rng)
    assert len(given) == 30 and all(r is rng for _, r in given)  # every iteration's determinization, the search's rng

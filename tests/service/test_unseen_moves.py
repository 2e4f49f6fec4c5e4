"""A move chosen from what its seat could see is not refused for a change that seat could not see (docs/api.md,
`expected_version`): in a simultaneous choice another seat's secret move lands between a seat's read and its move,
and the move goes through; a change the seat can see still refuses it; and nothing hidden leaks through the answer,
or through whether the move is taken at all."""

from __future__ import annotations

import asyncio
import random
import threading
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace

import grpc
import pytest

from games import registry, wire
from games.kungfur.state import EMPTY_PLAN
from service.auth import Credentials
from service.play import Play, seen_after
from service.seats import Seats
from service.store import GameStore
from service.tables import Tables
from tabletop.v1 import game_service_pb2 as pb
from tests.service.conftest import AI_TOKEN, HUMAN, service_config
from tests.service.test_errors import fails
from tests.service.test_play import stored

C = grpc.StatusCode
KUNG_FUR = registry.get("kung-fur-fight")
NAISHI = registry.get("naishi")


def _start(api, game_type: str, seats: int = 2, **kwargs) -> tuple[str, dict[int, str]]:
    created = api.create(game_type, [HUMAN] * seats, start=True, **kwargs)
    return created.game_id, {t.seat: t.token for t in created.seat_tokens}


def _secret_move(api, game_id: str, token: str) -> pb.MakeMoveResponse:
    """A secret move of the seat (a gift, a step of a plan, never the end of a plan), decided on what it sees."""
    state = api.state(game_id, token)
    move = next(m for m in state.legal_moves if m.id != "done")
    return api.move(game_id, token, move.id, expected_version=state.version)


def test_the_other_seats_secret_gift_does_not_refuse_a_naishi_gift(api):
    """The start of nearly every Naishi game in `tabletop play`: the AI gives its card while the player chooses."""
    game_id, tokens = _start(api, "naishi")
    mine = api.state(game_id, tokens[0])
    assert sorted(mine.to_act) == [0, 1]
    theirs = _secret_move(api, game_id, tokens[1])
    assert theirs.version == mine.version + 1
    answer = api.move(game_id, tokens[0], mine.legal_moves[0].id, expected_version=mine.version)
    assert answer.version == mine.version + 2
    assert [e.seat for e in answer.state.recent_events[-2:]] == [1, 0]


def test_kung_fur_fight_planning_goes_on_while_the_other_seat_plans(api, redis_url):
    """Bob plans steps and finishes his plan between Ann's read and her move: Ann's step is taken, and her answer
    is exactly what it would be had Bob planned nothing."""
    game_id, tokens = _start(api, "kung-fur-fight", options_json='{"cats": "seat0"}')
    mine = api.state(game_id, tokens[0])
    assert sorted(mine.to_act) == [0, 1]
    for _ in range(2):
        _secret_move(api, game_id, tokens[1])
    api.move(game_id, tokens[1], "done", expected_version=api.state(game_id, tokens[1]).version)
    assert list(api.state(game_id).to_act) == [0], "Bob's plan is done, Ann plans on"
    step = next(m for m in mine.legal_moves if m.id != "done")
    answer = api.move(game_id, tokens[0], step.id, expected_version=mine.version)
    assert answer.version == mine.version + 4

    state = KUNG_FUR.load_state(stored(redis_url, game_id).state)
    assert state.plans[1].done and state.plans[1].stacks != EMPTY_PLAN.stacks
    twin = replace(state, plans=(state.plans[0], replace(EMPTY_PLAN, done=True)))
    assert wire.view_from_any(KUNG_FUR, answer.state.view) == KUNG_FUR.view(state, 0) == KUNG_FUR.view(twin, 0)
    for event in answer.state.recent_events:
        if event.seat == 1 and event.kind == pb.GameEvent.KIND_MOVE:
            assert (event.move_id, event.move_label) == ("", "")


def test_a_change_the_seat_can_see_still_refuses_its_move(api):
    # Its own move: a second move decided on the version before it is stale.
    game_id, tokens = _start(api, "kung-fur-fight", options_json='{"cats": "seat0"}')
    mine = api.state(game_id, tokens[0])
    steps = [m.id for m in mine.legal_moves if m.id != "done"]
    api.move(game_id, tokens[0], steps[0], expected_version=mine.version)
    again = api.state(game_id, tokens[0])
    later = next(m.id for m in again.legal_moves if m.id != "done")
    fails(C.ABORTED, "VERSION_MISMATCH", api.move, game_id, tokens[0], later, expected_version=mine.version)
    # Another seat's change that is not a move made behind the screen: Bob leaves (the AI plays on for him).
    api.stub.LeaveGame(pb.LeaveGameRequest(game_id=game_id), metadata=api.auth(tokens[1]))
    fails(C.ABORTED, "VERSION_MISMATCH", api.move, game_id, tokens[0], later, expected_version=again.version)

    # A secret move that ends the simultaneous choice shows its effects: the gifts are revealed and the turns
    # begin. Seat 0 gave first; seat 1's gift then changes what seat 0 sees, so seat 0's version is stale.
    game_id, tokens = _start(api, "naishi")
    gave = _secret_move(api, game_id, tokens[0])
    last = _secret_move(api, game_id, tokens[1])
    assert last.version == gave.version + 1
    turn = api.state(game_id)
    (first,) = turn.to_act
    move = api.state(game_id, tokens[first]).legal_moves[0].id
    fails(C.ABORTED, "VERSION_MISMATCH", api.move, game_id, tokens[first], move, expected_version=gave.version)
    # A public move: the other seat's turn, decided before it, is refused; and a version the game has not reached.
    before = api.state(game_id, tokens[first])
    while list(before.to_act) == [first]:  # a turn may take more than one decision
        seen_last = before.version
        api.move(game_id, tokens[first], before.legal_moves[0].id, expected_version=before.version)
        before = api.state(game_id, tokens[first])
    other = 1 - first
    now = api.state(game_id, tokens[other])
    assert list(now.to_act) == [other]
    error = fails(C.ABORTED, "VERSION_MISMATCH", api.move, game_id, tokens[other], now.legal_moves[0].id,
                  expected_version=seen_last)
    assert "changed in a way your seat sees since version" in error.details()
    fails(C.ABORTED, "VERSION_MISMATCH", api.move, game_id, tokens[other], now.legal_moves[0].id,
          expected_version=now.version + 1)
    api.move(game_id, tokens[other], now.legal_moves[0].id, expected_version=now.version)


def test_a_seat_still_choosing_keeps_its_version_while_two_others_commit(api, toy_game):
    """Three seats commit a card at once (the toy game): the third seat's move, decided before the other two
    committed, is taken, and completes the round."""
    game_id, tokens = _start(api, "toy", seats=3)
    third = api.state(game_id, tokens[2])
    _secret_move(api, game_id, tokens[0])
    _secret_move(api, game_id, tokens[1])
    answer = api.move(game_id, tokens[2], third.legal_moves[0].id, expected_version=third.version)
    assert answer.version == third.version + 3
    # The round is revealed: seat 0, which committed at third.version + 1, sees that, and its stale version fails.
    state = api.state(game_id, tokens[0])
    fails(C.ABORTED, "VERSION_MISMATCH", api.move, game_id, tokens[0], state.legal_moves[0].id,
          expected_version=third.version + 1)


def test_two_seats_planning_at_once_are_never_refused(api):
    """Ann and Bob plan step by step at the same moment, each deciding on the state it just read: a commit of the
    other's that lands between a seat's read and its move (also between the service's own read and its commit)
    refuses nothing."""
    game_id, tokens = _start(api, "kung-fur-fight", options_json='{"cats": "seat0"}')
    start = api.state(game_id).version
    barrier = threading.Barrier(2)

    def plan(seat: int) -> tuple[int, list[str]]:
        moved, refused = 0, []
        for _ in range(5):
            state = api.state(game_id, tokens[seat])
            steps = [m.id for m in state.legal_moves if m.id != "done"]
            barrier.wait()
            if steps:
                try:
                    api.move(game_id, tokens[seat], steps[0], expected_version=state.version)
                    moved += 1
                except grpc.RpcError as error:
                    refused.append(error.details())
        return moved, refused

    with ThreadPoolExecutor(2) as pool:
        results = list(pool.map(plan, (0, 1)))
    assert [refused for _, refused in results] == [[], []]
    moved = sum(n for n, _ in results)
    assert moved >= 6 and api.state(game_id).version == start + moved


def test_a_commit_the_seat_cannot_see_between_the_services_read_and_its_commit_is_read_again(api, redis_url):
    """The service reads the game, Bob's step is committed, then the service's compare-and-set for Ann's step
    fails: it reads the game again, finds nothing Ann could see changed, and commits her step."""
    game_id, tokens = _start(api, "kung-fur-fight", options_json='{"cats": "seat0"}')
    mine = api.state(game_id, tokens[0])
    step = next(m for m in mine.legal_moves if m.id != "done")

    async def ann_moves() -> tuple[int, list[int]]:
        config = service_config(redis_url)
        store = GameStore.from_url(redis_url, retention_seconds=config.retention_seconds,
                                   abandoned_seconds=config.abandoned_seconds, job_shards=config.ai_job_shards)
        tables = Tables(store, AI_TOKEN)  # a replica of its own, with no copy of the game: the first try reads it
        read, bob = tables.load, []

        async def read_then_bob_moves(game_id: str, recent_events: int = 0):
            table = await read(game_id, recent_events)
            if not bob:
                bob.append((await asyncio.to_thread(_secret_move, api, game_id, tokens[1])).version)
            return table

        tables.load = read_then_bob_moves
        try:
            moved = await Play(tables, Seats(tables)).make_move(game_id, Credentials(tokens[0]), step.id,
                                                                mine.version, "")
        finally:
            await store.close()
        return moved.version, bob

    version, bob = asyncio.run(ann_moves())
    assert bob == [mine.version + 1] and version == mine.version + 2
    assert [e.seat for e in api.state(game_id).recent_events[-2:]] == [1, 0]


# The parts of a seat's view that say another seat has made its secret choice: a plan is done, a gift chosen, a
# card committed (so the toy's hand holds one card fewer).
DECIDED_MARKS = {"kung-fur-fight": {"done"}, "naishi": {"gifts_chosen"}, "toy": {"committed", "hand_sizes"}}


def _random_plays(game, seed: int, games: int):
    """(state before, mover, move, state after) of every move of `games` random games of `game`."""
    rng = random.Random(seed)
    for g in range(games):
        n, options = game.variants()[g % len(game.variants())]
        state = game.new_game(n, options, rng.randrange(1 << 30))
        while not game.is_over(state):
            mover = rng.choice(sorted(game.to_act(state)))
            move = rng.choice(list(game.legal_moves(state, mover)))
            after = game.apply(state, mover, move)
            yield state, mover, move, after
            state = after


def _all_games():
    from tests.support.toygame import GAME as TOY

    return [*registry.all_games(), TOY]


@pytest.mark.parametrize("game", _all_games(), ids=[*registry.names(), "toy"])
def test_whether_a_seat_sees_a_move_depends_only_on_what_it_may_know(game):
    """The hidden-information differential of the rule: for each secret move, draw games the seat cannot tell from
    the real one (from its view before the move), let the mover make any secret move in each, and the seat sees
    the move in all of them or in none. A move the seat cannot see leaves its view as it was but for the marks
    that say the mover has decided (DECIDED_MARKS)."""
    rng = random.Random(7)
    judged = unseen = 0
    for before, mover, move, after in _random_plays(game, 3, 12):
        if game.move_is_public(before, mover, move):
            continue
        seats = game.num_seats(before)
        for seat in (s for s in range(seats) if s != mover):
            marks = (0,) * seats

            def sees(b, a, mover=mover, seat=seat, marks=marks):
                return seen_after(game, b, a, mover, False, marks, 1)[seat] == 1

            real = sees(before, after)
            judged += 1
            unseen += not real
            if not real:
                old, new = game.view(before, seat), game.view(after, seat)
                changed = {f for f in old.__dataclass_fields__ if getattr(old, f) != getattr(new, f)}
                assert changed <= DECIDED_MARKS.get(game.info.name, set()), (game.info.name, changed)
            for _ in range(4):
                twin = game.sample(game.view(before, seat), rng)
                secret = [m for m in game.legal_moves(twin, mover) if not game.move_is_public(twin, mover, m)]
                if mover not in game.to_act(twin) or not secret:
                    continue
                twin_move = rng.choice(secret)
                assert sees(twin, game.apply(twin, mover, twin_move)) == real, (seat, move, twin_move)
    if game.info.name in DECIDED_MARKS:
        assert judged and unseen, "the games with a simultaneous choice have moves a seat cannot see"

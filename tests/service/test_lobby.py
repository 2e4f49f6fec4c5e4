"""The lobby through the real service and Redis: public games are listed by ListGames (AIP-158 pages, filters by
game type and open seats) until they start or fill, joinable by id; private games never are. The must-show:
paging through 1,000 public games while others are created, joined and started lists each game that stays
listed exactly once, and no game twice."""

from __future__ import annotations

import asyncio
import base64
import json
import random
import threading
import time
from collections.abc import Callable

import redis

from service.listing import Listing
from service.store import GameStore, lobby_key, lobby_member
from tabletop.v1 import game_service_pb2 as pb
from tests.service.conftest import AI, HUMAN, OPEN
from tests.service.test_errors import C, fails

PUBLIC, PRIVATE = pb.VISIBILITY_PUBLIC, pb.VISIBILITY_PRIVATE


def listed(api, page_size: int = 100, between: Callable[[], None] = lambda: None, token: str = "",
           **filters) -> list[pb.GameSummary]:
    """Every game ListGames lists, page after page (after `token`); `between()` is called before each next page."""
    games = []
    for _ in range(10_000):
        page = api.stub.ListGames(pb.ListGamesRequest(page_size=page_size, page_token=token, **filters))
        assert len(page.games) <= page_size
        games.extend(page.games)
        token = page.next_page_token
        if not token:
            return games
        between()
    raise AssertionError("the pages never end")


def ids(games) -> list[str]:
    return [g.game_id for g in games]


def test_public_games_are_listed_and_private_ones_never(api, toy_game):
    public = api.create("toy", [HUMAN, OPEN, OPEN], visibility=PUBLIC, options_json='{"double": true}',
                        timer=pb.TurnTimer(turn_seconds=60, on_timeout=pb.TIMEOUT_POLICY_FORFEIT))
    private = api.create("toy", [HUMAN, OPEN], visibility=PRIVATE)
    unset = api.create("toy", [HUMAN, OPEN])
    started_at_once = api.create("toy", [HUMAN, OPEN], visibility=PUBLIC, start=True)
    games = {g.game_id: g for g in listed(api)}
    assert public.game_id in games
    assert not {private.game_id, unset.game_id, started_at_once.game_id} & set(games)
    summary = games[public.game_id]
    assert summary.game_type == "toy" and summary.open_seats == 2
    assert [(s.seat, s.kind, s.name) for s in summary.seats] == [(0, HUMAN, "Player 1"), (1, OPEN, "Seat 2"),
                                                                 (2, OPEN, "Seat 3")]
    assert json.loads(summary.options_json) == {"double": True}
    assert summary.timer.turn_seconds == 60 and summary.timer.on_timeout == pb.TIMEOUT_POLICY_FORFEIT
    assert abs(summary.created_unix_ms - time.time() * 1000) < 60_000
    assert b"token" not in summary.SerializeToString().lower()
    assert public.state.visibility == PUBLIC
    assert private.state.visibility == PRIVATE and unset.state.visibility == PRIVATE
    # Oldest first, by creation time then id.
    order = [(g.created_unix_ms, g.game_id) for g in games.values()]
    assert order == sorted(order)


def test_filters_by_game_type_and_open_seats(api, toy_game):
    one_open = api.create("toy", [HUMAN, OPEN], visibility=PUBLIC)
    two_open = api.create("toy", [HUMAN, OPEN, OPEN], visibility=PUBLIC)
    naishi = api.create("naishi", [HUMAN, OPEN], visibility=PUBLIC)
    toys = ids(listed(api, game_type="toy"))
    assert one_open.game_id in toys and two_open.game_id in toys and naishi.game_id not in toys
    assert naishi.game_id in ids(listed(api, game_type="naishi"))
    assert {one_open.game_id, two_open.game_id, naishi.game_id} <= set(ids(listed(api)))
    at_least_two = ids(listed(api, min_open_seats=2))
    assert two_open.game_id in at_least_two and one_open.game_id not in at_least_two
    assert one_open.game_id in ids(listed(api, min_open_seats=1)) and one_open.game_id in ids(listed(api))
    assert not ids(listed(api, min_open_seats=4, game_type="toy"))  # toy games have 3 seats at most
    fails(C.INVALID_ARGUMENT, "UNKNOWN_GAME_TYPE", api.stub.ListGames, pb.ListGamesRequest(game_type="chess"))
    fails(C.INVALID_ARGUMENT, "INVALID_MIN_OPEN_SEATS", api.stub.ListGames, pb.ListGamesRequest(min_open_seats=-1))
    fails(C.INVALID_ARGUMENT, "INVALID_PAGE_SIZE", api.stub.ListGames, pb.ListGamesRequest(page_size=-1))


def test_page_sizes_and_tokens(api, toy_game):
    for _ in range(3):
        api.create("toy", [HUMAN, OPEN], visibility=PUBLIC)
    everything = ids(listed(api))
    assert len(everything) >= 3
    assert len(api.stub.ListGames(pb.ListGamesRequest(page_size=2)).games) == 2
    assert len(api.stub.ListGames(pb.ListGamesRequest()).games) == min(len(everything), 50)
    coerced = api.stub.ListGames(pb.ListGamesRequest(page_size=10_000))
    assert len(coerced.games) == min(len(everything), 100)
    assert bool(coerced.next_page_token) == (len(everything) > 100), "no token on the last page"
    # The page size may change from page to page.
    first = api.stub.ListGames(pb.ListGamesRequest(page_size=1))
    assert ids(first.games) + ids(listed(api, page_size=7, token=first.next_page_token)) == everything


def test_join_a_public_game_by_id_and_not_a_private_one(api, toy_game):
    public = api.create("toy", [HUMAN, OPEN, OPEN], visibility=PUBLIC)
    joined = api.stub.JoinGame(pb.JoinGameRequest(game_id=public.game_id, name="Bo"))
    assert joined.game_id == public.game_id and joined.seat == 1 and joined.token
    assert api.state(public.game_id, joined.token).your_seat == 1
    summary = {g.game_id: g for g in listed(api)}[public.game_id]
    assert summary.open_seats == 1 and summary.seats[1].kind == HUMAN and summary.seats[1].name == "Bo"
    # The join code still works for a public game; every lobby rule still holds.
    api.stub.JoinGame(pb.JoinGameRequest(join_code=public.join_code, name="Cy"))
    fails(C.FAILED_PRECONDITION, "NO_OPEN_SEAT", api.stub.JoinGame, pb.JoinGameRequest(game_id=public.game_id))
    assert public.game_id not in ids(listed(api)), "a full game is not listed"

    private = api.create("toy", [HUMAN, OPEN])
    fails(C.PERMISSION_DENIED, "NOT_PUBLIC", api.stub.JoinGame, pb.JoinGameRequest(game_id=private.game_id))
    fails(C.INVALID_ARGUMENT, "JOIN_CODE_OR_GAME_ID", api.stub.JoinGame, pb.JoinGameRequest())
    fails(C.INVALID_ARGUMENT, "JOIN_CODE_OR_GAME_ID", api.stub.JoinGame,
          pb.JoinGameRequest(join_code=private.join_code, game_id=private.game_id))
    fails(C.INVALID_ARGUMENT, "INVALID_GAME_ID", api.stub.JoinGame, pb.JoinGameRequest(game_id="no such|id"))
    fails(C.NOT_FOUND, "GAME_NOT_FOUND", api.stub.JoinGame, pb.JoinGameRequest(game_id="nogame"))
    api.stub.JoinGame(pb.JoinGameRequest(join_code=private.join_code))  # its join code still works

    other = api.create("toy", [HUMAN, OPEN, OPEN], visibility=PUBLIC)
    fails(C.FAILED_PRECONDITION, "SEAT_TAKEN", api.stub.JoinGame, pb.JoinGameRequest(game_id=other.game_id, seat=0))
    fails(C.INVALID_ARGUMENT, "INVALID_SEAT", api.stub.JoinGame, pb.JoinGameRequest(game_id=other.game_id, seat=5))
    assert api.stub.JoinGame(pb.JoinGameRequest(game_id=other.game_id, seat=2)).seat == 2


def test_a_started_game_leaves_the_list_and_may_be_watched_without_a_token(api, toy_game):
    created = api.create("toy", [HUMAN, OPEN], visibility=PUBLIC)
    assert created.game_id in ids(listed(api))
    # Spectating a public game needs no token: its state and its events.
    spectated = api.state(created.game_id)
    assert spectated.visibility == PUBLIC and not spectated.HasField("your_seat")
    first = next(iter(api.stub.WatchGame(pb.WatchGameRequest(game_id=created.game_id))))
    assert first.event.kind == pb.GameEvent.KIND_CREATED
    api.stub.StartGame(pb.StartGameRequest(game_id=created.game_id), metadata=api.auth(created.creator_token))
    assert created.game_id not in ids(listed(api))
    fails(C.FAILED_PRECONDITION, "GAME_ALREADY_STARTED", api.stub.JoinGame,
          pb.JoinGameRequest(game_id=created.game_id))
    watched = api.stub.WatchGame(pb.WatchGameRequest(game_id=created.game_id, from_version=1))
    assert next(iter(watched)).event.kind == pb.GameEvent.KIND_STARTED
    watched.cancel()
    assert api.state(created.game_id).status == pb.GAME_STATUS_IN_PROGRESS


def test_entries_of_expired_or_started_games_are_removed_when_met(api, redis_url, toy_game):
    store = redis.Redis.from_url(redis_url)
    try:
        expired = api.create("toy", [HUMAN, OPEN], visibility=PUBLIC)
        started = api.create("toy", [HUMAN, AI], visibility=PUBLIC, start=True)

        def entry(game_id):
            fields = store.hmget(f"game:{{{game_id}}}", "shard", "created_ms")
            return lobby_key(int(fields[0])), lobby_member("toy", int(fields[1]), game_id)

        started_entry = entry(started.game_id)
        store.zadd(started_entry[0], {started_entry[1]: 0})  # as if the start had not unlisted it
        expired_entry = entry(expired.game_id)
        store.delete(f"game:{{{expired.game_id}}}", f"game:{{{expired.game_id}}}:events")
        assert store.zscore(*expired_entry) is not None
        games = ids(listed(api))
        assert expired.game_id not in games and started.game_id not in games
        assert store.zscore(*expired_entry) is None and store.zscore(*started_entry) is None
    finally:
        store.close()


def test_malformed_and_mismatched_page_tokens(api, toy_game):
    for _ in range(2):
        api.create("toy", [HUMAN, OPEN, OPEN], visibility=PUBLIC)
    token = api.stub.ListGames(pb.ListGamesRequest(page_size=1, game_type="toy")).next_page_token
    assert token
    request = pb.ListGamesRequest
    assert api.stub.ListGames(request(page_size=1, game_type="toy", page_token=token)).games
    for bad in ("nonsense!", "x" * 2000, base64.urlsafe_b64encode(b'[1,"toy",0,5,"a|b"]').decode(),
                base64.urlsafe_b64encode(b'{"a": 1}').decode(), base64.urlsafe_b64encode(b"\xff\xfe").decode()):
        fails(C.INVALID_ARGUMENT, "INVALID_PAGE_TOKEN", api.stub.ListGames,
              request(page_size=1, game_type="toy", page_token=bad))
    # A token is good for the filter it was made for only.
    fails(C.INVALID_ARGUMENT, "INVALID_PAGE_TOKEN", api.stub.ListGames, request(page_token=token))
    fails(C.INVALID_ARGUMENT, "INVALID_PAGE_TOKEN", api.stub.ListGames,
          request(game_type="toy", min_open_seats=2, page_token=token))
    fails(C.INVALID_ARGUMENT, "INVALID_PAGE_TOKEN", api.stub.ListGames,
          request(game_type="naishi", page_token=token))


def test_pages_read_in_small_rounds_list_what_one_big_read_lists(api, server, redis_url, toy_game):
    """The merge of the streams (a type on a shard each) read a few members at a time, round after round, and
    pages of any size, also pages cut short by the work bound, give exactly the list that pages of 100 give."""
    for kind, seats in (("toy", [OPEN, OPEN, OPEN]), ("toy", [HUMAN, OPEN, OPEN]), ("naishi", [HUMAN, OPEN]),
                        ("toy", [HUMAN, HUMAN]), ("toy", [HUMAN, OPEN])) * 6:
        api.create(kind, seats, visibility=PUBLIC)

    async def pages(listing: Listing, size: int, **filters) -> list[tuple[str, int]]:
        games, token = [], ""
        while True:
            page = await listing.list_games(filters.get("game_type", ""), filters.get("min_open_seats", 0), size,
                                            token)
            assert len(page.games) <= size and (page.next_page_token or len(page.games) <= size)
            games.extend((g.game_id, g.open_seats) for g in page.games)
            if not page.next_page_token:
                return games
            token = page.next_page_token

    async def check() -> None:
        store = GameStore.from_url(redis_url, retention_seconds=60, abandoned_seconds=60,
                                   job_shards=server.config.ai_job_shards)
        try:
            whole, few = Listing(store), Listing(store, min_batch=1)
            short = Listing(store, min_batch=4, max_examined=3)  # pages cut short after a chunk (8 games or more)
            for filters, sizes in (({"game_type": "toy", "min_open_seats": 3}, (1, 2, 5)),
                                   ({"min_open_seats": 2}, (3, 37)), ({"game_type": "naishi"}, (4,)), ({}, (37,))):
                reference = await pages(whole, 100, **filters)
                assert len(reference) >= 6 and all(n >= max(1, filters.get("min_open_seats", 0))
                                                   for _, n in reference)
                for size in sizes:
                    assert await pages(few, size, **filters) == reference, (filters, size)
                    assert await pages(short, size, **filters) == reference, (filters, size, "short")
        finally:
            await store.close()

    asyncio.run(check())


ORIGINALS = 1000


def test_paging_through_1000_public_games_while_games_are_created_joined_and_started(api, toy_game):
    """The must-show: pages of 37 through 1,000 public games while other threads create public games (toy and
    naishi), start some of the new ones and some of the 1,000, and join seats of others. Every original game never
    started is listed exactly once, no game twice, in order."""
    stub = api.stub

    def create(kind="toy", seats=(HUMAN, OPEN, OPEN)):
        return stub.CreateGame.future(pb.CreateGameRequest(
            game_type=kind, seats=[pb.SeatSpec(kind=k) for k in seats], visibility=PUBLIC))

    began = time.monotonic()
    originals = []
    for start in range(0, ORIGINALS, 50):  # 50 calls in flight at a time
        originals.extend(f.result() for f in [create() for _ in range(start, min(start + 50, ORIGINALS))])
    created_in = time.monotonic() - began
    rng = random.Random(13)
    to_start = rng.sample(originals, 150)
    to_join = rng.sample([g for g in originals if g not in to_start], 150)
    started_originals: set[str] = set()
    pending = list(to_start)  # shared by the starters (list.pop is atomic)
    stop = threading.Event()
    started = threading.Condition()  # notified as each original has been started (it has left the list)
    starts = [0]

    def another_start() -> None:
        """Wait until one more original game has been started, unless none is left to start."""
        with started:
            seen = starts[0]
            assert started.wait_for(lambda: starts[0] > seen or not pending, 30), "the starters are stuck"
    failures: list[BaseException] = []

    def starter():
        """Create public games and start some of them; start some of the originals."""
        try:
            while not stop.is_set():
                new = [create(kind, seats).result() for kind, seats in
                       (("toy", (HUMAN, OPEN)), ("naishi", (HUMAN, OPEN)), ("toy", (HUMAN, OPEN, OPEN)))]
                for game in new[:2]:
                    stub.StartGame(pb.StartGameRequest(game_id=game.game_id), metadata=api.auth(game.creator_token))
                try:
                    game = pending.pop()
                except IndexError:
                    continue
                else:
                    started_originals.add(game.game_id)  # before: it may leave the list at any time from now
                    stub.StartGame(pb.StartGameRequest(game_id=game.game_id), metadata=api.auth(game.creator_token))
                    with started:
                        starts[0] += 1
                        started.notify_all()
        except BaseException as exc:  # noqa: BLE001 - reported by the test
            failures.append(exc)

    def joiner():
        try:
            for game in to_join:
                if stop.is_set():
                    return
                stub.JoinGame(pb.JoinGameRequest(game_id=game.game_id, name="Jo"))  # one seat stays open
        except BaseException as exc:  # noqa: BLE001
            failures.append(exc)

    workers = [threading.Thread(target=starter) for _ in range(2)] + [threading.Thread(target=joiner)]
    for worker in workers:
        worker.start()
    try:
        # Between two pages (and before the first), at least one listed game leaves the list: the races happen.
        another_start()
        began = time.monotonic()
        games = listed(api, page_size=37, between=another_start)
        paged_in = time.monotonic() - began
    finally:
        stop.set()
        for worker in workers:
            worker.join(30)
    assert not failures, failures
    seen = ids(games)
    assert len(seen) == len(set(seen)), "no game is listed twice"
    order = [(g.created_unix_ms, g.game_id) for g in games]
    assert order == sorted(order), "oldest first"
    listed_once = set(seen)
    never_started = [g.game_id for g in originals if g.game_id not in started_originals]
    missing = [game_id for game_id in never_started if game_id not in listed_once]
    assert not missing, f"{len(missing)} of the {len(never_started)} games never started are missing"
    assert len(started_originals) > 10 and len(never_started) >= ORIGINALS - 150, "the races did happen"
    print(f"created {ORIGINALS} in {created_in:.1f}s; paged {len(seen)} games in {paged_in:.1f}s "
          f"while {len(started_originals)} originals were started")


def test_a_seat_joined_without_a_name_is_player_n_and_a_named_open_seat_keeps_its_name(api, toy_game):
    """Default names are distinct and never "You" (which would reach the other players): "Player 2" for a joiner
    who gives no name, the open seat's own name when the creator named it."""
    game = api.create("toy", [HUMAN, OPEN, pb.SeatSpec(kind=OPEN, name="Bo's seat")], visibility=PUBLIC)
    api.stub.JoinGame(pb.JoinGameRequest(game_id=game.game_id))
    api.stub.JoinGame(pb.JoinGameRequest(join_code=game.join_code))
    names = [seat.name for seat in api.state(game.game_id).seats]
    assert names == ["Player 1", "Player 2", "Bo's seat"], names

"""`tabletop bench archive`: the archive writer's throughput, the rating update's CPU cost, and a stalled PostgreSQL
(docs/benchmarks.md, *The archive*).

1. **Fill.** N finished Hinode games on the archive streams, each with its whole log: 4 seats, rated, every seat
   bound to a signed-in player of a pool, played to the end with random legal moves through the service's own use
   cases (`Lobby.create` / `join` / `start`, `Play.make_move`) and its store (GameStore, archive on): the keys,
   the log and the stream entries are the ones the service writes, by its own code. No writer runs meanwhile.
2. **Throughput.** One writer (`tabletop archive-writer`, a process of its own, TABLETOP_ARCHIVE_BATCH) drains
   the streams: games archived per second of wall time and per CPU-second of the writer (its utime + stime from
   /proc, counted from its first batch to the last, so its start-up is left out).
3. **Ratings.** The openskill update of a rated 4-seat game, alone (`service.archive.ratings.update`: the model's
   update and the per-key merge, no SQL), timed by process CPU time over many games.
4. **Stall.** With the writer running, PostgreSQL is stalled for `--stall-seconds` (`LOCK TABLE games IN ACCESS
   EXCLUSIVE MODE` from another connection: the writer's next insert waits on it, as on a server that hangs),
   while games keep finishing (games played up to their last move beforehand, finished at `--stall-rate` a
   second). The backlog's peak on the Redis side (entries, and bytes: MEMORY USAGE of the waiting games' keys and
   of the streams), then, with the lock released, the drain time, and a check that every game finished is in
   PostgreSQL once (no game lost, none doubled).

Redis and PostgreSQL are embedded ones it starts (and stops) unless `--redis-url` / `--database-url` name servers,
which must then be empty of games (a fresh database and Redis database): it checks the archive streams are empty.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import re
import signal
import subprocess
import sys
import tempfile
import time
import urllib.request
from contextlib import ExitStack
from pathlib import Path

GAME = "hinode"
SEATS = 4


def cpu_seconds(pid: int) -> float:
    """utime + stime of a process (Linux /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def load_average() -> str:
    try:
        return " ".join(Path("/proc/loadavg").read_text().split()[:3])
    except OSError:
        return "?"


class Games:
    """Games played through the service's use cases, on the service's store (archive on)."""

    def __init__(self, redis_url: str, shards: int, players: int, seed: int):
        from service.config import Config
        from service.lobby import Lobby
        from service.play import Play
        from service.seats import Seats
        from service.store import GameStore
        from service.tables import Tables

        self.store = GameStore.from_url(redis_url, retention_seconds=86400, abandoned_seconds=604800,
                                        job_shards=shards, archive=True)
        tables = Tables(self.store, "bench-" + os.urandom(8).hex())
        self.tables = tables
        self.lobby = Lobby(tables, Config(redis_url=redis_url, ai_job_shards=shards))
        self.play = Play(tables, Seats(tables))
        self.players = [f"bench-player-{n:05d}" for n in range(players)]
        self.rng = random.Random(seed)
        self.moves = 0

    async def close(self) -> None:
        await self.store.close()

    async def new(self) -> tuple[str, dict[int, object]]:
        """A rated 4-seat game, its creator and three joiners drawn from the pool, started."""
        from service.auth import Credentials
        from service.identity import Player
        from service.lobby import SeatRequest

        who = self.rng.sample(self.players, SEATS)
        creator = Player(who[0], who[0].replace("bench-player-", "Player "))
        created = await self.lobby.create(GAME, None, [SeatRequest("human", "", "")] +
                                          [SeatRequest("open", "", "")] * (SEATS - 1), False,
                                          player=creator, rated=True)
        creds = {0: Credentials(player=creator)}
        for seat in range(1, SEATS):
            player = Player(who[seat], who[seat].replace("bench-player-", "Player "))
            await self.lobby.join(created.join_code, "", seat, player=player)
            creds[seat] = Credentials(player=player)
        await self.lobby.start(created.game_id, creds[0])
        return created.game_id, creds

    async def advance(self, game_id: str, creds: dict, stop_before_end: bool) -> bool:
        """Random legal moves until the game ends (True), or, with `stop_before_end`, until the next move would
        end it (False: left one move from its end)."""
        while True:
            table = await self.tables.load(game_id)
            game, state = table.game, table.state
            if table.record.status == "finished":
                return True
            seat = self.rng.choice(sorted(game.to_act(state)))
            move = self.rng.choice(list(game.legal_moves(state, seat)))
            if stop_before_end and game.is_over(game.apply(state, seat, move)):
                return False
            await self.play.make_move(game_id, creds[seat], move.id, None, "")
            self.moves += 1

    async def many(self, count: int, concurrency: int, stop_before_end: bool = False) -> list[tuple[str, dict]]:
        made: list[tuple[str, dict]] = []
        left = iter(range(count))

        async def one_after_another() -> None:
            for _ in left:
                game_id, creds = await self.new()
                await self.advance(game_id, creds, stop_before_end)
                made.append((game_id, creds))

        await asyncio.gather(*(one_after_another() for _ in range(concurrency)))
        return made


def waiting(client, shards: int) -> int:
    from service.store import archive_stream

    pipe = client.pipeline(transaction=False)
    for shard in range(shards):
        pipe.xlen(archive_stream(shard))
    return sum(pipe.execute())


def backlog_bytes(client, shards: int, game_ids: list[str]) -> dict[str, int]:
    """MEMORY USAGE of the waiting games' keys, by kind: their hash, engine state and log, their event streams (a
    finished game's stream lingers STREAM_LINGER_SECONDS after its end, then expires), and the archive streams."""
    from service.store import archive_stream, events_key, game_key, log_key, state_key

    kinds = {"hash": game_key, "state": state_key, "log": log_key, "events": events_key}
    pipe = client.pipeline(transaction=False)
    for game_id in game_ids:
        for key in kinds.values():
            pipe.memory_usage(key(game_id), samples=0)
    for shard in range(shards):
        pipe.memory_usage(archive_stream(shard), samples=0)
    sizes = [n or 0 for n in pipe.execute()]
    found = {kind: sum(sizes[n:len(game_ids) * len(kinds):len(kinds)]) for n, kind in enumerate(kinds)}
    found["archive streams"] = sum(sizes[len(game_ids) * len(kinds):])
    return found


def metric(port: int, name: str) -> float | None:
    try:
        text = urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=5).read().decode()
    except OSError:
        return None
    found = re.search(rf"^{name} (\S+)$", text, flags=re.MULTILINE)
    return float(found.group(1)) if found else None


def wait_for(condition, timeout: float, what: str, every: float = 0.05):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if value := condition():
            return value
        time.sleep(every)
    raise TimeoutError(f"timed out after {timeout:.0f} s waiting for {what}")


def rating_cost(games: int, seed: int) -> tuple[float, float]:
    """CPU seconds per rated 4-seat game of the openskill update alone (service.archive.ratings.update), from priors
    like a ladder's (players with a few games behind them), with random places (ties included); and per seat."""
    from service.archive import ratings

    rng = random.Random(seed)
    cases = []
    for _ in range(games):
        keys = [f"p{rng.randrange(10_000)}" for _ in range(SEATS)]
        prior = {k: (rng.uniform(15, 35), rng.uniform(2, 25 / 3)) for k in keys if rng.random() < 0.9}
        cases.append((prior, [(k, rng.randint(1, SEATS)) for k in keys]))
    ratings.update(*cases[0])  # warm
    started = time.process_time()
    for prior, seats in cases:
        ratings.update(prior, seats)
    spent = time.process_time() - started
    return spent / games, spent / games / SEATS


def writer_process(redis_url: str, database_url: str, shards: int, batch: int, metrics_port: int,
                   log_path: Path) -> subprocess.Popen:
    from tabletop.stack.embedded_redis import free_port

    env = dict(os.environ, TABLETOP_REDIS_URL=redis_url, TABLETOP_DATABASE_URL=database_url,
               TABLETOP_AI_JOB_SHARDS=str(shards), TABLETOP_ARCHIVE_BATCH=str(batch),
               TABLETOP_ARCHIVE_POLL_SECONDS="0.1", TABLETOP_ARCHIVE_LAG_SECONDS="0.5", TABLETOP_LOG_LEVEL="warning",
               TABLETOP_ARCHIVE_HEALTH_PORT=str(free_port()), TABLETOP_ARCHIVE_METRICS_PORT=str(metrics_port),
               TABLETOP_GRPC_HOST="127.0.0.1", TABLETOP_REDIS_CLUSTER="false")
    with open(log_path, "ab") as log:
        return subprocess.Popen([sys.executable, "-m", "commands.cli", "archive-writer"], env=env, stdout=log,
                                stderr=log, start_new_session=True)


def stop(proc: subprocess.Popen) -> None:
    if proc.poll() is None:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def run(args: argparse.Namespace) -> int:
    import psycopg
    import redis

    from service.archive import db
    from tabletop import job_shards
    from tabletop.stack.embedded_postgres import EmbeddedPostgres
    from tabletop.stack.embedded_redis import EmbeddedRedis, free_port

    shards = job_shards.DEFAULT_SHARDS
    say = print
    with ExitStack() as stack:
        workdir = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="tabletop-bench-archive-")))
        redis_url, database_url = args.redis_url, args.database_url
        if not redis_url:
            server = EmbeddedRedis(directory=workdir / "redis", appendonly=True).start()
            stack.callback(server.cleanup)
            redis_url = server.url
        if not database_url:
            postgres = EmbeddedPostgres(directory=workdir / "postgres").start()
            stack.callback(postgres.cleanup)
            database_url = postgres.url
        client = redis.Redis.from_url(redis_url)
        stack.callback(client.close)
        if waiting(client, shards):
            print("tabletop bench archive: the archive streams of that Redis are not empty: give it an empty one",
                  file=sys.stderr)
            return 2
        with psycopg.connect(database_url) as conn:
            db.migrate(conn)
            before = conn.execute("SELECT count(*) FROM games").fetchone()[0]
        say(f"bench archive: {args.games} {GAME} games, batch {args.batch}, stall {args.stall_seconds} s "
            f"at {args.stall_rate} games/s; load average {load_average()} on {os.cpu_count()} CPUs")

        # 1. Fill: finished games on the streams, and the games that will finish during the stall.
        games = Games(redis_url, shards, args.players, args.seed)
        loop = asyncio.new_event_loop()
        stack.callback(loop.close)
        stack.callback(lambda: loop.run_until_complete(games.close()))
        stall_games = max(1, int(args.stall_rate * args.stall_seconds))
        started, cpu = time.perf_counter(), time.process_time()
        finished = loop.run_until_complete(games.many(args.games, args.concurrency))
        almost = loop.run_until_complete(games.many(stall_games, args.concurrency, stop_before_end=True))
        fill_wall, fill_cpu = time.perf_counter() - started, time.process_time() - cpu
        on_stream = waiting(client, shards)
        total_log = sum(client.strlen(f"game:{{{g}}}:log") for g, _ in finished)
        say(f"fill: {len(finished)} games finished and {len(almost)} left one move from their end in "
            f"{fill_wall:.1f} s ({fill_cpu:.1f} CPU-s here, {games.moves} moves through Play.make_move); "
            f"{on_stream} on the archive streams; log {total_log / max(1, len(finished)):.0f} bytes a game (zlib)")

        # 2. Throughput: one writer drains them.
        metrics_port = free_port()
        writer = writer_process(redis_url, database_url, shards, args.batch, metrics_port, workdir / "writer.log")
        stack.callback(stop, writer)
        # Counted from the end of its first batch (its start-up, imports and migrations, left out) to the last.
        (drained,) = wait_for(lambda: (n := waiting(client, shards)) < on_stream and (n,), 120,
                              "the writer's first batch", every=0.002)
        cpu0, t0 = cpu_seconds(writer.pid), time.perf_counter()
        wait_for(lambda: waiting(client, shards) == 0, 600, "the writer to drain the streams", every=0.01)
        cpu1, t1 = cpu_seconds(writer.pid), time.perf_counter()
        if drained:
            say(f"throughput: {drained} games in {t1 - t0:.2f} s = {drained / (t1 - t0):.0f} games/s; writer CPU "
                f"{cpu1 - cpu0:.2f} s = {drained / max(1e-9, cpu1 - cpu0):.0f} games per writer CPU-second "
                f"(target >= 500; after its first batch of {args.batch})")
        else:
            say(f"throughput: not measured: the writer took all {on_stream} games in its first batch (give more "
                "--games than --batch)")

        # 3. The rating update alone.
        per_game, per_seat = rating_cost(args.rating_games, args.seed)
        say(f"ratings: openskill update of a rated {SEATS}-seat game {per_game * 1e3:.3f} ms CPU "
            f"({per_seat * 1e6:.0f} us a seat; {args.rating_games} games; target < 1 ms)")

        # 4. Stall: PostgreSQL locked while games keep finishing.
        lock = psycopg.connect(database_url)
        stack.callback(lock.close)
        lock.execute("LOCK TABLE games IN ACCESS EXCLUSIVE MODE")
        stalled_at = time.perf_counter()
        peak, peak_bytes, oldest = 0, 0, None
        done_ids = []
        interval = 1 / args.stall_rate if args.stall_rate > 0 else 0
        for n, (game_id, creds) in enumerate(almost):
            due = stalled_at + n * interval
            if (pause := due - time.perf_counter()) > 0:
                time.sleep(pause)
            loop.run_until_complete(games.advance(game_id, creds, stop_before_end=False))
            done_ids.append(game_id)
        if (left := stalled_at + args.stall_seconds - time.perf_counter()) > 0:
            time.sleep(left)
        peak = waiting(client, shards)
        by_kind = backlog_bytes(client, shards, done_ids)
        peak_bytes = sum(by_kind.values())
        used = client.info("memory")["used_memory"]
        time.sleep(1.2)  # the writer measures its lag every 0.5 s
        oldest = metric(metrics_port, "tabletop_archive_oldest_waiting_seconds")
        backlog_metric = metric(metrics_port, "tabletop_archive_backlog_games")
        stall_wall = time.perf_counter() - stalled_at
        lock.rollback()  # the lock goes with the transaction
        released = time.perf_counter()
        wait_for(lambda: waiting(client, shards) == 0, 600, "the writer to drain the backlog", every=0.01)
        drain = time.perf_counter() - released
        say(f"stall: PostgreSQL locked {stall_wall:.1f} s while {len(done_ids)} games finished; backlog peak "
            f"{peak} entries, {peak_bytes / 1024:.0f} KiB in Redis ({peak_bytes / max(1, peak):.0f} bytes a game; "
            f"used_memory {used / 2**20:.1f} MiB); the writer's metrics at the peak: backlog {backlog_metric:.0f}, "
            f"oldest waiting {oldest:.1f} s" if oldest is not None and backlog_metric is not None else
            f"stall: PostgreSQL locked {stall_wall:.1f} s while {len(done_ids)} games finished; backlog peak {peak} "
            f"entries, {peak_bytes / 1024:.0f} KiB in Redis")
        say("  in Redis by kind: " + ", ".join(f"{kind} {size / 1024:.0f} KiB" for kind, size in by_kind.items())
            + " (a game's event stream lingers 30 s after its end)")
        say(f"drain: {drain:.2f} s after the lock went ({peak / max(drain, 1e-9):.0f} games/s)")
        stop(writer)
        with psycopg.connect(database_url) as conn:
            ids = [g for g, _ in finished] + done_ids
            stored = conn.execute("SELECT count(*), count(DISTINCT game_id) FROM games WHERE game_id = ANY(%s)",
                                  (ids,)).fetchone()
            total = conn.execute("SELECT count(*) FROM games").fetchone()[0] - before
            rated = conn.execute("SELECT count(*) FROM rating_changes WHERE game_id = ANY(%s)", (ids,)).fetchone()[0]
        lost = len(ids) - stored[1]
        say(f"check: {len(ids)} games finished, {stored[1]} in PostgreSQL ({total} rows added), {lost} lost, "
            f"{stored[0] - stored[1]} doubled; {rated} rating changes ({SEATS} a game)")
        return 0 if lost == 0 and stored[0] == stored[1] == total and rated == SEATS * len(ids) else 1


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="tabletop bench archive", description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=2000, help="finished games on the streams (default 2000)")
    parser.add_argument("--batch", type=int, default=100, help="TABLETOP_ARCHIVE_BATCH of the writer (default 100)")
    parser.add_argument("--stall-seconds", type=float, default=60.0,
                        help="how long PostgreSQL stays stalled (default 60)")
    parser.add_argument("--stall-rate", type=float, default=20.0,
                        help="games finishing per second during the stall (default 20)")
    parser.add_argument("--rating-games", type=int, default=5000,
                        help="rated games whose openskill update is timed (default 5000)")
    parser.add_argument("--players", type=int, default=500, help="signed-in players the seats are drawn from")
    parser.add_argument("--concurrency", type=int, default=16, help="games played at once while filling")
    parser.add_argument("--seed", type=int, default=2027, help="seed of the random players, moves and priors")
    parser.add_argument("--redis-url", default="", help="an empty Redis to use (default: an embedded one)")
    parser.add_argument("--database-url", default="", help="an empty database to use (default: an embedded one)")
    args = parser.parse_args(argv)
    if min(args.games, args.batch, args.rating_games, args.concurrency) < 1 or args.players < SEATS:
        parser.error(f"--games, --batch, --rating-games and --concurrency must be at least 1, --players {SEATS}")
    if args.stall_seconds < 0 or args.stall_rate <= 0:
        parser.error("--stall-seconds must not be negative and --stall-rate must be positive")
    return run(args)

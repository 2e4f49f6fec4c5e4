"""`tabletop forget-player PLAYER_ID [--yes]`: a player's data deleted on request (docs/archive.md, *Forgetting a
player*).

What a player id reaches, and what becomes of it:

- PostgreSQL, in one transaction: in every archived game the player held a seat of, the seat keeps its place and
  its result for the other players' histories and replays, but its `player_id` becomes a pseudonym of its own
  (`forgotten:<16 hex>`, random: a new one per game, so that the games cannot be linked to each other, nor, having
  no relation to the id, back to the player), and its display name becomes the service's default for the seat
  ("Player N"), in `game_seats`, in the log's seat lists and wherever the log's and the score's texts show it.
  Their `rating_changes` rows carry the game's pseudonym (the other seats' changes stay exact, and add up), and
  their `ratings` rows are deleted.
- Redis: every game in it (live, finished and waiting for the archive, or finished and kept for the retention)
  with a seat bound to the player is unbound: `player<i>` and a `creator_player` naming the player are removed,
  the seat's name becomes "Player N" there too, and the player's id and name are scrubbed from the game's events
  and log; the game's stamp is renewed, so that a change computed from the game as it was (a move under way on a
  replica) is refused by its compare-and-set and computed again. The seat stays in the game: its seat token (if
  its player kept one) still plays it, else the AI does when its turn timer runs out. A game finished and waiting
  for the archive is archived so: anonymous, its seat left out of the ratings. The player's "my games" list
  (`tabletop:player:{...}:games`) is deleted.

Redis goes first, then PostgreSQL under the archive lock (service/archive/writer.py ARCHIVE_LOCK) held
exclusively: an archive batch reads its games from Redis while it holds that lock shared, so a batch that read the
player's id before the Redis step has committed before the PostgreSQL step (which then rewrites what it stored),
and one after it reads the games unbound. Running it again changes nothing: the id is nowhere any more.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import secrets
import sys
from dataclasses import dataclass, field, replace
from typing import Any

import psycopg
import redis
import redis.exceptions

from service.archive import db
from service.archive.writer import ARCHIVE_LOCK
from service.identity import MAX_PLAYER_ID_LENGTH, PLAYER_ID
from service.mine import player_games_key
from service.store import (
    GAME_KEYS,
    Event,
    GameRecord,
    events_key,
    game_id_of_key,
    game_key,
    log_key,
    pack_log,
    seat_fields,
    unpack_log,
)
from tabletop import redis_client

PSEUDONYM_PREFIX = "forgotten:"
DEFAULT_NAME = re.compile(r"^(Player|AI|Seat) \d+$")  # names the service gives; nobody's personal data
SCAN_BATCH = 500


def pseudonym() -> str:
    return PSEUDONYM_PREFIX + secrets.token_hex(8)


def default_name(seat: int) -> str:
    return f"Player {seat + 1}"


@dataclass
class Scrub:
    """What to take out of one game's records: the player's id (replaced by `replacement`, or dropped from seat
    lists when it is None) and the names of the seats bound to the player (seat -> old name)."""

    player_id: str
    replacement: str | None
    names: dict[int, str] = field(default_factory=dict)

    def name_patterns(self) -> list[tuple[re.Pattern, str]]:
        """(whole-word pattern of an old name, the seat's new name), longest names first, for the free texts."""
        found = []
        for seat, name in sorted(self.names.items(), key=lambda item: -len(item[1])):
            if name.strip() and not DEFAULT_NAME.match(name) and name != default_name(seat):
                found.append((re.compile(rf"(?<!\w){re.escape(name)}(?!\w)"), default_name(seat)))
        return found

    def text(self, value: str) -> str:
        if self.player_id in value:
            value = value.replace(self.player_id, self.replacement or PSEUDONYM_PREFIX.rstrip(":"))
        for pattern, new in self.name_patterns():
            value = pattern.sub(new, value)
        return value

    def document(self, value: Any) -> Any:
        """A JSON document (the final score) with every string in it scrubbed."""
        if isinstance(value, str):
            return self.text(value)
        if isinstance(value, list):
            return [self.document(v) for v in value]
        if isinstance(value, dict):
            return {k: self.document(v) for k, v in value.items()}
        return value

    def seats_list(self, raw: str) -> str:
        """A `seats` field (a JSON list of seats, each with its name and maybe its player id), scrubbed."""
        seats = json.loads(raw)
        for i, seat in enumerate(seats):
            if isinstance(seat, dict):
                if seat.get("player_id") == self.player_id:
                    if self.replacement is None:
                        del seat["player_id"]
                    else:
                        seat["player_id"] = self.replacement
                if i in self.names and seat.get("name") == self.names[i]:
                    seat["name"] = default_name(i)
            elif isinstance(seat, list) and i in self.names and len(seat) > 1 and seat[1] == self.names[i]:
                seat[1] = default_name(i)
        return json.dumps(seats, separators=(",", ":"))

    def fields(self, fields: dict[str, str]) -> dict[str, str]:
        """An event's fields, scrubbed (an engine state is left alone: engines know no players)."""
        out = {}
        for name, value in fields.items():
            if name == "state":
                out[name] = value
            elif name == "seats":
                out[name] = self.seats_list(value)
            else:
                out[name] = self.text(value)
        return out

    def log(self, raw: bytes) -> bytes | None:
        """A packed log (store.pack_log) scrubbed, or None when nothing in it changes."""
        events = unpack_log(raw)
        scrubbed = [Event(e.version, self.fields(e.fields)) for e in events]
        if all(a.fields == b.fields for a, b in zip(events, scrubbed, strict=True)):
            return None
        return pack_log(scrubbed)


@dataclass
class Report:
    archived_games: int = 0  # archived games in which a seat's player id became a pseudonym
    archived_seats: int = 0
    rating_changes: int = 0  # rows of rating_changes given the game's pseudonym
    ratings_removed: int = 0  # rows of ratings deleted (one per game type)
    redis_games: int = 0  # games in Redis unbound
    redis_seats: int = 0
    redis_lists: int = 0  # the player's "my games" list, deleted

    def changed(self) -> bool:
        return any(vars(self).values())

    def lines(self) -> list[str]:
        return [
            f"archived games anonymised: {self.archived_games} ({self.archived_seats} seats, each game its own "
            f"pseudonym; {self.rating_changes} rating changes re-keyed)",
            f"ratings removed: {self.ratings_removed}",
            f"games in Redis unbound: {self.redis_games} ({self.redis_seats} seats); 'my games' list deleted: "
            f"{self.redis_lists}",
        ]


# ---- Redis ----------------------------------------------------------------------------------------------------

def bound_seats(record: GameRecord, player_id: str) -> list[int]:
    return [i for i, seat in enumerate(record.seats) if player_id and seat.player_id == player_id]


def created_by(record: GameRecord, player_id: str) -> bool:
    return bool(player_id) and record.creator_player == player_id


def holds(record: GameRecord, player_id: str) -> bool:
    """Whether the game has a seat bound to the player, or was created by the player."""
    return bool(bound_seats(record, player_id)) or created_by(record, player_id)


def unbound_fields(record: GameRecord, player_id: str) -> tuple[list[str], dict[str, str], dict[int, str]]:
    """How the game's hash changes when the player is unbound (see the module's doc): the fields to delete, the
    fields to write (the stamp aside), and the names of the seats bound to the player (seat -> old name). Written
    with the store's own seat_fields, so that the hash's layout is the store's alone."""
    seats = bound_seats(record, player_id)
    unbound = tuple(replace(seat, name=default_name(i), player_id="") if i in seats else seat
                    for i, seat in enumerate(record.seats))
    before, after = seat_fields(record.seats), seat_fields(unbound)
    remove = [name for name in before if name not in after]
    if created_by(record, player_id):
        remove.append("creator_player")  # the field GameRecord.creator_player is read from
    write = {name: value for name, value in after.items() if before.get(name) != value}
    return remove, write, {i: record.seats[i].name for i in seats}


def games_in_redis(client: Any, player_id: str) -> list[str]:
    """Every game in Redis with a seat bound to the player, or created by the player: one SCAN over the game hashes
    (every master of a Cluster), their fields read in pipelined batches, and the player's own list."""
    found = set()

    def check(keys: list[bytes]) -> None:
        pipe = client.pipeline(transaction=False)
        for key in keys:
            pipe.hgetall(key)
        for key, doc in zip(keys, pipe.execute(), strict=True):
            game_id = game_id_of_key(key)
            if doc and holds(GameRecord.from_hash(game_id, doc), player_id):
                found.add(game_id)

    batch: list[bytes] = []
    for key in client.scan_iter(match=GAME_KEYS, count=1000, _type="hash"):
        batch.append(key if isinstance(key, bytes) else key.encode())
        if len(batch) >= SCAN_BATCH:
            check(batch)
            batch = []
    listed = [m if isinstance(m, bytes) else m.encode() for m in client.zrange(player_games_key(player_id), 0, -1)]
    check(batch + [game_key(m.decode()).encode() for m in listed])
    return sorted(found)


def unbind_in_redis(client: Any, game_id: str, player_id: str) -> int:
    """Unbind the player from one game in Redis (see the module's doc), atomically (WATCH, then MULTI: tried again
    when the game changed meanwhile). The seats unbound (0: nothing of the player's was left)."""
    keys = (game_key(game_id), events_key(game_id), log_key(game_id))
    with client.pipeline(transaction=True) as pipe:
        while True:
            try:
                pipe.watch(*keys)
                doc = pipe.hgetall(keys[0])
                record = GameRecord.from_hash(game_id, doc)
                if not doc or not holds(record, player_id):
                    pipe.unwatch()
                    return 0
                remove, write, names = unbound_fields(record, player_id)
                scrub = Scrub(player_id, None, names)
                entries = pipe.xrange(keys[1])
                ttl = pipe.pttl(keys[1])
                raw_log = pipe.get(keys[2])
                new_entries = []
                for entry_id, raw in entries:
                    fields = {k.decode(): v for k, v in raw.items()}
                    text = {k: v.decode() for k, v in fields.items() if k != "state"}
                    scrubbed = scrub.fields(text)
                    new_entries.append((entry_id, {**fields, **{k: v.encode() for k, v in scrubbed.items()}},
                                        scrubbed != text))
                new_log = scrub.log(raw_log) if raw_log else None
                pipe.multi()
                pipe.hdel(keys[0], *remove)
                pipe.hset(keys[0], mapping={**write, "stamp": secrets.token_urlsafe(6)})
                if any(changed for *_, changed in new_entries):
                    pipe.delete(keys[1])
                    for entry_id, fields, _ in new_entries:
                        pipe.xadd(keys[1], fields, id=entry_id)
                    if ttl and ttl > 0:
                        pipe.pexpire(keys[1], ttl)
                if new_log is not None:
                    pipe.set(keys[2], new_log, keepttl=True)
                pipe.execute()
                return len(names)
            except redis.exceptions.WatchError:
                continue


# ---- PostgreSQL -----------------------------------------------------------------------------------------------

def forget_in_archive(conn: psycopg.Connection, player_id: str, report: Report) -> None:
    """Pseudonymise the player's archived seats, re-key their rating changes and delete their ratings, in one
    transaction under ARCHIVE_LOCK (exclusive: no archive batch is between its Redis reads and its commit)."""
    with conn.transaction(), conn.cursor() as cur:
        cur.execute("SELECT pg_advisory_xact_lock(%s)", (ARCHIVE_LOCK,))
        cur.execute("SELECT game_id, seat, name FROM game_seats WHERE player_id = %s ORDER BY game_id, seat",
                    (player_id,))
        seats: dict[str, dict[int, str]] = {}
        for game_id, seat, name in cur.fetchall():
            seats.setdefault(game_id, {})[seat] = name
        cur.execute("SELECT DISTINCT game_id FROM rating_changes WHERE player_key = %s", (player_id,))
        for (game_id,) in cur.fetchall():
            seats.setdefault(game_id, {})
        for game_id, names in sorted(seats.items()):
            scrub = Scrub(player_id, pseudonym(), names)
            for seat in names:
                cur.execute("UPDATE game_seats SET player_id = %s, name = %s WHERE game_id = %s AND seat = %s",
                            (scrub.replacement, default_name(seat), game_id, seat))
            report.archived_seats += len(names)
            cur.execute("UPDATE rating_changes SET player_key = %s WHERE game_id = %s AND player_key = %s",
                        (scrub.replacement, game_id, player_id))
            report.rating_changes += cur.rowcount
            cur.execute("SELECT events FROM game_logs WHERE game_id = %s AND format = 1", (game_id,))
            row = cur.fetchone()
            if row is not None and (new_log := scrub.log(bytes(row[0]))) is not None:
                cur.execute("UPDATE game_logs SET events = %s WHERE game_id = %s", (new_log, game_id))
            cur.execute("SELECT decided_by, score FROM games WHERE game_id = %s", (game_id,))
            decided_by, score = cur.fetchone()
            new_score = scrub.document(score)
            if (scrub.text(decided_by), new_score) != (decided_by, score):
                cur.execute("UPDATE games SET decided_by = %s, score = %s::jsonb WHERE game_id = %s",
                            (scrub.text(decided_by), json.dumps(new_score), game_id))
            report.archived_games += 1
        cur.execute("DELETE FROM ratings WHERE player_key = %s", (player_id,))
        report.ratings_removed = cur.rowcount


def survey_archive(conn: psycopg.Connection, player_id: str, report: Report) -> None:
    """What forget_in_archive would change (read only)."""
    row = conn.execute("SELECT count(DISTINCT game_id), count(*) FROM game_seats WHERE player_id = %s",
                       (player_id,)).fetchone()
    report.archived_games, report.archived_seats = int(row[0]), int(row[1])
    report.rating_changes = int(conn.execute("SELECT count(*) FROM rating_changes WHERE player_key = %s",
                                             (player_id,)).fetchone()[0])
    report.ratings_removed = int(conn.execute("SELECT count(*) FROM ratings WHERE player_key = %s",
                                              (player_id,)).fetchone()[0])


# ---- the command ----------------------------------------------------------------------------------------------

class NotMigrated(RuntimeError):
    pass


def forget(database_url: str, client: Any, player_id: str, apply: bool) -> Report:
    """Forget the player (apply) or say what that would change. Raises psycopg / Redis errors as they come."""
    report = Report()
    with psycopg.connect(database_url, connect_timeout=5) as conn:
        if db.schema_version(conn) < 2:
            raise NotMigrated("the archive's schema is older than this command (no ratings tables): run "
                              "`tabletop archive-writer --migrate-only` first")
        conn.commit()
        games = games_in_redis(client, player_id)
        listed = int(client.exists(player_games_key(player_id)))
        if not apply:
            pipe = client.pipeline(transaction=False)
            for game_id in games:
                pipe.hgetall(game_key(game_id))
            report.redis_games = len(games)
            report.redis_seats = sum(len(bound_seats(GameRecord.from_hash(game_id, doc), player_id))
                                     for game_id, doc in zip(games, pipe.execute(), strict=True))
            report.redis_lists = listed
            survey_archive(conn, player_id, report)
            return report
        for game_id in games:
            seats = unbind_in_redis(client, game_id, player_id)
            report.redis_games += 1
            report.redis_seats += seats
        report.redis_lists = int(client.delete(player_games_key(player_id)))
        forget_in_archive(conn, player_id, report)
    return report


def check_player_id(player_id: str) -> str | None:
    """Why the id cannot be a player's, or None."""
    if not player_id or len(player_id) > MAX_PLAYER_ID_LENGTH or not PLAYER_ID.match(player_id):
        return f"a player id is 1 to {MAX_PLAYER_ID_LENGTH} printable ASCII characters, no spaces: {player_id!r}"
    if player_id.startswith("ai:"):
        return f"{player_id!r} is an AI strength's place on the ladder, not a person's id"
    return None


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(
        prog="tabletop forget-player",
        description="Delete a player's data on request: their seats in archived games get a pseudonym (the games stay, "
                    "anonymised, for the other players' histories and replays), their ratings are removed, and "
                    "the games in Redis bound to them are unbound (docs/archive.md, 'Forgetting a player'). "
                    "Without --yes it only says what it would change.")
    parser.add_argument("player_id", metavar="PLAYER_ID", help="the player id (the identity token's `sub`)")
    parser.add_argument("--yes", action="store_true", help="do it (without: say what would change, change nothing)")
    parser.add_argument("--database-url", default=os.environ.get("TABLETOP_DATABASE_URL", ""),
                        help="PostgreSQL of the archive (default: $TABLETOP_DATABASE_URL)")
    parser.add_argument("--redis-url", default=os.environ.get("TABLETOP_REDIS_URL") or "redis://127.0.0.1:6379/0",
                        help="the service's Redis (default: $TABLETOP_REDIS_URL, else redis://127.0.0.1:6379/0)")
    args = parser.parse_args(argv)
    problem = check_player_id(args.player_id)
    if problem:
        parser.error(problem)
    if not args.database_url:
        parser.error("no database: set TABLETOP_DATABASE_URL or give --database-url")
    try:
        cluster = redis_client.cluster_flag(os.environ)
        client = redis_client.connect(args.redis_url, cluster=cluster, socket_timeout=10, socket_connect_timeout=5)
    except ValueError as exc:
        parser.error(f"--redis-url / TABLETOP_REDIS_CLUSTER: {exc}")
    try:
        report = forget(args.database_url, client, args.player_id, apply=args.yes)
    except psycopg.OperationalError as exc:
        print(f"tabletop forget-player: cannot use the database: {str(exc).strip()[:300]}", file=sys.stderr)
        return 1
    except psycopg.errors.UndefinedTable:
        print("tabletop forget-player: the database has no archive tables: run `tabletop archive-writer "
              "--migrate-only` first (or check --database-url)", file=sys.stderr)
        return 1
    except NotMigrated as exc:
        print(f"tabletop forget-player: {exc}", file=sys.stderr)
        return 1
    except (redis.exceptions.RedisError, OSError) as exc:
        print(f"tabletop forget-player: cannot use Redis at {args.redis_url}: {type(exc).__name__}: {exc}"[:400]
              + (" (nothing was changed in PostgreSQL; run it again once Redis is reachable)" if args.yes else ""),
              file=sys.stderr)
        return 1
    finally:
        client.close()
    if not report.changed():
        print(f"nothing holds player {args.player_id!r} (forgotten already, or never seen): nothing changed")
        return 0
    print(("forgot" if args.yes else "would forget") + f" player {args.player_id!r}:")
    for line in report.lines():
        print("  " + line)
    if not args.yes:
        print("nothing changed: run again with --yes to do it")
    return 0

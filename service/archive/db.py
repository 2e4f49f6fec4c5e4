"""PostgreSQL access: a psycopg 3 connection pool, and the schema's own versioned migrations.

Migrations are the numbered SQL files in `service/archive/migrations/` (`0001_games.sql`, ...), applied in order,
each once; `schema_migrations` records which are in. `migrate` applies the missing ones in one transaction under
a transaction-level advisory lock, so replicas that start together do not race: the first applies them, the others
wait on the lock and then find nothing left to do. PostgreSQL's DDL is transactional, so a migration that fails
leaves nothing half-done. A database whose schema is newer than this code (a migration it does not know) is
refused rather than written to. Why not Alembic: docs/archive.md.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from importlib import resources

import psycopg
from psycopg_pool import ConnectionPool

# pg_advisory_xact_lock key: any constant the application owns ("tabletop" in ASCII, as a bigint).
MIGRATION_LOCK = 0x7461626C65746F70
_NAME = re.compile(r"^(\d{4})_[a-z0-9_]+\.sql$")


@dataclass(frozen=True)
class Migration:
    version: int
    name: str
    sql: str


def migrations() -> list[Migration]:
    """The package's migrations, by version; their numbers run 1, 2, 3... without a gap."""
    found = []
    for entry in resources.files("service.archive").joinpath("migrations").iterdir():
        match = _NAME.match(entry.name)
        if match:
            found.append(Migration(int(match.group(1)), entry.name, entry.read_text()))
    found.sort(key=lambda m: m.version)
    if [m.version for m in found] != list(range(1, len(found) + 1)):
        raise RuntimeError(f"migrations are not numbered 1..{len(found)}: {[m.name for m in found]}")
    return found


class SchemaTooNew(RuntimeError):
    pass


def migrate(conn: psycopg.Connection) -> list[str]:
    """Bring the schema up to date; the names of the migrations applied (none when it was)."""
    known = migrations()
    with conn.transaction():
        conn.execute("SELECT pg_advisory_xact_lock(%s)", (MIGRATION_LOCK,))
        conn.execute("CREATE TABLE IF NOT EXISTS schema_migrations (version integer PRIMARY KEY, name text NOT NULL,"
                     " applied_at timestamptz NOT NULL DEFAULT now())")
        applied = {row[0] for row in conn.execute("SELECT version FROM schema_migrations")}
        newer = sorted(applied - {m.version for m in known})
        if newer:
            raise SchemaTooNew(f"the database has migrations {newer} that this version does not know: it is newer "
                               "than this code; run a newer release")
        done = []
        for migration in known:
            if migration.version in applied:
                continue
            conn.execute(migration.sql)
            conn.execute("INSERT INTO schema_migrations (version, name) VALUES (%s, %s)",
                         (migration.version, migration.name))
            done.append(migration.name)
    return done


def schema_version(conn: psycopg.Connection) -> int:
    row = conn.execute("SELECT coalesce(max(version), 0) FROM schema_migrations").fetchone()
    return int(row[0])


def open_pool(url: str, *, min_size: int = 1, max_size: int = 4, name: str = "tabletop") -> ConnectionPool:
    """A pool of connections to `url` (opened lazily: a database that is down does not stop the caller starting;
    each connection is checked before it is handed out, so one that died with its server is replaced)."""
    return ConnectionPool(url, min_size=min_size, max_size=max_size, open=False, name=name,
                          check=ConnectionPool.check_connection, kwargs={"connect_timeout": 5})

"""`tabletop seed-ratings`: seed the AI strengths' ratings (docs/ratings.md) from arena games.

It reads `tabletop arena --record FILE.jsonl` files and rates, game after game in file order, every seat whose
player is one of the service's AI strengths: `ismcts:<preset>`, or `ismcts:<iterations>` equal to a preset's
iteration budget (ismcts:2500 is `normal`), as the player `ai:<preset>` of that game type, on the same ladder and
with the same model (openskill Plackett-Luce) as the rated games. Other seats (greedy, random, cheat:..., other
budgets) are left out and the rest are rated among themselves; a game with fewer than two different strengths
left rates nothing. Places: the arena's winners first (tied), the others by total. The updates start from the
strengths' current ratings and are written in one transaction; each file seeds once (`rating_seeds` holds the
SHA-256 of the files seeded).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import sys
from datetime import UTC, datetime
from pathlib import Path

from ai import ismcts
from service.validation import STRENGTHS  # the strengths a seat can ask for


def strength_of(spec: str) -> str | None:
    """The service strength an arena player spec plays at, or None."""
    kind, _, arg = spec.partition(":")
    if kind != "ismcts" or not arg:
        return None
    if arg in STRENGTHS:
        return arg
    if not arg.isdigit():
        return None  # a time budget plays differently on every machine
    return next((name for name in STRENGTHS if ismcts.PRESETS[name].iterations == int(arg)), None)


def places(record: dict) -> list[int]:
    """Each seat's place: the winners share first place; the others by total (equal totals share a place)."""
    winners = set(record["winners"])
    totals = record["totals"]
    out = []
    for seat, total in enumerate(totals):
        if seat in winners:
            out.append(1)
        else:
            out.append(1 + len(winners) + sum(1 for s, t in enumerate(totals) if s not in winners and t > total))
    return out


def games_of(path: Path) -> list[tuple[str, list[tuple[str, int]]]]:
    """The file's rateable games: (game type, [(ai:<strength>, place), ...])."""
    found = []
    for number, line in enumerate(path.read_text().splitlines(), 1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
            seats = [(strength_of(spec), place) for spec, place in zip(record["seats"], places(record), strict=True)]
            game_type = record["game"]
        except (json.JSONDecodeError, KeyError, TypeError, ValueError) as exc:
            raise ValueError(f"{path}:{number} is not an arena game record ({exc})") from None
        rated = [(f"ai:{s}", place) for s, place in seats if s is not None]
        if len({key for key, _ in rated}) >= 2:
            found.append((game_type, rated))
    return found


def seed(conn, files: list[Path], dry_run: bool = False) -> dict[tuple[str, str], tuple[float, float, int]]:
    """Rate the files' games into the database `conn` (one transaction); the ratings it changed, by (game type,
    key): (mu, sigma, games added). A file seeded before is skipped."""
    from service.archive import ratings

    changed: dict[tuple[str, str], tuple[float, float, int]] = {}
    with conn.transaction(), conn.cursor() as cur:
        cur.execute("SELECT pg_advisory_xact_lock(%s)", (ratings.RATINGS_LOCK,))
        for path in files:
            digest = hashlib.sha256(path.read_bytes()).hexdigest()
            cur.execute("SELECT 1 FROM rating_seeds WHERE source = %s", (digest,))
            if cur.fetchone():
                print(f"{path}: seeded before, skipped", file=sys.stderr)
                continue
            games = games_of(path)
            for game_type, seats in games:
                keys = [key for key, _ in seats]
                prior = ratings.current(cur, game_type, keys)
                prior.update({k: changed[(game_type, k)][:2] for k in keys if (game_type, k) in changed})
                _, _, merged = ratings.update(prior, seats)
                for key, value in merged.items():
                    count = changed.get((game_type, key), (0, 0, 0))[2]
                    changed[(game_type, key)] = (*value, count + 1)
            cur.execute("INSERT INTO rating_seeds (source, name, games) VALUES (%s, %s, %s)",
                        (digest, path.name, len(games)))
            print(f"{path}: {len(games)} games rated", file=sys.stderr)
        by_type: dict[str, dict[str, tuple[float, float]]] = {}
        for (game_type, key), (mu, sigma, _) in changed.items():
            by_type.setdefault(game_type, {})[key] = (mu, sigma)
        now = datetime.now(UTC)
        for game_type, values in by_type.items():
            ratings.store(cur, game_type, values, {k: changed[(game_type, k)][2] for k in values}, now)
        if dry_run:
            raise _DryRun(changed)  # rolls the transaction back
    return changed


class _DryRun(Exception):
    pass


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="tabletop seed-ratings",
                                     description="Seed the AI strengths' ratings from arena game records.")
    parser.add_argument("files", nargs="+", type=Path, help="`tabletop arena --record` files (JSON lines)")
    parser.add_argument("--database-url", default=os.environ.get("TABLETOP_DATABASE_URL", ""),
                        help="the archive's PostgreSQL (default: TABLETOP_DATABASE_URL)")
    parser.add_argument("--dry-run", action="store_true", help="print the ratings, write nothing")
    args = parser.parse_args(argv)
    if not args.database_url:
        parser.error("no database: give --database-url or set TABLETOP_DATABASE_URL")
    import psycopg

    from service.archive import db

    try:
        with psycopg.connect(args.database_url) as conn:
            db.migrate(conn)
            try:
                changed = seed(conn, args.files, args.dry_run)
            except _DryRun as dry:
                changed = dry.args[0]
                print("dry run: nothing written", file=sys.stderr)
    except (ValueError, OSError) as exc:
        print(f"tabletop seed-ratings: {exc}", file=sys.stderr)
        return 2
    except psycopg.Error as exc:  # a database that is not there, refuses us, or a bad URL
        print(f"tabletop seed-ratings: the database at --database-url: {str(exc).strip()}", file=sys.stderr)
        return 2
    for (game_type, key), (mu, sigma, games) in sorted(changed.items()):
        print(f"{game_type}\t{key}\tordinal {mu - 3 * sigma:.2f}\tmu {mu:.2f}\tsigma {sigma:.2f}\t+{games} games")
    return 0

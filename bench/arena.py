"""`tabletop arena`: play many games between players on the engines directly and print win rates.

Players are specs: "ismcts:<strength>" (easy, normal, hard, an iteration count or seconds like 2s),
"ismcts-ucb:<strength>" (the same search with the other seats' moves in the tree picked by UCB1 even where the game's
playout policy asks to pick them: what `PlayoutPolicy.tree_opponents` changes), "ismcts-policyopp:<strength>" (the
other way round: the other seats' moves in the tree drawn by the playout policy even where the game's policy does
not ask it), "cheat:<strength>" (the same
search on the true state, bench.cheating: the cost of not peeking, arena only), and whatever
`ai.players.make_player` knows ("random", "greedy"). Ties are split among the tied winners. Every game is seeded
from --seed and its index, so a run with iteration-bounded players is reproducible whatever --jobs is.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import math
import random
import sys
import textwrap
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from games import registry
from games.base import Game, GameError


def load_game(name: str) -> Game:
    """The registered engine `name` (TABLETOP_GAME_MODULES adds games from elsewhere)."""
    return registry.get(name)


def make_player(spec: str, game_name: str) -> Any:
    """A player from its spec; "ismcts:..." is built here, everything else by ai.players."""
    kind, _, arg = spec.partition(":")
    if kind == "ismcts":
        from ai import ismcts

        return ismcts.IsmctsPlayer(ismcts.parse_budget(arg or "normal"), name=spec)
    if kind == "ismcts-ucb":
        from ai import ismcts

        return ismcts.IsmctsPlayer(ismcts.parse_budget(arg or "normal"), ismcts.SearchConfig(opponent_policy=False),
                                   name=spec)
    if kind == "ismcts-policyopp":
        from ai import ismcts

        return ismcts.IsmctsPlayer(ismcts.parse_budget(arg or "normal"), ismcts.SearchConfig(opponent_policy=True),
                                   name=spec)
    if kind == "cheat":  # the same search on the true state: arena only (bench.cheating)
        from bench import cheating

        return cheating.make_cheater(game_name, arg, spec)
    from ai import players

    return players.make_player(spec, game_name)


@dataclass(frozen=True)
class GameRecord:
    index: int
    seats: tuple[str, ...]  # the spec sitting at each seat
    totals: tuple[int, ...]
    winners: tuple[int, ...]
    first: int  # the first seat to act
    moves: int


SIMULTANEOUS = ("random", "lowest")  # who moves next when several seats may: drawn, or the lowest seat first


def play_game(game: Game, specs: Sequence[str], index: int, seed: int, options: dict,
              simultaneous: str = "random") -> GameRecord:
    """Play one game with `specs[s]` at seat s; game `index` of a run seeded `seed`."""
    game_seed = seed * 1_000_003 + index
    players = [make_player(spec, game.info.name) for spec in specs]
    rngs = [random.Random(f"{game_seed}:{seat}") for seat in range(len(specs))]
    state = game.new_game(len(specs), options, game_seed)
    # When several seats may act at once (a simultaneous step: Naishi's gifts, Kung Fur Fight's secret plans), the
    # one to move next is drawn at random, move by move, as people's moves arrive at the service in no fixed order:
    # no seat always finishes its plan first.
    order = random.Random(f"{game_seed}:order")
    first = -1
    moves = 0
    while True:
        acting = game.to_act(state)
        if not acting:
            break
        if len(acting) == 1:
            (seat,) = acting
        else:
            seat = min(acting) if simultaneous == "lowest" else order.choice(sorted(acting))
        if first < 0:
            first = seat
        legal = game.legal_moves(state, seat)
        player = players[seat]
        if len(legal) == 1:
            move = legal[0]
        elif getattr(player, "needs_state", False):  # the cheating baseline
            move = player.choose_with_state(game, state, seat, legal, rngs[seat])
        else:
            move = player.choose(game, game.view(state, seat), legal, rngs[seat])
        state = game.apply(state, seat, move)
        moves += 1
    score = game.score(state)
    totals = [0] * len(specs)
    for seat_score in score.seats:
        totals[seat_score.seat] = seat_score.total
    return GameRecord(index, tuple(specs), tuple(totals), tuple(score.winners()), first, moves)


def seating(players: Sequence[str], index: int, rotate: bool) -> list[str]:
    """Who sits where in game `index`: rotated by one seat per game with --rotate."""
    n = len(players)
    shift = index % n if rotate else 0
    return [players[(seat + shift) % n] for seat in range(n)]


def wilson(successes: float, trials: int, z: float = 1.96) -> tuple[float, float]:
    """Wilson score interval of a proportion (95% by default)."""
    if trials == 0:
        return 0.0, 1.0
    p = successes / trials
    denom = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denom
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def summarise(records: Sequence[GameRecord], by_seat: bool = False) -> list[dict]:
    """Per player spec (or, `by_seat`, per spec and seat: "greedy@0"): seat-games, win rate (ties split) with its
    95% CI, average margin, games started. By seat tells equal players apart, and with a game option that fixes
    a side to a seat (Kung Fur Fight's `cats`), a seat's row is that side's."""
    table: dict[str, dict] = {}
    for record in records:
        for seat, spec in enumerate(record.seats):
            key = f"{spec}@{seat}" if by_seat else spec
            row = table.setdefault(key, {"player": key, "seat_games": 0, "wins": 0.0, "margin": 0.0, "first": 0})
            row["seat_games"] += 1
            if seat in record.winners:
                row["wins"] += 1 / len(record.winners)
            others = [t for s, t in enumerate(record.totals) if s != seat]
            row["margin"] += record.totals[seat] - (max(others) if others else 0)
            row["first"] += seat == record.first
    rows = []
    for row in table.values():
        n = row["seat_games"]
        low, high = wilson(row["wins"], n)
        rows.append(
            {
                "player": row["player"],
                "seat_games": n,
                "wins": round(row["wins"], 3),
                "win_rate": row["wins"] / n,
                "ci95": [low, high],
                "avg_margin": row["margin"] / n,
                "started": row["first"],
            }
        )
    return rows


class Progress:
    """A small progress bar on stderr (redrawn in place on a terminal, a line per 10% otherwise)."""

    def __init__(self, total: int, stream=sys.stderr):
        self.total, self.done, self.stream = total, 0, stream
        self.started = time.monotonic()
        self.tty = stream.isatty()
        self.last_decile = -1

    def step(self) -> None:
        self.done += 1
        elapsed = time.monotonic() - self.started
        rate = self.done / elapsed if elapsed else 0.0
        eta = (self.total - self.done) / rate if rate else 0.0
        width = 30
        filled = width * self.done // self.total
        text = (
            f"[{'#' * filled}{'.' * (width - filled)}] {self.done}/{self.total} games "
            f"{rate:.2f}/s eta {eta:.0f}s"
        )
        if self.tty:
            self.stream.write("\r" + text)
            if self.done == self.total:
                self.stream.write("\n")
        elif (decile := 10 * self.done // self.total) != self.last_decile:
            self.last_decile = decile
            self.stream.write(text + "\n")
        self.stream.flush()


def run(
    game: Game,
    players: Sequence[str],
    games: int,
    seed: int,
    rotate: bool,
    options: dict,
    jobs: int = 1,
    on_game: Callable[[GameRecord], None] | None = None,
    done: frozenset[int] = frozenset(),
    simultaneous: str = "random",
) -> list[GameRecord]:
    """Play `games` games, over `jobs` forked processes, except those whose index is in `done` (already played,
    e.g. by a run that `--record` kept); return the records played, in game order."""
    on_game = on_game or (lambda record: None)
    todo = [index for index in range(games) if index not in done]
    if jobs <= 1:
        records = []
        for index in todo:
            record = play_game(game, seating(players, index, rotate), index, seed, options, simultaneous)
            on_game(record)
            records.append(record)
        return records
    from ai.search.forked import run_forked_streaming

    def task(job: int):
        def work(emit):
            for index in todo[job::jobs]:
                record = play_game(game, seating(players, index, rotate), index, seed, options, simultaneous)
                emit(_record_to_json(record))
            return None

        return work

    records = []
    for _, item in run_forked_streaming([task(j) for j in range(jobs)]):
        if isinstance(item, dict) and "done" in item:
            continue
        record = _record_from_json(item)
        on_game(record)
        records.append(record)
    return sorted(records, key=lambda r: r.index)


def _record_to_json(record: GameRecord) -> dict:
    return {
        "index": record.index,
        "seats": list(record.seats),
        "totals": list(record.totals),
        "winners": list(record.winners),
        "first": record.first,
        "moves": record.moves,
    }


def _record_from_json(data: dict) -> GameRecord:
    return GameRecord(
        data["index"], tuple(data["seats"]), tuple(data["totals"]), tuple(data["winners"]), data["first"],
        data["moves"],
    )


def read_record(path: str, run_key: dict, games: int) -> list[GameRecord]:
    """The games of `path` (a `--record` file, one JSON object a line) with an index below `games`; a missing
    file holds none. A line of another run (game, players, seed, seating or options) is refused: mixing runs would
    make the figures mean nothing."""
    try:
        text = Path(path).read_text()
    except FileNotFoundError:
        return []
    records: dict[int, GameRecord] = {}
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            data = json.loads(line)
            record = _record_from_json(data)
        except (json.JSONDecodeError, KeyError, TypeError) as exc:
            raise ValueError(f"line {number} is not a game record ({exc})") from None
        other = {k: data.get(k) for k in run_key}
        if other != run_key:
            raise ValueError(f"line {number} is a game of another run ({json.dumps(other)}); use another file")
        if record.index < games:
            records[record.index] = record
    return [records[i] for i in sorted(records)]


def plot(rows: list[dict], title: str, path: str) -> None:
    """Draw win rates with their 95% intervals as a bar chart (needs the optional `plot` extra)."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise SystemExit(
            "tabletop arena --plot needs matplotlib: pip install 'tabletop[plot]' (or pip install matplotlib)"
        ) from None
    names = [r["player"] for r in rows]
    rates = [100 * r["win_rate"] for r in rows]
    errors = [
        [100 * (r["win_rate"] - r["ci95"][0]) for r in rows],
        [100 * (r["ci95"][1] - r["win_rate"]) for r in rows],
    ]
    fig, ax = plt.subplots(figsize=(max(4, 1.6 * len(rows)), 4))
    ax.bar(names, rates, yerr=errors, capsize=6, color="#4c72b0")
    ax.set_ylabel("win rate per seat (%), 95% CI")
    ax.set_ylim(0, 100)
    ax.set_title(textwrap.fill(title, 38), fontsize=10)
    for i, rate in enumerate(rates):
        ax.text(i, rate / 2, f"{rate:.1f}%", ha="center", color="white")
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="tabletop arena", description=__doc__.splitlines()[0])
    parser.add_argument("--game", required=True, help="a registered game")
    parser.add_argument("--players", required=True, help="comma-separated specs, one per seat")
    parser.add_argument("--games", type=int, default=100, help="how many games to play (default 100)")
    parser.add_argument("--seed", type=int, default=1,
                        help="seed of the games' deals and of the players' random choices (default 1)")
    parser.add_argument("--rotate", action="store_true", help="rotate the seats (and so the first player) each game")
    parser.add_argument("--by-seat", action="store_true",
                        help="a row per player and seat (tells equal players apart; with a game option that fixes "
                        "sides to seats, per side)")
    parser.add_argument("--options", default="{}", help="game options as JSON")
    parser.add_argument("--simultaneous", choices=SIMULTANEOUS, default="random",
                        help="when several seats may act at once, who moves next: drawn move by move from the "
                        "game's seed (random, the default), or the lowest seat first (lowest: seat 0 finishes a "
                        "secret plan before seat 1 begins)")
    parser.add_argument("--jobs", type=int, default=1, help="processes to play games in")
    parser.add_argument("--json", action="store_true", help="print the results as JSON")
    parser.add_argument("--plot", metavar="FILE.png", help="draw the win rates (needs matplotlib)")
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
    parser.add_argument("--record", metavar="FILE.jsonl",
                        help="append each game to FILE as it ends, and skip the games FILE already holds for the "
                        "same game, players, seed, seating and options: a long run that is stopped goes on where it "
                        "was, and its results cover every game in FILE")
    args = parser.parse_args(argv)
    try:
        game = load_game(args.game)
    except KeyError:
        print(f"tabletop arena: unknown game {args.game!r} (known: {', '.join(registry.names())})",
              file=sys.stderr)
        return 2
    players = [p.strip() for p in args.players.split(",") if p.strip()]
    try:
        options = game.resolve_setup(len(players), json.loads(args.options))
        for spec in set(players):
            make_player(spec, game.info.name)
    except (ValueError, KeyError, GameError) as exc:
        print(f"tabletop arena: {exc}", file=sys.stderr)
        return 2
    if args.plot:  # fail before playing, not after
        try:
            import matplotlib  # noqa: F401
        except ImportError:
            print("tabletop arena --plot needs matplotlib: pip install 'tabletop[plot]'", file=sys.stderr)
            return 2
    run_key = {"game": game.info.name, "players": players, "seed": args.seed, "rotate": args.rotate,
               "options": options}
    if args.simultaneous != "random":  # named only when not the default
        run_key["simultaneous"] = args.simultaneous
    kept: list[GameRecord] = []
    if args.record:
        try:
            kept = read_record(args.record, run_key, args.games)
        except (OSError, ValueError) as exc:
            print(f"tabletop arena: --record {args.record}: {exc}", file=sys.stderr)
            return 2
    progress = None if args.quiet else Progress(max(1, args.games - len(kept)))
    started = time.monotonic()
    with open(args.record, "a") if args.record else contextlib.nullcontext() as record_file:

        def on_game(record: GameRecord) -> None:
            if record_file:
                record_file.write(json.dumps({**run_key, **_record_to_json(record)}) + "\n")
                record_file.flush()
            if progress:
                progress.step()

        records = run(game, players, args.games, args.seed, args.rotate, options, args.jobs, on_game=on_game,
                      done=frozenset(r.index for r in kept), simultaneous=args.simultaneous)
    seconds = time.monotonic() - started
    records = sorted(kept + records, key=lambda r: r.index)
    rows = summarise(records, args.by_seat)
    title = f"{game.info.title}: {', '.join(players)} ({args.games} games, seed {args.seed})"
    if args.json:
        print(json.dumps({
            "game": game.info.name, "players": players, "games": args.games, "seed": args.seed,
            "rotate": args.rotate, "options": options, "simultaneous": args.simultaneous,
            "seconds": round(seconds, 1), "results": rows,
        }, indent=2))
    else:
        print(title + (", rotating seats" if args.rotate else ""))
        print(f"{'player':20} {'seat-games':>10} {'win rate':>9} {'95% CI':>17} {'avg margin':>11} {'started':>8}")
        for r in rows:
            ci = f"[{100 * r['ci95'][0]:.1f}, {100 * r['ci95'][1]:.1f}]"
            print(f"{r['player']:20} {r['seat_games']:>10} {100 * r['win_rate']:>8.1f}% {ci:>17} "
                  f"{r['avg_margin']:>+11.2f} {r['started']:>8}")
        played = len(records) - len(kept)
        print(f"{len(records)} games" + (f" ({len(kept)} from {args.record}, {played} played now)" if kept else "")
              + f" in {seconds:.1f} s")
    if args.plot:
        plot(rows, title, args.plot)
    return 0

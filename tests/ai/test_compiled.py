"""The compiled path (mypyc: setup.py, games.compiled) and the pure path are the same program.

- A compiled install runs its compiled modules as extensions, and TABLETOP_PURE_PYTHON=1 runs them from their
  sources in the same install; a source edited since the build runs interpreted too (never a stale extension).
- Seeded searches with an iteration budget give the same move and the same statistics on both paths, for every
  game (the search's loop is compiled for all of them; some games' rules too).
- The conformance suite passes on the pure path too (on the compiled path it is the ordinary run).

The tests that compare the two paths skip, saying why, where nothing was compiled (no C compiler at install): the
pure path is then the only one, and every other test runs it.
"""

from __future__ import annotations

import ast
import collections
import hashlib
import importlib.machinery
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from games import compiled, registry

REPO = Path(__file__).resolve().parents[2]

needs_both = pytest.mark.skipif(
    not compiled.MODULES or not compiled.COMPILED,
    reason=f"only one path here: {compiled.PATH}",
)


def _pure_env() -> dict[str, str]:
    env = dict(os.environ)
    env[compiled.ENV] = "1"
    return env


def test_a_source_edited_since_the_build_is_stale(tmp_path):
    (tmp_path / "pkg").mkdir()
    source = tmp_path / "pkg" / "mod.py"
    source.write_text("X = 1\n")
    digest = hashlib.sha256(source.read_bytes()).hexdigest()
    assert compiled._stale(tmp_path, {"pkg.mod": digest}) == ["pkg.mod"]  # no extension beside it
    source.with_suffix(importlib.machinery.EXTENSION_SUFFIXES[0]).write_bytes(b"")
    assert compiled._stale(tmp_path, {"pkg.mod": digest}) == []
    source.write_text("X = 2\n")  # edited since
    assert compiled._stale(tmp_path, {"pkg.mod": digest}) == ["pkg.mod"]


def _listed_in_setup() -> tuple[str, ...]:
    """setup.py's COMPILED, as module names (read, not imported: importing setup.py runs the build)."""
    tree = ast.parse((REPO / "setup.py").read_text())
    for node in tree.body:
        if isinstance(node, ast.Assign) and [getattr(t, "id", None) for t in node.targets] == ["COMPILED"]:
            paths = ast.literal_eval(node.value)
            return tuple(path[: -len(".py")].replace("/", ".") for path in paths)
    raise AssertionError("setup.py has no COMPILED")


def _fixed_tuple_finals(source: str) -> list[str]:
    """The module-level `NAME: Final = (...)` of `source` whose value is a tuple display and whose annotation names
    no type: mypyc infers a fixed-length tuple, keeps it as a C struct and builds a new Python tuple (and one per
    tuple inside it) wherever the name is read as an object, e.g. indexed by a variable."""
    found = []
    for node in ast.parse(source).body:
        if (isinstance(node, ast.AnnAssign) and isinstance(node.annotation, ast.Name)
                and node.annotation.id == "Final" and isinstance(node.value, ast.Tuple)):
            found.append(f"line {node.lineno}: {ast.unparse(node.target)}")
    return found


def test_no_compiled_module_has_a_tuple_constant_built_at_each_read():
    """Naishi's seats to act (`_TURN[turn]`, `Final = ((0,), (1,))`) made three tuples on every move, compiled; a
    constant tuple is annotated `Final[tuple[X, ...]]` instead, which mypyc keeps as one Python object. Every module
    of the engines, not only the compiled ones: mypyc inlines a `Final` a compiled module imports from any other
    (Hinode's `SKILL_COST`, from its data module, was built anew at each skill played)."""
    assert _fixed_tuple_finals("from typing import Final\nA: Final = ((0,), (1,))\nB: Final[tuple[int, ...]] = (1,)\n"
                               "C: Final = tuple(range(3))\n") == ["line 2: A"]
    sources = {path.relative_to(REPO).as_posix() for path in (REPO / "games").rglob("*.py")}
    sources |= {module.replace(".", "/") + ".py" for module in _listed_in_setup()}
    offending = {source: found for source in sorted(sources)
                 if (found := _fixed_tuple_finals((REPO / source).read_text()))}
    assert not offending, f"annotate these Final[tuple[X, ...]]: {offending}"


@needs_both
def test_the_build_compiled_every_module_setup_lists():
    listed = _listed_in_setup()
    assert {"games.hinode.rules", "games.kungfur.rules", "games.naishi.rules", "games.zipang.rules",
            "ai.search.loop"} <= set(listed)
    assert set(compiled.MODULES) == set(listed)


@needs_both
def test_the_compiled_modules_run_compiled():
    import ai.search.loop  # noqa: F401 - loaded by ai.ismcts already; named for clarity
    for name in compiled.MODULES:
        __import__(name)
    assert compiled.loaded() == {name: True for name in compiled.MODULES}
    assert compiled.PATH.startswith("compiled by mypyc")
    # and what the engines and the search call is the compiled code: each game's rules module, where it is listed
    for game in registry.all_games():
        name = game.rules.__name__
        if name in compiled.MODULES:
            assert compiled.loaded()[name], name
    assert {g.rules.__name__ for g in registry.all_games()} & set(compiled.MODULES) >= {
        "games.hinode.rules", "games.kungfur.rules", "games.naishi.rules", "games.zipang.rules"}
    # each such game's frozen state is a native class, made by a native constructor (docs/architecture.md, *Frozen
    # states*), and its checked moves are those of the compiled engine base (games/checked.py)
    from games.checked import Engine
    assert "__mypyc_attrs__" in vars(Engine)
    for game in registry.all_games():
        if game.rules.__name__ in compiled.MODULES:
            assert "__mypyc_attrs__" in vars(game.state_type), game.info.name
            assert isinstance(game, Engine)
            assert all(getattr(type(game), name) is getattr(Engine, name)
                       for name in ("to_act", "legal_moves", "transition")), game.info.name
            # and it calls the rules through the game's native SearchRules class (natively, not as Python calls)
            assert type(game._native) is game.native_rules, game.info.name
            assert "__mypyc_attrs__" in vars(game.native_rules), game.info.name


@needs_both
def test_the_compiled_search_calls_each_game_through_its_native_class():
    """The compiled loop reaches the rules by native calls only through the game's own `SearchRules` class
    (games/search_rules.py): a game whose search fell back to the rules module's functions would still search
    alike, only slower, so this is what says it did not. A custom playout policy gets the functions."""
    import random

    from ai import ismcts
    from games.search_rules import SearchRules

    games = [g for g in registry.all_games() if g.rules.__name__ in compiled.MODULES]
    assert len(games) >= 4
    for game in games:
        rules, policy = ismcts.rules_and_policy(game)
        assert policy is not None and policy.search is not None, game.info.name
        # the engine names the same class as the game's playout policy (two names, one class)
        assert game.native_rules is policy.search, game.info.name
        searched = ismcts.search_rules(rules, policy, ismcts.SearchConfig(), random.Random(1))
        assert type(searched) is policy.search and compiled.loaded()[type(searched).__module__]
        assert searched.by_policy
        uniform = ismcts.search_rules(rules, policy, ismcts.SearchConfig(game_policy=False), random.Random(1))
        assert type(uniform) is policy.search and not uniform.by_policy
        custom = ismcts.SearchConfig(playout_policy=lambda rules, work, seat, moves, rng: moves[0])
        assert type(ismcts.search_rules(rules, policy, custom, random.Random(1))) is not policy.search
        assert isinstance(searched, SearchRules)


@needs_both
@pytest.mark.integration
def test_the_pure_path_runs_the_sources_in_the_same_install():
    code = ("import json, ai.ismcts, games.registry; from games import compiled; "
            "[__import__(n) for n in compiled.MODULES]; "
            "natives = [g._native is not None for g in games.registry.all_games()]; "
            "print(json.dumps([compiled.PATH, compiled.loaded(), natives]))")
    out = subprocess.run([sys.executable, "-c", code], env=_pure_env(), cwd=REPO, capture_output=True, text=True,
                         check=True).stdout
    path, loaded, natives = json.loads(out)
    assert path.startswith(f"pure Python ({compiled.ENV}=1")
    assert loaded == {name: False for name in compiled.MODULES}
    # the checked engine calls the rules module's functions: a method of the interpreted SearchRules class calling
    # the same function would be one more interpreted frame a call (games/checked.py)
    assert natives and not any(natives)


# Positions: four of a random game of each game at its fewest and its most seats, searched with a fixed iteration
# budget.
SEARCH = """
import json, random, sys
from ai import ismcts
from games import compiled, registry

def positions(game, seats, seed):
    rng = random.Random(seed)
    state = game.new_game(seats, {}, seed)
    found = []  # every decision with a choice
    while game.to_act(state):
        seat = min(game.to_act(state))
        moves = game.legal_moves(state, seat)
        if len(moves) > 1:
            found.append((state, seat))
        state = game.apply(state, seat, rng.choice(moves))
    return found[:: max(1, len(found) // 4)][:4]  # four, spread over the game

planted = sys.argv[1] if len(sys.argv) > 1 else None  # a search to run on another random stream (a divergence)
out = {}
for game in registry.all_games():
    # at the fewest seats and at the most: a game's search may differ by the table's size (Zipang's opponents in the
    # tree, its evidence)
    for seats in sorted({game.info.min_seats, game.info.max_seats}):
        for i, (state, seat) in enumerate(positions(game, seats, 7)):
            view = game.view(state, seat)
            key = f"{game.info.name}/{seats}/{i}"
            stream = i + 1000 if key == planted else i
            result = ismcts.search(game, view, seat, ismcts.Budget(iterations=300), random.Random(stream))
            out[key] = [result.move.id, result.iterations,
                        [[c.move_id, c.visits, c.mean_reward, c.win_rate] for c in result.candidates]]
print(json.dumps({"path": compiled.PATH, "searches": out}))
"""


def _searches(env: dict[str, str], *args: str) -> dict:
    done = subprocess.run([sys.executable, "-c", SEARCH, *args], env=env, cwd=REPO, capture_output=True, text=True,
                          check=True)
    return json.loads(done.stdout)


@pytest.mark.integration
def test_a_divergence_in_one_search_is_caught():
    """The comparison below has the resolution to see one search of one game go another way: the same path run
    twice, once with one search's random stream planted apart, differs there and nowhere else."""
    planted = "naishi/2/1"
    plain, diverged = _searches(_pure_env())["searches"], _searches(_pure_env(), planted)["searches"]
    assert planted in plain
    assert [key for key in plain if plain[key] != diverged[key]] == [planted]


@needs_both
@pytest.mark.integration
def test_both_paths_search_alike_move_for_move():
    runs = {"compiled": _searches(dict(os.environ, **{compiled.ENV: "0"})), "pure": _searches(_pure_env())}
    assert runs["compiled"]["path"].startswith("compiled by mypyc"), runs["compiled"]["path"]
    assert runs["pure"]["path"].startswith("pure Python"), runs["pure"]["path"]
    compiled_searches, pure_searches = runs["compiled"]["searches"], runs["pure"]["searches"]
    # four positions of every built-in game at each of its table sizes searched (the child process hosts no other
    # game; this one may, a test's toy game)
    per_table = collections.Counter(key.rsplit("/", 1)[0] for key in compiled_searches)
    names = {key.split("/")[0] for key in per_table}
    assert len(names) == len(registry.BUILTIN), per_table
    for name in names:
        info = registry.get(name).info
        assert {table for table in per_table if table.startswith(f"{name}/")} == {
            f"{name}/{seats}" for seats in (info.min_seats, info.max_seats)}, per_table
    assert set(per_table.values()) == {4}, per_table
    assert compiled_searches == pure_searches  # moves, visits, mean rewards and win rates, to the last bit


@needs_both
@pytest.mark.slow
@pytest.mark.integration
def test_the_conformance_suite_passes_on_the_pure_path():
    """tests/conformance again, with the compiled modules run from their sources (a tenth of the random games, as
    the fast tier plays; the compiled path plays them all in the ordinary run)."""
    env = _pure_env()
    env["KERNEL_GAMES"] = env.get("KERNEL_GAMES", "100")
    env["CONFORMANCE_GAMES"] = env.get("CONFORMANCE_GAMES", "52")
    env.pop("PYTEST_XDIST_WORKER", None)
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-x", "-p", "no:cacheprovider", "-m", "not slow", "tests/conformance"],
        env=env, cwd=REPO, capture_output=True, text=True, check=False,
    )
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]


# Every game's moves, their field types as the codec reads them (games.codec._hints) and as `__annotations__` say.
HINTS = """
import dataclasses, importlib, json
from games import codec, registry
from games.base import Move

out = {}
for name in registry.names():
    package = type(registry.descriptor(name).engine).__module__.rpartition(".")[0]
    for module in (importlib.import_module(package + ".moves"), importlib.import_module(package + ".state")):
        for cls in vars(module).values():
            if (isinstance(cls, type) and cls.__module__ == module.__name__ and cls is not Move
                    and dataclasses.is_dataclass(cls)):
                key = f"{cls.__module__}.{cls.__qualname__}"
                out[key] = [{k: repr(v) for k, v in codec._hints(cls).items()},
                            {k: repr(v) for k, v in cls.__annotations__.items()}]
print(json.dumps(out))
"""


@needs_both
@pytest.mark.integration
def test_the_codec_reads_a_compiled_moves_field_types_as_the_pure_path_does():
    """mypyc rewrites the annotations of a compiled module's classes (`int | None` reads back as `type`); the codec
    reads the types the source writes (games.compiled.field_types), so a stored move or state decodes alike on both
    paths."""
    def hints(env: dict[str, str]) -> dict:
        done = subprocess.run([sys.executable, "-c", HINTS], env=env, cwd=REPO, capture_output=True, text=True,
                              check=True)
        return json.loads(done.stdout)

    compiled_hints, pure_hints = hints(dict(os.environ)), hints(_pure_env())
    assert len(compiled_hints) >= 20 and compiled_hints.keys() == pure_hints.keys()
    assert {k: v[0] for k, v in compiled_hints.items()} == {k: v[0] for k, v in pure_hints.items()}
    # the case the codec's reading is for: some compiled annotations are not the written types
    rewritten = [k for k, (read, annotated) in compiled_hints.items() if read != annotated]
    assert "games.hinode.moves.PlayCard" in rewritten, rewritten
    # and a compiled module's native classes (Hinode's View and State)
    assert {"games.hinode.state.View", "games.hinode.state.State"} <= set(rewritten), rewritten

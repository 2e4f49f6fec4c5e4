"""The layers of ARCHITECTURE.md section 1, as an allow-list per top-level folder, checked on every module's imports.

Files are read with ast, nothing is imported. Absolute imports, relative ones (`from ..x import y`, resolved against
the module's package) and dynamic ones with a constant name (`importlib.import_module("x")`, `__import__("x")`) are
all read. `violations(root)` checks any checkout: the tests run it on this one, and on a scratch copy of it with
each kind of violation planted, to show that none of them slips through.
"""

from __future__ import annotations

import ast
import shutil
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

# Top-level folder -> the folders of ours it may import besides itself (the standard library and third-party
# packages are free, except for the engines below). Nothing imports tests, commands or bench but the tests and the
# command line (and the command line may import bench).
MAY_IMPORT: dict[str, set[str]] = {
    "tabletop": set(),  # the generated API and the kits every layer uses
    "games": {"tabletop"},  # adapters only (games/wire.py, games/<game>/{wire,render}.py); engines: ENGINE_STDLIB
    "service": {"games", "tabletop"},
    "ai": {"games", "tabletop"},
    "clients": {"games", "tabletop"},  # the SDK: tabletop; the terminal: games' renderers through the registry
    "gateway": {"tabletop"},
    "bench": {"tabletop", "games", "service", "ai", "clients", "gateway"},
    "commands": {"tabletop", "games", "service", "ai", "clients", "gateway", "bench"},
    "tests": {"tabletop", "games", "service", "ai", "clients", "gateway", "bench", "commands"},
}
# Where a layer may reach only part of a folder it may import.
ONLY: dict[tuple[str, str], tuple[str, ...]] = {
    ("clients", "games"): ("games.registry",),  # a client finds games' renderers by name, never their engines
    ("gateway", "tabletop"): ("tabletop.grpcweb", "tabletop.transport", "tabletop.logconfig", "tabletop.settings"),
}
# The standard library an engine may use: computing, not talking to the world (no logging, time, os, io, threads).
ENGINE_STDLIB = frozenset({
    "__future__", "abc", "array", "bisect", "collections", "copy", "dataclasses", "enum", "functools", "heapq",
    "itertools", "json", "math", "operator", "random", "re", "statistics", "string", "types", "typing",
})
EXTRA_STDLIB = {"games.registry": {"importlib"}}  # it imports the game packages it hosts


def _within(name: str, prefixes) -> bool:
    return any(name == p or name.startswith(p + ".") for p in prefixes)


def _imported(tree: ast.Module, package: str) -> dict[str, bool]:
    """Every module (or module.attribute) a module's code imports -> whether it does so when the module loads
    (outside any function)."""
    found: dict[str, bool] = {}

    def relative(level: int, name: str | None) -> str:
        base = package.split(".")[: max(0, package.count(".") + 2 - level)]
        return ".".join([*base, *([name] if name else [])])

    stack: list[tuple[ast.AST, bool]] = [(tree, False)]
    while stack:
        node, lazy = stack.pop()
        inner = lazy or isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda))
        stack.extend((child, inner) for child in ast.iter_child_nodes(node))
        names = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            head = relative(node.level, node.module) if node.level else node.module
            names = [f"{head}.{alias.name}" if head else alias.name for alias in node.names]
        elif (isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Constant)
              and isinstance(node.args[0].value, str)
              and getattr(node.func, "attr", getattr(node.func, "id", None)) in ("import_module", "__import__")):
            name = node.args[0].value
            dots = len(name) - len(name.lstrip("."))
            names = [relative(dots, name[dots:]) if dots else name]
        for name in names:
            found[name] = found.get(name, False) or not lazy
    return found


def packages(root: Path) -> list[str]:
    """The top-level packages of a checkout."""
    return sorted(p.name for p in root.iterdir() if (p / "__init__.py").is_file())


def modules(root: Path) -> dict[str, dict[str, bool]]:
    """Every module of ours under `root` -> what it imports (see _imported). Generated code is left out, and so
    are the tests, which may import anything."""
    found = {}
    for top in packages(root):
        if top == "tests":
            continue
        for path in sorted((root / top).rglob("*.py")):
            if path.name.endswith(("_pb2.py", "_pb2_grpc.py")) or "node_modules" in path.parts:
                continue
            parts = path.relative_to(root).with_suffix("").parts
            name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
            package = name if parts[-1] == "__init__" else ".".join(parts[:-1])
            found[name] = _imported(ast.parse(path.read_text(encoding="utf-8"), str(path)), package)
    return found


def violations(root: Path) -> list[str]:
    found = modules(root)
    report = [f"{top}/ is a top-level package with no row in MAY_IMPORT" for top in packages(root)
              if top not in MAY_IMPORT]
    games = {p.name for p in (root / "games").iterdir() if (p / "__init__.py").is_file()}
    adapters = ("games.wire", *(f"games.{g}.{kind}" for g in games for kind in ("wire", "render")))
    for module, imports in found.items():
        layer = module.split(".")[0]
        for name, eager in imports.items():
            why = _why(module, layer, name, eager, games, adapters)
            if why:
                report.append(f"{module} imports {name}: {why}")
    return sorted(report)


def _why(module: str, layer: str, name: str, eager: bool, games: set[str], adapters: tuple[str, ...]) -> str | None:
    """Why `module` may not import `name`, or None when it may."""
    top = name.split(".")[0]
    ours = top in MAY_IMPORT
    if layer not in MAY_IMPORT:
        return None  # reported once for the whole folder
    if ours and top != layer and top not in MAY_IMPORT[layer]:
        return f"{layer}/ may import {', '.join(sorted(MAY_IMPORT[layer])) or 'nothing'} of ours, not {top}/"
    if (layer, top) in ONLY and not _within(name, ONLY[layer, top]):
        return f"{layer}/ may import only {', '.join(ONLY[layer, top])} of {top}/"
    if layer == "games" and not _within(module, adapters):
        if top != "games" and top not in ENGINE_STDLIB | EXTRA_STDLIB.get(module, set()):
            return "an engine imports only ENGINE_STDLIB and games/ (the kits are for the adapters)"
        if _within(name, adapters):
            return "an engine knows no protos and no terminal (that is its adapters' job)"
    game = name.split(".")[1] if top == "games" and "." in name else None
    if game in games and not _within(module, (f"games.{game}",)):
        return "only a game's own folder imports it: everyone else finds it through games.registry"
    if module == "commands.cli" and ours and top != "commands" and eager:
        return "the composition root imports a part only when its command runs"
    return None


def test_the_layers_hold():
    assert {"tabletop", "games", "service", "ai", "clients", "gateway", "commands"} <= set(packages(ROOT))
    assert violations(ROOT) == []


# One of each kind of violation: (file, code appended to it or making it, what the check must report).
PLANTED = [
    ("games/hinode/planted.py", "import logging, time, socket\n", "games.hinode.planted imports logging"),
    ("games/hinode/planted.py", "import logging, time, socket\n", "games.hinode.planted imports time"),
    ("games/hinode/planted.py", "import logging, time, socket\n", "games.hinode.planted imports socket"),
    ("games/naishi/planted.py", "from ...service import store\n", "games.naishi.planted imports service.store"),
    ("games/zipang/planted.py", "from ..hinode import rules\n", "games.zipang.planted imports games.hinode.rules"),
    ("games/kungfur/planted.py", "__import__('os')\n", "games.kungfur.planted imports os"),
    ("games/kungfur/planted2.py", "from tabletop.v1 import kungfur_pb2\n",
     "games.kungfur.planted2 imports tabletop.v1.kungfur_pb2"),
    ("games/planted.py", "from games import wire\n", "games.planted imports games.wire"),
    ("games/hinode/render.py", "from clients.render import generic\n", "games.hinode.render imports clients.render"),
    ("ai/planted.py", "import importlib\nimportlib.import_module('service.store')\n",
     "ai.planted imports service.store"),
    ("ai/planted2.py", "from clients import sdk\n", "ai.planted2 imports clients.sdk"),
    ("ai/planted3.py", "def f():\n    import gateway.server\n", "ai.planted3 imports gateway.server"),
    ("service/planted.py", "from commands import cli\n", "service.planted imports commands.cli"),
    ("service/planted2.py", "import bench.arena\n", "service.planted2 imports bench.arena"),
    ("service/planted3.py", "from ..tests.support import messages\n",
     "service.planted3 imports tests.support.messages"),
    ("service/planted4.py", "from games.hinode import rules\n", "service.planted4 imports games.hinode.rules"),
    ("tabletop/planted.py", "def f():\n    from games import registry\n", "tabletop.planted imports games.registry"),
    ("clients/planted.py", "from games import wire\n", "clients.planted imports games.wire"),
    ("gateway/planted.py", "from tabletop.v1 import game_service_pb2\n",
     "gateway.planted imports tabletop.v1.game_service_pb2"),
    ("commands/cli.py", "from service import server\n", "commands.cli imports service.server"),
    ("extras/__init__.py", "", "extras/ is a top-level package with no row in MAY_IMPORT"),
]


@pytest.fixture(scope="module")
def planted_report(tmp_path_factory) -> list[str]:
    """The check on a scratch copy of the tree's Python files, every violation of PLANTED in it (each its own file,
    or appended to a file that is clean without it)."""
    copy = tmp_path_factory.mktemp("tree")
    keep = {"__pycache__", "node_modules"}
    for top in packages(ROOT):
        shutil.copytree(ROOT / top, copy / top, ignore=lambda folder, names: [
            n for n in names if n in keep or (not n.endswith(".py") and not (Path(folder) / n).is_dir())])
    for path, code in dict.fromkeys((path, code) for path, code, _ in PLANTED):
        target = copy / path
        target.parent.mkdir(exist_ok=True)
        with target.open("a", encoding="utf-8") as out:
            out.write("\n" + code)
    return violations(copy)


@pytest.mark.parametrize("expected", [expected for _, _, expected in PLANTED])
def test_each_planted_violation_is_caught(planted_report, expected):
    assert any(line.startswith(expected) for line in planted_report), planted_report


def test_nothing_but_the_planted_violations_is_reported(planted_report):
    assert len(planted_report) == len(PLANTED), planted_report

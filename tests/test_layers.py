"""The layers of ARCHITECTURE.md section 1, as an allow-list per top-level folder, checked on every module's imports.

Files are read with ast, nothing is imported. Absolute imports, relative ones (`from ..x import y`, resolved against
the module's package) and dynamic ones with a constant name (`importlib.import_module("x")`, `__import__("x")`) are
all read. `violations(root)` checks any checkout: the tests run it on this one, and on a scratch copy of it with
each kind of violation planted, to show that none of them slips through.
"""

from __future__ import annotations

import ast
import shutil
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
# The roots of the two distributions, each holding top-level packages: the server's (the repository's root) and
# the Python client's, tabletop-client (clients/python: tabletop.client and tabletop.v1). `tabletop` is a namespace
# package (PEP 420) with a portion in each.
SOURCE_ROOTS = (Path("."), Path("clients", "python"))
# The layers that are not a whole top-level package: the client distribution's part of the `tabletop` namespace.
SUBLAYERS = ("tabletop.client", "tabletop.v1")
API = "tabletop.v1"  # the generated API (not read: generated code)
KITS = {"tabletop", API}  # the server's kits (tabletop/: wire, terminal, transport, settings, ...) and the API

# Layer (a top-level package, or one of SUBLAYERS) -> the layers of ours it may import besides itself (the standard
# library and third-party packages are free, except for the engines and the client below). Nothing imports tests,
# commands or bench but the tests and the command line (and the command line may import bench).
MAY_IMPORT: dict[str, set[str]] = {
    API: set(),
    "tabletop.client": {API},  # the SDK, in a distribution of its own: the API, and CLIENT_DEPENDENCIES only
    "tabletop": {"tabletop.client", API},  # the kits every layer uses (transport names the client's plaintext rule)
    "games": KITS,  # adapters only (games/wire.py, games/<game>/{wire,render}.py); engines: ENGINE_STDLIB
    "service": {"games", *KITS},
    "ai": {"games", *KITS},
    "clients": {"games", "tabletop.client", *KITS},  # the terminal: the SDK, games' renderers through the registry
    "gateway": {"tabletop"},
    "bench": {"games", "service", "ai", "clients", "gateway", "tabletop.client", *KITS},
    "commands": {"games", "service", "ai", "clients", "gateway", "bench", "tabletop.client", *KITS},
    "tests": {"games", "service", "ai", "clients", "gateway", "bench", "commands", "tabletop.client", *KITS},
}
# What the client distribution may import besides the standard library and its API: its dependencies (grpcio,
# grpcio-status, protobuf; google.rpc comes with grpcio-status), so that it installs without any server code.
CLIENT_DEPENDENCIES = ("grpc", "grpc_status", "google.protobuf", "google.rpc")
# Where a layer may reach only part of a folder it may import.
ONLY: dict[tuple[str, str], tuple[str, ...]] = {
    ("clients", "games"): ("games.registry",),  # a client finds games' renderers by name, never their engines
    ("gateway", "tabletop"): ("tabletop.grpcweb", "tabletop.transport", "tabletop.logconfig", "tabletop.settings"),
}
# The standard library an engine may use: computing, not talking to the world (no logging, time, os, io, threads).
ENGINE_STDLIB = frozenset({
    "__future__", "abc", "array", "bisect", "collections", "copy", "dataclasses", "enum", "functools", "hashlib",
    "heapq", "itertools", "json", "math", "operator", "random", "re", "statistics", "string", "struct", "types",
    "typing",
})
EXTRA_STDLIB = {
    "games.registry": {"importlib"},  # it imports the game packages it hosts
    # which path runs (compiled or interpreted) is decided once, from the environment and the build's record
    "games.compiled": {"ast", "hashlib", "importlib", "os", "pathlib", "sys"},
    # the compiler's own decorator library (a dependency, as for every package mypyc builds): the native bases
    # that interpreted classes may derive from (games/move.py, games/search_rules.py, games/checked.py)
    "games.move": {"mypy_extensions"},
    "games.search_rules": {"mypy_extensions"},
    "games.checked": {"mypy_extensions"},
}


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


def layer_of(name: str) -> str:
    """The layer a module (or module.attribute) belongs to: one of SUBLAYERS, else its top-level package."""
    return next((sub for sub in SUBLAYERS if _within(name, (sub,))), name.split(".")[0])


def _is_package(folder: Path) -> bool:
    """A regular package, or a namespace portion (no __init__.py, but modules or packages in it)."""
    return folder.is_dir() and ((folder / "__init__.py").is_file() or any(folder.glob("*.py"))
                                or any(folder.glob("*/__init__.py")))


def package_folders(root: Path) -> list[Path]:
    """The folders of the top-level packages of a checkout, in each distribution's root."""
    return sorted(folder for source in SOURCE_ROOTS for folder in (root / source).iterdir() if _is_package(folder))


def packages(root: Path) -> list[str]:
    """The names of the top-level packages of a checkout."""
    return sorted({folder.name for folder in package_folders(root)})


def modules(root: Path) -> dict[str, dict[str, bool]]:
    """Every module of ours under `root` -> what it imports (see _imported). Generated code is left out, and so
    are the tests, which may import anything."""
    found = {}
    nested = [root / source for source in SOURCE_ROOTS if source != Path(".")]
    for folder in package_folders(root):
        if folder.name == "tests":
            continue
        source = folder.parent
        for path in sorted(folder.rglob("*.py")):
            if path.name.endswith(("_pb2.py", "_pb2_grpc.py")) or "node_modules" in path.parts:
                continue
            if any(inner != source and inner in path.parents for inner in nested):
                continue  # another distribution's (clients/python within clients/), read from its own root
            parts = path.relative_to(source).with_suffix("").parts
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
        layer = layer_of(module)
        for name, eager in imports.items():
            why = _why(module, layer, name, eager, games, adapters)
            if why:
                report.append(f"{module} imports {name}: {why}")
    return sorted(report)


def _why(module: str, layer: str, name: str, eager: bool, games: set[str], adapters: tuple[str, ...]) -> str | None:
    """Why `module` may not import `name`, or None when it may."""
    top = layer_of(name)
    ours = top in MAY_IMPORT
    if layer not in MAY_IMPORT:
        return None  # reported once for the whole folder
    if ours and top != layer and top not in MAY_IMPORT[layer]:
        return f"{layer}/ may import {', '.join(sorted(MAY_IMPORT[layer])) or 'nothing'} of ours, not {top}/"
    if (layer == "tabletop.client" and not ours and name.split(".")[0] not in sys.stdlib_module_names
            and not _within(name, CLIENT_DEPENDENCIES)):
        return f"the client distribution imports only the standard library, {', '.join(CLIENT_DEPENDENCIES)}"
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
    assert {"tabletop.client", "tabletop.transport", "tabletop.wire"} <= set(modules(ROOT))
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
    ("ai/planted2.py", "from clients import terminal\n", "ai.planted2 imports clients.terminal"),
    ("ai/planted3.py", "def f():\n    import gateway.server\n", "ai.planted3 imports gateway.server"),
    ("service/planted.py", "from commands import cli\n", "service.planted imports commands.cli"),
    ("service/planted2.py", "import bench.arena\n", "service.planted2 imports bench.arena"),
    ("service/planted3.py", "from ..tests.support import messages\n",
     "service.planted3 imports tests.support.messages"),
    ("service/planted4.py", "from games.hinode import rules\n", "service.planted4 imports games.hinode.rules"),
    ("tabletop/planted.py", "def f():\n    from games import registry\n", "tabletop.planted imports games.registry"),
    ("clients/planted.py", "from games import wire\n", "clients.planted imports games.wire"),
    ("clients/python/tabletop/client/planted.py", "import redis\n", "tabletop.client.planted imports redis"),
    ("clients/python/tabletop/client/planted2.py", "from tabletop.settings import flag\n",
     "tabletop.client.planted2 imports tabletop.settings.flag"),
    ("clients/python/tabletop/client/planted3.py", "from .. import wire\n",
     "tabletop.client.planted3 imports tabletop.wire"),
    ("ai/planted4.py", "from tabletop.client import connect\n", "ai.planted4 imports tabletop.client.connect"),
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

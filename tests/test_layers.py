"""The layers of ARCHITECTURE.md section 1, checked on every module's imports (read with ast, nothing imported).

- games/: the rules engines import the standard library and games' own shared modules only; a game's package
  imports no other game. Its adapters (wire.py: its public messages; render.py: its terminal drawing) are the
  only modules of a game folder that may reach further, each to its own layer's toolkit.
- service/ and ai/ never import each other; they meet over gRPC and the Redis job stream.
- clients/ never import the service, the AI or the command line's launcher (a client never starts servers).
- gateway/ (gRPC-Web for browsers) forwards raw bytes: it imports no game, service, AI, client or message.
- tabletop/ (generated code, wire mapping, Redis client, settings, logging, job shards) is the shared lower layer:
  it imports no service, AI, client or command.
- Nothing imports tests; only a game's own folder (and its tests) imports a game: everyone else finds games
  through games.registry, so adding a game touches no other package.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OURS = ("games", "service", "gateway", "ai", "clients", "tabletop", "commands", "tests")
SHARED_GAME_MODULES = ("games", "games.base", "games.codec", "games.kernel", "games.registry")
ADAPTERS = {
    "wire": ("games", "tabletop.wire", "tabletop.v1", "google.protobuf"),
    "render": ("clients.render", "tabletop.v1", "google.protobuf"),
}


def _modules() -> dict[str, set[str]]:
    """Every module of ours (not generated code) -> the modules it imports."""
    found: dict[str, set[str]] = {}
    for package in OURS:
        for path in (ROOT / package).rglob("*.py"):
            if path.name.endswith(("_pb2.py", "_pb2_grpc.py")):
                continue
            name = ".".join(path.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__")
            imports: set[str] = set()
            for node in ast.walk(ast.parse(path.read_text(), str(path))):
                if isinstance(node, ast.Import):
                    imports.update(alias.name for alias in node.names)
                elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                    imports.add(node.module)
                    imports.update(f"{node.module}.{alias.name}" for alias in node.names)
            found[name] = imports
    return found


MODULES = _modules()


def _within(name: str, prefixes: tuple[str, ...]) -> bool:
    return any(name == p or name.startswith(p + ".") for p in prefixes)


def _ours(name: str) -> bool:
    return name.split(".")[0] in OURS


def _violations(rule) -> list[str]:
    return sorted(f"{module} imports {imported}" for module, imports in MODULES.items()
                  for imported in imports if rule(module, imported))


def _stdlib(name: str) -> bool:
    return name.split(".")[0] in sys.stdlib_module_names or name == "__future__"


def test_the_rules_engines_import_only_the_standard_library_and_their_own_game():
    def broken(module: str, imported: str) -> bool:
        parts = module.split(".")
        if not _within(module, ("games",)) or (len(parts) >= 3 and parts[2] in ADAPTERS):
            return False  # not an engine module (adapters have a test of their own)
        if _stdlib(imported) or _within(imported, SHARED_GAME_MODULES[1:]) or imported == "games":
            return False
        if module in SHARED_GAME_MODULES:
            return True
        own, target = ".".join(parts[:2]), imported.split(".")
        return not (_within(imported, (own,)) and not (len(target) >= 3 and target[2] in ADAPTERS))

    assert _violations(broken) == []


def test_a_games_adapters_reach_only_their_own_layers_toolkit():
    def broken(module: str, imported: str) -> bool:
        parts = module.split(".")
        if parts[0] != "games" or len(parts) < 3 or parts[2] not in ADAPTERS:
            return False
        if _stdlib(imported) or _within(imported, ADAPTERS[parts[2]]):
            return False
        return not _within(imported, (".".join(parts[:2]),))

    assert _violations(broken) == []


def test_service_and_ai_never_import_each_other():
    assert _violations(lambda m, i: m.startswith("service") and _within(i, ("ai",))) == []
    assert _violations(lambda m, i: m.startswith("ai") and _within(i, ("service",))) == []


def test_clients_never_import_the_service_the_ai_or_the_launcher():
    assert _violations(lambda m, i: m.startswith("clients") and _within(i, ("service", "gateway", "ai",
                                                                             "commands"))) == []


def test_the_gateway_knows_no_game_and_no_rpc():
    """It forwards bytes: new RPCs and game plugins need nothing from it, so it imports no games, no service, no
    AI, no client and no generated message."""
    assert _violations(lambda m, i: _within(m, ("gateway",)) and _within(i, (
        "games", "service", "ai", "clients", "commands", "tabletop.v1", "tabletop.wire"))) == []


def test_the_shared_lower_layer_imports_nothing_above_it():
    assert _violations(lambda m, i: _within(m, ("tabletop",))
                       and _within(i, ("service", "ai", "clients", "commands"))) == []


def test_nothing_imports_the_tests():
    assert _violations(lambda m, i: not m.startswith("tests") and _within(i, ("tests",))) == []


def test_only_a_games_own_folder_imports_it():
    """Everyone else finds games through the registry: a new game touches no other package."""

    def broken(module: str, imported: str) -> bool:
        parts = imported.split(".")
        if parts[0] != "games" or len(parts) < 2 or imported in SHARED_GAME_MODULES or parts[1] in (
                "base", "codec", "kernel", "registry"):
            return False
        game = f"games.{parts[1]}"
        if _within(module, (game,)):
            return False
        return not module.startswith(f"tests.{parts[1]}") and not module.startswith("tests.")

    assert _violations(broken) == []


def test_the_check_sees_imports():
    """The rules above would pass on nothing: make sure the modules and their imports were read."""
    assert len(MODULES) > 80
    assert "games.base" in MODULES["games.hinode.rules"]
    assert "tabletop.v1.hinode_pb2" in MODULES["games.hinode.wire"] or "tabletop.v1" in MODULES["games.hinode.wire"]
    assert any(_within(i, ("games",)) for i in MODULES["service.tables"])

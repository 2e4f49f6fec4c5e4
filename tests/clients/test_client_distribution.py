"""The Python client is a distribution of its own (clients/python, `tabletop-client`): its wheel holds the SDK
(tabletop.client) and the generated API (tabletop.v1) and nothing of the server, needs only grpcio, grpcio-status
and protobuf, and works from the wheel alone against a real game service, loading no module of the server's."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
import sysconfig
import tomllib
import zipfile
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
CLIENT = REPO / "clients" / "python"
GENERATED = CLIENT / "tabletop" / "v1"
SERVER_PACKAGES = ("games", "service", "ai", "clients", "commands", "gateway", "bench", "tests", "redis")


def requirements(project: dict, key: str = "dependencies") -> dict[str, str]:
    """name -> the rest of the requirement (its version specifiers), for a pyproject's dependencies."""
    found = {}
    for requirement in project["project"][key]:
        name = re.match(r"[A-Za-z0-9_.-]+", requirement).group(0)
        found[name.lower()] = requirement[len(name):].strip()
    return found


def test_the_client_needs_grpc_and_protobuf_at_the_versions_its_generated_code_checks():
    """The generated code refuses, at import, a grpcio older than the grpcio-tools that made it and a protobuf
    runtime of another major version or older than its protoc: the client's requirements say just that."""
    client = tomllib.loads((CLIENT / "pyproject.toml").read_text())
    assert client["project"]["name"] == "tabletop-client"
    needs = requirements(client)
    assert set(needs) == {"grpcio", "grpcio-status", "protobuf"}
    grpc_versions = {m.group(1) for path in GENERATED.glob("*_pb2_grpc.py")
                     for m in re.finditer(r"GRPC_GENERATED_VERSION = '([0-9.]+)'", path.read_text())}
    protobuf_versions = {".".join(m.groups()) for path in GENERATED.glob("*_pb2.py") for m in re.finditer(
        r"ValidateProtobufRuntimeVersion\(\s*_runtime_version\.Domain\.PUBLIC,\s*(\d+),\s*(\d+),\s*(\d+),",
        path.read_text())}
    assert len(grpc_versions) == 1 and len(protobuf_versions) == 1, (grpc_versions, protobuf_versions)
    (grpc_version,), (protobuf_version,) = grpc_versions, protobuf_versions
    assert needs["grpcio"] == f">={grpc_version}"
    assert needs["protobuf"] == f">={protobuf_version},<{int(protobuf_version.split('.')[0]) + 1}"


def test_the_server_depends_on_the_client_and_ships_none_of_it():
    server = tomllib.loads((REPO / "pyproject.toml").read_text())
    client = tomllib.loads((CLIENT / "pyproject.toml").read_text())
    assert server["project"]["name"] != client["project"]["name"]
    assert requirements(server)["tabletop-client"] == f"=={client['project']['version']}"
    assert "clients.python*" in server["tool"]["setuptools"]["packages"]["find"]["exclude"]
    assert not (REPO / "tabletop" / "__init__.py").exists(), "tabletop is a namespace shared by both distributions"
    assert not (CLIENT / "tabletop" / "__init__.py").exists()


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    """The client's wheel, built offline from a copy of clients/python (so that no build/ lands in the tree)."""
    work = tmp_path_factory.mktemp("client-wheel")
    source = work / "source"
    shutil.copytree(CLIENT, source, ignore=shutil.ignore_patterns("__pycache__", "*.egg-info", "build"))
    built = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "--no-index",
                            "--quiet", "--wheel-dir", str(work / "dist"), str(source)],
                           capture_output=True, text=True, timeout=120)
    assert built.returncode == 0, built.stdout + built.stderr
    (path,) = (work / "dist").glob("tabletop_client-*.whl")
    return path


@pytest.mark.integration  # it builds a wheel and runs a process
def test_the_wheel_holds_the_sdk_and_the_api_and_nothing_of_the_server(wheel):
    names = zipfile.ZipFile(wheel).namelist()
    ours = [name for name in names if ".dist-info/" not in name]
    assert ours and all(name.startswith(("tabletop/client/", "tabletop/v1/")) for name in ours), ours
    assert {"tabletop/client/__init__.py", "tabletop/client/transport.py", "tabletop/client/py.typed",
            "tabletop/v1/game_service_pb2.py", "tabletop/v1/game_service_pb2.pyi",
            "tabletop/v1/game_service_pb2_grpc.py"} <= set(ours)
    generated = {path.name for path in GENERATED.iterdir() if path.suffix in (".py", ".pyi")}
    assert {name.removeprefix("tabletop/v1/") for name in ours if name.startswith("tabletop/v1/")} >= generated
    metadata = zipfile.ZipFile(wheel).read(next(n for n in names if n.endswith(".dist-info/METADATA"))).decode()
    assert re.search(r"^Name: tabletop-client$", metadata, re.MULTILINE)
    required = {re.match(r"[A-Za-z0-9_.-]+", line[len("Requires-Dist: "):]).group(0)
                for line in metadata.splitlines() if line.startswith("Requires-Dist: ")}
    assert required == {"grpcio", "grpcio-status", "protobuf"}


# Run from the unpacked wheel with no site (no .pth, so neither editable install of this clone) and a sys.path of
# the standard library, the wheel and the third-party packages: plays a move on a real service and reports.
FROM_THE_WHEEL = """
import json, sys
sys.path[:] = [WHEEL, *sys.path, *THIRD_PARTY]
import tabletop.client as sdk
from tabletop.client import Seat, connect
from tabletop.v1 import game_service_pb2 as pb

with connect(TARGET) as client:
    game = client.create_game("naishi", [Seat.human("Ann"), Seat.human("Bo")], start=True)
    ann = game.player(0)
    state = ann.state()
    after = ann.move(state.legal_moves[0].id)
    try:
        client.state("no-such-game")
        missing = None
    except sdk.NotFound as error:
        missing = error.reason
try:
    connect("play.example.com:50051", api_key="k")
    refused = False
except sdk.PlaintextRefused:
    refused = True
import tabletop
print(json.dumps({
    "moved": after.version > state.version and after.status == pb.GAME_STATUS_IN_PROGRESS,
    "missing": missing,
    "refused": refused,
    "files": sorted({m.__file__ for m in (sdk, sdk.transport, pb)}),
    "namespace": list(tabletop.__path__),
    "modules": sorted(sys.modules),
}))
"""


@pytest.mark.integration  # it builds a wheel and runs a process, against a real `tabletop serve`
def test_the_sdk_from_the_wheel_alone_plays_on_a_real_service_loading_no_server_code(wheel, tmp_path,
                                                                                     shared_service):
    unpacked = tmp_path / "site"
    zipfile.ZipFile(wheel).extractall(unpacked)
    paths = sysconfig.get_paths()
    third_party = sorted({paths["purelib"], paths["platlib"]})
    code = (f"WHEEL, THIRD_PARTY, TARGET = {str(unpacked)!r}, {third_party!r}, {shared_service.target!r}\n"
            + FROM_THE_WHEEL)
    done = subprocess.run([sys.executable, "-I", "-S", "-c", code], cwd=tmp_path, capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert report["moved"] and report["missing"] == "GAME_NOT_FOUND" and report["refused"], report
    assert all(Path(f).is_relative_to(unpacked) for f in report["files"]), report["files"]
    assert report["namespace"] == [str(unpacked / "tabletop")]
    server = [m for m in report["modules"] if m.split(".")[0] in SERVER_PACKAGES
              or (m.startswith("tabletop.") and not m.startswith(("tabletop.client", "tabletop.v1")))]
    assert server == []
    assert not any(str(REPO) in path for path in report["files"] + report["namespace"])

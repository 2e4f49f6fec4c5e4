"""The generated code in clients/python/tabletop/v1 (the API, in the client's distribution) and bench/v1 (the
benchmarks' own service) is what `make protos` makes from protos/ now; and only that build needs protoc
(grpcio-tools, a dev dependency)."""

import re
import tomllib
from pathlib import Path

from commands import protogen

REPO = Path(__file__).resolve().parents[1]


def test_generated_code_is_up_to_date():
    assert {source.relative_to(protogen.PROTOS).parts[0] for source in protogen.sources()} == {"tabletop", "bench"}
    stale = protogen.check()
    assert not stale, f"run `make protos`: stale generated files {stale}"


def test_only_the_proto_build_needs_grpcio_tools():
    """The image installs no dev extra, so nothing it runs (the service, the worker, the gateway, reflection, the
    benchmarks) may import grpc_tools: only commands/protogen.py names it."""
    project = tomllib.loads((REPO / "pyproject.toml").read_text())

    def names(requirements: list[str]) -> set[str]:
        return {re.match(r"[A-Za-z0-9_.-]+", requirement).group(0) for requirement in requirements}

    assert "grpcio-tools" not in names(project["project"]["dependencies"])
    assert "grpcio-tools" in names(project["project"]["optional-dependencies"]["dev"])
    shipped = [pattern.rstrip("*") for pattern in project["tool"]["setuptools"]["packages"]["find"]["include"]]
    users = sorted(str(path.relative_to(REPO)) for package in shipped for path in (REPO / package).rglob("*.py")
                   if "grpc_tools" in path.read_text())
    assert users == ["commands/protogen.py"]

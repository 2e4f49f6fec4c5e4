"""Regenerate the Python code of protos/ (`make protos`): clients/python/tabletop/v1/*_pb2*.py (the API, in the
tabletop-client distribution) and bench/v1/*_pb2*.py (the benchmarks' own service), and the API's comments
(clients/python/tabletop/v1/comments.binpb, see COMMENTS); `check()` tells whether they are stale."""

from __future__ import annotations

import filecmp
import shutil
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PROTOS = ROOT / "protos"
PACKAGES = ("tabletop", "bench")  # google/rpc: shipped for other languages, its Python code comes with grpcio-status
# Where each package's code goes: protos/tabletop/v1/x.proto -> clients/python/tabletop/v1/x_pb2.py (the client
# distribution's), protos/bench/v1/x.proto -> bench/v1/x_pb2.py.
OUT = {"tabletop": ROOT / "clients" / "python", "bench": ROOT}
# The API's .proto files with their comments (a FileDescriptorSet with source info), which the generated code
# leaves out: ListGameTypes sends a game's comments with its descriptors (tabletop.wire.file_descriptor_set), so a
# client can tell what a card does in the game's own words.
COMMENTS = Path("tabletop") / "v1" / "comments.binpb"


def destination(generated: Path, tmp: Path) -> Path:
    """Where a file protoc wrote under `tmp` belongs in the repository."""
    relative = generated.relative_to(tmp)
    return OUT[relative.parts[0]] / relative


def sources() -> list[Path]:
    return sorted(path for package in PACKAGES for path in (PROTOS / package).rglob("*.proto"))


def generate(out: Path) -> list[Path]:
    """Run protoc (from grpcio-tools) over every .proto; return the generated files."""
    import grpc_tools
    from grpc_tools import protoc

    include = Path(grpc_tools.__file__).parent / "_proto"
    protos = sources()
    if not protos:
        return []
    args = [
        "protoc",
        f"-I{PROTOS}",
        f"-I{include}",
        f"--python_out={out}",
        f"--pyi_out={out}",
        f"--grpc_python_out={out}",
        *[str(s.relative_to(PROTOS)) for s in protos],
    ]
    if protoc.main(args) != 0:
        raise SystemExit("protoc failed")
    api = [str(s.relative_to(PROTOS)) for s in protos if s.relative_to(PROTOS).parts[0] == "tabletop"]
    if protoc.main(["protoc", f"-I{PROTOS}", f"-I{include}", "--include_source_info",
                    f"--descriptor_set_out={out / COMMENTS}", *api]) != 0:
        raise SystemExit("protoc failed (comments)")
    generated = [out / COMMENTS]
    for s in protos:
        rel = s.relative_to(PROTOS).with_suffix("")
        for suffix in ("_pb2.py", "_pb2.pyi", "_pb2_grpc.py"):
            generated.append(out / rel.parent / (rel.name + suffix))
    return generated


def check() -> list[str]:
    """Names of generated files that differ from what protoc makes now (empty when up to date)."""
    with tempfile.TemporaryDirectory() as tmp:
        fresh = generate(Path(tmp))
        stale = []
        for f in fresh:
            committed = destination(f, Path(tmp))
            if not committed.exists() or not filecmp.cmp(f, committed, shallow=False):
                stale.append(str(committed.relative_to(ROOT)))
        return stale


def main() -> int:
    with tempfile.TemporaryDirectory() as tmp:
        for f in generate(Path(tmp)):
            dest = destination(f, Path(tmp))
            dest.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(f, dest)
            init = dest.parent / "__init__.py"
            if not init.exists():
                init.write_text("")
            print(f"wrote {dest.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

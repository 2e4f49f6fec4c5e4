"""The protos follow the API style the project chose (AIP / buf STANDARD): every element documented, enums
with an `_UNSPECIFIED = 0` value, lower_snake_case fields, and a request and a response message per RPC."""

from __future__ import annotations

import re
from pathlib import Path

import grpc_tools
import pytest
from google.protobuf import descriptor_pb2
from grpc_tools import protoc

from commands import protogen

PROTOS = Path(__file__).resolve().parents[2] / "protos"


@pytest.fixture(scope="module")
def files(tmp_path_factory) -> list[descriptor_pb2.FileDescriptorProto]:
    out = tmp_path_factory.mktemp("protos") / "set.pb"
    sources = [str(p.relative_to(PROTOS)) for p in protogen.sources()]  # ours only
    include = Path(grpc_tools.__file__).parent / "_proto"
    assert protoc.main(["protoc", f"-I{PROTOS}", f"-I{include}", "--include_source_info",
                        f"--descriptor_set_out={out}", *sources]) == 0
    return list(descriptor_pb2.FileDescriptorSet.FromString(out.read_bytes()).file)


def _documented(file: descriptor_pb2.FileDescriptorProto) -> set[tuple[int, ...]]:
    return {tuple(loc.path) for loc in file.source_code_info.location if loc.leading_comments.strip()}


def _elements(file):
    """(path, name, kind) of every message, field, enum, enum value, service and method."""

    def message(msg, path):
        yield path, msg.name, "message"
        for i, field in enumerate(msg.field):
            yield (*path, 2, i), f"{msg.name}.{field.name}", "field"
        for i, nested in enumerate(msg.nested_type):
            yield from message(nested, (*path, 3, i))
        for i, nested in enumerate(msg.enum_type):
            yield from enum(nested, (*path, 4, i))

    def enum(en, path):
        yield path, en.name, "enum"
        for i, value in enumerate(en.value):
            yield (*path, 2, i), value.name, "enum value"

    for i, msg in enumerate(file.message_type):
        yield from message(msg, (4, i))
    for i, en in enumerate(file.enum_type):
        yield from enum(en, (5, i))
    for i, service in enumerate(file.service):
        yield (6, i), service.name, "service"
        for j, method in enumerate(service.method):
            yield (6, i, 2, j), f"{service.name}.{method.name}", "method"


def test_every_element_is_documented(files):
    missing = [f"{f.name}: {kind} {name}" for f in files for path, name, kind in _elements(f)
               if path not in _documented(f)]
    assert not missing, "add a comment to: " + ", ".join(missing)


def test_names_and_enums_follow_the_style(files):
    for f in files:
        assert f.package in ("tabletop.v1", "tabletop.bench.v1"), f.name
        for _, name, kind in _elements(f):
            short = name.rsplit(".", 1)[-1]
            if kind == "field":
                assert re.fullmatch(r"[a-z][a-z0-9_]*", short), name
            elif kind in ("message", "enum", "service"):
                assert re.fullmatch(r"[A-Z][A-Za-z0-9]*", short), name
        enums = [*f.enum_type, *(e for m in f.message_type for e in m.enum_type)]
        for en in enums:
            assert en.value[0].number == 0 and en.value[0].name.endswith("_UNSPECIFIED"), en.name


def test_every_rpc_has_its_own_request_and_response(files):
    for f in files:
        for service in f.service:
            for method in service.method:
                prefixes = (method.name, service.name + method.name)
                assert any(method.input_type == f".{f.package}.{p}Request" for p in prefixes), method.name
                assert any(method.output_type == f".{f.package}.{p}Response" for p in prefixes), method.name

"""Protobuf wire helpers that know no game: a game's `GameWire` (the base of games/<game>/wire.py), packing into
`google.protobuf.Any`, and building serialised messages from parts serialised before.

A game's public messages (its view, its moves, its score breakdown) are its own, in its own words, defined in its
own .proto file; they travel packed in `google.protobuf.Any`. The mapping between them and the engine's
dataclasses is the game's `GameWire`, named by its registry descriptor (`wire="games.x.wire:WIRE"`). The mapping
is exact both ways, `view_from_proto(view_to_proto(v)) == v`, which the AI worker relies on to rebuild the engine
view it samples from (tests/service/test_wire.py checks it over random positions of every game). What needs the
registry (finding a game's wire, the JSON wire of a game without one, the API's messages of engine objects) is
games.wire, one layer up.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache
from importlib import resources
from typing import Any

from google.protobuf import any_pb2, descriptor_pb2
from google.protobuf.descriptor import Descriptor, FieldDescriptor, FileDescriptor
from google.protobuf.message import DecodeError, Message

__all__ = [
    "GameWire", "WireError", "field_bytes", "file_descriptor_set", "pack", "type_url", "undefined_enums", "unpack",
    "varint_bytes",
]

TYPE_URL_PREFIX = "type.googleapis.com/"


class WireError(ValueError):
    """An engine object and a proto message do not match (malformed input, or a schema drift)."""


class GameWire:
    """A game's public messages and their exact mapping to and from its engine objects (a view, a move: the
    engine's own dataclasses, which this layer does not know). Subclass per game."""

    view_message: type[Message]
    move_message: type[Message]
    score_message: type[Message] | None = None  # one int64 field per scoring category, by its lower_snake name

    def view_to_proto(self, view: Any) -> Message:
        raise NotImplementedError

    def view_bytes(self, view: Any) -> bytes:
        """The view's message, serialised. A game may build it faster from parts it serialised before (see
        field_bytes); the result must parse to the same message as view_to_proto's."""
        return self.view_to_proto(view).SerializeToString()

    def view_from_proto(self, message: Message) -> Any:
        raise NotImplementedError

    def move_to_proto(self, move: Any) -> Message:
        raise NotImplementedError

    def move_from_proto(self, message: Message) -> Any:
        raise NotImplementedError

    def breakdown_to_proto(self, breakdown: Iterable[tuple[str, int]]) -> Message | None:
        """A seat's breakdown as `score_message`: each category's points in the field named after it."""
        if self.score_message is None:
            return None
        message = self.score_message()
        fields = message.DESCRIPTOR.fields_by_name
        for category, points in breakdown:
            name = category.lower().replace(" ", "_").replace("-", "_")
            if name not in fields:
                raise WireError(f"{message.DESCRIPTOR.full_name} has no field for the category {category!r}")
            setattr(message, name, points)
        return message


def undefined_enums(message: Message) -> list[str]:
    """The enum fields of `message` (at any depth, in repeated fields and map values too) whose value is no number
    its enum defines, each said as "path is N, not a Type (NAME = n, ...)". Protobuf's enums are open: a parser
    keeps any number, so a request's 99 arrives as 99 and must be refused by whoever reads it. Not entered: an Any's
    contents (whoever unpacks it checks them)."""
    plan = _enum_plan(message.DESCRIPTOR)
    if not plan:
        return []
    found: list[str] = []
    _undefined(message, plan, "", found)
    return found


def _undefined(message: Message, plan: dict[str, FieldDescriptor], prefix: str, found: list[str]) -> None:
    for field, value in message.ListFields():
        if field.name not in plan:
            continue
        path = prefix + field.name
        if field.message_type is not None and field.message_type.GetOptions().map_entry:
            entry = field.message_type.fields_by_name["value"]
            for key, item in value.items():
                _check(entry, item, f"{path}[{key!r}]", found)
        elif field.is_repeated:
            for i, item in enumerate(value):
                _check(field, item, f"{path}[{i}]", found)
        else:
            _check(field, value, path, found)


def _check(field: FieldDescriptor, value: Any, path: str, found: list[str]) -> None:
    if field.enum_type is not None:
        if value not in field.enum_type.values_by_number:
            names = ", ".join(f"{v.name} = {v.number}" for v in field.enum_type.values)
            found.append(f"{path} is {value}, not a {field.enum_type.name} ({names})")
    else:
        _undefined(value, _enum_plan(field.message_type), path + ".", found)


@cache
def _enum_plan(descriptor: Descriptor) -> dict[str, FieldDescriptor]:
    """The fields of a message type that hold an enum or may hold one deeper down (by name); empty for most."""
    return {field.name: field for field in descriptor.fields if _holds_enums(field, frozenset())}


def _holds_enums(field: FieldDescriptor, seen: frozenset[str]) -> bool:
    if field.enum_type is not None:
        return True
    kind = field.message_type
    if kind is None or kind.full_name in seen or kind.full_name == any_pb2.Any.DESCRIPTOR.full_name:
        return False
    return any(_holds_enums(inner, seen | {kind.full_name}) for inner in kind.fields)


def pack(message: Message) -> any_pb2.Any:
    packed = any_pb2.Any()
    packed.Pack(message)
    return packed


def unpack(packed: any_pb2.Any, message_type: type[Message], what: str) -> Message:
    """The message `packed` holds; a WireError naming `what` was expected when it holds another type or bad bytes."""
    expected = TYPE_URL_PREFIX + message_type.DESCRIPTOR.full_name
    if packed.type_url != expected:
        raise WireError(f"expected {what} of type {expected}, got {packed.type_url or 'nothing'}")
    message = message_type()
    try:
        message.ParseFromString(packed.value)
    except DecodeError as exc:
        raise WireError(f"{what} is not a valid {message_type.DESCRIPTOR.full_name}: {exc}") from None
    return message


@cache
def type_url(message_type: type[Message]) -> bytes:
    """The type URL an Any holding a `message_type` carries, encoded."""
    return (TYPE_URL_PREFIX + message_type.DESCRIPTOR.full_name).encode()


def field_bytes(number: int, payload: bytes) -> bytes:
    """A length-delimited protobuf field (a message, a string or bytes), serialised: messages may be built from
    parts serialised before, since a parser takes the fields of a message in any order."""
    return varint_bytes(number << 3 | 2) + varint_bytes(len(payload)) + payload


def varint_bytes(value: int) -> bytes:
    """A non-negative integer as a protobuf varint."""
    if value < 0x80:
        return _ONE_BYTE[value]
    out = bytearray()
    while value > 0x7F:
        out.append(value & 0x7F | 0x80)
        value >>= 7
    out.append(value)
    return bytes(out)


_ONE_BYTE = [bytes((value,)) for value in range(0x80)]


@cache
def file_descriptor_set(*messages: type[Message]) -> bytes:
    """The .proto files that define `messages` and every file they import, each after its imports, as a serialized
    google.protobuf.FileDescriptorSet: what lets a client with no generated code of a game decode its messages."""
    ordered: dict[str, FileDescriptor] = {}

    def add(file: FileDescriptor) -> None:
        if file.name not in ordered:
            for imported in file.dependencies:
                add(imported)
            ordered[file.name] = file

    for message in messages:
        add(message.DESCRIPTOR.file)
    files = descriptor_pb2.FileDescriptorSet()
    comments = _api_comments()
    for file in ordered.values():
        proto = files.file.add()
        file.CopyToProto(proto)
        if file.name in comments:  # the generated code has no comments: what a card does is told in them
            proto.source_code_info.CopyFrom(comments[file.name])
    return files.SerializeToString()


@cache
def _api_comments() -> dict[str, descriptor_pb2.SourceCodeInfo]:
    """The comments of the API's .proto files by file name (`make protos` writes them beside the generated code,
    commands/protogen.py); none when they are missing."""
    try:
        data = (resources.files("tabletop.v1") / "comments.binpb").read_bytes()
    except (FileNotFoundError, ModuleNotFoundError):
        return {}
    return {f.name: f.source_code_info for f in descriptor_pb2.FileDescriptorSet.FromString(data).file}

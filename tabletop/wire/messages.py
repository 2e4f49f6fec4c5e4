"""Map engine dataclasses to protobuf messages and back, field by field, by name.

A per-game proto message mirrors its engine dataclass: the same field names, `repeated` for tuples and frozensets,
`optional` for `X | None`, a nested message for a nested dataclass. Proto cannot nest `repeated` directly, so a
tuple of tuples is a repeated wrapper message whose only field is `repeated ... values`, and a `None` inside a
tuple is a wrapper whose only field is `optional ... value` (a scalar or a message). A union of dataclasses is a
message with one `oneof` naming each variant by its class name in snake_case.

Towards the engine, the message becomes JSON-like data and `games.codec.decode` rebuilds the dataclass from its
type hints, so the checks (types, unknown or missing fields) are those of the codec: one decoder, not two.
"""

from __future__ import annotations

import dataclasses
import enum
import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from typing import Any

from google.protobuf.message import Message

from games import codec


class WireError(ValueError):
    """An engine object and a proto message do not match (a schema drift or malformed input)."""


def snake_case(name: str) -> str:
    return re.sub(r"(?<!^)(?=[A-Z])", "_", name).lower()


def to_message(obj: Any, message_type: type[Message]) -> Message:
    """Build a `message_type` message from the engine dataclass `obj`."""
    message = message_type()
    _fill(message, obj)
    return message


def from_message(message: Message, engine_type: Any) -> Any:
    """Rebuild the engine object of type `engine_type` from `message`."""
    try:
        return codec.decode(engine_type, _data(message))
    except codec.CodecError as exc:
        raise WireError(f"{message.DESCRIPTOR.full_name} does not fit {engine_type}: {exc}") from exc


# --- engine -> proto ----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Shape:
    """How to fill a message type, worked out once per type: its fields and whether it is a union or a wrapper."""

    names: tuple[str, ...]
    union: str | None  # the oneof's name when the message is a union of dataclasses (a oneof covering every field)
    fields: dict[str, tuple[bool, bool, bool]]  # name -> (repeated, message-typed, has presence)


@cache
def _shape(descriptor: Any) -> _Shape:
    real = [o for o in descriptor.oneofs if not o.name.startswith("_")]
    union = real[0].name if len(real) == 1 and len(real[0].fields) == len(descriptor.fields) else None
    fields = {f.name: (f.is_repeated, f.message_type is not None, f.has_presence) for f in descriptor.fields}
    return _Shape(tuple(fields), union, fields)


@cache
def _init_fields(cls: type) -> tuple[str, ...]:
    return tuple(f.name for f in dataclasses.fields(cls) if f.init)


def _fill(message: Message, obj: Any) -> None:
    """Copy `obj` (a dataclass, a sequence for a `values` wrapper, a scalar for a `value` wrapper) into `message`."""
    message.SetInParent()
    shape = _shape(message.DESCRIPTOR)
    wrapper = shape.names in (("values",), ("value",))
    # A dataclass goes into a wrapper's `value` (an optional item of a list) unless it has that very field itself.
    if dataclasses.is_dataclass(obj) and not (wrapper and _init_fields(type(obj)) != shape.names):
        if shape.union is not None:
            variant = snake_case(type(obj).__name__)
            if variant not in shape.fields:
                raise WireError(f"{message.DESCRIPTOR.full_name} has no variant {variant}")
            _fill(getattr(message, variant), obj)
            return
        _dataclass_filler(type(obj), message.DESCRIPTOR)(message, obj)
        return
    if wrapper:
        _set(message, shape, shape.names[0], obj)
        return
    raise WireError(f"cannot put {type(obj).__name__} into {message.DESCRIPTOR.full_name}")


@cache
def _dataclass_filler(cls: type, descriptor: Any) -> Callable[[Message, Any], None]:
    """A function that copies a `cls` dataclass into a message of `descriptor`, planned once per pair (this is
    the hot path of every GetState)."""
    shape = _shape(descriptor)
    missing = [name for name in _init_fields(cls) if name not in shape.fields]
    steps = [(name, *shape.fields[name]) for name in _init_fields(cls) if name in shape.fields]

    def fill(message: Message, obj: Any) -> None:
        if missing:
            raise WireError(f"{descriptor.full_name} has no field {missing[0]!r}")
        for name, repeated, is_message, has_presence in steps:
            value = getattr(obj, name)
            if value is None:
                if not has_presence:
                    raise WireError(f"{descriptor.full_name}.{name} cannot be null: make it optional")
                continue
            try:
                if repeated:
                    target = getattr(message, name)
                    if is_message:
                        for item in value if type(value) is tuple else _items(value):
                            _fill(target.add(), item)
                    elif type(value) is tuple:
                        try:
                            target.extend(value)
                        except TypeError:  # enums: their values go on the wire
                            del target[:]
                            target.extend([_scalar(item) for item in value])
                    else:
                        target.extend([_scalar(item) for item in _items(value)])
                elif is_message:
                    _fill(getattr(message, name), value)
                else:
                    try:
                        setattr(message, name, value)
                    except TypeError:
                        setattr(message, name, _scalar(value))
            except WireError:
                raise
            except (TypeError, ValueError) as exc:
                raise WireError(f"{descriptor.full_name}.{name}: {exc}") from exc

    return fill


def _scalar(value: Any) -> Any:
    return value.value if isinstance(value, enum.Enum) else value


def _items(value: Any) -> list[Any]:
    if isinstance(value, frozenset | set):
        return sorted(value, key=lambda x: json.dumps(codec.encode(x), sort_keys=True))
    if isinstance(value, tuple | list):
        return list(value)
    raise WireError(f"expected a sequence, got {type(value).__name__}")


def _set(message: Message, shape: _Shape, name: str, value: Any) -> None:
    if name not in shape.fields:
        raise WireError(f"{message.DESCRIPTOR.full_name} has no field {name!r}")
    repeated, is_message, has_presence = shape.fields[name]
    if value is None:
        if not has_presence:
            raise WireError(f"{message.DESCRIPTOR.full_name}.{name} cannot be null: make it optional")
        return
    try:
        if repeated:
            target = getattr(message, name)
            if is_message:
                for item in _items(value):
                    _fill(target.add(), item)
            else:
                target.extend([_scalar(item) for item in _items(value)])
        elif is_message:
            _fill(getattr(message, name), value)
        else:
            setattr(message, name, _scalar(value))
    except WireError:
        raise
    except (TypeError, ValueError) as exc:
        raise WireError(f"{message.DESCRIPTOR.full_name}.{name}: {exc}") from exc


# --- proto -> JSON-like data (then codec.decode) -------------------------------------------------------------


def _data(message: Message) -> Any:
    descriptor = message.DESCRIPTOR
    shape = _shape(descriptor)
    union = shape.union
    if union is not None:
        variant = message.WhichOneof(union)
        if variant is None:
            raise WireError(f"{descriptor.full_name}: no variant set")
        return _data(getattr(message, variant))
    if shape.names in (("values",), ("value",)):
        return _value(message, descriptor.fields[0])
    return {f.name: _value(message, f) for f in descriptor.fields}


def _value(message: Message, field: Any) -> Any:
    value = getattr(message, field.name)
    if field.is_repeated:
        return [_data(x) for x in value] if field.message_type is not None else list(value)
    if field.has_presence and not message.HasField(field.name):
        return None
    return _data(value) if field.message_type is not None else value

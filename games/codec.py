"""A schema-versioned JSON codec for engine data (states, views, moves): no pickle, ever.

`encode(obj)` turns frozen dataclasses, tuples, frozensets, ints, strings, bools, None and enums into JSON
values; `decode(cls, data)` rebuilds them from the dataclass type hints. `dumps` / `loads` wrap a document in
an envelope naming the game, the kind of object and the schema version, and refuse anything else, so bytes from
Redis are only ever parsed as JSON and checked against the types the engine declares.
"""

from __future__ import annotations

import dataclasses
import enum
import json
import types
import typing
from functools import cache
from typing import Any, TypeVar, Union, get_args, get_origin

T = TypeVar("T")

SCHEMA_VERSION = 1


class CodecError(ValueError):
    """The data does not match the declared type or schema."""


def encode(obj: Any) -> Any:
    if obj is None or isinstance(obj, bool | int | str | float):
        return obj
    if isinstance(obj, enum.Enum):
        return obj.value
    if dataclasses.is_dataclass(obj):
        return {f.name: encode(getattr(obj, f.name)) for f in _fields(type(obj))}
    if isinstance(obj, tuple | list):
        return [encode(x) for x in obj]
    if isinstance(obj, frozenset | set):
        return sorted((encode(x) for x in obj), key=lambda x: json.dumps(x, sort_keys=True))
    if isinstance(obj, dict):
        return {str(k): encode(v) for k, v in obj.items()}
    raise CodecError(f"cannot encode {type(obj).__name__}")


@cache
def _fields(cls: type) -> tuple[dataclasses.Field, ...]:
    return tuple(f for f in dataclasses.fields(cls) if f.init)


@cache
def _hints(cls: type) -> dict[str, Any]:
    return typing.get_type_hints(cls)


def decode(tp: Any, data: Any) -> Any:
    """Rebuild a value of type `tp` from JSON data, checking it as it goes."""
    origin = get_origin(tp)
    if tp is Any:
        return data
    if origin in (Union, types.UnionType):
        args = get_args(tp)
        if data is None and type(None) in args:
            return None
        errors = []
        for arg in args:
            if arg is type(None):
                continue
            try:
                return decode(arg, data)
            except CodecError as exc:
                errors.append(str(exc))
        raise CodecError(f"no variant of {tp} matches: {'; '.join(errors)}")
    if origin is tuple:
        args = get_args(tp)
        if not isinstance(data, list):
            raise CodecError(f"expected a list for {tp}, got {type(data).__name__}")
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(decode(args[0], x) for x in data)
        if len(args) != len(data):
            raise CodecError(f"expected {len(args)} items for {tp}, got {len(data)}")
        return tuple(decode(a, x) for a, x in zip(args, data, strict=True))
    if origin is frozenset:
        (arg,) = get_args(tp)
        if not isinstance(data, list):
            raise CodecError(f"expected a list for {tp}")
        return frozenset(decode(arg, x) for x in data)
    if origin is typing.Literal:
        if data not in get_args(tp):
            raise CodecError(f"{data!r} is not one of {get_args(tp)}")
        return data
    if isinstance(tp, type):
        if dataclasses.is_dataclass(tp):
            if not isinstance(data, dict):
                raise CodecError(f"expected an object for {tp.__name__}")
            hints = _hints(tp)
            kwargs = {}
            for f in _fields(tp):
                if f.name in data:
                    kwargs[f.name] = decode(hints[f.name], data[f.name])
                elif f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING:
                    raise CodecError(f"{tp.__name__} is missing field {f.name}")
            extra = set(data) - {f.name for f in _fields(tp)}
            if extra:
                raise CodecError(f"{tp.__name__} has unknown fields {sorted(extra)}")
            try:
                return tp(**kwargs)
            except (TypeError, ValueError) as exc:
                raise CodecError(f"invalid {tp.__name__}: {exc}") from exc
        if issubclass(tp, enum.Enum):
            try:
                return tp(data)
            except ValueError as exc:
                raise CodecError(str(exc)) from exc
        if tp is bool:
            if not isinstance(data, bool):
                raise CodecError(f"expected bool, got {data!r}")
            return data
        if tp is int:
            if isinstance(data, bool) or not isinstance(data, int):
                raise CodecError(f"expected int, got {data!r}")
            return data
        if tp is float:
            if isinstance(data, bool) or not isinstance(data, int | float):
                raise CodecError(f"expected number, got {data!r}")
            return float(data)
        if tp is str:
            if not isinstance(data, str):
                raise CodecError(f"expected str, got {data!r}")
            return data
        if tp is type(None):
            if data is not None:
                raise CodecError(f"expected null, got {data!r}")
            return None
    raise CodecError(f"unsupported type {tp!r}")


def dumps(game: str, kind: str, obj: Any) -> bytes:
    """Serialise `obj` (a state, view or move) in a versioned envelope."""
    doc = {"game": game, "kind": kind, "schema": SCHEMA_VERSION, "data": encode(obj)}
    return json.dumps(doc, separators=(",", ":"), sort_keys=True).encode()


def loads(game: str, kind: str, tp: type[T], raw: bytes | str) -> T:
    """Parse an envelope written by `dumps`, checking game, kind and schema version."""
    try:
        doc = json.loads(raw)
    except (ValueError, UnicodeDecodeError) as exc:
        raise CodecError(f"not JSON: {exc}") from exc
    if not isinstance(doc, dict):
        raise CodecError("envelope must be an object")
    if doc.get("game") != game or doc.get("kind") != kind:
        raise CodecError(f"expected a {game} {kind}, got a {doc.get('game')} {doc.get('kind')}")
    if doc.get("schema") != SCHEMA_VERSION:
        raise CodecError(f"unsupported schema version {doc.get('schema')!r} (this build reads {SCHEMA_VERSION})")
    return decode(tp, doc.get("data"))

"""The codec of engine data (states, views, moves): schema-versioned JSON, no pickle, ever.

`pack` / `unpack` store a value of a declared type positionally in an envelope naming the game, the kind of
object and the schema version, and refuse anything else, so bytes from Redis are only ever parsed as JSON and
checked against the types the engine declares. `encode` / `decode` give the same data as plain JSON values with
named fields, for the API of a game that has no messages of its own (games.wire.JsonWire) and for option defaults.
"""

from __future__ import annotations

import dataclasses
import enum
import json
import operator
import types
import typing
from functools import cache
from typing import Any, TypeVar, Union, get_args, get_origin

from games import compiled

T = TypeVar("T")

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


_hints = compiled.field_types  # the field types `cls` declares (a class compiled by mypyc: as its source writes them)


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


# --- The compiled, positional codec -----------------------------------------------------------------------------
# `encode` above walks any value by inspecting it, and names every field: fine for the API, too slow and too big
# for the engine state a service stores at every move. `pack` / `unpack` compile, once per
# type, a function that turns a value of that type into JSON-ready data (a dataclass as the list of its fields in
# declaration order; parts that are JSON already, such as tuples of ints, are left as they are) and one that checks
# and rebuilds it. A union of several kinds is stored as [variant index, value].

PACKED_SCHEMA = 3  # 3: every state records the seats to act (`acting`, games.base)


def _is_optional(args: tuple) -> bool:
    return len(args) == 2 and type(None) in args


@cache
def _packer(tp: Any) -> Any:
    """A function from a value of `tp` to JSON-ready data, or None where the value is JSON-ready as it is."""
    origin = get_origin(tp)
    if tp is Any or tp in (int, str, bool, float, type(None)) or origin is typing.Literal:
        return None
    if origin in (Union, types.UnionType):
        args = get_args(tp)
        if _is_optional(args):
            inner = _packer(next(a for a in args if a is not type(None)))
            return None if inner is None else (lambda v: None if v is None else inner(v))
        kinds = [(get_origin(a) or a, _packer(a)) for a in args]

        def pack_union(value: Any) -> Any:
            for index, (kind, packer) in enumerate(kinds):
                if isinstance(value, kind) and not (kind is int and isinstance(value, bool)):
                    return [index, packer(value) if packer else value]
            raise CodecError(f"{value!r} is no variant of {tp}")

        return pack_union
    if origin is tuple:
        args = get_args(tp)
        if len(args) == 2 and args[1] is Ellipsis:
            item = _packer(args[0])
            return None if item is None else (lambda v: [item(x) for x in v])
        items = [_packer(a) for a in args]
        if not any(items):
            return None
        return lambda v: [p(x) if p else x for p, x in zip(items, v, strict=True)]
    if origin is frozenset:
        item = _packer(get_args(tp)[0]) or (lambda x: x)
        return lambda v: sorted((item(x) for x in v), key=lambda x: json.dumps(x, sort_keys=True))
    if isinstance(tp, type) and issubclass(tp, enum.Enum):
        return lambda v: v.value
    if isinstance(tp, type) and dataclasses.is_dataclass(tp):
        hints = _hints(tp)
        names = [f.name for f in _fields(tp)]
        packers = [_packer(hints[n]) for n in names]
        if len(names) > 1:
            values = operator.attrgetter(*names)
        elif names:
            values = lambda v: (getattr(v, names[0]),)  # noqa: E731
        else:
            values = lambda v: ()  # noqa: E731 - a dataclass without fields (a move such as "end the turn")
        if not any(packers):
            return values  # a tuple: JSON-ready
        packed = [(i, p) for i, p in enumerate(packers) if p]

        def pack_dataclass(v: Any) -> list:
            out = list(values(v))
            for i, p in packed:
                out[i] = p(out[i])
            return out
        return pack_dataclass
    raise CodecError(f"unsupported type {tp!r}")


def _fail(tp: Any, data: Any) -> CodecError:
    return CodecError(f"expected {tp}, got {str(data)[:60]!r}")


@cache
def _unpacker(tp: Any) -> Any:
    """A function from packed data (see _packer) to a value of `tp`, checking it as it goes."""
    origin = get_origin(tp)
    if tp is Any:
        return lambda d: d
    if tp is int:
        def unpack_int(d: Any) -> int:
            if type(d) is not int:
                raise _fail(tp, d)
            return d
        return unpack_int
    if tp in (str, bool, type(None)):
        def unpack_exact(d: Any) -> Any:
            if type(d) is not tp:
                raise _fail(tp, d)
            return d
        return unpack_exact
    if tp is float:
        def unpack_float(d: Any) -> float:
            if type(d) not in (int, float):
                raise _fail(tp, d)
            return float(d)
        return unpack_float
    if origin is typing.Literal:
        allowed = get_args(tp)

        def unpack_literal(d: Any) -> Any:
            if d not in allowed:
                raise _fail(tp, d)
            return d
        return unpack_literal
    if origin in (Union, types.UnionType):
        args = get_args(tp)
        if _is_optional(args):
            inner = _unpacker(next(a for a in args if a is not type(None)))
            return lambda d: None if d is None else inner(d)
        variants = [_unpacker(a) for a in args]

        def unpack_union(d: Any) -> Any:
            if type(d) is not list or len(d) != 2 or type(d[0]) is not int or not 0 <= d[0] < len(variants):
                raise _fail(tp, d)
            return variants[d[0]](d[1])
        return unpack_union
    if origin is tuple:
        args = get_args(tp)
        if len(args) == 2 and args[1] is Ellipsis:
            item_type = args[0]
            if item_type is int:
                def unpack_ints(d: Any) -> tuple:
                    if type(d) is not list or not all(type(x) is int for x in d):
                        raise _fail(tp, d)
                    return tuple(d)
                return unpack_ints
            item = _unpacker(item_type)

            def unpack_items(d: Any) -> tuple:
                if type(d) is not list:
                    raise _fail(tp, d)
                return tuple([item(x) for x in d])
            return unpack_items
        items = [_unpacker(a) for a in args]

        def unpack_fixed(d: Any) -> tuple:
            if type(d) is not list or len(d) != len(items):
                raise _fail(tp, d)
            return tuple([u(x) for u, x in zip(items, d, strict=True)])
        return unpack_fixed
    if origin is frozenset:
        item = _unpacker(get_args(tp)[0])

        def unpack_set(d: Any) -> frozenset:
            if type(d) is not list:
                raise _fail(tp, d)
            return frozenset(item(x) for x in d)
        return unpack_set
    if isinstance(tp, type) and issubclass(tp, enum.Enum):
        def unpack_enum(d: Any) -> Any:
            try:
                return tp(d)
            except ValueError as exc:
                raise CodecError(str(exc)) from exc
        return unpack_enum
    if isinstance(tp, type) and dataclasses.is_dataclass(tp):
        hints = _hints(tp)
        unpackers = [_unpacker(hints[f.name]) for f in _fields(tp)]

        def unpack_dataclass(d: Any) -> Any:
            if type(d) is not list or len(d) != len(unpackers):
                raise _fail(tp.__name__, d)
            try:
                return tp(*[u(x) for u, x in zip(unpackers, d, strict=True)])
            except (TypeError, ValueError) as exc:
                raise CodecError(f"invalid {tp.__name__}: {exc}") from exc
        return unpack_dataclass
    raise CodecError(f"unsupported type {tp!r}")


def pack(game: str, kind: str, tp: type, obj: Any) -> bytes:
    """Serialise `obj` of type `tp` positionally (see above) in a versioned envelope: [game, kind, schema, data]."""
    packer = _packer(tp)
    return json.dumps([game, kind, PACKED_SCHEMA, packer(obj) if packer else obj], separators=(",", ":")).encode()


def unpack(game: str, kind: str, tp: type[T], raw: bytes | str) -> T:
    """Parse an envelope written by `pack`, checking game, kind, schema version and every value's type."""
    try:
        doc = json.loads(raw)
    except (ValueError, UnicodeDecodeError) as exc:
        raise CodecError(f"not JSON: {exc}") from exc
    if type(doc) is not list or len(doc) != 4:
        raise CodecError("envelope must be [game, kind, schema, data]")
    if doc[0] != game or doc[1] != kind:
        raise CodecError(f"expected a {game} {kind}, got a {doc[0]} {doc[1]}")
    if doc[2] != PACKED_SCHEMA:
        raise CodecError(f"unsupported schema version {doc[2]!r} (this build reads {PACKED_SCHEMA})")
    try:
        return _unpacker(tp)(doc[3])
    except RecursionError as exc:
        raise CodecError("data nested too deeply") from exc

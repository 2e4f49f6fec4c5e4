"""The gRPC-Web wire format (github.com/grpc/grpc, doc/PROTOCOL-WEB.md), shared by the gateway and its clients.

A body is a sequence of frames: one flag byte, a 4-byte big-endian length, the payload. Flag 0x00 carries a
message, flag 0x80 the trailers as an HTTP/1 header block (`grpc-status: 0\\r\\n...`). The `-text` content types
carry the same bytes in base64. Binary metadata (`-bin` keys) travels base64-encoded in both header blocks.
"""

from __future__ import annotations

import base64
import binascii
import re
import struct
from collections.abc import Iterable, Iterator
from urllib.parse import quote, unquote

MESSAGE = 0x00
TRAILERS = 0x80
HEADER = struct.Struct(">BI")
CONTENT_TYPES = ("application/grpc-web", "application/grpc-web+proto",
                 "application/grpc-web-text", "application/grpc-web-text+proto")
TIMEOUT = re.compile(r"^(\d{1,8})([HMSmun])$")
TIMEOUT_UNITS = {"H": 3600.0, "M": 60.0, "S": 1.0, "m": 1e-3, "u": 1e-6, "n": 1e-9}
MESSAGE_SAFE = "".join(chr(c) for c in range(0x20, 0x7F) if chr(c) != "%")  # the gRPC spec's percent-encoding
BASE64_BODY = re.compile(rb"[A-Za-z0-9+/=]*")
BASE64_SEGMENT = re.compile(rb"[A-Za-z0-9+/]*(?:={1,2}|$)")


class FrameError(ValueError):
    """A body that is not a sequence of gRPC-Web frames."""


def is_text(content_type: str) -> bool:
    return content_type.startswith("application/grpc-web-text")


def frame(flag: int, payload: bytes) -> bytes:
    return HEADER.pack(flag, len(payload)) + payload


def frames(body: bytes) -> Iterator[tuple[int, bytes]]:
    """(flag, payload) of every frame of a whole body."""
    offset = 0
    while offset < len(body):
        if len(body) - offset < HEADER.size:
            raise FrameError("a frame header is cut short")
        flag, length = HEADER.unpack_from(body, offset)
        offset += HEADER.size
        if len(body) - offset < length:
            raise FrameError(f"a frame announces {length} bytes but the body has {len(body) - offset} left")
        yield flag, body[offset:offset + length]
        offset += length


def decode_text(body: bytes) -> bytes:
    """The bytes of a -text body: base64, possibly several padded segments one after the other."""
    body = b"".join(body.split())
    if not BASE64_BODY.fullmatch(body):
        raise FrameError("the body is not base64")
    try:
        return b"".join(base64.b64decode(seg, validate=True) for seg in BASE64_SEGMENT.findall(body) if seg)
    except binascii.Error as exc:
        raise FrameError(f"the body is not base64: {exc}") from None


def metadata_value(key: str, value: str | bytes) -> str:
    """A metadata value as it goes into a header block: `-bin` values base64 (padded), the rest as they are."""
    if key.endswith("-bin"):
        raw = value if isinstance(value, bytes) else value.encode()
        return base64.b64encode(raw).decode()
    return value.decode() if isinstance(value, bytes) else value


def binary_header(value: str) -> bytes:
    """A `-bin` header's bytes (base64, padded or not)."""
    value = value.strip()
    try:
        return base64.b64decode(value + "=" * (-len(value) % 4), validate=True)
    except binascii.Error as exc:
        raise FrameError(f"a -bin header is not base64: {exc}") from None


def encode_message(message: str) -> str:
    """grpc-message as the gRPC spec percent-encodes it (UTF-8; printable ASCII but % as it is)."""
    return quote(message, safe=MESSAGE_SAFE)


def trailers(code: int, message: str, metadata: Iterable[tuple[str, str | bytes]] = ()) -> bytes:
    """The trailer frame: grpc-status, the percent-encoded grpc-message, then the trailing metadata."""
    lines = [f"grpc-status: {code}"]
    if message:
        lines.append(f"grpc-message: {encode_message(message)}")
    lines += [f"{key}: {metadata_value(key, value)}" for key, value in metadata if key not in ("grpc-status",
                                                                                             "grpc-message")]
    return frame(TRAILERS, ("\r\n".join(lines) + "\r\n").encode())


def parse_trailers(payload: bytes) -> dict[str, str]:
    """A trailer frame's header block as a dict of lower-case keys (grpc-message percent-decoded)."""
    found: dict[str, str] = {}
    for line in payload.decode("utf-8", "replace").split("\r\n"):
        key, sep, value = line.partition(":")
        if sep:
            found[key.strip().lower()] = value.strip()
    if "grpc-message" in found:
        found["grpc-message"] = unquote(found["grpc-message"])
    return found


def parse_timeout(value: str) -> float | None:
    """The seconds a `grpc-timeout` header gives (`10S`, `500m`), None when absent; FrameError when malformed."""
    if not value:
        return None
    match = TIMEOUT.match(value.strip())
    if not match:
        raise FrameError(f"grpc-timeout {value!r} is not digits and a unit (H, M, S, m, u, n)")
    return int(match.group(1)) * TIMEOUT_UNITS[match.group(2)]

"""The gRPC-Web wire format as the spec (grpc/grpc doc/PROTOCOL-WEB.md) writes it: length-prefixed frames, the
trailer frame with the 0x80 flag, base64 for -text bodies (several padded segments allowed) and -bin values,
grpc-message percent-encoded, grpc-timeout with its units."""

from __future__ import annotations

import base64

import pytest

from tabletop import grpcweb


def test_frames_round_trip_and_a_cut_body_is_refused():
    body = grpcweb.frame(grpcweb.MESSAGE, b"abc") + grpcweb.frame(grpcweb.MESSAGE, b"") + \
        grpcweb.trailers(0, "")
    flags = [flag for flag, _ in grpcweb.frames(body)]
    assert flags == [0x00, 0x00, 0x80]
    assert list(grpcweb.frames(body))[0][1] == b"abc"
    with pytest.raises(grpcweb.FrameError):
        list(grpcweb.frames(body[:-1]))
    with pytest.raises(grpcweb.FrameError):
        list(grpcweb.frames(b"\x00\x00"))


def test_trailers_carry_status_message_and_binary_metadata():
    details = bytes(range(256))
    payload = next(p for f, p in grpcweb.frames(grpcweb.trailers(
        9, "seat 0 has no move 'x' — 100%", [("grpc-status-details-bin", details), ("x-note", "hi")])))
    assert payload.startswith(b"grpc-status: 9\r\n") and payload.endswith(b"\r\n")
    assert b"%E2%80%94" in payload and b"100%25" in payload  # UTF-8 and % percent-encoded, the rest as is
    parsed = grpcweb.parse_trailers(payload)
    assert parsed["grpc-message"] == "seat 0 has no move 'x' — 100%"
    assert grpcweb.binary_header(parsed["grpc-status-details-bin"]) == details
    assert parsed["x-note"] == "hi"


def test_text_bodies_may_hold_several_padded_segments():
    first, second = grpcweb.frame(0, b"a"), grpcweb.frame(0, b"bc")
    body = base64.b64encode(first) + b"\n" + base64.b64encode(second)
    assert grpcweb.decode_text(body) == first + second
    with pytest.raises(grpcweb.FrameError):
        grpcweb.decode_text(b"not base64!")


def test_binary_headers_accept_unpadded_base64():
    assert grpcweb.binary_header(base64.b64encode(b"ab").decode().rstrip("=")) == b"ab"


@pytest.mark.parametrize(("header", "seconds"), [("", None), ("10S", 10.0), ("500m", 0.5), ("2M", 120.0),
                                                 ("1H", 3600.0), ("250000u", 0.25)])
def test_timeouts(header, seconds):
    assert grpcweb.parse_timeout(header) == seconds


@pytest.mark.parametrize("header", ["10", "S", "-1S", "1.5S", "123456789S"])
def test_malformed_timeouts_are_refused(header):
    with pytest.raises(grpcweb.FrameError):
        grpcweb.parse_timeout(header)

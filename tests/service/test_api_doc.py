"""The Python session in docs/api.md runs as written against a real server."""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path

from google.protobuf import json_format

from tabletop.v1 import game_service_pb2 as pb

API_DOC = Path(__file__).resolve().parents[2] / "docs" / "api.md"


def test_the_python_example_session_runs(server):
    code = re.search(r"```python\n(.*?)```", API_DOC.read_text(), re.S).group(1)
    code = code.replace("localhost:50051", server.target)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code, str(API_DOC), "exec"), {})
    assert "ranking" in out.getvalue() and "KIND_STARTED" in out.getvalue()


def test_the_grpcurl_request_bodies_parse_as_their_requests():
    """grpcurl is not needed for the tests: each `-d` body must parse as the request of the RPC it calls."""
    shell = re.search(r"```sh\n(.*?)```", API_DOC.read_text(), re.S).group(1)
    commands = re.findall(r"-d '(.*?)'.*?tabletop\.v1\.GameService/(\w+)", shell, re.S)
    assert len(commands) >= 6
    for body, method in commands:
        json_format.Parse(body, getattr(pb, f"{method}Request")())

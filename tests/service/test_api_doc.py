"""The Python session in docs/api.md runs as written against a real server."""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path

API_DOC = Path(__file__).resolve().parents[2] / "docs" / "api.md"


def test_the_python_example_session_runs(server):
    code = re.search(r"```python\n(.*?)```", API_DOC.read_text(), re.S).group(1)
    code = code.replace("localhost:50051", server.target)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code, str(API_DOC), "exec"), {})
    assert "ranking" in out.getvalue() and "KIND_STARTED" in out.getvalue()

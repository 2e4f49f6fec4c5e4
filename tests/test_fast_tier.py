"""The fast tier starts no server, browser or process stack: its guard (tests/conftest.py) fails a test that tries,
and a test that does belongs to the integration tier."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

pytestmark = pytest.mark.integration  # it runs pytest in a process of its own


PLANTED = '''
import asyncio, socket, subprocess, sys

import grpc
import pytest


def test_starts_a_process():
    subprocess.run([sys.executable, "-c", "pass"], check=True)


def test_starts_an_asyncio_process():
    async def run():
        proc = await asyncio.create_subprocess_exec(sys.executable, "-c", "pass")
        await proc.wait()
    asyncio.run(run())


def test_listens_on_a_socket():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))


def test_starts_a_grpc_server():
    grpc.server(None)


def test_starts_a_grpc_aio_server():
    grpc.aio.server()


@pytest.mark.integration
def test_marked_integration_may():
    subprocess.run([sys.executable, "-c", "pass"], check=True)


def test_pure_code_runs():
    assert sum(range(4)) == 6
'''


def test_the_fast_tier_guard_fails_every_kind_of_server_or_process(tmp_path):
    planted = ROOT / "tests" / f"test_zz_planted_{os.getpid()}.py"  # inside tests/, under its conftest
    planted.write_text(textwrap.dedent(PLANTED))
    try:
        run = subprocess.run(
            [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:xdist", str(planted),
             "-o", "addopts=-p no:valkey"],
            cwd=ROOT, env={**os.environ, "TABLETOP_FAST_TIER": "1"}, capture_output=True, text=True, timeout=300,
        )
    finally:
        planted.unlink()
    out = run.stdout + run.stderr
    assert "5 failed, 2 passed" in out, out
    assert out.count("FastTierViolation") >= 5, out


def test_the_makefile_s_fast_tier_turns_the_guard_on():
    makefile = (ROOT / "Makefile").read_text()
    fast = makefile[makefile.index("test-fast:"):]
    fast = fast[: fast.index("\n\n")]
    assert "TABLETOP_FAST_TIER=1" in fast and 'not integration and not slow' in fast

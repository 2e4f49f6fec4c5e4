"""The web table holds one WatchGame stream per table and leaves none behind (issue 26, item 1), in a real headless
Chromium against a local stack of its own (so that the gauges count its pages' streams only): a page creates a game
and is reloaded, goes home and back, and is closed; a spectator's page is left open while the browser closes. The
gateway's tabletop_gateway_calls_in_flight and the service's tabletop_streams_open{method="WatchGame"} come back to
what the open pages hold, and to zero once they are gone (clients/web/tests/streams.mjs)."""

from __future__ import annotations

import json
import os
import subprocess

import pytest

from tabletop.stack.launcher import WEB_DIST
from tests.frontends.test_frontends import CHROMIUM, WEB, WebStack, browser_or_skip


class MeteredStack(WebStack):
    """The web stack, remembering the metrics ports of its service and gateway."""

    def env(self) -> dict[str, str]:
        env = super().env()
        self.service_metrics = f"http://127.0.0.1:{env['TABLETOP_METRICS_PORT']}/metrics"
        self.gateway_metrics = f"http://127.0.0.1:{env['TABLETOP_GATEWAY_METRICS_PORT']}/metrics"
        return env


@pytest.fixture(scope="module")
def metered_stack(tmp_path_factory):
    from tabletop.stack.embedded_redis import free_port

    browser_or_skip()
    with MeteredStack(data_dir=tmp_path_factory.mktemp("streams-redis"), gateway_port=free_port(),
                      static_dir=WEB_DIST) as running:
        yield running


def test_a_table_holds_one_stream_and_closing_pages_and_the_browser_ends_them(metered_stack):
    ran = subprocess.run(["node", "tests/streams.mjs", metered_stack.gateway_url + "/", metered_stack.gateway_metrics,
                          metered_stack.service_metrics], cwd=WEB, capture_output=True, text=True, timeout=600,
                         env={**os.environ, "CHROMIUM": CHROMIUM})
    assert ran.returncode == 0, ran.stderr[-3000:]
    result = json.loads(ran.stdout.strip().splitlines()[-1])
    # One stream per table: creating a game, a reload, coming back to it, a spectator; none on the home page.
    assert result["loads"] == {"created": 1, "reloaded": 1, "home": 0, "back": 1, "spectator": 1}, result
    zero = {"gateway": 0, "service": 0}
    assert result["gauges"]["home"] == result["gauges"]["pageClosed"] == result["gauges"]["browserClosed"] == zero
    assert not result["pageErrors"]
    assert not [line for line in result["statusLines"] if "interrupted" in line], result["statusLines"]

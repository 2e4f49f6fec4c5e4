"""The SDK's watch survives a dropped stream: it resumes from the last version it received, so the watcher sees
every event exactly once, in order, whatever happened to the connection (docs/api.md: "To resume after a
disconnect, pass the last version received: no event is missed or repeated")."""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field

import pytest

from tabletop.client import RetryPolicy, Seat, connect
from tabletop.v1 import game_service_pb2 as pb
from tests.clients.proxy import CuttableProxy


def new_naishi(client):
    """A Naishi game between two human seats that the test plays itself."""
    game = client.create_game("naishi", [Seat.human("Ann"), Seat.human("Bo")], start=True)
    return game, {seat: game.player(seat) for seat in (0, 1)}


def play(client, game, players, moves: int, rng: random.Random) -> int:
    """Make up to `moves` moves (random, never declaring the end early); return how many were made."""
    made = 0
    while made < moves:
        public = client.state(game.game_id)
        if public.status == pb.GAME_STATUS_FINISHED:
            break
        player = players[public.to_act[0]]
        state = player.state()
        choices = [m.id for m in state.legal_moves if m.id != "declare_end"] or [m.id for m in state.legal_moves]
        player.move(rng.choice(choices), expected_version=None)
        made += 1
    return made


class Watcher(threading.Thread):
    """Follow a game through the SDK in the background, recording (version, kind, seat) of every event."""

    def __init__(self, client, game_id: str):
        super().__init__(daemon=True)
        self.client, self.game_id = client, game_id
        self.events: list[tuple[int, int, int | None]] = []
        self.error: BaseException | None = None
        self.changed = threading.Condition()  # notified at each event, and when the watch ends

    def run(self) -> None:
        try:
            for update in self.client.watch(self.game_id, resume_for=30):
                event = update.event
                with self.changed:
                    self.events.append((event.version, event.kind, event.seat if event.HasField("seat") else None))
                    self.changed.notify_all()
        except BaseException as exc:  # noqa: BLE001 - reported by the test
            self.error = exc
        with self.changed:
            self.changed.notify_all()

    def wait_for(self, version: int, timeout: float = 20.0) -> None:
        with self.changed:
            self.changed.wait_for(lambda: (self.events and self.events[-1][0] >= version) or not self.is_alive(),
                                  timeout)
            assert self.error is None, self.error
            assert self.events and self.events[-1][0] >= version, \
                f"the watcher is stuck at {self.events[-1:]}, expected {version}"


@dataclass(frozen=True)
class NoticedRetry(RetryPolicy):
    """A retry policy that tells when a call first failed and is being retried."""

    retrying: threading.Event = field(default_factory=threading.Event)

    def delays(self) -> Iterator[float]:
        for delay in super().delays():
            self.retrying.set()
            yield delay


def finish(client, game, players, rng) -> int:
    play(client, game, players, 10_000, rng)
    final = client.state(game.game_id)
    assert final.status == pb.GAME_STATUS_FINISHED
    return final.version


def assert_every_event_once(watcher: Watcher, client, game_id: str, final_version: int) -> None:
    watcher.join(30)
    assert not watcher.is_alive() and watcher.error is None, watcher.error
    versions = [v for v, _, _ in watcher.events]
    assert versions == list(range(1, final_version + 1)), "an event is missing or repeated"
    uninterrupted = [(u.event.version, u.event.kind, u.event.seat if u.event.HasField("seat") else None)
                     for u in client.watch(game_id)]
    assert watcher.events == uninterrupted


def test_watch_resumes_after_a_proxy_cuts_the_connection(service_process):
    rng = random.Random(5)
    proxy = CuttableProxy(service_process.port)
    direct, via_proxy = connect(service_process.target), connect(proxy.target)
    try:
        game, players = new_naishi(direct)
        watcher = Watcher(via_proxy, game.game_id)
        watcher.start()
        for _ in range(3):
            play(direct, game, players, 5, rng)
            watcher.wait_for(direct.state(game.game_id).version)
            proxy.cut()  # in the middle of the stream, while it waits for the next event
            play(direct, game, players, 3, rng)  # events that happen while the watcher is cut off
        final_version = finish(direct, game, players, rng)
        assert_every_event_once(watcher, direct, game.game_id, final_version)
        assert proxy.accepted >= 4, "each cut must have made the watcher reconnect"
    finally:
        direct.close()
        via_proxy.close()
        proxy.close()


@pytest.mark.parametrize("how", ["killed", "stopped"])
def test_watch_and_moves_survive_a_killed_or_stopped_and_restarted_service(service_process, how):
    rng = random.Random(6)
    patient = NoticedRetry(attempts=40, first_delay=0.05, max_delay=0.5)
    client = connect(service_process.target, retry=patient)
    try:
        game, players = new_naishi(client)
        watcher = Watcher(client, game.game_id)
        watcher.start()
        play(client, game, players, 6, rng)
        before = client.state(game.game_id)
        watcher.wait_for(before.version)
        state = players[before.to_act[0]].state()

        patient.retrying.clear()
        if how == "killed":
            service_process.kill()  # SIGKILL: the stream dies without a goodbye
        else:
            service_process.stop()  # SIGTERM: graceful, the open stream is ended after the grace period
        seat = before.to_act[0]
        mover = threading.Thread(target=players[seat].move, args=(state.legal_moves[0].id,), daemon=True)
        mover.start()  # sent while the service is down: retried with the same request_id until it is back
        assert patient.retrying.wait(30), "the move was not refused while the service was down"
        service_process.start()
        mover.join(30)
        assert not mover.is_alive()
        assert client.state(game.game_id).version == before.version + 1, "the retried move applies exactly once"

        final_version = finish(client, game, players, rng)
        assert_every_event_once(watcher, client, game.game_id, final_version)
    finally:
        client.close()


def test_watching_a_finished_game_from_its_last_version_ends_at_once(service_process):
    with connect(service_process.target) as client:
        game, players = new_naishi(client)
        final_version = finish(client, game, players, random.Random(7))
        started = time.monotonic()
        assert list(client.watch(game.game_id, from_version=final_version)) == []
        assert [u.event.version for u in client.watch(game.game_id, from_version=final_version - 1)] == [
            final_version]
        assert time.monotonic() - started < 5, "nothing to wait for"

"""Check a stored game against the replay of its event log: the judge of the chaos benchmark, and an operator's
consistency check after an incident.

A game is consistent when its events are numbered 1..version without a gap or a repeat, every move in them is
legal where it stands (the replay applies them with the engine's checks), and the replay ends in exactly the
stored state, status and seats (who sits where). A move lost after it was acknowledged, or applied twice, breaks
one of these, or the caller's own ledger of acknowledged moves (see `Audit.moves`)."""

from __future__ import annotations

from dataclasses import dataclass, field

from games import registry
from service.store import GameStore
from service.tables import Replay


@dataclass
class Audit:
    game_id: str
    version: int = 0
    status: str = ""
    moves: dict[int, tuple[int, str]] = field(default_factory=dict)  # version -> (seat, move id), from the log
    problems: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems


async def audit_game(store: GameStore, game_id: str) -> Audit:
    """Replay `game_id`'s log and compare it with the stored game."""
    result = Audit(game_id)
    record, _ = await store.load(game_id)
    if record is None:
        result.problems.append("the game is gone")
        return result
    result.version, result.status = record.version, record.status
    events = await store.events(game_id)
    versions = [event.version for event in events]
    if versions != list(range(1, record.version + 1)):
        result.problems.append(f"events {versions[:3]}...{versions[-3:]} are not 1..{record.version}")
    try:
        game = registry.get(record.game_type)
    except registry.UnknownGame:
        result.problems.append(f"unknown game type {record.game_type!r}")
        return result
    replay = Replay(game)
    for event in events:
        try:
            replay.step(event)
        except Exception as exc:  # noqa: BLE001 - any failure to replay is a finding, reported with its event
            result.problems.append(f"event {event.version} ({event.get('kind')}) does not replay: {exc!r}")
            return result
        if event.get("kind") == "move":
            result.moves[event.version] = (int(event.get("seat")), event.get("move_id"))
    stored = game.load_state(record.state) if record.state else None
    if replay.state != stored:
        result.problems.append(f"the replay of {len(events)} events differs from the stored state")
    if replay.status != record.status:
        result.problems.append(f"the replay's status {replay.status!r} differs from the stored {record.status!r}")
    if _public(replay.seats) != _public(record.seats):  # events carry seats without their secrets and states
        result.problems.append("the replay's seats differ from the stored seats")
    return result


def _public(seats) -> list[tuple[str, str, str]]:
    return [(seat.kind, seat.name, seat.strength) for seat in seats]

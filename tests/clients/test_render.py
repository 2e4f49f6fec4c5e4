"""The renderers against every position of random games, built exactly as the service sends them (the engine's
view through tabletop.wire): a seat sees its own hand on screen, a spectator sees no hand, and nothing crashes."""

from __future__ import annotations

import random

import pytest

from clients import render
from clients.render import Style
from games import registry, wire
from games.base import Words
from games.hinode.data import NAWABARI
from tabletop.v1 import game_service_pb2 as pb


def game_state(game_type: str, game, state, seat: int | None, seats: int, version: int) -> pb.GameState:
    message = pb.GameState(game_id="g", game_type=game_type, status=pb.GAME_STATUS_IN_PROGRESS, version=version,
                           seats=[pb.SeatInfo(seat=s, kind=pb.SEAT_KIND_HUMAN, name=f"Player{s}")
                                  for s in range(seats)],
                           to_act=sorted(game.to_act(state)))
    if seat is not None:
        message.your_seat = seat
        if seat in game.to_act(state):
            words = Words(tuple(f"Player{s}" for s in range(seats)), seat, seat)
            message.legal_moves.extend(wire.legal_moves_to_proto(game, game.legal_moves(state, seat), words))
    message.view.CopyFrom(wire.view_to_any(game, game.view(state, seat)))
    if game.is_over(state):
        message.status = pb.GAME_STATUS_FINISHED
    return message


@pytest.mark.parametrize(("game_type", "seats"), [("hinode", 3), ("naishi", 2)])
def test_every_position_renders_for_seats_and_spectators(game_type, seats):
    game = registry.get(game_type)
    rng = random.Random(11)
    style = Style(colour=True)
    for game_number in range(3):
        state = game.new_game(seats, {}, seed=game_number)
        before: dict[int | None, pb.GameState] = {}
        for version in range(1, 400):
            for seat in [*range(seats), None]:
                message = game_state(game_type, game, state, seat, seats, version)
                screen = "\n".join(render.render_state(message, style))
                assert "game g" in screen
                if seat is None:
                    assert "Your hand" not in screen and "(you)" not in screen
                else:
                    assert "(you)" in screen
                render.describe_changes(before.get(seat), message)
                render.render_moves(message, style)
                before[seat] = message
            if game.is_over(state):
                break
            seat = min(game.to_act(state))
            state = game.apply(state, seat, rng.choice(list(game.legal_moves(state, seat))))
        assert game.is_over(state)


def test_hinode_shows_the_seats_own_cards_and_the_town():
    game = registry.get("hinode")
    state = game.new_game(2, {}, seed=3)
    message = game_state("hinode", game, state, 0, 2, 1)
    screen = "\n".join(render.render_state(message, Style()))
    hand_line = next(line for line in screen.splitlines() if line.startswith("  Your hand:"))
    by_suit = {}
    for card in state.hands[0]:
        by_suit.setdefault(("red", "blue", "yellow")[card // 13], []).append(str(card % 13 + 1))
    for suit, numbers in by_suit.items():
        assert f"{suit} {' '.join(numbers)}" in hand_line
    assert "Hero" in hand_line
    assert "P3 proxy 3" in screen and "P4 proxy 4" in screen
    bonus = ("red", "blue", "yellow", "white")[NAWABARI[state.layout[12]].colour]
    assert f"Bonus Area: {bonus}" in screen
    # Each Area shows its Nawabari colour and VP and the resources on it, row by row.
    first = NAWABARI[state.layout[0]]
    cubes = state.cubes[:3]
    town = screen.splitlines()
    row_one = next(i for i, line in enumerate(town) if line.startswith("  r1 "))
    assert f"{('red', 'blue', 'yellow', 'white')[first.colour]} {state.vp[2 * state.layout[0]]}/" in town[row_one - 1]
    assert f"r{cubes[0]} b{cubes[1]} y{cubes[2]}" in town[row_one]


def test_an_event_tells_a_move_by_its_label_to_each_reader_then_what_else_it_changed():
    """Every reader gets the move's label told to it ("You ..." to the mover, "P0 ..." to the others), then the
    effects the label does not say; a secret move (no label) is told by what changed, or as "P1 moved"."""
    from clients.terminal import event_lines

    game = registry.get("hinode")
    names = ("Player0", "Player1", "Player2", "Player3")
    before = game.new_game(4, {}, 3)
    seat = min(game.to_act(before))
    move = game.legal_moves(before, seat)[0]
    after = game.apply(before, seat, move)
    for viewer in (seat, (seat + 1) % 4, None):
        event = pb.GameEvent(version=3, kind=pb.GameEvent.KIND_MOVE, seat=seat, move_id=move.id,
                             move_label=move.describe(Words(names, seat, viewer)))
        update = pb.WatchGameResponse(event=event, state=game_state("hinode", game, after, viewer, 4, 3))
        told = event_lines(update, game_state("hinode", game, before, viewer, 4, 2))
        expected = "You choose the tribe " if viewer == seat else f"Player{seat} chooses the tribe "
        assert len(told) == 1 and told[0].startswith(f"  v3 {expected}"), told
    # A whole trick: the label says the card; the effects add what the label cannot (the judgment).
    state = before
    while True:  # up to the move that completes the first trick
        last = min(game.to_act(state))
        card = game.legal_moves(state, last)[0]
        judged = game.apply(state, last, card)
        if judged.trick > state.trick:
            break
        state = judged
    event = pb.GameEvent(version=9, kind=pb.GameEvent.KIND_MOVE, seat=last, move_id=card.id,
                         move_label=card.describe(Words(names, last, None)))
    told = event_lines(pb.WatchGameResponse(event=event, state=game_state("hinode", game, judged, None, 4, 9)),
                       game_state("hinode", game, state, None, 4, 8))
    assert told[0] == f"  v9 {event.move_label}" and event.move_label.startswith(f"Player{last} ")
    assert any("Trick 1 judged" in line for line in told[1:]), told
    # A secret move: no label, nothing visible changed.
    unseen = game_state("naishi", registry.get("naishi"), registry.get("naishi").new_game(2, {}, 1), None, 2, 3)
    quiet = pb.WatchGameResponse(event=pb.GameEvent(version=3, kind=pb.GameEvent.KIND_MOVE, seat=1), state=unseen)
    assert event_lines(quiet, unseen) == ["  v3 Player1 moved"]

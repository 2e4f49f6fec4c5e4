"""The renderers against every position of random games, built exactly as the service sends them (the engine's
view through tabletop.wire): a seat sees its own hand on screen, a spectator sees no hand, and nothing crashes."""

from __future__ import annotations

import random

import pytest

from clients import render
from clients.render import Style
from games import registry
from tabletop import wire
from tabletop.v1 import game_service_pb2 as pb


def game_state(game_type: str, game, state, seat: int | None, seats: int, version: int) -> pb.GameState:
    message = pb.GameState(game_id="g", game_type=game_type, status=pb.GAME_STATUS_IN_PROGRESS, version=version,
                           seats=[pb.SeatInfo(seat=s, kind=pb.SEAT_KIND_HUMAN, name=f"Player{s}")
                                  for s in range(seats)],
                           to_act=sorted(game.to_act(state)))
    if seat is not None:
        message.your_seat = seat
        if seat in game.to_act(state):
            message.legal_moves.extend(wire.legal_moves_to_proto(game, game.legal_moves(state, seat)))
    message.view.CopyFrom(wire.view_to_proto(game, game.view(state, seat)))
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


def test_hinode_shows_the_seats_own_cards():
    game = registry.get("hinode")
    state = game.new_game(2, {}, seed=3)
    message = game_state("hinode", game, state, 0, 2, 1)
    screen = "\n".join(render.render_state(message, Style()))
    hand_line = next(line for line in screen.splitlines() if line.startswith("  Your hand:"))
    for card in message.view.hinode.hand:
        assert str(card % 13 + 1) in hand_line
    assert "Bonus Area" in screen and "P3 proxy 3" in screen


def test_the_renderers_codes_agree_with_the_engines_data_tables():
    """The clients may not import the engines, so they keep copies of the codes that the protos document."""
    from clients.render import hinode as hinode_render
    from clients.render import naishi as naishi_render
    from games.hinode import data
    from games.naishi.data import NAMES

    assert [hinode_render.nawabari_colour(card) for card in range(data.NAWABARI_CARDS)] == list(data.NAWABARI_COLOUR)
    assert hinode_render.COLOURS == data.COLOUR_NAMES and hinode_render.HERO == data.HERO
    assert [hinode_render.card_name(card) for card in range(data.BATTLE_CARDS + 1)] == [
        data.card_name(card).replace("hero", "Hero") for card in range(data.BATTLE_CARDS + 1)]
    assert len(hinode_render.TRIBES) == len(data.TRIBE_TITLES)
    assert naishi_render.NAMES == NAMES


def test_an_event_tells_your_move_by_its_label_and_anothers_by_what_it_changed():
    """Another seat's public move is told by its effects on your view; its label stands in when nothing shows."""
    from clients.terminal import event_lines

    game = registry.get("hinode")
    before = game.new_game(4, {}, 3)
    seat = min(game.to_act(before))
    move = game.legal_moves(before, seat)[0]
    after = game.apply(before, seat, move)
    event = pb.GameEvent(version=3, kind=pb.GameEvent.KIND_MOVE, seat=seat, move_id=move.id, move_label=move.label)
    for viewer in (seat, (seat + 1) % 4, None):
        update = pb.WatchGameResponse(event=event, state=game_state("hinode", game, after, viewer, 4, 3))
        told = event_lines(update, game_state("hinode", game, before, viewer, 4, 2))
        if viewer == seat:
            assert told == [f"  v3 You: {move.label}"]
        else:
            assert len(told) == 1 and told[0].startswith(f"  v3 Player{seat} chose the tribe "), told
    unseen = game_state("naishi", registry.get("naishi"), registry.get("naishi").new_game(2, {}, 1), None, 2, 3)
    quiet = pb.WatchGameResponse(event=pb.GameEvent(version=3, kind=pb.GameEvent.KIND_MOVE, seat=1,
                                                    move_id="end_turn", move_label="End your turn"), state=unseen)
    assert event_lines(quiet, unseen) == ["  v3 Player1: End your turn"]

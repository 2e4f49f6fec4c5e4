"""`tabletop play` at the start of a Naishi game: the other seat gives its card while the player is choosing, and
the player's gift is played, not refused as "the game moved on" (issue: the AI's gift refused nearly every first
move in the terminal; docs/api.md, `expected_version`)."""

from __future__ import annotations

import builtins

from clients.render import Style
from clients.terminal import Table
from tabletop.client import Seat, connect


def test_the_other_seats_gift_while_the_player_chooses_does_not_refuse_the_players_gift(shared_service,
                                                                                      monkeypatch, capsys):
    with connect(shared_service.target) as client:
        game = client.create_game("naishi", [Seat.human("Ann"), Seat.human("Bo")], start=True)
        ann, bo = game.player(0), game.player(1)
        state = ann.state()
        assert sorted(state.to_act) == [0, 1]
        typed = []

        def the_player_types(prompt: str) -> str:
            if not typed:  # while Ann reads her screen, Bo gives his card
                bo.move(bo.state().legal_moves[0].id)
            typed.append(prompt)
            return "1"

        monkeypatch.setattr(builtins, "input", the_player_types)
        assert Table(ann, Style(), "easy").decide(state) is True
        said = capsys.readouterr().out
        assert "not played" not in said, said
        assert len(typed) == 1
        after = client.state(game.game_id)
        assert after.version == state.version + 2
        assert [e.seat for e in after.recent_events[-2:]] == [1, 0], "Bo's gift, then Ann's"

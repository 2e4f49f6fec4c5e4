"""Secret Duel's messages (toy.proto) <-> its engine objects, exactly both ways: the AI worker rebuilds from the
message the view it searches."""

from __future__ import annotations

import toy_pb2  # generated from toy.proto by the plugin's build (tests/test_plugins.py), on the processes' path

from tabletop.wire import GameWire
from tests.support.toygame import Commit, View


class ToyWire(GameWire):
    view_message = toy_pb2.ToyView
    move_message = toy_pb2.ToyMove
    score_message = toy_pb2.ToyScoreBreakdown

    def view_to_proto(self, view: View) -> toy_pb2.ToyView:
        return toy_pb2.ToyView(
            seat=view.seat, hand=view.hand, hand_sizes=view.hand_sizes, committed=view.committed,
            own_commit=view.own_commit, revealed=[toy_pb2.ToyRound(cards=cards) for cards in view.revealed],
            points=view.points, double=view.double,
        )

    def view_from_proto(self, message: toy_pb2.ToyView) -> View:
        return View(
            seat=message.seat if message.HasField("seat") else None,
            hand=tuple(message.hand),
            hand_sizes=tuple(message.hand_sizes),
            committed=tuple(message.committed),
            own_commit=message.own_commit if message.HasField("own_commit") else None,
            revealed=tuple(tuple(r.cards) for r in message.revealed),
            points=tuple(message.points),
            double=message.double,
        )

    def move_to_proto(self, move: Commit) -> toy_pb2.ToyMove:
        return toy_pb2.ToyMove(card=move.card)

    def move_from_proto(self, message: toy_pb2.ToyMove) -> Commit:
        return Commit(message.card)


WIRE = ToyWire()

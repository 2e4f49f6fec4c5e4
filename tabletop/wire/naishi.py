"""Naishi's typed messages (protos/tabletop/v1/naishi.proto), mirroring games/naishi/state.py and moves.py by field
name; a territory's score breakdown by the scorepad's categories."""

from tabletop.v1 import naishi_pb2
from tabletop.wire import GameWire

WIRE = GameWire(
    field="naishi", view=naishi_pb2.NaishiView, move=naishi_pb2.NaishiMove, score=naishi_pb2.NaishiScoreBreakdown
)

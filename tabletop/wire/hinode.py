"""Hinode's typed messages (protos/tabletop/v1/hinode.proto), mirroring games/hinode/state.py by field name."""

from tabletop.v1 import hinode_pb2
from tabletop.wire import GameWire

WIRE = GameWire(field="hinode", view=hinode_pb2.HinodeView, move=hinode_pb2.HinodeMove)

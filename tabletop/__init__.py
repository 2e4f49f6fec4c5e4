"""Tabletop: the `tabletop` command (composition root), the generated protos (tabletop.v1) and the wire mapping."""

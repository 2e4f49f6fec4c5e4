"""Terminal drawing primitives over tabletop.v1 messages, for every game's renderer and the terminal client.

`style` paints (ANSI colours, only on a terminal that wants them), `screen` fits one decision (a board and the legal
moves) to the screen and wraps and clips lines, `table` draws the game-independent pieces (seats, moves, score,
a suggestion). They know no game: a game's renderer (games/<game>/render.py) draws its board with them, and
clients.render picks that renderer through the registry.
"""

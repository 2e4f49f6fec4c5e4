"""ANSI colours, only for a terminal that wants them."""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass
from typing import TextIO

_CODES = {
    "bold": "1", "dim": "2", "red": "31", "green": "32", "yellow": "33", "blue": "34", "magenta": "35",
    "cyan": "36", "white": "37",
}


@dataclass(frozen=True)
class Style:
    """`paint(text, "bold", "red")` wraps text in ANSI codes when colour is on, else returns it unchanged."""

    colour: bool = False

    @classmethod
    def for_stream(cls, stream: TextIO = sys.stdout) -> Style:
        """Colour only on a terminal, and never when NO_COLOR is set (https://no-color.org)."""
        isatty = getattr(stream, "isatty", lambda: False)
        return cls(colour=bool(isatty()) and not os.environ.get("NO_COLOR"))

    def paint(self, text: str, *names: str) -> str:
        if not self.colour or not names:
            return text
        return f"\x1b[{';'.join(_CODES[n] for n in names)}m{text}\x1b[0m"

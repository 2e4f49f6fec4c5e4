"""The seeded chance the rules draw from, compiled with the rules that call it (setup.py)."""

from __future__ import annotations

import random


def chance(seed: int, *salt: int | str) -> random.Random:
    """A random generator determined by a state's seed and a salt naming the chance event."""
    return random.Random(f"{seed}:{':'.join(map(str, salt))}")

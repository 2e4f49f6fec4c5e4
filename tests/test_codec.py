"""games.codec's compiled positional codec (pack / unpack), which stores every engine state: exact round trips
(the conformance suite plays every game through it), and bytes that do not match the declared types refused with
CodecError, never turned into a wrong value."""

from __future__ import annotations

import enum
import json
from dataclasses import dataclass

import pytest

from games import codec


class Colour(enum.Enum):
    RED = "red"
    BLUE = "blue"


@dataclass(frozen=True)
class Card:
    suit: int
    colour: Colour


@dataclass(frozen=True)
class Table:
    seed: int
    name: str
    open: bool
    cards: tuple[Card, ...]
    hands: tuple[tuple[int, ...], ...]
    owner: int | None
    pair: tuple[int, str]
    seen: frozenset[int]
    either: int | str


TABLE = Table(7, "t", True, (Card(1, Colour.RED), Card(2, Colour.BLUE)), ((1, 2), ()), None, (3, "x"),
              frozenset({4, 2}), "s")


def test_a_value_packs_to_its_fields_in_order_and_back():
    raw = codec.pack("toy", "state", Table, TABLE)
    assert json.loads(raw) == ["toy", "state", codec.PACKED_SCHEMA,
                               [7, "t", True, [[1, "red"], [2, "blue"]], [[1, 2], []], None, [3, "x"], [2, 4],
                                [1, "s"]]]
    assert codec.unpack("toy", "state", Table, raw) == TABLE
    assert codec.unpack("toy", "state", Table, codec.pack("toy", "state", Table, TABLE)) == TABLE


@pytest.mark.parametrize("position, bad", [
    (0, True),  # a bool is no int
    (0, "7"),
    (1, 5),
    (3, [[1, "green"]]),  # no such enum value
    (3, [[1]]),  # a field missing
    (4, [[1, "2"]]),
    (5, 1.5),
    (6, [3]),  # a pair needs two
    (8, [2, "s"]),  # no such variant
])
def test_data_that_does_not_match_the_types_is_refused(position, bad):
    data = json.loads(codec.pack("toy", "state", Table, TABLE))
    data[3][position] = bad
    with pytest.raises(codec.CodecError):
        codec.unpack("toy", "state", Table, json.dumps(data))


def test_an_envelope_of_another_game_kind_or_schema_is_refused():
    for envelope in (["other", "state", codec.PACKED_SCHEMA], ["toy", "view", codec.PACKED_SCHEMA],
                     ["toy", "state", 1]):
        with pytest.raises(codec.CodecError):
            codec.unpack("toy", "state", Table, json.dumps([*envelope, []]))
    with pytest.raises(codec.CodecError):
        codec.unpack("toy", "state", Table, b"\x00not json")

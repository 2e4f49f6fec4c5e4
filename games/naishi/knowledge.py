"""What each observer knows of the Naishi Hands it cannot see (`State.knowledge`), and how the public events change
it: compiled with the rules (setup.py), which fold the events into it whenever they freeze a state (a checked move
does, every move). From an interpreted module these were interpreted calls (the fold was 14% of a compiled checked
move, by callgrind, when HandKnowledge was a frozen dataclass made by its `__init__`)."""

from __future__ import annotations

from games.naishi.data import HAND_MOUNTAINS, MOUNTAIN
from games.naishi.state import HandKnowledge
from games.tuples import with_item


def _knowledge(slots: tuple[int | None, ...], among: tuple[int, ...]) -> HandKnowledge:
    """A HandKnowledge (its native constructor, compiled)."""
    return HandKnowledge(slots=slots, among=among)


def knowledge_index(observer: int | None, owner: int) -> int:
    """Where `observer`'s knowledge of `owner`'s Hand is kept (observer != owner)."""
    return 2 + owner if observer is None else observer


def _remove_one(among: tuple[int, ...], card: int) -> tuple[int, ...]:
    """`among` without its first `card`, if it has one (a loop over ints compiled: `in` and `index` on a tuple
    compare each item as an object)."""
    for i, known in enumerate(among):
        if known == card:
            return among[:i] + among[i + 1 :]
    return among


def initial_knowledge(gifts: tuple[int | None, ...]) -> tuple[HandKnowledge, ...]:
    """After the gifts: each Hand holds 3 Mountains, and its owner's opponent knows the card it gave."""
    unknown = (None,) * 5
    mountains = (MOUNTAIN,) * HAND_MOUNTAINS
    assert gifts[0] is not None and gifts[1] is not None
    return (
        _knowledge(unknown, tuple(sorted((*mountains, gifts[0])))),  # seat 0 gave gifts[0] to Hand 1
        _knowledge(unknown, tuple(sorted((*mountains, gifts[1])))),
        _knowledge(unknown, mountains),
        _knowledge(unknown, mountains),
    )


def revealed_replacement(k: HandKnowledge, pos: int, old: int, new: int) -> HandKnowledge:
    """The card at `pos` left the Hand face up (`old`) and `new` took its place in view of everyone."""
    among = k.among if k.slots[pos] is not None else _remove_one(k.among, old)
    return _knowledge(with_item(k.slots, pos, new), among)


def switched(k: HandKnowledge, a: int, b: int) -> HandKnowledge:
    """Two Hand cards switched places: what was known of each moves with it."""
    slots = list(k.slots)
    slots[a], slots[b] = slots[b], slots[a]
    return _knowledge(tuple(slots), k.among)


def _weakened(among: tuple[int, ...]) -> tuple[int, ...]:
    """An unseen card left the unknown slots: it may have been any one of `among`, so drop one of each type."""
    result: list[int] = []
    for card in sorted(set(among)):
        result.extend([card] * (among.count(card) - 1))
    return tuple(result)


def decreed_hands(knowledge: tuple[HandKnowledge, ...], pos: int, card0: int, card1: int) -> tuple[HandKnowledge, ...]:
    """Both Hands exchanged their cards at `pos`: each seat sees what it gets and knows what it gave."""
    k01, k10, p0, p1 = knowledge
    k01 = revealed_replacement(k01, pos, card1, card0)  # seat 0 got card1 from Hand 1 and put card0 there
    k10 = revealed_replacement(k10, pos, card0, card1)
    new_p0 = _knowledge(
        p0.slots[:pos] + (p1.slots[pos],) + p0.slots[pos + 1 :],
        p0.among if p0.slots[pos] is not None else _weakened(p0.among),
    )
    new_p1 = _knowledge(
        p1.slots[:pos] + (p0.slots[pos],) + p1.slots[pos + 1 :],
        p1.among if p1.slots[pos] is not None else _weakened(p1.among),
    )
    return (k01, k10, new_p0, new_p1)

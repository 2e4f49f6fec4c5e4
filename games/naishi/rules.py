"""Naishi's rules, written once, on one mutable working state (`Work`): the deal, the legal moves, their effects,
the end of a turn and of the game, the outcome (games.base.Rules). The checked engine (thaw, play, freeze per move)
and the search (one working state played on in place per iteration) run this same code.

A turn is a sequence of decisions by the seat on turn, one move each:
  [additional action] develop [additional action, or end the turn]
or one of the other main actions alone (decree, recall, declare the end). The turn ends by itself once nothing
is left to decide (developed and the additional action done, or none possible).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Final

from games.base import Move
from games.deal import randbelow, shuffle
from games.naishi.data import DEVELOPMENT_DECK, HAND_MOUNTAINS, LINE_MOUNTAINS, MOUNTAIN, NAMES, PILE_SIZE, PILES
from games.naishi.knowledge import decreed_hands, initial_knowledge, revealed_replacement, switched
from games.naishi.moves import (
    DECREE_SPACE,
    DISCARD_SPACES,
    SPACES,
    SWITCH_SPACES,
    DeclareEnd,
    Decree,
    Develop,
    DiscardRiver,
    EndTurn,
    Give,
    Recall,
    Switch,
)
from games.naishi.scoring import territory_key, winners
from games.naishi.state import HandKnowledge, State
from games.tuples import kept
from games.values import chance

# Final: the compiled rules (mypyc) read these as constants (or C statics), not as globals looked up by name
EMISSARIES: Final = 2
POSITIONS: Final = range(PILES)
PAIRS: Final = tuple((a, b) for a in POSITIONS for b in POSITIONS if a < b)

# What the public learns of a Hand, noted by `play` as (kind, ...) and folded into the knowledge by `freeze`:
REPLACED: Final = 0  # (REPLACED, owner, position, the card that left face up, the card put there in view)
SWITCHED: Final = 1  # (SWITCHED, owner, a, b, 0): two Hand cards changed places
DECREED: Final = 2  # (DECREED, position, Hand 0's card, Hand 1's card, 0): the Hand Decree exchanged them

# The lists a move may write, one bit each (`written`): `freeze_after` compares only those with the state before (the
# others are its tuples as they were).
GIFTS: Final = 1
HAND0: Final = 2
HAND1: Final = 4
LINE0: Final = 8
LINE1: Final = 16
PILE0: Final = 32
PILE1: Final = 64
PILE2: Final = 128
PILE3: Final = 256
PILE4: Final = 512
DISCARD: Final = 1024
COURT: Final = 2048
HAND: Final[tuple[int, ...]] = (HAND0, HAND1)  # by seat
LINE: Final[tuple[int, ...]] = (LINE0, LINE1)
PILE: Final[tuple[int, ...]] = (PILE0, PILE1, PILE2, PILE3, PILE4)  # by pile
HANDS: Final = HAND0 | HAND1
LINES: Final = LINE0 | LINE1
ALL_PILES: Final = PILE0 | PILE1 | PILE2 | PILE3 | PILE4

Event = tuple[int, int, int, int, int]


class Work:
    """A Naishi state as lists, changed in place (River piles top card first, as in `State`).

    Who knows what of each Hand is read by views only, never by the rules, so `play` merely notes the events that
    move it (`events`) and `freeze` folds them in: the search, which never freezes, pays an append for them."""

    __slots__ = (
        "seed", "first", "phase", "turn", "developed", "court_used", "final_turn", "declared_by", "offers", "gifts",
        "hands", "lines", "piles", "discard", "court", "knowledge", "events", "acting", "open", "river_cards", "draws",
        "emissaries",
    )  # fmt: skip

    seed: int
    first: int
    phase: str
    turn: int
    developed: bool
    court_used: bool
    final_turn: int | None
    declared_by: int | None
    offers: tuple[tuple[int, ...], ...]
    gifts: list[int | None]
    hands: list[list[int]]
    lines: list[list[int]]
    piles: list[list[int]]
    discard: list[int]
    court: list[int | None]
    knowledge: tuple[HandKnowledge, ...]  # as of the last freeze (or thaw): `events` come after
    events: list[Event]
    acting: tuple[int, ...]  # `seats_to_act` of the phase, turn and gifts, kept as they change (the search asks often)
    open: int  # bit p: River pile p still has cards (indexes the move tables below)
    river_cards: int  # cards left in the River
    draws: random.Random | None  # where the chance to come is drawn from: None, the seed (`draw_chance`)
    # Each seat's Emissaries in the court, kept as they come and go: `court.count(seat)` compiled compares every
    # space as a Python object, a None with an int the slowest way (6% of a compiled search's iteration).
    emissaries: list[int]

    def __init__(
        self,
        seed: int,
        first: int,
        phase: str,
        turn: int,
        developed: bool,
        court_used: bool,
        final_turn: int | None,
        declared_by: int | None,
        offers: tuple[tuple[int, ...], ...],
        gifts: list[int | None],
        hands: list[list[int]],
        lines: list[list[int]],
        piles: list[list[int]],
        discard: list[int],
        court: list[int | None],
        knowledge: tuple[HandKnowledge, ...],
    ):
        self.seed = seed
        self.first = first
        self.phase = phase
        self.turn = turn
        self.developed = developed
        self.court_used = court_used
        self.final_turn = final_turn
        self.declared_by = declared_by
        self.offers = offers
        self.gifts = gifts
        self.hands = hands
        self.lines = lines
        self.piles = piles
        self.discard = discard
        self.court = court
        self.knowledge = knowledge
        self.events = []
        self.acting = seats_to_act(phase, turn, gifts)
        mask = cards = 0
        for p, pile in enumerate(piles):
            if pile:
                mask |= 1 << p
                cards += len(pile)
        self.open = mask
        self.river_cards = cards
        self.draws = None
        placed = [0, 0]
        for owner in court:
            if owner is not None:
                placed[owner] = placed[owner] + 1
        self.emissaries = placed


def draw_chance(work: Work, rng: random.Random) -> None:
    """From now on `work` draws the chance still to come from `rng`, not from its seed (`games.base.Rules` says
    why: the search calls it on its determinizations, the engine never)."""
    work.draws = rng


# --- the frozen state and back -------------------------------------------------------------------------------


def deal(seed: int) -> Work:
    """Set up: "Shuffle the Development cards and form 5 draw piles of 6 cards face down. Then, reveal the first card
    for each pile ... Give 2 of the remaining 4 Development cards to each player"; "Randomly determine a first
    player"; each player "places 5 mountain cards in a line"."""
    deck = list(DEVELOPMENT_DECK)
    shuffle(chance(seed, "deal"), deck)
    piles = [deck[p * PILE_SIZE : (p + 1) * PILE_SIZE] for p in range(PILES)]
    rest = deck[PILES * PILE_SIZE :]
    return Work(
        seed=seed,
        first=randbelow(chance(seed, "first"), 2),
        phase="gift",
        turn=0,
        developed=False,
        court_used=False,
        final_turn=None,
        declared_by=None,
        offers=(tuple(rest[:2]), tuple(rest[2:4])),
        gifts=[None, None],
        hands=[[], []],
        lines=[[MOUNTAIN] * LINE_MOUNTAINS for _ in range(2)],
        piles=piles,
        discard=[],
        court=[None] * len(SPACES),
        knowledge=(HandKnowledge(),) * 4,  # nobody knows anything of the Hands before they exist
    )


def thaw(state: State) -> Work:
    """A working copy of `state`: every list is its own."""
    hands, lines, piles = state.hands, state.lines, state.piles
    return Work(
        state.seed,
        state.first,
        state.phase,
        state.turn,
        state.developed,
        state.court_used,
        state.final_turn,
        state.declared_by,
        state.offers,
        list(state.gifts),
        [list(hands[0]), list(hands[1])],
        [list(lines[0]), list(lines[1])],
        [list(piles[0]), list(piles[1]), list(piles[2]), list(piles[3]), list(piles[4])],  # as freeze makes them
        list(state.discard),
        list(state.court),
        state.knowledge,
    )


def freeze(work: Work) -> State:
    """The frozen state of `work` (which may be played on after)."""
    if work.events:
        work.knowledge = _folded(work.knowledge, work.events)
        work.events = []
    hands, lines, piles = work.hands, work.lines, work.piles
    return State(
        seed=work.seed,
        first=work.first,
        phase=work.phase,
        acting=work.acting,
        turn=work.turn,
        developed=work.developed,
        court_used=work.court_used,
        final_turn=work.final_turn,
        declared_by=work.declared_by,
        offers=work.offers,
        gifts=tuple(work.gifts),
        hands=(tuple(hands[0]), tuple(hands[1])),
        lines=(tuple(lines[0]), tuple(lines[1])),
        # the 5 piles one by one: `tuple(map(tuple, ...))` was a generic call per pile (3 k instructions a compiled
        # checked move, by callgrind)
        piles=(tuple(piles[0]), tuple(piles[1]), tuple(piles[2]), tuple(piles[3]), tuple(piles[4])),
        discard=tuple(work.discard),
        court=tuple(work.court),
        knowledge=work.knowledge,
    )


def freeze_after(work: Work, before: State, changed: int) -> State:
    """`freeze(work)` after one move from `before`, the state `work` was thawed from or last frozen to (the compiled
    checked engine's transition, games/checked.py), a move that wrote no list but those of `changed` (`written`):
    each tuple the move left as it was is `before`'s own, shared, not made anew, and so not freed with `before`
    either (most of a move's lists; making and freeing them was a third of a compiled checked move, by callgrind).
    Only the lists of `changed` are compared with `before`'s, by identity (`kept`: comparing all twelve was a tenth
    of the move). The conformance suite holds it to `freeze` (tests/conformance/test_working_state.py): a list a
    move writes that `written` leaves out would be a stale tuple there."""
    if work.events:
        work.knowledge = _folded(work.knowledge, work.events)
        work.events = []
    hands, lines, piles = work.hands, work.lines, work.piles
    old_hands, old_lines, old_piles = before.hands, before.lines, before.piles
    if changed & HANDS:
        hand0 = kept(hands[0], old_hands[0]) if changed & HAND0 else old_hands[0]
        hand1 = kept(hands[1], old_hands[1]) if changed & HAND1 else old_hands[1]
        if hand0 is not old_hands[0] or hand1 is not old_hands[1]:
            old_hands = (hand0, hand1)
    if changed & LINES:
        line0 = kept(lines[0], old_lines[0]) if changed & LINE0 else old_lines[0]
        line1 = kept(lines[1], old_lines[1]) if changed & LINE1 else old_lines[1]
        if line0 is not old_lines[0] or line1 is not old_lines[1]:
            old_lines = (line0, line1)
    if changed & ALL_PILES:
        pile0 = kept(piles[0], old_piles[0]) if changed & PILE0 else old_piles[0]
        pile1 = kept(piles[1], old_piles[1]) if changed & PILE1 else old_piles[1]
        pile2 = kept(piles[2], old_piles[2]) if changed & PILE2 else old_piles[2]
        pile3 = kept(piles[3], old_piles[3]) if changed & PILE3 else old_piles[3]
        pile4 = kept(piles[4], old_piles[4]) if changed & PILE4 else old_piles[4]
        if (pile0 is not old_piles[0] or pile1 is not old_piles[1] or pile2 is not old_piles[2]
                or pile3 is not old_piles[3] or pile4 is not old_piles[4]):
            old_piles = (pile0, pile1, pile2, pile3, pile4)
    # State's fields in order (as `freeze` names them)
    return State(work.seed, work.first, work.phase, work.acting, work.turn, work.developed, work.court_used,
                 work.final_turn, work.declared_by, work.offers,
                 kept(work.gifts, before.gifts) if changed & GIFTS else before.gifts, old_hands, old_lines, old_piles,
                 kept(work.discard, before.discard) if changed & DISCARD else before.discard,
                 kept(work.court, before.court) if changed & COURT else before.court, work.knowledge)


def written(seat: int, move: Move) -> int:
    """The lists `play(work, seat, move)` may write, as the bits above: `freeze_after` compares those (more is only
    slower). From the move, not noted by `play`: the search, which never freezes, would pay for the notes (3% of a
    compiled Naishi playout, by callgrind)."""
    if isinstance(move, Develop):
        return PILE[move.pos] | DISCARD | (HAND[seat] if move.row == "hand" else LINE[seat])
    if isinstance(move, Switch):  # and an Emissary to the court
        kind = move.kind
        if kind == "river":
            return COURT | PILE[move.a] | PILE[move.b]
        if kind == "line":
            return COURT | LINE[seat]
        if kind == "hand":
            return COURT | HAND[seat]
        return COURT | HAND[seat] | LINE[seat]  # a column
    if isinstance(move, DiscardRiver):
        return COURT | PILE[move.a] | PILE[move.b] | DISCARD
    if isinstance(move, Decree):
        return COURT | (HANDS if move.row == "hand" else LINES)
    if isinstance(move, Recall):
        return COURT
    if isinstance(move, Give):  # and both Hands, once both gifts are chosen
        return GIFTS | HANDS
    return 0  # the end of a turn, or its declaration


def _folded(knowledge: tuple[HandKnowledge, ...], events: list[Event]) -> tuple[HandKnowledge, ...]:
    """`knowledge` after the public events, in order: what each observer saw of the Hands it cannot see (a Hand's
    owner's opponent and the public saw each event; the entries as `knowledge_index` places them)."""
    k01, k10, p0, p1 = knowledge  # seat 0's of Hand 1, seat 1's of Hand 0, the public's of Hand 0 and of Hand 1
    for kind, a, b, c, d in events:
        if kind == DECREED:
            k01, k10, p0, p1 = decreed_hands((k01, k10, p0, p1), a, b, c)
        elif kind == REPLACED:
            if a == 0:
                k10, p0 = revealed_replacement(k10, b, c, d), revealed_replacement(p0, b, c, d)
            else:
                k01, p1 = revealed_replacement(k01, b, c, d), revealed_replacement(p1, b, c, d)
        elif a == 0:
            k10, p0 = switched(k10, b, c), switched(p0, b, c)
        else:
            k01, p1 = switched(k01, b, c), switched(p1, b, c)
    return (k01, k10, p0, p1)


# --- who acts, and the legal moves -----------------------------------------------------------------------------

_TURN: Final[tuple[tuple[int, ...], ...]] = ((0,), (1,))


def to_act(work: Work) -> tuple[int, ...]:
    return work.acting


def seats_to_act(phase: str, turn: int, gifts: list[int | None] | tuple[int | None, ...]) -> tuple[int, ...]:
    """The seats to act, ascending: the seat on turn; at setup, each seat until it has chosen its gift."""
    if phase == "turn":
        return _TURN[turn]
    if phase == "gift":
        if gifts[0] is None:
            return (0, 1) if gifts[1] is None else (0,)
        return (1,) if gifts[1] is None else ()
    return ()


# Moves are immutable values: build each once; a turn's legal moves are a shared tuple of them (`legal_moves`).
GIVES: Final = tuple(Give(card) for card in range(len(NAMES)))
DEVELOPS: Final = {row: tuple(Develop(row, p) for p in POSITIONS) for row in ("hand", "line")}
RIVER_SWITCHES: Final = {(a, b): Switch("river", a, b) for a, b in PAIRS}
OWN_SWITCHES: Final = (
    tuple(Switch("line", a, b) for a, b in PAIRS)
    + tuple(Switch("hand", a, b) for a, b in PAIRS)
    + tuple(Switch("column", p, p) for p in POSITIONS)
)
DISCARDS: Final = {(a, b): DiscardRiver(a, b) for a, b in PAIRS}
DECREES: Final = tuple(Decree(row, p) for row in ("hand", "line") for p in POSITIONS)
# "A token placed on the Imperial Decree space may never be recalled!"
RECALLABLE: Final = tuple(s for s in range(len(SPACES)) if s != DECREE_SPACE)
RECALLS: Final = {
    spaces: Recall(spaces)
    for spaces in [(s,) for s in RECALLABLE] + [(a, b) for a in RECALLABLE for b in RECALLABLE if a < b]
}
END_TURN: Final = EndTurn()
DECLARE_END: Final = DeclareEnd()

# By the mask of River piles that still have cards (`Work.open`), in the rules' order: the developments (Hand,
# then Line), the switches (River pairs, then your own cards), the River discards; and how many piles are empty.
_MASKS: Final = range(1 << PILES)
_ALL_OPEN: Final = (1 << PILES) - 1


def _open(mask: int, p: int) -> bool:
    return bool(mask >> p & 1)


DEVELOPMENTS: Final = tuple(
    tuple(m for row in ("hand", "line") for p, m in enumerate(DEVELOPS[row]) if _open(mask, p)) for mask in _MASKS
)
_SWITCHES: Final = tuple(
    tuple(RIVER_SWITCHES[(a, b)] for a, b in PAIRS if _open(mask, a) and _open(mask, b)) + OWN_SWITCHES
    for mask in _MASKS
)
_DISCARDS: Final = tuple(
    tuple(DISCARDS[(a, b)] for a, b in PAIRS if _open(mask, a) and _open(mask, b)) for mask in _MASKS
)
_EMPTY_PILES: Final = tuple(PILES - bin(mask).count("1") for mask in _MASKS)
assert SWITCH_SPACES == (0, 1, 2) and DISCARD_SPACES == (3, 4), "_additional spells out the court's spaces"


def may_declare_end(work: Work) -> bool:
    """Whether the end may be declared on a turn that has not developed nor used the court yet: "only if one of
    the draw piles ... is depleted", and not once it is declared."""
    return work.final_turn is None and work.open != _ALL_OPEN


def legal_moves(work: Work, seat: int) -> Sequence[Move]:
    """Every legal move of `seat`, in the rules' order (empty if it is not to act). A turn's moves are a shared
    tuple, one per combination of what decides them (`_turn_key`), made on first use: listing them allocates
    nothing."""
    phase = work.phase
    if phase == "gift":
        if work.gifts[seat] is not None:
            return ()
        return tuple([GIVES[card] for card in sorted(set(work.offers[seat]))])
    if phase != "turn" or seat != work.turn:
        return ()
    if work.court_used:
        return DEVELOPMENTS[work.open]
    key = _turn_key(work, seat)
    moves = _TURN_MOVES[key]
    if moves is None:
        moves = _TURN_MOVES[key] = _turn_moves(key)
    return moves


# What decides a turn's moves once the court is unused, as bits of an int (`_turn_key`); the moves of each key
# (`_turn_moves`) are made once and kept in `_TURN_MOVES`, at most 2 ** 15 of them.
_DEVELOPED: Final = 1 << 5  # the seat has developed: its additional actions and the end of its turn
_DECREE: Final = 1 << 6  # the Decree space is free and the seat has an Emissary in hand
_RECALL: Final = 7  # bits 7-11: the recallable spaces holding the seat's Emissaries, by their place in RECALLABLE
_DECLARE: Final = 1 << 12  # the end may be declared
_SWITCH: Final = 1 << 13  # an additional action on a switch space is possible
_DISCARD: Final = 1 << 14  # an additional action on a discard space is possible
_TURN_MOVES: Final[list[tuple[Move, ...] | None]] = [None] * (1 << 15)


def _turn_key(work: Work, seat: int) -> int:
    """Everything that decides the moves of `seat` on its turn, the court unused, as one int: the open piles (the
    low 5 bits) and the flags above."""
    court = work.court
    mask = work.open
    key = mask
    mine = work.emissaries[seat]
    free = mine < EMISSARIES
    if work.developed:
        key |= _DEVELOPED
    else:
        if court[DECREE_SPACE] is None and free:
            key |= _DECREE
        if mine:  # "Recall one or both of your Emissary tokens"; never the Decree's
            for i in range(len(RECALLABLE)):
                owner = court[RECALLABLE[i]]  # an int | None: compared as an int once it is one
                if owner is not None and owner == seat:
                    key |= 1 << (_RECALL + i)
        if may_declare_end(work):
            key |= _DECLARE
        if not mask:  # before developing, a development must stay possible
            return key
    if free:  # a free "switch" space (SWITCH_SPACES), a free "discard" space (DISCARD_SPACES), spelt out
        if court[0] is None or court[1] is None or court[2] is None:
            key |= _SWITCH
        if (court[3] is None or court[4] is None) and (key & _DEVELOPED or work.river_cards > 2):
            key |= _DISCARD
    return key


def _turn_moves(key: int) -> tuple[Move, ...]:
    """The moves of a turn whose `_turn_key` is `key`, in the rules' order: the developments, the Decrees, the
    recalls (one, then both), the declaration, then the additional actions (switches, River discards); once
    developed, the additional actions and the end of the turn."""
    mask = key & _ALL_OPEN
    additional: list[Move] = []
    if key & _SWITCH:
        additional += _SWITCHES[mask]
    if key & _DISCARD:
        additional += _DISCARDS[mask]
    if key & _DEVELOPED:
        return tuple(additional + [END_TURN])
    main: list[Move] = list(DEVELOPMENTS[mask])
    if key & _DECREE:
        main += DECREES
    placed = [RECALLABLE[i] for i in range(len(RECALLABLE)) if key >> (_RECALL + i) & 1]
    main += [RECALLS[(space,)] for space in placed]
    if len(placed) == 2:
        main.append(RECALLS[(placed[0], placed[1])])
    if key & _DECLARE:
        main.append(DECLARE_END)
    if not main:
        return (END_TURN,)  # nothing at all is possible: the seat can only pass
    return tuple(main + additional)


def _may_add(work: Work, seat: int) -> bool:
    """Whether `seat`, having developed, may still take an additional action (an Emissary on a free space)."""
    key = _turn_key(work, seat)
    return bool(key & _SWITCH) or bool(key & _DISCARD and _DISCARDS[key & _ALL_OPEN])


# --- effects ---------------------------------------------------------------------------------------------------


def play(work: Work, seat: int, move: Move) -> None:
    """Make a legal move in place."""
    if isinstance(move, Develop):
        # "Choose one card from your Hand OR your Line and discard it. Take the corresponding card from the River, IN
        # THE SAME POSITION ... Reveal the next card from the draw pile in the River." Cards are discarded face up.
        pos = move.pos
        pile = work.piles[pos]
        taken = pile.pop(0)
        work.river_cards -= 1
        if not pile:
            work.open &= ~(1 << pos)
        in_hand = move.row == "hand"
        cards = work.hands[seat] if in_hand else work.lines[seat]
        old = cards[pos]
        cards[pos] = taken
        work.discard.append(old)
        if in_hand:
            work.events.append((REPLACED, seat, pos, old, taken))
        work.developed = True
        if work.court_used or not _may_add(work, seat):
            _end_turn(work)
    elif isinstance(move, EndTurn):
        _end_turn(work)
    elif isinstance(move, Switch):
        _place_emissary(work, seat, SWITCH_SPACES)
        _switch(work, seat, move.kind, move.a, move.b)
        if work.developed:
            _end_turn(work)
    elif isinstance(move, DiscardRiver):
        _place_emissary(work, seat, DISCARD_SPACES)
        _discard_river(work, move.a, move.b)
        if work.developed:
            _end_turn(work)
    elif isinstance(move, Decree):
        _place_emissary(work, seat, (DECREE_SPACE,))
        _decree(work, move.row, move.pos)
        _end_turn(work)
    elif isinstance(move, Recall):
        court = work.court
        for space in move.spaces:
            court[space] = None
            work.emissaries[seat] = work.emissaries[seat] - 1
        _end_turn(work)
    elif isinstance(move, DeclareEnd):
        work.final_turn = 1 - seat
        work.declared_by = seat
        _end_turn(work)
    elif isinstance(move, Give):
        _give(work, seat, move.card)
    else:
        raise AssertionError(f"unhandled move {move!r}")


def _give(work: Work, seat: int, card: int) -> None:
    """"Each player keeps one Development card ... and gives the other to their opponent"; once both have chosen,
    "Each player adds 3 mountain cards to their Hand" and "now shuffles the 5 cards in their Hand"."""
    gifts = work.gifts
    gifts[seat] = card
    given0, given1 = gifts
    if given0 is not None and given1 is not None:
        for s, given, received in ((0, given0, given1), (1, given1, given0)):
            first, second = work.offers[s]  # the 2 cards: one given, the other kept
            hand = [MOUNTAIN] * HAND_MOUNTAINS
            hand.append(second if first == given else first)
            hand.append(received)
            draws = work.draws
            shuffle(draws if draws is not None else chance(work.seed, f"shuffle:{s}"), hand)
            work.hands[s] = hand
        work.phase = "turn"
        work.turn = work.first
        work.offers = ((), ())
        work.knowledge = initial_knowledge((given0, given1))
    work.acting = seats_to_act(work.phase, work.turn, gifts)


def _place_emissary(work: Work, seat: int, spaces: tuple[int, ...]) -> None:
    """The Emissary goes to the lowest free space of the action's kind."""
    court = work.court
    for space in spaces:
        if court[space] is None:
            court[space] = seat
            work.emissaries[seat] = work.emissaries[seat] + 1
            break
    work.court_used = True


def _switch(work: Work, seat: int, kind: str, a: int, b: int) -> None:
    if kind == "river":  # the face-up cards only; the piles beneath stay
        pa, pb = work.piles[a], work.piles[b]
        pa[0], pb[0] = pb[0], pa[0]
    elif kind == "line":
        line = work.lines[seat]
        line[a], line[b] = line[b], line[a]
    elif kind == "hand":
        hand = work.hands[seat]
        hand[a], hand[b] = hand[b], hand[a]
        work.events.append((SWITCHED, seat, a, b, 0))
    else:  # column: the Hand card goes face up to the Line, the Line card into the Hand, both in view
        hand, line = work.hands[seat], work.lines[seat]
        hand_card = hand[a]
        hand[a], line[a] = line[a], hand_card
        work.events.append((REPLACED, seat, a, hand_card, hand[a]))


def _discard_river(work: Work, a: int, b: int) -> None:
    """"Discard 1 card from the top of 2 different draw piles in the River and immediately reveal the top cards"."""
    piles = work.piles
    work.discard += (piles[a].pop(0), piles[b].pop(0))
    work.river_cards -= 2
    if not piles[a]:
        work.open &= ~(1 << a)
    if not piles[b]:
        work.open &= ~(1 << b)


def _decree(work: Work, row: str, pos: int) -> None:
    """"Exchanging a card from both players' Hand (or Line) in the same position.\""""
    rows = work.hands if row == "hand" else work.lines
    card0, card1 = rows[0][pos], rows[1][pos]
    rows[0][pos], rows[1][pos] = card1, card0
    if row == "hand":
        work.events.append((DECREED, pos, card0, card1, 0))


def _end_turn(work: Work) -> None:
    """Pass the turn on, or end the game: "When 2 draw piles from the River are empty..." or after a declaration."""
    player = work.turn
    final = work.final_turn  # an int | None: compared as an int once it is one (None == int is a slow compare)
    if final is not None and final == player:
        _game_over(work)
        return
    if final is None and _EMPTY_PILES[work.open] >= 2:
        if player != work.first:
            _game_over(work)
            return
        work.final_turn = 1 - player
    work.turn = 1 - player
    work.developed = False
    work.court_used = False
    work.acting = seats_to_act(work.phase, work.turn, work.gifts)


def _game_over(work: Work) -> None:
    work.phase = "over"
    work.developed = False
    work.court_used = False
    work.acting = seats_to_act(work.phase, work.turn, work.gifts)


# --- the outcome ----------------------------------------------------------------------------------------------


def outcome(work: Work) -> tuple[list[int], tuple[int, ...]]:
    lines, hands = work.lines, work.hands
    keys = [territory_key(lines[0], hands[0]), territory_key(lines[1], hands[1])]
    return [keys[0][0], keys[1][0]], winners(keys)

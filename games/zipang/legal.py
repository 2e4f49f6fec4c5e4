"""Zipang's legal moves: what the seat to decide may do now, on the working state (games.zipang.work).

Moves are interned: the same move is the same object, and the move lists of a position are cached by what they
depend on (the hand and who is still in the battle), so a playout mostly looks them up.
"""

from __future__ import annotations

from typing import Any, Final, TypeVar

from games.tuples import count
from games.zipang.data import ATTACK, EFFECTS, IKKI, MAX_PLAYERS, MONK, PEASANT, STEAL, TYPES
from games.zipang.data import TAKE as TAKE_EFFECT
from games.zipang.moves import ACCEPT, COIN_BLOCK, DEFEND, MONK_CANCEL, Play, React, Take, Use
from games.zipang.state import PLAY, REACT, TAKE, USE
from games.zipang.work import Work

Moves = tuple[Play, ...] | tuple[Use, ...] | tuple[Take, ...] | tuple[React, ...]

# The move lists, remembered by what they depend on, each key one small int (`_kinds`, `_seats`). As tuples of the
# whole hand, the seats in the battle and the rest, the keys cost a tenth of a compiled Zipang search to hash and
# compare, and the tables grew without end (30,000 hands in one 6,000-iteration search): a hand's moves depend only
# on which cards it holds (and whether two Peasants, for an Ikki), not on their order or number.
_CACHE_MAX: Final = 100_000  # keys per table; a search meets a few thousand
_PLAY_CACHE: Final[dict[int, tuple[Play, ...]]] = {}
_USE_CACHE: Final[dict[int, tuple[Use, ...]]] = {}
_REACT_CACHE: Final[dict[int, tuple[React, ...]]] = {}
_TAKE_CACHE: Final[dict[int, tuple[Take, ...]]] = {}


def _kinds(cards: tuple[int, ...]) -> int:
    """Which cards are among `cards`, as bits (bit c: card c), and bit TYPES when two of them are Peasants."""
    bits = 0
    peasants = 0
    for card in cards:
        bits |= 1 << card
        if card == PEASANT:
            peasants += 1
    return bits | (1 << TYPES if peasants >= 2 else 0)


def _remember(table: dict, key: int) -> None:
    """Keep a move table bounded: a long-lived worker meets ever new keys."""
    if len(table) >= _CACHE_MAX:
        table.clear()


def _seats(flags: tuple[bool, ...]) -> int:
    """Who is in the battle, as bits (bit s: seat s)."""
    bits = 0
    for s, flag in enumerate(flags):
        if flag:
            bits |= 1 << s
    return bits


def legal_moves(work: Work, seat: int) -> Moves:
    """Every legal move of `seat` now (empty unless it is the seat to decide)."""
    if seat != work.actor:
        return ()
    phase = work.phase
    if phase == PLAY:
        hand = work.hands[seat]
        play_key = ((_kinds(hand) << 6 | _seats(work.in_battle)) << 3 | seat) << 3 | work.n
        plays = _PLAY_CACHE.get(play_key)
        if plays is None:
            _remember(_PLAY_CACHE, play_key)
            plays = _PLAY_CACHE[play_key] = play_moves(hand, seat, work.n, work.in_battle)
        return plays
    if phase == REACT:
        effect = work.effect
        assert effect is not None
        monk = MONK in work.hands[seat]
        coin = may_block(work.strength, work.had_turn[seat], work.coins[seat])
        attacked = work.strength > 0
        react_key = effect << 4 | monk << 3 | coin << 2 | work.ikki << 1 | attacked
        reacts = _REACT_CACHE.get(react_key)
        if reacts is None:
            reacts = _REACT_CACHE[react_key] = react_moves(monk, coin, effect, work.ikki, attacked)
        return reacts
    if phase == USE:
        peasant = PEASANT in work.hands[seat]
        use_key = (((_kinds(work.offer) << 1 | peasant) << 6 | _seats(work.in_battle)) << 3 | seat) << 3 | work.n
        uses = _USE_CACHE.get(use_key)
        if uses is None:
            _remember(_USE_CACHE, use_key)
            uses = _USE_CACHE[use_key] = _uses(work.offer, peasant, seat, work.n, work.in_battle)
        return uses
    if phase == TAKE:
        victim = work.victim
        assert victim is not None
        cards = work.hands[victim]
        take_key = _kinds(cards) << 3 | victim
        takes = _TAKE_CACHE.get(take_key)
        if takes is None:
            _remember(_TAKE_CACHE, take_key)
            takes = _TAKE_CACHE[take_key] = (*(Take(c, victim) for c in sorted(set(cards))), Take(None, victim))
        return takes
    return ()


# _CLOCKWISE[n][seat]: made once, since every turn and most effects go round the table.
_CLOCKWISE: Final = tuple(tuple(tuple((seat + i) % n for i in range(1, n)) for seat in range(n))
                   for n in range(MAX_PLAYERS + 1))


def clockwise(seat: int, n: int) -> tuple[int, ...]:
    """The other seats in clockwise order from `seat`."""
    return _CLOCKWISE[n][seat]


def _subsets(seats: tuple[int, ...]) -> list[tuple[int, ...]]:
    """Every subset of `seats` (order kept), the empty one first, then by size."""
    out: list[tuple[int, ...]] = [()]
    for size in range(1, len(seats) + 1):
        out += [tuple(s for i, s in enumerate(seats) if mask >> i & 1) for mask in range(1 << len(seats))
                if bin(mask).count("1") == size]
    return out


# A hand's moves are made of each card's, which depend on far fewer things than the hand does. With six seats a
# playout keeps meeting hands the tables above have not seen (74% of the plays of 300 fresh random games); joining
# their moves card by card from here costs about 1/15 of building them (measured on random six-seat hands).
_CARD_PLAYS: Final[dict[tuple[int, int, int, tuple[bool, ...], bool], tuple[Play, ...]]] = {}
_CARD_USES: Final[dict[tuple[int, int, int, tuple[bool, ...], bool], tuple[Use, ...]]] = {}
# Each move made once (the docstring's interning), shared by every table above that holds it: far fewer moves than
# keys (a kind, a card, its targets, an Ikki or not), and a move's constructor is a frozen dataclass's, interpreted on
# both paths (a new six-seat hand's moves built afresh were 17% of a compiled checked move, by callgrind).
_MOVES: Final[dict[tuple[type, int, tuple[int, ...], bool], Any]] = {}
M = TypeVar("M", Play, Use)


def _made(kind: type[M], card: int, targets: tuple[int, ...], ikki: bool) -> M:
    """The move `kind(card, targets, ikki)`, the same object every time."""
    key = (kind, card, targets, ikki)
    move = _MOVES.get(key)
    if move is None:
        move = _MOVES[key] = kind(card, targets, ikki)
    return move


def _aims(card: int, seat: int, n: int, in_battle: tuple[bool, ...], ikki_possible: bool) -> list[
        tuple[tuple[int, ...], bool]]:
    """Every (targets, as an Ikki) a card of type `card` may be played or used with by `seat`; `ikki_possible`:
    the Peasants an Ikki needs are there (besides this one)."""
    others = tuple(p for p in clockwise(seat, n) if in_battle[p])
    effect = EFFECTS[card]
    if effect == ATTACK:
        return [(targets, False) for targets in _subsets(others)]
    if effect == IKKI:
        return [((), False), ((), True)] if ikki_possible and others else [((), False)]
    if effect == STEAL:
        return [((t,), False) for t in clockwise(seat, n)]  # also a seat excluded from the battle
    if effect == TAKE_EFFECT and others:
        return [((t,), False) for t in others]
    return [((), False)]  # no target: a Shrine Maiden with no one else in the battle looks at nothing


def play_moves(hand: tuple[int, ...], seat: int, n: int, in_battle: tuple[bool, ...]) -> tuple[Play, ...]:
    """Every way to play each distinct card of `hand` (an Ikki: two Peasants of the hand)."""
    moves: tuple[Play, ...] = ()
    for card in sorted(set(hand)):
        ikki_possible = card == PEASANT and count(hand, PEASANT) >= 2
        key = (card, seat, n, in_battle, ikki_possible)
        plays = _CARD_PLAYS.get(key)
        if plays is None:
            plays = _CARD_PLAYS[key] = tuple(
                [_made(Play, card, targets, ikki) for targets, ikki in _aims(card, seat, n, in_battle, ikki_possible)])
        moves += plays
    return moves


def _uses(offer: tuple[int, ...], peasant_in_hand: bool, seat: int, n: int, in_battle: tuple[bool, ...]) -> tuple[
        Use, ...]:
    """Every way to use each card offered (an Ikki: the used Peasant and one from the hand, FAQ Q7)."""
    moves: tuple[Use, ...] = ()
    for card in sorted(set(offer)):
        ikki_possible = card == PEASANT and peasant_in_hand
        key = (card, seat, n, in_battle, ikki_possible)
        uses = _CARD_USES.get(key)
        if uses is None:
            uses = _CARD_USES[key] = tuple(
                [_made(Use, card, targets, ikki) for targets, ikki in _aims(card, seat, n, in_battle, ikki_possible)])
        moves += uses
    return moves


def may_block(strength: int, had_turn: bool, coins: int) -> bool:
    """Whether a seat may block an attack of `strength` with a coin: before its first turn of the battle, a coin in
    hand ("Block with a coin" is not an answer to other effects)."""
    return strength > 0 and not had_turn and coins > 0


def react_moves(has_monk: bool, coin: bool, effect: int, ikki: bool, attack: bool) -> tuple[React, ...]:
    """A seat's answers to `effect`: a Monk (if it holds one), a coin (an attack before its first turn, a coin
    left), and letting it happen, in that order."""
    moves = []
    if has_monk:
        moves.append(React(MONK_CANCEL, effect, ikki))
    if coin:
        moves.append(React(COIN_BLOCK, effect, ikki))
    moves.append(React(DEFEND if attack else ACCEPT, effect, ikki))
    return tuple(moves)

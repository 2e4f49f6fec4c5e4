"""Zipang's rules, written once (games.base.Rules): setup, a move's effect through the end of a battle and of the
game, and the outcome, all on the working state (games.zipang.work, played on in place); the legal moves are in
games.zipang.legal.

Whose decision it is lives in the state (`phase`, `actor`): the active seat plays, uses or takes; a seat an effect
is aimed at answers it out of turn (REACT), one seat at a time, clockwise from the active seat.
"""

from __future__ import annotations

import random
from typing import Final

from games.base import Move
from games.deal import shuffle
from games.tuples import count, index
from games.values import chance
from games.zipang.data import (
    ATTACK,
    EFFECTS,
    END,
    HAND_SIZE,
    IKKI_BTL,
    KABUKI,
    MONK,
    PEASANT,
    REUSE,
    START_COINS,
    START_COINS_TWO,
    STEAL,
    TAX,
    TRIBUTE,
    TYPES,
    Table,
)
from games.zipang.data import TAKE as TAKE_EFFECT
from games.zipang.legal import clockwise, legal_moves
from games.zipang.moves import COIN_BLOCK, MONK_CANCEL, Play, React, Take, Use
from games.zipang.scoring import ranking
from games.zipang.state import OVER, PLAY, REACT, TAKE, USE, Decision, State
from games.zipang.work import Work, freeze, thaw, to_act

_EFFECTS: Final = EFFECTS  # a C static of the compiled module, where the data module's global is a dict lookup


def new_game(num_players: int, table: Table, start: int, seed: int) -> State:
    """Give out the coins and start the first battle with `start`."""
    n = num_players
    coins = START_COINS_TWO if n == 2 else START_COINS
    work = Work(
        seed, n, table.btl, table.hnr, table.copies, [coins] * n, 0, 0, start, (), [()] * n, (), (), (),
        (False,) * n, [False] * n, start, PLAY, start, None, False, 0, (), None, (), None, [()] * (n * n),
        [None] * n, [None] * n,
    )
    _start_battle(work, start)
    return freeze(work)


def play(work: Work, seat: int, move: Move) -> None:
    """Make `move`, one of `seat`'s legal moves now."""
    if type(move) is Play:
        if work.draws is None:
            work.plays[seat] = _decision(work, seat, move, len(work.hands[seat]) - len(laid_down(move)))
        _play_card(work, seat, move.card, move.targets, move.ikki)
    elif type(move) is React:
        if work.draws is None:
            work.answers[seat] = _decision(work, seat, move, len(work.hands[seat]) - len(laid_down(move)))
        _react(work, seat, move.kind)
    elif type(move) is Use:
        _use(work, move.card, move.targets, move.ikki)
    elif type(move) is Take:
        _take(work, move.card)
    else:
        raise TypeError(f"not a Zipang move: {move!r}")


def outcome(work: Work) -> tuple[list[int], tuple[int, ...]]:
    """Every seat's coins and the seats that hold the most (games.zipang.scoring ranks them)."""
    coins = work.coins
    return list(coins), ranking(coins)[0]


# --- the record of the seats' decisions (what a search reads of their hands: games.zipang.evidence) ----------
def _decision(work: Work, seat: int, move: Play | React, kept: int) -> Decision:
    """`seat`'s move about to be made, with the table as it sees it now; `held` starts at the hand's size, and the
    cards the move itself lays down bring it to `kept` (`_lose`)."""
    n = work.n
    return Decision(
        move=move, strength=work.strength, kept=kept, held=len(work.hands[seat]),
        coins=tuple(work.coins), pot=work.pot, hand_sizes=tuple([len(h) for h in work.hands]),
        discard=work.discard, in_battle=work.in_battle, had_turn=tuple(work.had_turn),
        known=tuple(work.known[seat * n : seat * n + n]),
    )


def laid_down(move: Play | React) -> tuple[int, ...]:
    """The cards of the hand that `move` lays face up (`_play_card`, `_react`): the card played and, for an Ikki,
    a second Peasant; a Monk for a Monk's cancel; none for another answer."""
    if isinstance(move, Play):
        return (move.card, PEASANT) if move.ikki else (move.card,)
    return (MONK,) if move.kind == MONK_CANCEL else ()


def _one_fewer(d: Decision | None) -> Decision | None:
    """`d` after a card left its seat's hand face up: one fewer of the cards it kept is there for certain."""
    if d is None or d.held == 0:
        return d
    # every field named, not `dataclasses.replace` (an interpreted function, several us a call)
    return Decision(
        move=d.move, strength=d.strength, kept=d.kept, held=d.held - 1, coins=d.coins, pot=d.pot,
        hand_sizes=d.hand_sizes, discard=d.discard, in_battle=d.in_battle, had_turn=d.had_turn, known=d.known,
    )


# --- cards moving --------------------------------------------------------------------------------------------
def _draw(work: Work, seat: int, count: int) -> None:
    deck = work.deck
    drawn, work.deck = deck[:count], deck[count:]
    if drawn:
        work.hands[seat] = tuple(sorted(work.hands[seat] + drawn))


def _lose(work: Work, seat: int, card: int) -> None:
    """`card` leaves `seat`'s hand face up: whoever knew it there knows one fewer (drawn cards unseen by others
    never made their knowledge false)."""
    hand = work.hands[seat]
    i = index(hand, card)
    work.hands[seat] = hand[:i] + hand[i + 1 :]
    known, n = work.known, work.n
    for observer in range(n):  # not range(seat, n * n, n): compiled, a range with a step is a Python object
        at = observer * n + seat
        k = known[at]
        if k and card in k:
            j = index(k, card)
            known[at] = k[:j] + k[j + 1 :]
    if work.draws is None:
        work.plays[seat] = _one_fewer(work.plays[seat])
        work.answers[seat] = _one_fewer(work.answers[seat])


def _learn(work: Work, observer: int, owner: int) -> None:
    """`owner` shows its hand to `observer` only."""
    work.known[observer * work.n + owner] = work.hands[owner]


def _exclude(work: Work, seat: int) -> None:
    """A defeated (or empty-handed) seat leaves the battle, discarding its entire hand face up."""
    work.discard += work.hands[seat]
    work.hands[seat] = ()
    in_battle = work.in_battle
    work.in_battle = in_battle[:seat] + (False,) + in_battle[seat + 1 :]
    known, n = work.known, work.n
    for observer in range(n):
        known[observer * n + seat] = ()
    work.plays[seat] = work.answers[seat] = None


def _refill(work: Work, seat: int) -> None:
    """"refill your hand immediately until you have 2 cards"; no card to draw and no hand: excluded."""
    short = HAND_SIZE - len(work.hands[seat])
    if short > 0:
        _draw(work, seat, short)
        if not work.hands[seat]:
            _exclude(work, seat)


# --- moves ---------------------------------------------------------------------------------------------------
def _play_card(work: Work, seat: int, card: int, targets: tuple[int, ...], ikki: bool) -> None:
    _lose(work, seat, card)
    work.discard += (card,)
    if ikki:
        _lose(work, seat, PEASANT)
        work.discard += (PEASANT,)
    _start_effect(work, seat, card, targets, ikki)


def _use(work: Work, card: int, targets: tuple[int, ...], ikki: bool) -> None:
    if work.limbo is not None:  # the card the Shrine Maiden took
        work.limbo = None
    else:  # Kabuki: the chosen card is used and goes back on top of the discard pile
        discard = work.discard
        i = index(discard, card)
        work.discard = discard[:i] + discard[i + 1 :]
    work.discard += (card,)
    if ikki:
        _lose(work, work.active, PEASANT)
        work.discard += (PEASANT,)
    _start_effect(work, work.active, card, targets, ikki)


def _take(work: Work, card: int | None) -> None:
    victim = work.victim
    assert victim is not None
    work.victim = None
    if card is None:
        _end_turn(work)
        return
    _lose(work, victim, card)
    _refill(work, victim)  # "Do this before the taken card is used."
    work.limbo = card
    work.offer = (card,)
    work.phase, work.actor = USE, work.active


def _react(work: Work, seat: int, kind: str) -> None:
    work.targets = work.targets[1:]
    if kind == MONK_CANCEL:
        _lose(work, seat, MONK)
        work.discard += (MONK,)
        _refill(work, seat)
    elif kind == COIN_BLOCK:
        work.coins[seat] = work.coins[seat] - 1
        work.pot += 1
    else:
        _resolve(work, seat)
    _next_reaction(work)


# --- effects -------------------------------------------------------------------------------------------------
def _start_effect(work: Work, user: int, card: int, targets: tuple[int, ...], ikki: bool) -> None:
    effect = _EFFECTS[card]
    work.effect, work.ikki, work.victim, work.offer = card, ikki, None, ()
    work.strength = attack_strength(work.btl, card, ikki)
    n = work.n
    if ikki:
        in_battle = work.in_battle
        targets = tuple(p for p in clockwise(user, n) if in_battle[p])
    elif effect == ATTACK:
        pass  # the targets are the player's choice
    elif effect == TRIBUTE:
        targets = clockwise(user, n)
    elif effect == TAX:
        if work.coins[user]:
            work.coins[user] = work.coins[user] - 1
            work.pot += 1
        targets = clockwise(user, n)
    elif effect == END:
        _end_by_honour(work)
        return
    elif effect == REUSE:
        offer = tuple(sorted(set(work.discard) - {KABUKI}))
        if offer:
            work.offer = offer
            work.phase, work.actor = USE, user
        else:
            _end_turn(work)
        return
    elif effect != STEAL and effect != TAKE_EFFECT:
        targets = ()  # a lone Peasant, a Monk on one's own turn (FAQ Q8): nothing happens
    work.targets = targets
    _next_reaction(work)


def _must_ask(work: Work, seat: int) -> bool:
    """Whether `seat` gets to answer the effect: it has a hand, and publicly it may hold a Monk (not every copy is
    face up in the discard pile) or it may block the attack with a coin."""
    if not work.in_battle[seat] or not work.hands[seat]:
        return False
    if count(work.discard, MONK) < work.copies[MONK]:
        return True
    return work.strength > 0 and not work.had_turn[seat] and work.coins[seat] > 0


def _next_reaction(work: Work) -> None:
    while work.targets:
        seat = work.targets[0]
        if _must_ask(work, seat):
            work.phase, work.actor = REACT, seat
            return
        work.targets = work.targets[1:]
        _resolve(work, seat)
    _after_effect(work)


def attack_strength(btl: tuple[int, ...], card: int, ikki: bool) -> int:
    """The BTL of the attack that playing `card` makes, 0 for none: "The BATTLE points (BTL) of the played card
    are the strength of the attack"; "If you play 2 Peasants at the same time, you can make an attack of BTL 5"."""
    if ikki:
        return IKKI_BTL
    return btl[card] if _EFFECTS[card] == ATTACK else 0


def defence(btl: tuple[int, ...], hand: tuple[int, ...]) -> int:
    """A hand's defence strength: "Each defending player's defense strength is the total BATTLE points (BTL) of all
    the cards in their hand." """
    total = 0
    for card in hand:
        total += btl[card]
    return total


def blocks(btl: tuple[int, ...], hand: tuple[int, ...], strength: int) -> bool:
    """Whether `hand` blocks an attack of `strength`: "If that total is equal to or greater than the attacker's BTL
    ... blocks the attack." """
    return defence(btl, hand) >= strength


def _resolve(work: Work, seat: int) -> None:
    """The effect reaches `seat`, which did not cancel or block it."""
    if work.strength:
        if blocks(work.btl, work.hands[seat], work.strength):
            _learn(work, work.active, seat)  # "the defender shows their hand to the attacking player"
        else:
            _exclude(work, seat)
        return
    card = work.effect
    assert card is not None
    effect = _EFFECTS[card]
    if effect == STEAL or effect == TRIBUTE:
        if work.coins[seat]:  # FAQ Q3: nothing is taken from a seat without coins
            work.coins[seat] = work.coins[seat] - 1
            work.coins[work.active] = work.coins[work.active] + 1
    elif effect == TAX:
        if work.coins[seat]:
            work.coins[seat] = work.coins[seat] - 1
            work.pot += 1
    elif effect == TAKE_EFFECT:
        _learn(work, work.active, seat)
        work.victim = seat


def _after_effect(work: Work) -> None:
    if work.victim is not None:
        work.phase, work.actor = TAKE, work.active
    else:
        _end_turn(work)


# --- turns and battles ---------------------------------------------------------------------------------------
def _clear_effect(work: Work) -> None:
    work.effect, work.ikki, work.strength, work.targets = None, False, 0, ()
    work.victim, work.offer, work.limbo = None, (), None


def _end_turn(work: Work) -> None:
    _clear_effect(work)
    n, active, hands = work.n, work.active, work.hands
    last = _last_standing(work.in_battle)
    if last >= 0:
        _win_battle(work, last)
        return
    for i in range(n):  # "draw in clockwise order starting from the active player"
        seat = (active + i) % n
        if work.in_battle[seat] and len(hands[seat]) < HAND_SIZE:
            _draw(work, seat, HAND_SIZE - len(hands[seat]))
            if seat == active and len(hands[seat]) < HAND_SIZE:
                _end_by_honour(work)  # FAQ Q2: I cannot make my hand 2 cards at the end of my turn
                return
            if not hands[seat]:
                _exclude(work, seat)
    in_battle = work.in_battle
    last = _last_standing(in_battle)
    if last >= 0:
        _win_battle(work, last)
        return
    _begin_turn(work, next(p for p in clockwise(active, n) if in_battle[p]))


def _last_standing(in_battle: tuple[bool, ...]) -> int:
    """The one seat still in the battle, or -1 when more are (a loop: compiled, `count` and `index` on the tuple
    were two Python method calls at every turn's end)."""
    last = -1
    for seat, still in enumerate(in_battle):
        if still:
            if last >= 0:
                return -1
            last = seat
    return last


def _begin_turn(work: Work, seat: int) -> None:
    if not work.deck:  # "If there is no card to draw at the start of a player's turn, the battle ends"
        _end_by_honour(work)
        return
    _draw(work, seat, 1)
    work.had_turn[seat] = True
    work.active, work.phase, work.actor = seat, PLAY, seat


def _end_by_honour(work: Work) -> None:
    """Emperor, empty draw pile, FAQ Q2: the most HNR in hand takes the coin area; a tie leaves it there."""
    _clear_effect(work)
    hnr, hands, in_battle = work.hnr, work.hands, work.in_battle
    best, leaders = -1, []
    for seat in range(work.n):
        if in_battle[seat]:
            total = sum(hnr[c] for c in hands[seat])
            if total > best:
                best, leaders = total, [seat]
            elif total == best:
                leaders.append(seat)
    if len(leaders) == 1:
        _win_battle(work, leaders[0])
    else:
        work.winners += (None,)
        _next_battle(work, work.starter)  # "the start is from the player who started the previous battle"


def _win_battle(work: Work, seat: int) -> None:
    work.coins[seat] = work.coins[seat] + work.pot
    work.pot = 0
    work.winners += (seat,)
    _next_battle(work, seat)


def _next_battle(work: Work, start: int) -> None:
    _clear_effect(work)
    if 0 in work.coins:  # "The game ends when, at the start of a battle, one or more players have no coins"
        work.phase, work.actor = OVER, None
        return
    _start_battle(work, start)


def draw_chance(work: Work, rng: random.Random) -> None:
    """From now on `work` draws the chance still to come from `rng`, not from its seed (`games.base.Rules` says
    why: the search calls it on its determinizations, the engine never)."""
    work.draws = rng


def _start_battle(work: Work, start: int) -> None:
    n = work.n
    work.battle += 1
    work.starter = start
    copies = work.copies
    cards = [t for t in range(TYPES) for _ in range(copies[t])]
    draws = work.draws
    shuffle(draws if draws is not None else chance(work.seed, f"battle:{work.battle}"), cards)
    work.hands = [tuple(sorted(cards[2 * p : 2 * p + 2])) for p in range(n)]
    work.facedown = (cards[2 * n],)
    work.deck = tuple(cards[2 * n + 1 :])
    work.discard = ()
    work.in_battle = (True,) * n
    work.had_turn = [False] * n
    work.known = [()] * (n * n)
    work.plays = [None] * n
    work.answers = [None] * n
    for p in range(n):  # "Each player places 1 coin in the center, and 1 coin is then removed"
        work.coins[p] = work.coins[p] - 1
    work.pot += n - 1
    _begin_turn(work, start)


__all__ = ["draw_chance", "freeze", "laid_down", "legal_moves", "new_game", "outcome", "play", "thaw", "to_act"]

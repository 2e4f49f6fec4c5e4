"""Zipang's rules: setup, the legal moves and a move's effect, through the end of a battle and of the game.

A transition works on `_Work`, a mutable copy of the state's changing parts, and freezes it once at the end.
Whose decision it is lives in the state (`phase`, `actor`): the active seat plays, uses or takes; a seat an
effect is aimed at answers it out of turn (REACT), one seat at a time, clockwise from the active seat.
"""

from __future__ import annotations

from games.base import chance, evolve
from games.zipang.data import (
    ATTACK,
    EFFECTS,
    END,
    HAND_SIZE,
    IKKI,
    IKKI_BTL,
    KABUKI,
    MAIDEN,
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
from games.zipang.data import (
    TAKE as TAKE_EFFECT,
)
from games.zipang.moves import ACCEPT, COIN_BLOCK, DEFEND, MONK_CANCEL, Play, React, Take, Use
from games.zipang.state import OVER, PLAY, REACT, TAKE, USE, State


def new_game(num_players: int, table: Table, start: int, seed: int) -> State:
    """Give out the coins and start the first battle with `start`."""
    n = num_players
    coins = START_COINS_TWO if n == 2 else START_COINS
    state = State(
        seed=seed,
        num_players=n,
        btl=table.btl,
        hnr=table.hnr,
        copies=table.copies,
        coins=(coins,) * n,
        pot=0,
        battle=0,
        starter=start,
        winners=(),
        hands=((),) * n,
        deck=(),
        facedown=(),
        discard=(),
        in_battle=(False,) * n,
        had_turn=(False,) * n,
        active=start,
        phase=PLAY,
        actor=start,
        effect=None,
        ikki=False,
        strength=0,
        targets=(),
        victim=None,
        offer=(),
        limbo=None,
        known=((),) * (n * n),
    )
    work = _Work(state)
    work.start_battle(start)
    return work.freeze()


# --- legal moves ---------------------------------------------------------------------------------------------

# Moves are interned: the same move is the same object, and the move lists of a position are cached by what
# they depend on (the hand and who is still in the battle), so a playout mostly looks them up.
_PLAY_CACHE: dict[tuple, tuple] = {}
_USE_CACHE: dict[tuple, tuple] = {}
_REACT_CACHE: dict[tuple, tuple] = {}
_TAKE_CACHE: dict[tuple, tuple] = {}


def legal_moves(state: State, seat: int) -> tuple:
    """Every legal move of `seat` now (empty unless it is the seat to decide)."""
    if seat != state.actor or seat is None:
        return ()
    phase = state.phase
    if phase == PLAY:
        hand = state.hands[seat]
        key = (state.num_players, seat, hand, state.in_battle)
        moves = _PLAY_CACHE.get(key)
        if moves is None:
            moves = _PLAY_CACHE[key] = _card_moves(Play, hand, hand, seat, state.num_players, state.in_battle)
        return moves
    if phase == REACT:
        coin = state.strength > 0 and not state.had_turn[seat] and state.coins[seat] > 0
        key = (MONK in state.hands[seat], coin, state.effect, state.ikki, state.strength > 0)
        moves = _REACT_CACHE.get(key)
        if moves is None:
            moves = _REACT_CACHE[key] = _react_moves(*key)
        return moves
    if phase == USE:
        hand = state.hands[seat]
        key = (state.num_players, seat, state.offer, PEASANT in hand, state.in_battle)
        moves = _USE_CACHE.get(key)
        if moves is None:
            fake_hand = (PEASANT,) if key[3] else ()
            moves = _USE_CACHE[key] = _card_moves(Use, state.offer, fake_hand, seat, state.num_players, state.in_battle)
        return moves
    if phase == TAKE:
        key = (state.victim, state.hands[state.victim])
        moves = _TAKE_CACHE.get(key)
        if moves is None:
            victim, hand = key
            moves = _TAKE_CACHE[key] = (
                *(Take(c, victim) for c in sorted(set(hand))),
                Take(None, victim),
            )
        return moves
    return ()


def _clockwise(seat: int, n: int) -> tuple[int, ...]:
    return tuple((seat + i) % n for i in range(1, n))


def _subsets(seats: tuple[int, ...]) -> list[tuple[int, ...]]:
    """Every subset of `seats` (order kept), the empty one first, then by size."""
    out = [()]
    for size in range(1, len(seats) + 1):
        out += [tuple(s for i, s in enumerate(seats) if mask >> i & 1) for mask in range(1 << len(seats))
                if bin(mask).count("1") == size]
    return out


def _card_moves(kind, cards, hand, seat: int, n: int, in_battle: tuple[bool, ...]) -> tuple:
    """Every way to play (kind=Play, from `cards` = the hand) or use (kind=Use, `cards` offered; `hand` tells
    whether a Peasant is there for an Ikki) each distinct card of `cards`."""
    others = tuple(p for p in _clockwise(seat, n) if in_battle[p])
    moves: list = []
    for card in sorted(set(cards)):
        effect = EFFECTS[card]
        if effect == ATTACK:
            moves += [kind(card, targets) for targets in _subsets(others)]
        elif effect == IKKI:
            moves.append(kind(card))
            # Play: two Peasants of the hand; Use: the used Peasant and one from the hand (FAQ Q7)
            if hand.count(PEASANT) >= (2 if kind is Play else 1) and others:
                moves.append(kind(card, (), True))
        elif effect == STEAL:
            moves += [kind(card, (t,)) for t in _clockwise(seat, n)]  # also a seat excluded from the battle
        elif effect == TAKE_EFFECT and others:
            moves += [kind(card, (t,)) for t in others]
        else:
            moves.append(kind(card))
    return tuple(moves)


def _react_moves(has_monk: bool, coin: bool, effect: int, ikki: bool, attack: bool) -> tuple:
    moves = []
    if has_monk:
        moves.append(React(MONK_CANCEL, effect, ikki))
    if coin:
        moves.append(React(COIN_BLOCK, effect, ikki))
    moves.append(React(DEFEND if attack else ACCEPT, effect, ikki))
    return tuple(moves)


# --- transition ----------------------------------------------------------------------------------------------

def transition(state: State, seat: int, move) -> State:
    """The state after `seat` makes `move`, one of its legal moves."""
    work = _Work(state)
    kind = type(move)
    if kind is Play:
        work.play(seat, move.card, move.targets, move.ikki)
    elif kind is React:
        work.react(seat, move.kind)
    elif kind is Use:
        work.use(move.card, move.targets, move.ikki)
    else:
        work.take(move.card)
    return work.freeze()


class _Work:
    """The changing parts of a state during one transition."""

    __slots__ = (
        "state", "n", "coins", "pot", "battle", "starter", "winners", "hands", "deck", "facedown", "discard",
        "in_battle", "had_turn", "active", "phase", "actor", "effect", "ikki", "strength", "targets", "victim",
        "offer", "limbo", "known",
    )

    def __init__(self, state: State):
        self.state = state
        self.n = state.num_players
        self.coins = list(state.coins)
        self.pot = state.pot
        self.battle = state.battle
        self.starter = state.starter
        self.winners = state.winners
        self.hands = list(state.hands)
        self.deck = state.deck
        self.facedown = state.facedown
        self.discard = state.discard
        self.in_battle = list(state.in_battle)
        self.had_turn = list(state.had_turn)
        self.active = state.active
        self.phase = state.phase
        self.actor = state.actor
        self.effect = state.effect
        self.ikki = state.ikki
        self.strength = state.strength
        self.targets = state.targets
        self.victim = state.victim
        self.offer = state.offer
        self.limbo = state.limbo
        self.known = state.known  # a tuple until the first change, then a list

    def freeze(self) -> State:
        return evolve(
            self.state,
            coins=tuple(self.coins),
            pot=self.pot,
            battle=self.battle,
            starter=self.starter,
            winners=self.winners,
            hands=tuple(self.hands),
            deck=self.deck,
            facedown=self.facedown,
            discard=self.discard,
            in_battle=tuple(self.in_battle),
            had_turn=tuple(self.had_turn),
            active=self.active,
            phase=self.phase,
            actor=self.actor,
            effect=self.effect,
            ikki=self.ikki,
            strength=self.strength,
            targets=self.targets,
            victim=self.victim,
            offer=self.offer,
            limbo=self.limbo,
            known=tuple(self.known),
        )

    # --- cards moving -----------------------------------------------------------------------------------------
    def draw(self, seat: int, count: int) -> None:
        drawn, self.deck = self.deck[:count], self.deck[count:]
        if drawn:
            self.hands[seat] = tuple(sorted(self.hands[seat] + drawn))

    def lose(self, seat: int, card: int) -> None:
        """`card` leaves `seat`'s hand face up: whoever knew it there knows one fewer (drawn cards unseen by
        others never made their knowledge false)."""
        hand = self.hands[seat]
        i = hand.index(card)
        self.hands[seat] = hand[:i] + hand[i + 1 :]
        known, n = self.known, self.n
        for obs in range(n):
            k = known[obs * n + seat]
            if k and card in k:
                if type(known) is tuple:
                    known = self.known = list(known)
                j = k.index(card)
                known[obs * n + seat] = k[:j] + k[j + 1 :]

    def learn(self, observer: int, owner: int) -> None:
        """`owner` shows its hand to `observer` only."""
        if type(self.known) is tuple:
            self.known = list(self.known)
        self.known[observer * self.n + owner] = self.hands[owner]

    def exclude(self, seat: int) -> None:
        """A defeated (or empty-handed) seat leaves the battle, discarding its entire hand face up."""
        self.discard += self.hands[seat]
        self.hands[seat] = ()
        self.in_battle[seat] = False
        n = self.n
        if any(self.known[obs * n + seat] for obs in range(n)):
            if type(self.known) is tuple:
                self.known = list(self.known)
            for obs in range(n):
                self.known[obs * n + seat] = ()

    def refill(self, seat: int) -> None:
        """"refill your hand immediately until you have 2 cards"; no card to draw and no hand: excluded."""
        short = HAND_SIZE - len(self.hands[seat])
        if short > 0:
            self.draw(seat, short)
            if not self.hands[seat]:
                self.exclude(seat)

    # --- moves ------------------------------------------------------------------------------------------------
    def play(self, seat: int, card: int, targets: tuple[int, ...], ikki: bool) -> None:
        self.lose(seat, card)
        self.discard += (card,)
        if ikki:
            self.lose(seat, PEASANT)
            self.discard += (PEASANT,)
        self.start_effect(seat, card, targets, ikki)

    def use(self, card: int, targets: tuple[int, ...], ikki: bool) -> None:
        if self.limbo is not None:  # the card the Shrine Maiden took
            self.limbo = None
        else:  # Kabuki: the chosen card is used and goes back on top of the discard pile
            discard = self.discard
            i = discard.index(card)
            self.discard = discard[:i] + discard[i + 1 :]
        self.discard += (card,)
        if ikki:
            self.lose(self.active, PEASANT)
            self.discard += (PEASANT,)
        self.start_effect(self.active, card, targets, ikki)

    def take(self, card: int | None) -> None:
        victim = self.victim
        self.victim = None
        if card is None:
            self.end_turn()
            return
        self.lose(victim, card)
        self.refill(victim)  # "Do this before the taken card is used."
        self.limbo = card
        self.offer = (card,)
        self.phase, self.actor = USE, self.active

    def react(self, seat: int, kind: str) -> None:
        self.targets = self.targets[1:]
        if kind == MONK_CANCEL:
            self.lose(seat, MONK)
            self.discard += (MONK,)
            self.refill(seat)
        elif kind == COIN_BLOCK:
            self.coins[seat] -= 1
            self.pot += 1
        else:
            self.resolve(seat)
        self.next_reaction()

    # --- effects ----------------------------------------------------------------------------------------------
    def start_effect(self, user: int, card: int, targets: tuple[int, ...], ikki: bool) -> None:
        effect = EFFECTS[card]
        self.effect, self.ikki, self.strength, self.victim, self.offer = card, ikki, 0, None, ()
        n = self.n
        if ikki:
            self.strength = IKKI_BTL
            targets = tuple(p for p in _clockwise(user, n) if self.in_battle[p])
        elif effect == ATTACK:
            self.strength = self.state.btl[card]
        elif effect == TRIBUTE:
            targets = _clockwise(user, n)
        elif effect == TAX:
            if self.coins[user]:
                self.coins[user] -= 1
                self.pot += 1
            targets = _clockwise(user, n)
        elif effect == END:
            self.end_by_honour()
            return
        elif effect == REUSE:
            offer = tuple(sorted(set(self.discard) - {KABUKI}))
            if offer:
                self.offer = offer
                self.phase, self.actor = USE, user
            else:
                self.end_turn()
            return
        elif effect != STEAL and effect != TAKE_EFFECT:
            targets = ()  # a lone Peasant, a Monk on one's own turn (FAQ Q8): nothing happens
        self.targets = targets
        self.next_reaction()

    def must_ask(self, seat: int) -> bool:
        """Whether `seat` gets to answer the effect: it has a hand, and publicly it may hold a Monk (not every
        copy is face up in the discard pile) or it may block the attack with a coin."""
        if not self.in_battle[seat] or not self.hands[seat]:
            return False
        if self.discard.count(MONK) < self.state.copies[MONK]:
            return True
        return self.strength > 0 and not self.had_turn[seat] and self.coins[seat] > 0

    def next_reaction(self) -> None:
        while self.targets:
            seat = self.targets[0]
            if self.must_ask(seat):
                self.phase, self.actor = REACT, seat
                return
            self.targets = self.targets[1:]
            self.resolve(seat)
        self.after_effect()

    def resolve(self, seat: int) -> None:
        """The effect reaches `seat`, which did not cancel or block it."""
        if self.strength:
            btl = self.state.btl
            if sum(btl[c] for c in self.hands[seat]) >= self.strength:
                self.learn(self.active, seat)  # "the defender shows their hand to the attacking player"
            else:
                self.exclude(seat)
            return
        effect = EFFECTS[self.effect]
        if effect == STEAL or effect == TRIBUTE:
            if self.coins[seat]:  # FAQ Q3: nothing is taken from a seat without coins
                self.coins[seat] -= 1
                self.coins[self.active] += 1
        elif effect == TAX:
            if self.coins[seat]:
                self.coins[seat] -= 1
                self.pot += 1
        elif effect == TAKE_EFFECT:
            self.learn(self.active, seat)
            self.victim = seat

    def after_effect(self) -> None:
        if self.victim is not None:
            self.phase, self.actor = TAKE, self.active
        else:
            self.end_turn()

    # --- turns and battles ------------------------------------------------------------------------------------
    def clear_effect(self) -> None:
        self.effect, self.ikki, self.strength, self.targets = None, False, 0, ()
        self.victim, self.offer, self.limbo = None, (), None

    def end_turn(self) -> None:
        self.clear_effect()
        in_battle, n, active = self.in_battle, self.n, self.active
        if in_battle.count(True) == 1:
            self.win_battle(in_battle.index(True))
            return
        for i in range(n):  # "draw in clockwise order starting from the active player"
            seat = (active + i) % n
            if in_battle[seat] and len(self.hands[seat]) < HAND_SIZE:
                self.draw(seat, HAND_SIZE - len(self.hands[seat]))
                if seat == active and len(self.hands[seat]) < HAND_SIZE:
                    self.end_by_honour()  # FAQ Q2: I cannot make my hand 2 cards at the end of my turn
                    return
                if not self.hands[seat]:
                    self.exclude(seat)
        if in_battle.count(True) == 1:
            self.win_battle(in_battle.index(True))
            return
        nxt = next(p for p in _clockwise(active, n) if in_battle[p])
        self.begin_turn(nxt)

    def begin_turn(self, seat: int) -> None:
        if not self.deck:  # "If there is no card to draw at the start of a player's turn, the battle ends"
            self.end_by_honour()
            return
        self.draw(seat, 1)
        self.had_turn[seat] = True
        self.active, self.phase, self.actor = seat, PLAY, seat

    def end_by_honour(self) -> None:
        """Emperor, empty draw pile, FAQ Q2: the most HNR in hand takes the coin area; a tie leaves it there."""
        self.clear_effect()
        hnr = self.state.hnr
        best, leaders = -1, []
        for seat in range(self.n):
            if self.in_battle[seat]:
                total = sum(hnr[c] for c in self.hands[seat])
                if total > best:
                    best, leaders = total, [seat]
                elif total == best:
                    leaders.append(seat)
        if len(leaders) == 1:
            self.win_battle(leaders[0])
        else:
            self.winners += (None,)
            self.next_battle(self.starter)  # "the start is from the player who started the previous battle"

    def win_battle(self, seat: int) -> None:
        self.coins[seat] += self.pot
        self.pot = 0
        self.winners += (seat,)
        self.next_battle(seat)

    def next_battle(self, start: int) -> None:
        self.clear_effect()
        if 0 in self.coins:  # "The game ends when, at the start of a battle, one or more players have no coins"
            self.phase, self.actor = OVER, None
            return
        self.start_battle(start)

    def start_battle(self, start: int) -> None:
        n = self.n
        self.battle += 1
        self.starter = start
        copies = self.state.copies
        cards = [t for t in range(TYPES) for _ in range(copies[t])]
        chance(self.state.seed, "battle", self.battle).shuffle(cards)
        self.hands = [tuple(sorted(cards[2 * p : 2 * p + 2])) for p in range(n)]
        self.facedown = (cards[2 * n],)
        self.deck = tuple(cards[2 * n + 1 :])
        self.discard = ()
        self.in_battle = [True] * n
        self.had_turn = [False] * n
        self.known = ((),) * (n * n)
        for p in range(n):  # "Each player places 1 coin in the center, and 1 coin is then removed"
            self.coins[p] -= 1
        self.pot += n - 1
        self.begin_turn(start)


__all__ = ["MAIDEN", "legal_moves", "new_game", "transition"]

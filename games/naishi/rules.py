"""The turn: legal moves and their effects.

A turn is a sequence of decisions by the seat on turn, one move each:
  [additional action] develop [additional action, or end the turn]
or one of the other main actions alone (decree, recall, declare the end). The turn ends by itself once nothing
is left to decide (developed and the additional action done, or none possible).
"""

from __future__ import annotations

from games.base import Move, chance, evolve
from games.naishi.data import HAND_MOUNTAINS, MOUNTAIN, PILES
from games.naishi.moves import (
    DECREE_SPACE,
    DISCARD_SPACES,
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
from games.naishi.state import (
    State,
    decreed_hands,
    initial_knowledge,
    knowledge_index,
    revealed_replacement,
    switched,
)

EMISSARIES = 2
POSITIONS = range(PILES)
PAIRS = tuple((a, b) for a in POSITIONS for b in POSITIONS if a < b)


# --- legal moves ---------------------------------------------------------------------------------------------
# Moves are immutable values: build each once, so listing the legal moves allocates nothing but lists.
DEVELOPS = {row: tuple(Develop(row, p) for p in POSITIONS) for row in ("hand", "line")}
RIVER_SWITCHES = {(a, b): Switch("river", a, b) for a, b in PAIRS}
OWN_SWITCHES = (
    tuple(Switch("line", a, b) for a, b in PAIRS)
    + tuple(Switch("hand", a, b) for a, b in PAIRS)
    + tuple(Switch("column", p, p) for p in POSITIONS)
)
DISCARDS = {(a, b): DiscardRiver(a, b) for a, b in PAIRS}
DECREES = tuple(Decree(row, p) for row in ("hand", "line") for p in POSITIONS)
END_TURN = EndTurn()
DECLARE_END = DeclareEnd()


def legal_moves(state: State, seat: int) -> list[Move]:
    if state.phase == "gift":
        if state.gifts[seat] is not None:
            return []
        return [Give(card) for card in sorted(set(state.offers[seat]))]
    if state.phase != "turn" or seat != state.turn:
        return []
    if state.developed:
        moves = additional_moves(state, seat, before_develop=False)
        moves.append(END_TURN)
        return moves
    if state.court_used:
        return develop_moves(state)
    main = develop_moves(state) + decree_moves(state, seat) + recall_moves(state, seat)
    if state.final_turn is None and not all(state.piles):
        main.append(DECLARE_END)
    if not main:
        return [END_TURN]  # nothing at all is possible: the seat can only pass
    return main + additional_moves(state, seat, before_develop=True)


def develop_moves(state: State) -> list[Move]:
    piles = state.piles
    return [move for row in ("hand", "line") for p, move in enumerate(DEVELOPS[row]) if piles[p]]


def emissaries_available(state: State, seat: int) -> int:
    return EMISSARIES - state.court.count(seat)


def additional_moves(state: State, seat: int, before_develop: bool) -> list[Move]:
    """Additional actions: an Emissary on a free space; before developing, a development must stay possible."""
    if state.court_used or emissaries_available(state, seat) == 0:
        return []
    piles = state.piles
    open_pairs = [pair for pair in PAIRS if piles[pair[0]] and piles[pair[1]]]
    if before_develop and not any(piles):
        return []
    court = state.court
    moves: list[Move] = []
    if any(court[s] is None for s in SWITCH_SPACES):
        moves += [RIVER_SWITCHES[pair] for pair in open_pairs]
        moves += OWN_SWITCHES
    if (
        any(court[s] is None for s in DISCARD_SPACES)
        and open_pairs
        and (not before_develop or sum(map(len, piles)) > 2)
    ):
        moves += [DISCARDS[pair] for pair in open_pairs]
    return moves


def decree_moves(state: State, seat: int) -> list[Move]:
    if state.court[DECREE_SPACE] is not None or emissaries_available(state, seat) == 0:
        return []
    return list(DECREES)


def recall_moves(state: State, seat: int) -> list[Move]:
    mine = [s for s, owner in enumerate(state.court) if owner == seat and s != DECREE_SPACE]
    moves: list[Move] = [Recall((s,)) for s in mine]
    if len(mine) == 2:
        moves.append(Recall(tuple(mine)))
    return moves


# --- effects -------------------------------------------------------------------------------------------------


def transition(state: State, seat: int, move: Move) -> State:
    """Apply a move already checked to be legal."""
    if isinstance(move, Give):
        return _give(state, seat, move.card)
    if isinstance(move, Develop):
        state = _develop(state, seat, move)
        if state.court_used or not additional_moves(state, seat, before_develop=False):
            return end_turn(state)
        return state
    if isinstance(move, Switch | DiscardRiver):
        state = _place_emissary(state, seat, SWITCH_SPACES if isinstance(move, Switch) else DISCARD_SPACES)
        state = _switch(state, seat, move) if isinstance(move, Switch) else _discard_river(state, seat, move)
        return end_turn(state) if state.developed else state
    if isinstance(move, Decree):
        state = _place_emissary(state, seat, (DECREE_SPACE,))
        return end_turn(_decree(state, seat, move))
    if isinstance(move, Recall):
        court = tuple(None if s in move.spaces else owner for s, owner in enumerate(state.court))
        return end_turn(evolve(state, court=court))
    if isinstance(move, DeclareEnd):
        return end_turn(evolve(state, final_turn=1 - seat, declared_by=seat))
    if isinstance(move, EndTurn):
        return end_turn(state)
    raise AssertionError(f"unhandled move {move!r}")


def _give(state: State, seat: int, card: int) -> State:
    gifts = tuple(card if s == seat else g for s, g in enumerate(state.gifts))
    if any(g is None for g in gifts):
        return evolve(state, gifts=gifts)
    hands = []
    for s in (0, 1):
        kept = list(state.offers[s])
        kept.remove(gifts[s])
        hand = [MOUNTAIN] * HAND_MOUNTAINS + kept + [gifts[1 - s]]
        chance(state.seed, "shuffle", s).shuffle(hand)
        hands.append(tuple(hand))
    return evolve(
        state,
        phase="turn",
        turn=state.first,
        gifts=gifts,
        offers=((), ()),
        hands=tuple(hands),
        knowledge=initial_knowledge(gifts),
    )


def _set(row: tuple[int, ...], pos: int, card: int) -> tuple[int, ...]:
    return row[:pos] + (card,) + row[pos + 1 :]


def _set_seat(rows: tuple[tuple[int, ...], ...], seat: int, row: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    return (row, rows[1]) if seat == 0 else (rows[0], row)


def _hand_replaced(state: State, owner: int, pos: int, old: int, new: int) -> tuple:
    """Update every observer's knowledge of `owner`'s Hand after a face-up replacement at `pos`."""
    knowledge = list(state.knowledge)
    for observer in (1 - owner, None):
        i = knowledge_index(observer, owner)
        knowledge[i] = revealed_replacement(knowledge[i], pos, old, new)
    return tuple(knowledge)


def _develop(state: State, seat: int, move: Develop) -> State:
    pile = state.piles[move.pos]
    taken = pile[0]
    piles = state.piles[: move.pos] + (pile[1:],) + state.piles[move.pos + 1 :]
    if move.row == "hand":
        old = state.hands[seat][move.pos]
        hands = _set_seat(state.hands, seat, _set(state.hands[seat], move.pos, taken))
        knowledge = _hand_replaced(state, seat, move.pos, old, taken)
        state = evolve(state, hands=hands, knowledge=knowledge)
    else:
        old = state.lines[seat][move.pos]
        state = evolve(state, lines=_set_seat(state.lines, seat, _set(state.lines[seat], move.pos, taken)))
    return evolve(state, piles=piles, discard=state.discard + (old,), developed=True)


def _place_emissary(state: State, seat: int, spaces: tuple[int, ...]) -> State:
    space = next(s for s in spaces if state.court[s] is None)
    court = state.court[:space] + (seat,) + state.court[space + 1 :]
    return evolve(state, court=court, court_used=True)


def _switch(state: State, seat: int, move: Switch) -> State:
    a, b = move.a, move.b
    if move.kind == "river":
        pa, pb = state.piles[a], state.piles[b]
        piles = list(state.piles)
        piles[a], piles[b] = (pb[0],) + pa[1:], (pa[0],) + pb[1:]
        return evolve(state, piles=tuple(piles))
    if move.kind == "line":
        line = list(state.lines[seat])
        line[a], line[b] = line[b], line[a]
        return evolve(state, lines=_set_seat(state.lines, seat, tuple(line)))
    if move.kind == "hand":
        hand = list(state.hands[seat])
        hand[a], hand[b] = hand[b], hand[a]
        knowledge = list(state.knowledge)
        for observer in (1 - seat, None):
            i = knowledge_index(observer, seat)
            knowledge[i] = switched(knowledge[i], a, b)
        return evolve(
            state,
            hands=_set_seat(state.hands, seat, tuple(hand)),
            knowledge=tuple(knowledge),
        )
    # column: the Hand card goes face up to the Line, the Line card into the Hand, both in view
    hand_card, line_card = state.hands[seat][a], state.lines[seat][a]
    return evolve(
        state,
        hands=_set_seat(state.hands, seat, _set(state.hands[seat], a, line_card)),
        lines=_set_seat(state.lines, seat, _set(state.lines[seat], a, hand_card)),
        knowledge=_hand_replaced(state, seat, a, hand_card, line_card),
    )


def _discard_river(state: State, seat: int, move: DiscardRiver) -> State:
    piles = list(state.piles)
    gone = (piles[move.a][0], piles[move.b][0])
    piles[move.a], piles[move.b] = piles[move.a][1:], piles[move.b][1:]
    return evolve(state, piles=tuple(piles), discard=state.discard + gone)


def _decree(state: State, seat: int, move: Decree) -> State:
    p = move.pos
    if move.row == "line":
        c0, c1 = state.lines[0][p], state.lines[1][p]
        lines = (_set(state.lines[0], p, c1), _set(state.lines[1], p, c0))
        return evolve(state, lines=lines)
    c0, c1 = state.hands[0][p], state.hands[1][p]
    hands = (_set(state.hands[0], p, c1), _set(state.hands[1], p, c0))
    return evolve(state, hands=hands, knowledge=decreed_hands(state.knowledge, p, c0, c1))


def end_turn(state: State) -> State:
    """Pass the turn on, or end the game: "When 2 draw piles from the River are empty..." or after a declaration."""
    player = state.turn
    if state.final_turn == player:
        return _game_over(state)
    final_turn = state.final_turn
    if final_turn is None and sum(1 for pile in state.piles if not pile) >= 2:
        if player != state.first:
            return _game_over(state)
        final_turn = 1 - player
    return evolve(state, turn=1 - player, developed=False, court_used=False, final_turn=final_turn)


def _game_over(state: State) -> State:
    return evolve(state, phase="over", developed=False, court_used=False)


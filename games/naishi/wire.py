"""Naishi's public messages (protos/tabletop/v1/naishi.proto) <-> its engine objects, exactly both ways.

The engine keeps cards as small ints, rows and switch kinds as strings, and what observers know of the Hands as 4
flat entries; the messages speak the game's words (a NaishiCard enum, territories with their Line, Hand and
knowledge, the Court's spaces by kind). A card's enum value is the engine's int + 1 (0, UNSPECIFIED, stands for
"none" or "not known"). Places in a row are the engine's 0-based positions.
"""

from __future__ import annotations

from games.naishi.data import CARD_TABLE, PILES
from games.naishi.knowledge import knowledge_index
from games.naishi.moves import (
    DECREE_SPACE,
    DISCARD_SPACES,
    SPACES,
    DeclareEnd,
    Decree,
    Develop,
    DiscardRiver,
    EndTurn,
    Give,
    Recall,
    Switch,
)
from games.naishi.state import HandKnowledge, View
from tabletop.v1 import naishi_pb2 as np
from tabletop.wire import GameWire, WireError

CARDS = len(CARD_TABLE)
SEATS = (0, 1)
PHASES = {"gift": np.NAISHI_PHASE_GIFT, "turn": np.NAISHI_PHASE_TURN, "over": np.NAISHI_PHASE_OVER}
PHASE_NAMES = {v: k for k, v in PHASES.items()}
ROWS = {"hand": np.NAISHI_ROW_HAND, "line": np.NAISHI_ROW_LINE}
ROW_NAMES = {v: k for k, v in ROWS.items()}
SWITCH_KINDS = {"river": np.NAISHI_SWITCH_KIND_RIVER, "line": np.NAISHI_SWITCH_KIND_LINE,
                "hand": np.NAISHI_SWITCH_KIND_HAND, "column": np.NAISHI_SWITCH_KIND_COLUMN}
SWITCH_KIND_NAMES = {v: k for k, v in SWITCH_KINDS.items()}
COURT_KINDS = tuple(
    np.NAISHI_COURT_KIND_DECREE if s == DECREE_SPACE
    else np.NAISHI_COURT_KIND_DISCARD if s in DISCARD_SPACES
    else np.NAISHI_COURT_KIND_SWITCH
    for s in range(len(SPACES))
)


def card_to_proto(card: int | None) -> int:
    return 0 if card is None else card + 1


def card_from_proto(value: int, what: str = "a card") -> int:
    if not 1 <= value <= CARDS:
        raise WireError(f"{what} must be set to a NaishiCard, got {value}")
    return value - 1


def _optional_card(value: int, what: str) -> int | None:
    return None if value == 0 else card_from_proto(value, what)


def _cards(values, what: str) -> tuple[int, ...]:
    return tuple(card_from_proto(v, what) for v in values)


def _optional(message, name: str) -> int | None:
    return getattr(message, name) if message.HasField(name) else None


def _seat(value: int | None, what: str) -> int | None:
    if value is not None and value not in SEATS:
        raise WireError(f"{what} is a seat, 0 or 1, not {value}")
    return value


def _place(value: int, what: str, limit: int = PILES) -> int:
    if not 0 <= value < limit:
        raise WireError(f"{what} is a place 0..{limit - 1}, not {value}")
    return value


def _enum(value: int, names: dict[int, str], what: str) -> str:
    if value not in names:
        raise WireError(f"{what} must be set to a known value, got {value}")
    return names[value]


def knowledge_to_proto(k: HandKnowledge) -> np.NaishiHandKnowledge:
    return np.NaishiHandKnowledge(places=[card_to_proto(c) for c in k.slots], among=[c + 1 for c in k.among])


def knowledge_from_proto(m: np.NaishiHandKnowledge) -> HandKnowledge:
    if len(m.places) not in (0, PILES):
        raise WireError(f"what is known of a Hand lists its {PILES} places (none before the Hands exist)")
    return HandKnowledge(
        slots=tuple(_optional_card(c, "a known card of a Hand") for c in m.places),
        among=_cards(m.among, "a card among a Hand's unknown places"),
    )


class NaishiWire(GameWire):
    view_message = np.NaishiView
    move_message = np.NaishiMove
    score_message = np.NaishiScoreBreakdown

    # --- moves ---

    def move_to_proto(self, move) -> np.NaishiMove:
        if isinstance(move, Develop):
            return np.NaishiMove(develop=np.NaishiDevelop(row=ROWS[move.row], place=move.pos))
        if isinstance(move, Switch):
            return np.NaishiMove(switch_cards=np.NaishiSwitch(kind=SWITCH_KINDS[move.kind], first_place=move.a,
                                                              second_place=move.b))
        if isinstance(move, DiscardRiver):
            return np.NaishiMove(discard_river=np.NaishiDiscardRiver(first_pile=move.a, second_pile=move.b))
        if isinstance(move, Decree):
            return np.NaishiMove(decree=np.NaishiDecree(row=ROWS[move.row], place=move.pos))
        if isinstance(move, Recall):
            return np.NaishiMove(recall=np.NaishiRecall(spaces=move.spaces))
        if isinstance(move, Give):
            return np.NaishiMove(give=np.NaishiGive(card=card_to_proto(move.card)))
        if isinstance(move, DeclareEnd):
            return np.NaishiMove(declare_end=np.NaishiDeclareEnd())
        if isinstance(move, EndTurn):
            return np.NaishiMove(end_turn=np.NaishiEndTurn())
        raise WireError(f"not a Naishi move: {type(move).__name__}")

    def move_from_proto(self, m: np.NaishiMove):
        kind = m.WhichOneof("kind")
        if kind == "develop":
            return Develop(_enum(m.develop.row, ROW_NAMES, "the developed row"),
                           _place(m.develop.place, "the developed place"))
        if kind == "switch_cards":
            s = m.switch_cards
            return Switch(_enum(s.kind, SWITCH_KIND_NAMES, "the switch's kind"),
                          _place(s.first_place, "the switch's first place"),
                          _place(s.second_place, "the switch's second place"))
        if kind == "discard_river":
            d = m.discard_river
            return DiscardRiver(_place(d.first_pile, "the first River pile"),
                                _place(d.second_pile, "the second River pile"))
        if kind == "decree":
            return Decree(_enum(m.decree.row, ROW_NAMES, "the decreed row"),
                          _place(m.decree.place, "the decreed place"))
        if kind == "recall":
            return Recall(tuple(_place(s, "a Court space", len(SPACES)) for s in m.recall.spaces))
        if kind == "give":
            return Give(card_from_proto(m.give.card, "the card given"))
        if kind == "declare_end":
            return DeclareEnd()
        if kind == "end_turn":
            return EndTurn()
        raise WireError("NaishiMove has no move set")

    # --- views ---

    def view_to_proto(self, v: View) -> np.NaishiView:
        territories = []
        for owner in SEATS:
            if v.revealed_hands:
                hand = v.revealed_hands[owner]
            else:
                hand = v.hand if owner == v.seat else ()
            territory = np.NaishiTerritory(
                seat=owner,
                line=[c + 1 for c in v.lines[owner]],
                hand=[c + 1 for c in hand],
                gift_chosen=v.gifts_chosen[owner],
            )
            by_opponent = v.knowledge[knowledge_index(1 - owner, owner)]
            if by_opponent is not None:
                territory.known_to_opponent.CopyFrom(knowledge_to_proto(by_opponent))
            territory.known_to_everyone.CopyFrom(knowledge_to_proto(v.knowledge[knowledge_index(None, owner)]))
            territories.append(territory)
        return np.NaishiView(
            seat=v.seat,
            phase=PHASES[v.phase],
            first_player=v.first,
            turn=v.turn,
            developed=v.developed,
            court_used=v.court_used,
            final_turn=v.final_turn,
            declared_by=v.declared_by,
            offer=[c + 1 for c in v.offer],
            gift_given=card_to_proto(v.gift_given),
            gift_received=card_to_proto(v.gift_received),
            territories=territories,
            river=[np.NaishiRiverPile(top=card_to_proto(top), size=size)
                   for top, size in zip(v.river, v.pile_sizes, strict=True)],
            discard=[c + 1 for c in v.discard],
            court=[np.NaishiCourtSpace(kind=kind, emissary=seat) for kind, seat in zip(COURT_KINDS, v.court,
                                                                                      strict=True)],
        )

    def view_from_proto(self, m: np.NaishiView) -> View:
        phase = _enum(m.phase, PHASE_NAMES, "the phase")
        seat = _seat(_optional(m, "seat"), "the viewing seat")
        if [t.seat for t in m.territories] != list(SEATS):
            raise WireError("a Naishi view has 2 territories, seat 0's then seat 1's")
        if len(m.river) != PILES:
            raise WireError(f"the River has {PILES} piles")
        if [space.kind for space in m.court] != list(COURT_KINDS):
            raise WireError("the Imperial Court has 3 switch spaces, 2 discard spaces and the Decree, in that order")
        for t in m.territories:
            if len(t.line) != PILES or len(t.hand) not in (0, PILES):
                raise WireError(f"a Line has {PILES} cards, and a Hand {PILES} (or none when it is not seen)")
        if any(pile.size < 0 for pile in m.river):
            raise WireError("a River pile's size is never negative")
        knowledge: list[HandKnowledge | None] = [None] * 4
        for owner, t in zip(SEATS, m.territories, strict=True):
            if not t.HasField("known_to_everyone"):
                raise WireError("what everyone knows of each Hand must be set")
            knowledge[knowledge_index(None, owner)] = knowledge_from_proto(t.known_to_everyone)
            if t.HasField("known_to_opponent"):
                knowledge[knowledge_index(1 - owner, owner)] = knowledge_from_proto(t.known_to_opponent)
        hands = tuple(_cards(t.hand, "a Hand card") for t in m.territories)
        return View(
            seat=seat,
            phase=phase,
            first=_seat(m.first_player, "the first player"),
            turn=_seat(m.turn, "the seat on turn"),
            developed=m.developed,
            court_used=m.court_used,
            final_turn=_seat(_optional(m, "final_turn"), "the seat playing the final turn"),
            declared_by=_seat(_optional(m, "declared_by"), "the seat that declared the end"),
            offer=_cards(m.offer, "an offered card"),
            gifts_chosen=tuple(t.gift_chosen for t in m.territories),
            gift_given=_optional_card(m.gift_given, "the card given"),
            gift_received=_optional_card(m.gift_received, "the card received"),
            hand=hands[seat] if seat is not None else (),
            revealed_hands=hands if phase == "over" else (),
            lines=tuple(_cards(t.line, "a Line card") for t in m.territories),
            river=tuple(_optional_card(pile.top, "a River card") for pile in m.river),
            pile_sizes=tuple(pile.size for pile in m.river),
            discard=_cards(m.discard, "a discarded card"),
            court=tuple(_seat(_optional(space, "emissary"), "an Emissary's seat") for space in m.court),
            knowledge=tuple(knowledge),
        )


WIRE = NaishiWire()

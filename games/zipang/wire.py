"""Zipang's public messages (protos/tabletop/v1/zipang.proto) <-> its engine objects, exactly both ways.

The engine keeps cards as type indexes, phases and answers as strings, and what seats know of each other's hands
as flat tuples; the messages speak the game's words (a ZipangCard enum, a player per seat with its coins and what
the viewer knows of its hand, the effect being resolved, the pending out-of-turn decision). An enum value is the
engine's index + 1 (0, UNSPECIFIED, stands for "none" where a field says so). `ZipangView.reaction` restates the
effect from the answering seat's side for frontends; it is derived, so reading a view ignores it.
"""

from __future__ import annotations

from games.zipang.data import MAX_PLAYERS, MIN_PLAYERS, MONK, PEASANT, TYPES
from games.zipang.legal import may_block
from games.zipang.moves import ACCEPT, COIN_BLOCK, DEFEND, MONK_CANCEL, Play, React, Take, Use
from games.zipang.rules import defence
from games.zipang.state import OVER, PLAY, REACT, TAKE, USE, Decision, View
from tabletop.v1 import zipang_pb2 as zp
from tabletop.wire import GameWire, WireError

PHASES = {PLAY: zp.ZIPANG_PHASE_PLAY, REACT: zp.ZIPANG_PHASE_REACT, TAKE: zp.ZIPANG_PHASE_TAKE,
          USE: zp.ZIPANG_PHASE_USE, OVER: zp.ZIPANG_PHASE_OVER}
PHASE_NAMES = {v: k for k, v in PHASES.items()}
ANSWERS = {MONK_CANCEL: zp.ZIPANG_ANSWER_MONK, COIN_BLOCK: zp.ZIPANG_ANSWER_COIN_BLOCK,
           DEFEND: zp.ZIPANG_ANSWER_DEFEND, ACCEPT: zp.ZIPANG_ANSWER_ACCEPT}
ANSWER_NAMES = {v: k for k, v in ANSWERS.items()}


def card_to_proto(card: int | None) -> int:
    return 0 if card is None else card + 1


def card_from_proto(value: int, what: str = "a card") -> int:
    if not 1 <= value <= TYPES:
        raise WireError(f"{what} must be set to a ZipangCard, got {value}")
    return value - 1


def _cards(values, what: str) -> tuple[int, ...]:
    return tuple(card_from_proto(v, what) for v in values)


def _optional(message, name: str) -> int | None:
    return getattr(message, name) if message.HasField(name) else None


def _seat(value: int | None, n: int, what: str) -> int | None:
    if value is not None and not 0 <= value < n:
        raise WireError(f"{what} is a seat 0..{n - 1}, not {value}")
    return value


def _count(value: int, what: str) -> int:
    if value < 0:
        raise WireError(f"{what} is never negative, got {value}")
    return value


def _enum(value: int, names: dict[int, str], what: str) -> str:
    if value not in names:
        raise WireError(f"{what} must be set to a known value, got {value}")
    return names[value]


def _ikki(card: int, ikki: bool) -> bool:
    if ikki and card != PEASANT:
        raise WireError("only Peasants make an Ikki")
    return ikki


def _targets(values, what: str) -> tuple[int, ...]:
    """Seats a move names; the engine tells whether they are legal in the position."""
    return tuple(_seat(t, MAX_PLAYERS, what) for t in values)


class ZipangWire(GameWire):
    view_message = zp.ZipangView
    move_message = zp.ZipangMove
    score_message = zp.ZipangScoreBreakdown

    # --- moves ---

    def move_to_proto(self, move) -> zp.ZipangMove:
        if isinstance(move, Play):
            return zp.ZipangMove(play=zp.ZipangPlay(card=move.card + 1, targets=move.targets, ikki=move.ikki))
        if isinstance(move, React):
            return zp.ZipangMove(react=zp.ZipangReact(answer=ANSWERS[move.kind], card=move.card + 1, ikki=move.ikki))
        if isinstance(move, Use):
            return zp.ZipangMove(use=zp.ZipangUse(card=move.card + 1, targets=move.targets, ikki=move.ikki))
        if isinstance(move, Take):
            return zp.ZipangMove(take=zp.ZipangTake(card=card_to_proto(move.card), from_seat=move.victim))
        raise WireError(f"not a Zipang move: {type(move).__name__}")

    def move_from_proto(self, m: zp.ZipangMove):
        kind = m.WhichOneof("kind")
        if kind == "play":
            card = card_from_proto(m.play.card, "the card played")
            return Play(card, _targets(m.play.targets, "a target"), _ikki(card, m.play.ikki))
        if kind == "react":
            answer = _enum(m.react.answer, ANSWER_NAMES, "the answer")
            card = card_from_proto(m.react.card, "the card answered")
            return React(answer, card, _ikki(card, m.react.ikki))
        if kind == "use":
            card = card_from_proto(m.use.card, "the card used")
            return Use(card, _targets(m.use.targets, "a target"), _ikki(card, m.use.ikki))
        if kind == "take":
            card = None if m.take.card == 0 else card_from_proto(m.take.card, "the card taken")
            return Take(card, _seat(m.take.from_seat, MAX_PLAYERS, "the seat taken from"))
        raise WireError("ZipangMove has no move set")

    # --- views ---

    def view_to_proto(self, v: View) -> zp.ZipangView:
        n = v.num_players
        message = zp.ZipangView(
            seat=v.seat,
            phase=PHASES[v.phase],
            card_types=[zp.ZipangCardType(card=c + 1, battle_points=v.btl[c], honor_points=v.hnr[c],
                                          copies=v.copies[c]) for c in range(TYPES)],
            players=[
                zp.ZipangPlayer(
                    seat=p, coins=v.coins[p], hand_size=v.hand_sizes[p], in_battle=v.in_battle[p],
                    had_turn=v.had_turn[p], known_cards=[c + 1 for c in v.known[p]],
                    knows_of_your_hand=[c + 1 for c in v.seen_by[p]],
                    last_play=self._decision_to_proto(v.plays[p], v.seat),
                    last_answer=self._decision_to_proto(v.answers[p], v.seat),
                )
                for p in range(n)
            ],
            hand=[c + 1 for c in v.hand],
            coin_area=v.pot,
            battle=v.battle,
            battle_starter=v.starter,
            battle_results=[zp.ZipangBattleResult(battle=i + 1, winner=w) for i, w in enumerate(v.winners)],
            draw_pile_size=v.deck_size,
            face_down_discards=v.facedown_size,
            discard=[c + 1 for c in v.discard],
            active=v.active,
            actor=v.actor,
        )
        if v.effect is not None:
            message.effect.CopyFrom(zp.ZipangEffect(
                user=v.active, card=v.effect + 1, ikki=v.ikki, attack_strength=v.strength, targets=v.targets,
                looked_at=v.victim, usable=[c + 1 for c in v.offer], taken_card=card_to_proto(v.limbo),
            ))
        elif v.ikki or v.strength or v.targets or v.victim is not None or v.offer or v.limbo is not None:
            raise WireError("a Zipang view has an effect's details without the effect")
        if v.phase == REACT:
            message.reaction.CopyFrom(_reaction(v))
        return message

    def view_from_proto(self, m: zp.ZipangView) -> View:
        phase = _enum(m.phase, PHASE_NAMES, "the phase")
        n = len(m.players)
        if not MIN_PLAYERS <= n <= MAX_PLAYERS:
            raise WireError(f"a Zipang view has a player per seat, {MIN_PLAYERS} to {MAX_PLAYERS}, not {n}")
        if [p.seat for p in m.players] != list(range(n)):
            raise WireError("the players are listed from seat 0 clockwise")
        if [t.card for t in m.card_types] != list(range(1, TYPES + 1)):
            raise WireError(f"card_types lists the {TYPES} card types in the order of ZipangCard")
        for t in m.card_types:
            for field in ("battle_points", "honor_points", "copies"):
                _count(getattr(t, field), f"a card type's {field}")
        for p in m.players:
            _count(p.coins, "a seat's coins")
            _count(p.hand_size, "a hand's size")
        seat = _seat(_optional(m, "seat"), n, "the viewing seat")
        if seat is None and (m.hand or any(p.known_cards or p.knows_of_your_hand for p in m.players)):
            raise WireError("a spectator has no hand and knows no hand")
        effect = None
        ikki, strength, targets, victim, offer, limbo = False, 0, (), None, (), None
        if m.HasField("effect"):
            e = m.effect
            effect = card_from_proto(e.card, "the effect's card")
            if e.user != m.active:
                raise WireError("the effect's user is the seat on turn")
            ikki = _ikki(effect, e.ikki)
            strength = _count(e.attack_strength, "the attack's strength")
            targets = tuple(_seat(t, n, "a target of the effect") for t in e.targets)
            victim = _seat(_optional(e, "looked_at"), n, "the seat looked at")
            offer = _cards(e.usable, "a usable card")
            limbo = None if e.taken_card == 0 else card_from_proto(e.taken_card, "the card taken")
        return View(
            seat=seat,
            num_players=n,
            btl=tuple(t.battle_points for t in m.card_types),
            hnr=tuple(t.honor_points for t in m.card_types),
            copies=tuple(t.copies for t in m.card_types),
            coins=tuple(p.coins for p in m.players),
            pot=_count(m.coin_area, "the coin area"),
            battle=_count(m.battle, "the battle's number"),
            starter=_seat(m.battle_starter, n, "the battle's starter"),
            winners=tuple(_result(r, i, n) for i, r in enumerate(m.battle_results)),
            hand=_cards(m.hand, "a card in hand"),
            hand_sizes=tuple(p.hand_size for p in m.players),
            deck_size=_count(m.draw_pile_size, "the draw pile's size"),
            facedown_size=_count(m.face_down_discards, "the face-down discards"),
            discard=_cards(m.discard, "a discarded card"),
            in_battle=tuple(p.in_battle for p in m.players),
            had_turn=tuple(p.had_turn for p in m.players),
            active=_seat(m.active, n, "the seat on turn"),
            phase=phase,
            actor=_seat(_optional(m, "actor"), n, "the seat deciding"),
            effect=effect,
            ikki=ikki,
            strength=strength,
            targets=targets,
            victim=victim,
            offer=offer,
            limbo=limbo,
            known=tuple(_cards(p.known_cards, "a known card") for p in m.players),
            seen_by=tuple(_cards(p.knows_of_your_hand, "a card known of your hand") for p in m.players),
            plays=tuple(self._decision_from_proto(p, "last_play", Play, n, seat) for p in m.players),
            answers=tuple(self._decision_from_proto(p, "last_answer", React, n, seat) for p in m.players),
        )

    def _decision_to_proto(self, d: Decision | None, viewer: int | None) -> zp.ZipangDecision | None:
        if d is None:
            return None
        return zp.ZipangDecision(
            move=self.move_to_proto(d.move), attack_strength=d.strength, kept=d.kept, held=d.held, coins=d.coins,
            coin_area=d.pot, hand_sizes=d.hand_sizes, discard=[c + 1 for c in d.discard], in_battle=d.in_battle,
            had_turn=d.had_turn, knew_of_your_hand=[] if viewer is None else [c + 1 for c in d.known[viewer]],
        )

    def _decision_from_proto(self, player: zp.ZipangPlayer, field: str, kind: type, n: int,
                             viewer: int | None) -> Decision | None:
        if not player.HasField(field):
            return None
        m = getattr(player, field)
        what = f"seat {player.seat}'s {field}"
        move = self.move_from_proto(m.move)
        if type(move) is not kind:
            raise WireError(f"{what} is a {'play' if kind is Play else 'react'} move")
        if not 0 <= m.held <= m.kept <= 3:
            raise WireError(f"{what}: held {m.held} and kept {m.kept} must satisfy 0 <= held <= kept <= 3")
        for values, name in ((m.coins, "coins"), (m.hand_sizes, "hand_sizes"), (m.in_battle, "in_battle"),
                             (m.had_turn, "had_turn")):
            if len(values) != n:
                raise WireError(f"{what}.{name} lists every seat ({n}), not {len(values)}")
        for c in (*m.coins, *m.hand_sizes):
            _count(c, f"{what}: a coin count or hand size")
        knew = _cards(m.knew_of_your_hand, f"{what}: a card known of your hand")
        if viewer is None and knew:
            raise WireError("a spectator's hand is known to nobody")
        return Decision(
            move=move, strength=_count(m.attack_strength, f"{what}.attack_strength"), kept=m.kept, held=m.held,
            coins=tuple(m.coins), pot=_count(m.coin_area, f"{what}.coin_area"),
            hand_sizes=tuple(m.hand_sizes), discard=_cards(m.discard, f"{what}: a discarded card"),
            in_battle=tuple(m.in_battle), had_turn=tuple(m.had_turn),
            known=tuple(knew if owner == viewer else () for owner in range(n)),
        )


def _reaction(v: View) -> zp.ZipangReaction:
    """The decision of the seat that answers now, from its side; what only its hand tells is left out of other
    views."""
    seat = v.actor
    own = seat == v.seat
    return zp.ZipangReaction(
        seat=seat,
        from_seat=v.active,
        card=card_to_proto(v.effect),
        ikki=v.ikki,
        attack_strength=v.strength,
        coin_block_allowed=may_block(v.strength, v.had_turn[seat], v.coins[seat]),
        monk_allowed=own and MONK in v.hand,
        defence=defence(v.btl, v.hand) if own else 0,
    )


def _result(r: zp.ZipangBattleResult, i: int, n: int) -> int | None:
    if r.battle != i + 1:
        raise WireError(f"battle_results lists the battles in order from 1; entry {i} says battle {r.battle}")
    return _seat(_optional(r, "winner"), n, "a battle's winner")


WIRE = ZipangWire()

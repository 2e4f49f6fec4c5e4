"""What a seat sees of a Zipang state (`view`), and determinizations consistent with it (`sample`)."""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Final

from games.deal import shuffle
from games.zipang.data import TYPES
from games.zipang.evidence import weight
from games.zipang.state import Decision, State, View, deciding, seats_acting

TRIES: Final = 30  # deals drawn at most per sample to find one the seats' last moves agree with (evidence.weight)


def view(state: State, seat: int | None) -> View:
    """Own hand, the hands shown to this seat (as far as it still knows them), what others know of its own hand,
    and the public table; never the deck order, the face-down discard or the seed."""
    n = state.num_players
    if seat is None:
        hand: tuple[int, ...] = ()
        known = seen_by = ((),) * n  # type: tuple[tuple[int, ...], ...]
    else:
        hand = state.hands[seat]
        known = state.known[seat * n : seat * n + n]
        seen_by = state.known[seat :: n]
    return View(
        seat,
        n,
        state.btl,
        state.hnr,
        state.copies,
        state.coins,
        state.pot,
        state.battle,
        state.starter,
        state.winners,
        hand,
        tuple(map(len, state.hands)),
        len(state.deck),
        len(state.facedown),
        state.discard,
        state.in_battle,
        state.had_turn,
        state.active,
        state.phase,
        deciding(state.acting),
        state.effect,
        state.ikki,
        state.strength,
        state.targets,
        state.victim,
        state.offer,
        state.limbo,
        known,
        seen_by,
        _redacted(state.plays, seat),
        _redacted(state.answers, seat),
    )


def _redacted(records: tuple[Decision | None, ...], seat: int | None) -> tuple[Decision | None, ...]:
    """The seats' decisions as `seat` may see them: what each seat knew then of a hand other than `seat`'s own is
    left out (a spectator sees none of it)."""
    out: list[Decision | None] = []
    for d in records:
        if d is not None:
            known = tuple([cards if owner == seat else () for owner, cards in enumerate(d.known)])
            if known != d.known:
                d = replace(d, known=known)
        out.append(d)
    return tuple(out)


def unseen(v: View) -> list[int]:
    """The cards this seat cannot place: the deck composition minus its hand, the face-up discard, the card
    about to be used and every card it knows in another hand (sorted)."""
    counts = list(v.copies)
    for cards in (v.hand, v.discard, *v.known):
        for card in cards:
            counts[card] -= 1
    if v.limbo is not None:
        counts[v.limbo] -= 1
    assert min(counts) >= 0, f"more cards seen than exist: {counts}"
    return [card for card in range(TYPES) for _ in range(counts[card])]


def sample(v: View, rng: random.Random) -> State:
    """Deal the unseen cards at random into the unknown part of the other hands (in seat order, each seat's from
    the front of what is left), the face-down discard and the draw pile, each deal kept by the chance that the
    other seats' last moves were made from it (games.zipang.evidence: drawn again until one is kept, at most
    TRIES times, else the likeliest drawn). Knowledge: this seat's own, and what it knows others know of its hand;
    nothing else."""
    n = v.num_players
    pool = unseen(v)
    shuffle(rng, pool)
    likely = weight(v, pool)
    if likely < 1.0:
        best, most = list(pool), likely
        for _ in range(TRIES):
            if rng.random() < likely:
                best = pool
                break
            shuffle(rng, pool)
            likely = weight(v, pool)
            if likely > most:
                best, most = list(pool), likely
        pool = best
    hands = []
    for p in range(n):
        if p == v.seat:
            hands.append(v.hand)
            continue
        known = v.known[p]
        free = v.hand_sizes[p] - len(known)
        hands.append(tuple(sorted(known + tuple(pool[:free]))))
        del pool[:free]
    facedown = tuple(pool[: v.facedown_size])
    deck = tuple(pool[v.facedown_size :])
    assert len(deck) == v.deck_size, "the unseen cards must fill the hidden places exactly"
    if v.seat is None:
        known_all: tuple[tuple[int, ...], ...] = ((),) * (n * n)
    else:
        rows: list[tuple[int, ...]] = []
        for obs in range(n):
            for owner in range(n):
                if obs == v.seat:
                    rows.append(v.known[owner])
                elif owner == v.seat:
                    rows.append(v.seen_by[obs])
                else:
                    rows.append(())
        known_all = tuple(rows)
    return State(
        seed=rng.getrandbits(32),
        num_players=n,
        btl=v.btl,
        hnr=v.hnr,
        copies=v.copies,
        coins=v.coins,
        pot=v.pot,
        battle=v.battle,
        starter=v.starter,
        winners=v.winners,
        hands=tuple(hands),
        deck=deck,
        facedown=facedown,
        discard=v.discard,
        in_battle=v.in_battle,
        had_turn=v.had_turn,
        active=v.active,
        phase=v.phase,
        effect=v.effect,
        ikki=v.ikki,
        strength=v.strength,
        targets=v.targets,
        victim=v.victim,
        offer=v.offer,
        limbo=v.limbo,
        known=known_all,
        plays=v.plays,
        answers=v.answers,
        acting=seats_acting(v.actor),
    )


def unknown_reshuffled(state: State, rng: random.Random) -> State:
    """`state` with what no seat knows drawn anew (the draw pile and the face-down discard, dealt again from their
    cards together, and the seed of the chance still to come): the arena's cheating baseline searches these (its
    descriptor's `clairvoyance`). Every hand stays as it is."""
    hidden = [*state.deck, *state.facedown]
    shuffle(rng, hidden)
    size = len(state.deck)
    return replace(state, deck=tuple(hidden[:size]), facedown=tuple(hidden[size:]), seed=rng.getrandbits(32))

"""Setup, options, the data table, and what each seat may see."""

from __future__ import annotations

import random

import pytest

from games.base import InvalidOptions
from games.kungfur import GAME, rules
from games.kungfur.data import ANIMAL, CARDS, NUMBER, TABLE, compile_table
from games.kungfur.state import PLAN
from tests.kungfur.positions import CATS, DOGS, c, cards, change, fight, ids, play, player, position


def test_setup():
    """"각각 동물 카드 9장 ... 음식 토큰 3개. 고양이 플레이어는 '라이후우' 토큰 2개와 비밀 무기 토큰 4개를 가져갑니다.
    강아지 플레이어는 '후아'토큰 3개를 가져갑니다." (9 animal cards and 3 food tokens each; the cats take 2 Raifu
    tokens and 4 Hidden Weapon tokens, the dogs 3 Hua tokens.) "보상 카드 더미에서 3장을 펼쳐 각 전장에 한 장씩"."""
    state = GAME.new_game(2, {"cats": "seat1"}, 5)
    table = compile_table()
    cats, dogs = state.players[1], state.players[0]
    assert (cats.species, dogs.species) == ("cats", "dogs")
    assert len(cats.hand) == len(dogs.hand) == 9
    assert cats.food == dogs.food == 3
    assert (cats.weapons, cats.hua, dogs.weapons, dogs.hua) == (4, 0, 0, 3)
    assert cats.limit == dogs.limit == 3 and cats.sp == dogs.sp == table.start_sp and cats.vp == 0
    assert all(len(r) == 1 for r in state.rewards)
    assert len(state.deck) == len(table.rewards) - 3 == 31
    assert state.phase == PLAN and GAME.to_act(state) == {0, 1}


def test_sides_are_chosen_or_random():
    """"각 플레이어는 고양이와 강아지 중 한 종족으로 선택합니다." (each player chooses cats or dogs): the creator's
    choice, or random from the seed."""
    seen = {GAME.new_game(2, {}, seed).cats for seed in range(30)}
    assert seen == {0, 1}
    assert GAME.new_game(2, {"cats": "seat1"}, 3).cats == 1


def test_the_data_table_is_one_table_of_assumed_rows():
    assert all(row.assumed for row in TABLE)
    assert sum(r.copies for r in CARDS if r.kind == ANIMAL) == 18
    assert len(compile_table().rewards) == 52 - 18
    assert {r.key for r in TABLE if r.kind == NUMBER} == {"start_sp", "battle_loss", "destruction_max"}


def test_data_option_overrides_the_table():
    state = GAME.new_game(2, {"cats": "seat0", "data": {"jonin": {"ap": 5}, "might": {"copies": 0}, "start_sp": 12}}, 1)
    assert state.table.ap[c("jonin")] == 5
    assert c("might") not in state.table.rewards
    assert state.players[0].sp == 12
    text = GAME.new_game(2, {"cats": "seat0", "data": '{"battle_loss": 2}'}, 1)
    assert text.table.battle_loss == 2
    assert compile_table({"genin": {"copies": 1}, "jonin": {"copies": 3}}).hands[0].count(c("jonin")) == 3


@pytest.mark.parametrize(
    "data",
    ["{", [], {"nobody": 1}, {"jonin": {"ap": -1}}, {"jonin": {"speed": 1}}, {"musashi": {"copies": 2}},
     {"jonin": {"copies": 3}}, {"might": {"ap": 2}}, {"start_sp": 0}, {"battle_loss": True}],
)  # fmt: skip
def test_bad_options_are_rejected(data):
    with pytest.raises(InvalidOptions):
        GAME.new_game(2, {"data": data}, 1)


def test_the_plan_stays_secret_until_both_are_done():
    """"각 플레이어는 가림막 뒤에 동물 카드를 배치합니다." (each player places animal cards behind their screen): a
    simultaneous secret choice; nobody learns anything of the other's plan, not even its size."""
    state = position()
    a = play(state, CATS, "lead:1:jonin", "assist:1:genin", "weapon:1")
    b = play(state, CATS, "lead:3:raifu")
    for observer in (DOGS, None):
        assert GAME.view(a, observer) == GAME.view(b, observer) == GAME.view(state, observer)
    assert not any(GAME.move_is_public(state, CATS, m) for m in GAME.legal_moves(state, CATS))
    done = play(a, CATS, "done")
    assert GAME.view(done, DOGS).done == (True, False) and GAME.view(done, DOGS).plans[CATS] is None
    assert GAME.to_act(done) == {DOGS}
    revealed = play(done, DOGS, "lead:2:monk", "done")
    assert GAME.view(revealed, DOGS).plans[CATS].stacks[0] == (c("jonin"), c("genin"))  # the screens are down


def test_samples_keep_what_the_seat_saw():
    """Hidden cards are drawn only from what the seat cannot rule out, and view(sample(v)) == v; a sample is a state
    the rules made (frozen with its seats to act)."""
    state = position(rewards=(("banana",), (), ()))
    state = evolve_deck(state, ("might", "apple", "ginseng", "tumaz"))
    state = fight(state, cats=("lead:1:jonin",))
    assert GAME.to_act(state) == {CATS}  # the Banana's choice
    rng = random.Random(3)
    for seat in (CATS, DOGS, None):
        v = GAME.view(state, seat)
        for _ in range(20):
            s = GAME.sample(v, rng)
            assert GAME.view(s, seat) == v
            assert rules.freeze(rules.thaw(s)) == s
    dogs_view = GAME.view(state, DOGS)
    assert dogs_view.offer == () and dogs_view.offer_size == 3
    assert sorted(dogs_view.unseen) == sorted(state.deck + state.offer)
    state = play(state, CATS, "banana:tumaz")
    assert GAME.view(state, CATS).buried == cards("apple", "ginseng")
    assert GAME.view(state, DOGS).buried_sizes == (2, 0)
    assert c("apple") in GAME.view(state, DOGS).unseen and c("apple") not in GAME.view(state, CATS).unseen
    samples = {GAME.sample(GAME.view(state, DOGS), rng).buried[CATS] for _ in range(40)}
    assert len(samples) > 1  # the dogs cannot tell which two cards the cats discarded face down


def test_samples_of_a_hidden_plan_vary_and_respect_the_hand():
    state = play(position(), CATS, "lead:1:jonin", "done")
    v = GAME.view(state, DOGS)
    rng = random.Random(1)
    plans = set()
    for _ in range(30):
        s = GAME.sample(v, rng)
        assert GAME.view(s, DOGS) == v
        assert s.plans[CATS].done and rules.freeze(rules.thaw(s)) == s and GAME.to_act(s) == {DOGS}
        plans.add(s.plans[CATS])
        cards_planned = [x for stack in s.plans[CATS].stacks for x in stack]
        assert all(cards_planned.count(x) <= s.players[CATS].hand.count(x) for x in cards_planned)
    assert len(plans) > 5


def evolve_deck(state, keys):
    return change(state, deck=tuple(c(k) for k in keys))


def test_only_planning_moves_are_secret():
    state = player(position(), DOGS, hand=("shu", "monk"))
    state = player(state, CATS, hand=("genin",))
    state = fight(state, cats=("lead:1:genin",), dogs=("lead:1:shu",))
    assert ids(state, DOGS)[0] == "shu:none"
    assert all(GAME.move_is_public(state, DOGS, m) for m in GAME.legal_moves(state, DOGS))


def test_card_codes_are_each_cards_place_in_the_table():
    """The card codes are written out as constants (Final, for the compiled rules): each is its card's place in
    CARDS, named after its key, and every card has one."""
    from games.kungfur import data

    codes = {name: value for name, value in vars(data).items()
             if name.isupper() and isinstance(value, int) and not isinstance(value, bool)
             and name.lower().replace("_", "-") in data.CODE}
    assert sorted(codes.values()) == list(range(len(data.CARDS)))
    for name, code in codes.items():
        assert data.CARDS[code].key == name.lower().replace("_", "-"), name

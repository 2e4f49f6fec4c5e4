"""Rewards: Rangers, items by their timing, and achievements at once."""

from __future__ import annotations

from tests.kungfur.positions import CATS, DOGS, ap, c, cards, change, fight, ids, play, player, position


def _won_by_cats(*rewards, cats_plan=("lead:1:jonin",), deck=None, **fields):
    state = position(rewards=(rewards, (), ()), **fields)
    if deck is not None:
        state = change(state, deck=tuple(c(k) for k in deck))
    return fight(state, cats=cats_plan)


def test_a_ranger_joins_the_hand():
    """"방랑자 카드는 손에 추가해 다음 라운드부터 사용합니다." (Ranger cards go to your hand,
    used from the next round.)"""
    state = _won_by_cats("tumaz")
    assert c("tumaz") in state.players[CATS].hand and state.rewards[0] == ()


def test_all_stacked_rewards_go_to_the_winner():
    state = _won_by_cats("tumaz", "kkami", "apple")
    assert {c("tumaz"), c("kkami")} <= set(state.players[CATS].hand) and state.players[CATS].apple == 1


def test_ginseng():
    """"인삼를 활성화할 경우 즉시 1 SP를 획득하고, (단, SP가 0이거나 12일 경우 SP를 획득할 수 없습니다.) 음식 토큰을
    사용하지 않아도 재정비 단계 때 사용한 동물 카드를 회수할 수 있습니다. (단, ... SP가 4이하로 떨어진 경우 음식 토큰을
    사용해야 합니다.)" """
    state = _won_by_cats("ginseng")
    assert state.players[CATS].sp == 11
    assert state.players[CATS].rest == () and c("jonin") in state.players[CATS].hand, "a free recovery"
    assert state.players[CATS].food == 3
    full = player(position(rewards=(("ginseng",), (), ())), CATS, sp=12)
    assert fight(full, cats=("lead:1:jonin",)).players[CATS].sp == 12
    low = fight(player(position(rewards=(("ginseng",), (), ())), CATS, sp=3), cats=("lead:1:jonin",))
    assert low.players[CATS].sp == 4 and low.players[CATS].rest == (c("jonin"),), "at SP 4 a food token is needed"
    assert "recover:food" in ids(low, CATS)


def test_apple_wins_ties_but_not_0_to_0():
    """"사과를 활성화할 경우 자신 앞에 놓습니다. 앞으로 AP가 같은 모든 전투에서 당신이 승리합니다. 단, 자신과 상대가
    모두 0AP일 경우 사과의 효과는 발동되지 않습니다." (from the next battle on, this round included.)"""
    state = position(rewards=(("apple",), (), ()))
    state = fight(state, cats=("lead:1:jonin", "lead:2:genin"), dogs=("lead:2:ye",))  # arena 2: 2 against 2+1
    assert state.results[:2] == (CATS, DOGS)
    state = fight(player(position(), CATS, apple=1), cats=("lead:1:jonin",), dogs=("lead:1:novice",))
    assert state.results[0] == CATS and state.results[2] is None  # 3:3 won; 0:0 stays a tie


def test_coconut_token():
    """"코코넛을 활성화할 경우 공급처에서 코코넛 토큰을 가져옵니다. 코코넛 토큰은 계획 단계에서 비밀 무기 토큰처럼
    사용하여 해당하는 전장에 1AP를 추가할 수 있습니다. 재정비 단계 후 사용한 코코넛 토큰을 되돌려 다음 라운드에 다시
    사용할 수 있습니다." """
    state = _won_by_cats("coconut", cats_plan=("lead:1:jonin",))
    assert state.players[CATS].coconuts == 1
    state = player(position(), DOGS, coconuts=1)
    state = fight(state, cats=("lead:1:genin",), dogs=("lead:1:ye", "coconut:1"))
    assert ap(state, DOGS, 0) == 2 + 1 + 1 and state.players[DOGS].coconuts == 1, "it comes back"


def test_banana():
    """"바나나를 활성화할 경우 보상 카드 더미에서 3장을 뽑아 1장을 고릅니다. 성취 카드나 아이템 카드일 경우 즉시
    활성화하고, 방랑자 카드인 경우 즉시 손으로 가져옵니다. 고른 카드는 상대에게 보여주고 나머지 2장은 뒷면을 위로하여
    버립니다." """
    state = _won_by_cats("banana", deck=("tumaz", "might", "apple", "ginseng"))
    assert sorted(ids(state, CATS)) == ["banana:apple", "banana:ginseng", "banana:might"]
    state = play(state, CATS, "banana:might")
    assert state.players[DOGS].sp == 10 - 1 - 2 and state.players[CATS].sp == 11
    assert state.buried[CATS] == cards("apple", "ginseng") and state.deck == (c("tumaz"),)


def test_songo_mushroom():
    """"송고 버섯을 활성화할 경우 송고 버섯 토큰 1개를 송고 버섯을 얻은 전장 옆에 놓습니다. 송고 버섯은 한 전장에
    2개까지 놓을 수 있으며 1개 당 1AP를 추가합니다." """
    state = _won_by_cats("songo", "songo", "songo")
    assert state.songo[0] == (CATS, CATS)
    assert ap(change(position(), songo=((CATS, CATS), (), ())), CATS, 0) == 2


def test_head_chef():
    """"주방장" is named but not described: a one-time item that recovers the rest area without a food token, but
    not at SP 4 or below ("주방장을 사용했더라도 일품 요리 토큰을 사용해야 합니다")."""
    state = player(position(), CATS, items=("chef",))
    state = fight(state, cats=("lead:1:jonin",))
    assert ids(state, CATS) == ["recover:chef", "recover:food", "recover:none"]
    state = play(state, CATS, "recover:chef")
    assert state.players[CATS].food == 3 and c("jonin") in state.players[CATS].hand and c("chef") in state.discard
    low = fight(player(player(position(), CATS, items=("chef",)), CATS, sp=4), cats=("lead:1:jonin",))
    assert "recover:chef" not in ids(low, CATS)


def test_might():
    """"위력을 활성화할 경우 상대는 2SP를 잃고 자신은 1SP를 얻습니다. 단, 자신의 SP가 0이나 12일 경우 SP를 얻을 수
    없습니다." """
    state = _won_by_cats("might")
    assert (state.players[CATS].sp, state.players[DOGS].sp) == (11, 10 - 1 - 2)


def test_counterattack():
    """"반격을 활성화할 경우 상대는 2SP를 잃고 자신은 즉시 이 전장에서 사용한 동물 카드를 모두 회수합니다." """
    state = _won_by_cats("counterattack", cats_plan=("lead:1:jonin", "assist:1:genin", "lead:2:raifu"))
    assert state.players[DOGS].sp == 10 - 1 - 2 - 1 - 1  # arenas 1 to 3 lost (Raifu's tokens) and the card
    start = list(position().players[CATS].hand)
    start.remove(c("raifu"))
    assert state.players[CATS].hand == tuple(start), "Jonin and Genin are back in the hand at once"
    assert state.players[CATS].rest == (c("raifu"),)


def test_destruction():
    """"파괴를 활성화할 경우 AP차이에 따라 상대는 SP를 잃습니다. 이 효과는 타이-치이를 대장으로 배치해 승리하는 경우에도
    적용됩니다." (assumed: the AP difference, at most 3.)"""
    state = _won_by_cats("destruction", cats_plan=("lead:1:jonin", "assist:1:genin"))
    assert state.players[DOGS].sp == 10 - 1 - 3  # 5 against 0: capped at 3
    near = fight(position(rewards=(("destruction",), (), ())), cats=("lead:1:jonin", "assist:1:genin"),
                 dogs=("lead:1:ye",))
    assert near.results[0] == CATS and near.players[DOGS].sp == 10 - 1 - 1  # 5 against 2 + 2: a difference of 1
    tai = player(position(rewards=(("destruction",), (), ())), CATS, hand=("tai-chii",))
    tai = fight(tai, cats=("lead:1:tai-chii",), dogs=("lead:1:monk",))
    assert tai.results[0] == CATS and tai.players[DOGS].sp == 10 - 1 - 3


def test_sinking():
    """"굉침을 활성화할 경우 자신 앞에 상대가 볼 수 있게 내려놓습니다. 자신이 가진 굉침의 장수에 따라 상대는 SP를
    잃습니다." (assumed: as many SP as Sinking cards you have.)"""
    state = _won_by_cats("sinking", "sinking")
    assert state.players[CATS].sinking == 2 and state.players[DOGS].sp == 10 - 1 - 1 - 2

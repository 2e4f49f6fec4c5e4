"""The win checks after the battle phase, the regroup phase and the next preparation."""

from __future__ import annotations

from games.kungfur import GAME
from games.kungfur.regroup import verdict
from games.kungfur.state import OVER, PLAN, REGROUP
from tests.kungfur.positions import CATS, DOGS, c, cards, change, fight, ids, play, player, position


def _p(state, seat):
    return state.players[seat]


def test_a_four_vp_lead_wins_after_the_whole_battle_phase():
    """"전투 단계가 끝났을 때 (1,2,3번 전장이 모두 처리된 후를 말합니다.) 1. VP가 상대보다 4이상 높은 경우 ... 게임에서
    승리합니다." """
    ahead = player(position(), CATS, vp=4)
    assert GAME.to_act(ahead) == {CATS, DOGS}, "checked only when the battle phase ends"
    state = fight(ahead, cats=("lead:1:jonin",), dogs=("lead:3:monk",))
    assert state.phase == OVER and state.winners == (CATS,)  # 5 against 1 after arena 3
    assert GAME.to_act(state) == frozenset() and GAME.score(state).winners() == (CATS,)
    close = fight(ahead, cats=("lead:1:jonin",), dogs=("lead:3:monk", "lead:2:monk"))
    assert close.phase == REGROUP, "5 against 2 is not enough"


def test_sp_zero_loses_even_with_a_vp_lead():
    """"2. 상대의 SP가 0일 경우 (SP가 0이 될 경우 복구할 수 없습니다.)" "VP가 다른 플레이어 보다 4이상 높더라도 SP가
    0이라면 패배합니다." """
    state = player(player(position(), CATS, vp=6), CATS, sp=1)
    state = fight(state, cats=("lead:1:jonin",), dogs=("lead:2:monk",))
    assert state.phase == OVER and state.winners == (DOGS,)
    score = GAME.score(state)
    assert score.final and score.ranking == ((DOGS,), (CATS,)) and score.decided_by == "the opponent's SP is 0"


def test_both_at_zero_sp_the_higher_vp_wins():
    """"두 플레이어 모두 SP가 0일 경우 VP가 높은 플레이어가 승리합니다." """
    state = player(player(position(), CATS, sp=1, vp=2), DOGS, sp=1, vp=1)
    state = fight(state, cats=("lead:1:jonin",), dogs=("lead:2:monk",))
    assert (_p(state, CATS).sp, _p(state, DOGS).sp) == (0, 0) and state.winners == (CATS,)


def test_fewer_than_three_reward_cards_the_higher_vp_wins():
    """"예외적으로 남은 보상 카드가 3장 미만일 경우 VP가 높은 플레이어가 승리합니다." (counted in the reward deck.)"""
    state = change(position(), deck=(c("apple"), c("might")))
    state = fight(state, cats=("lead:1:jonin",))
    assert state.phase == OVER and state.winners == (CATS,)
    tied = fight(change(position(), deck=(c("apple"),)))
    assert tied.phase == OVER and tied.winners == (CATS, DOGS) and GAME.score(tied).ranking == ((CATS, DOGS),)


def test_verdict_order():
    """The win checks in their order: both SP 0, one SP 0, fewer than 3 reward cards, a 4 VP lead (arguments: SP of
    seats 0 and 1, VP of seats 0 and 1, the reward deck's size)."""
    assert verdict(5, 5, 4, 0, 10)[0] == (CATS,)
    assert verdict(5, 5, 3, 0, 10) is None
    assert verdict(0, 5, 9, 0, 10)[0] == (DOGS,)
    assert verdict(0, 0, 1, 2, 10)[0] == (DOGS,)
    assert verdict(0, 4, 1, 2, 1)[0] == (DOGS,)
    assert verdict(3, 4, 2, 1, 2)[0] == (CATS,)


def test_regroup_rest_area_and_card_limit():
    """"사용한 동물카드를 가림판 밖 휴식 구역에 두고 ... SP가 8이하라면 카드 제한을 "4"로 옮기고 4이하라면 "5"로
    옮깁니다." """
    state = player(player(position(), CATS, sp=9), DOGS, sp=5)
    state = fight(state, cats=("lead:1:jonin", "lead:2:genin"), dogs=("lead:3:monk",))
    assert state.phase == REGROUP
    assert _p(state, CATS).rest == cards("genin", "jonin") and _p(state, DOGS).rest == (c("monk"),)
    assert (_p(state, CATS).sp, _p(state, CATS).limit) == (8, 4)
    assert (_p(state, DOGS).sp, _p(state, DOGS).limit) == (3, 5)


def test_a_food_token_recovers_every_used_animal():
    """"음식 토큰을 하나 사용해 사용한 모든 동물 카드를 손으로 가져옵니다. (방랑자 포함)" """
    state = player(position(), CATS, rest=("musashi",), hand=("jonin", "tumaz"))
    state = fight(state, cats=("lead:1:jonin", "lead:2:tumaz"))
    assert ids(state, CATS) == ["recover:food", "recover:none"]
    state = play(state, CATS, "recover:food")
    assert _p(state, CATS).food == 2 and _p(state, CATS).hand == cards("musashi", "jonin", "tumaz")
    assert state.phase == PLAN and state.round == 2


def test_the_special_dish():
    """"SP가 4이하로 떨어질 때 일품 요리 토큰을 사용해 동물 카드를 회수할 수 있습니다." (once, at SP 4 or below.)"""
    state = player(position(), CATS, sp=5, food=0)
    state = fight(state, cats=("lead:1:genin",), dogs=("lead:1:monk",))
    assert _p(state, CATS).sp == 4 and _p(state, CATS).dish == 1
    assert ids(state, CATS) == ["recover:dish", "recover:none"]
    state = play(state, CATS, "recover:dish")
    assert _p(state, CATS).dish == 2 and c("genin") in _p(state, CATS).hand


def test_free_recovery_when_no_animal_was_used():
    """"만약, 계획 단계에서 아무 동물 카드도 사용하지 않았다면 음식 토큰을 사용하지 않고 모든 동물 카드를 회수할 수
    있습니다." """
    state = player(position(), CATS, rest=("jonin", "musashi"), hand=("genin",))
    state = fight(state, dogs=("lead:1:monk",))
    assert _p(state, CATS).rest == () and _p(state, CATS).hand == cards("genin", "jonin", "musashi")
    assert _p(state, CATS).food == 3


def test_preparation_stacks_carried_over_rewards_up_to_three():
    """"이전 라운드를 비겨 보상 카드가 전장에 남아있는 경우 그 위에 보상 카드를 추가합니다. 한 전장에 최대 3장까지 놓을
    수 있으며 4번째 카드가 추가되면 가장 아래 카드를 버립니다." """
    state = position(rewards=(("apple", "might", "tumaz"), ("kkami",), ()))
    state = change(state, deck=tuple(c(k) for k in ("ginseng", "ginseng", "ginseng", "banana", "songo", "chef")))
    state = fight(state)  # nobody plays: every arena ties 0:0, free recovery for both
    assert state.phase == PLAN and state.round == 2
    assert state.rewards == (
        (c("might"), c("tumaz"), c("chef")),
        (c("kkami"), c("songo")),
        (c("banana"),),
    )
    assert state.discard == (c("apple"),)


def test_codec_round_trip_of_a_busy_position():
    state = change(position(rewards=(("banana",), ("might",), ())),
                   deck=tuple(c(k) for k in ("tumaz", "apple", "kkami", "songo")))
    state = fight(state, cats=("lead:1:jonin",), dogs=("lead:2:hua",))
    assert GAME.load_state(GAME.dump_state(state)) == state
    for seat in (CATS, DOGS, None):
        v = GAME.view(state, seat)
        assert GAME.load_view(GAME.dump_view(v)) == v

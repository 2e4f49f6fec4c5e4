"""The battle phase: the rulebook's example, AP and the leaders' abilities."""

from __future__ import annotations

from games.kungfur import GAME
from games.kungfur.state import REGROUP
from tests.kungfur.positions import CATS, DOGS, ap, c, cards, fight, ids, play, player, position


def test_the_rulebooks_battle_example():
    """"아래의 경우 1번 전장은 7:8으로 고양이가 승리하고 2번 전장은 2:0으로 강아지가 승리하고 3번 전장은 4:5로 고양이가
    승리합니다." (arena 1 is won by the cats 7:8, arena 2 by the dogs 2:0, arena 3 by the cats 4:5; dogs' AP first.)
    The figure is missing; this position fits it: Ye + Novice + a Coconut (+2 for the cats' 2 cards) against 2
    Jonin and 2 Hidden Weapons; a Hua token alone against nothing; Gongming + a Coconut against Himiko, a Genin and
    a weapon."""
    state = position(hua=(None, DOGS, None))
    state = player(state, DOGS, coconuts=2)
    state = fight(
        state,
        cats=("lead:1:jonin", "assist:1:jonin", "lead:3:himiko", "assist:3:genin", "weapon:1", "weapon:1", "weapon:3"),
        dogs=("lead:1:ye", "assist:1:novice", "lead:3:gongming", "coconut:1", "coconut:3"),
    )
    assert [_ap_after_fight(state, k) for k in range(3)] == [(7, 8), (2, 0), (4, 5)]
    assert state.results == (CATS, DOGS, CATS)
    assert state.players[CATS].vp == 2 and state.players[DOGS].vp == 1


def _ap_after_fight(state, arena):
    """AP of both sides as they stood in the battle (plans stay on the table until the regroup ends)."""
    return ap(state, DOGS, arena), ap(state, CATS, arena)


def test_higher_ap_wins_a_vp_and_the_loser_loses_sp():
    """"대장의 능력을 활성화하고 AP를 비교하여 높은 쪽이 승자가 됩니다." "전투에서 승리할 경우 1VP를 얻어" (compare AP,
    the higher wins; the winner gains 1 VP). The loser loses SP (assumed: 1)."""
    state = fight(position(), cats=("lead:1:jonin",), dogs=("lead:1:novice", "assist:1:ye"))
    assert state.results[0] == DOGS and state.players[DOGS].vp == 1 and state.players[CATS].sp == 9
    tie = fight(position(), cats=("lead:1:genin",), dogs=("lead:1:novice",))
    assert tie.results[0] is None and tie.players[CATS].sp == tie.players[DOGS].sp == 10


def test_hua_tokens():
    """"후아를 대장으로 플레이할 경우 전투가 끝난 후 전장에 후아 토큰을 배치합니다. 후아 토큰은 전장마다 하나만 배치
    가능하며 해당 전장에 2AP를 부여합니다. 후아 토큰이 있는 전장에서 전투에 패배할 경우 후아 토큰을 버립니다. 후아
    토큰이 있는 전장에서 후아를 대장으로 한 전투를 패배할 경우 후아 토큰을 제거하지 않습니다." """
    state = fight(position(), cats=("lead:1:jonin",), dogs=("lead:1:hua",))
    assert state.results[0] == CATS and state.hua[0] == DOGS and state.players[DOGS].hua == 2
    # Next battles on arena 1: the token gives the dogs 2 AP, even without a dog there.
    base = position(hua=(DOGS, None, None))
    assert fight(base, cats=("lead:1:genin",)).results[0] is None  # 2:2
    lost = fight(base, cats=("lead:1:jonin",), dogs=("lead:2:monk",))
    assert lost.results[0] == CATS and lost.hua[0] is None, "a lost battle discards the Hua token"
    kept = fight(base, cats=("lead:1:jonin", "assist:1:jonin"), dogs=("lead:1:hua",))
    assert kept.results[0] == CATS and kept.hua[0] == DOGS and kept.players[DOGS].hua == 3, "Hua led: kept, no 2nd"


def test_senior_brother_bang_ignores_and_steals_hidden_weapons():
    """"방 사형은 상대의 비밀 무기 토큰을 최대 5개까지 무시하고 그 중 최대 2개의 비밀 무기 토큰을 뺏습니다. 코코넛
    토큰은 무시하거나 뺏을 수 없습니다." (ignores up to 5 of the opponent's Hidden Weapons and steals up to 2; Coconut
    tokens cannot be ignored or stolen.)"""
    state = player(position(), CATS, coconuts=1)
    state = fight(state, cats=("lead:1:genin", "weapon:1", "weapon:1", "weapon:1", "coconut:1"), dogs=("lead:1:bang",))
    assert state.results[0] is None  # 2 + 1 Coconut = Bang's 3
    assert state.players[DOGS].weapons == 2 and state.players[CATS].weapons == 1
    assert any(i.startswith("recover:") for i in ids(state, CATS))
    # The stolen weapons are the dogs' to use from now on.
    assert state.players[DOGS].weapons == 2


def test_eldest_senior_brother_ye_counts_the_opponents_cards():
    """"예 대사형은 해당 전장에 놓인 상대 동물 카드 수 만큼 AP를 추가합니다. 상대가 전장에 3장의 동물 카드를 배치했다면
    3AP를 추가합니다." """
    state = fight(position(), cats=("lead:1:genin", "assist:1:genin", "assist:1:raifu"),
                  dogs=("lead:1:ye", "assist:1:novice"))
    assert ap(state, DOGS, 0) == 2 + 2 + 3
    assert state.results[0] == DOGS  # 8 against 5


def test_master_shu_adds_an_assistant_in_battle():
    """"슈 사부는 전투를 처리할 때 해당 전장에 배치된 당신의 동물 카드가 3장 미만일 경우 카드 제한을 무시하고 동물 카드
    1장을 보조로 배치할 수 있습니다." (Master Shu may add 1 animal as an assistant, ignoring the card limit, when you
    have fewer than 3 cards there.)"""
    state = player(position(), DOGS, limit=3)
    state = fight(state, cats=("lead:1:jonin", "assist:1:genin"), dogs=("lead:1:shu", "lead:2:monk", "lead:3:monk"))
    assert GAME.to_act(state) == {DOGS} and "shu:bang" in ids(state, DOGS) and "shu:none" in ids(state, DOGS)
    state = play(state, DOGS, "shu:bang")
    assert state.plans[DOGS].stacks[0] == (c("shu"), c("bang"))
    assert state.results[0] is None  # 2 + 3 against 3 + 2: a tie


def test_master_shu_never_makes_four():
    """"단 한 전장에 동물 카드가 4장 이상이 되어서는 안됩니다." (an arena never holds 4 or more of your cards.)"""
    state = player(position(), DOGS, limit=5)
    state = fight(state, cats=("lead:1:jonin",), dogs=("lead:1:shu", "assist:1:monk", "assist:1:monk"))
    assert state.results[0] == DOGS, "no decision was asked: the arena was full"


def test_master_shu_can_add_a_ranger_won_this_round():
    """"같은 라운드에서 앞서 획득한 방랑자 카드도 추가할 수 있습니다." (a Ranger won earlier in the same round may be
    added too.)"""
    state = position(rewards=(("boshak",), (), ()))
    state = fight(state, cats=("lead:2:genin",), dogs=("lead:1:monk", "lead:2:shu"))
    assert state.results[0] == DOGS and c("boshak") in state.players[DOGS].hand
    assert "shu:boshak" in ids(state, DOGS)


def test_ringo_adds_hidden_weapons_in_battle():
    """"링고는 전투를 처리할 때 해당 전장에 최대 4개의 비밀 무기 토큰을 추가할 수 있습니다." (from the cats' own
    stock: an interpretation.)"""
    state = fight(position(), cats=("lead:1:ringo", "weapon:1"), dogs=("lead:1:monk",))
    assert ids(state, CATS) == ["ringo:0", "ringo:1", "ringo:2", "ringo:3"]
    state = play(state, CATS, "ringo:3")
    assert state.results[0] == CATS and state.players[CATS].weapons == 0  # 2 + 1 + 3 against 5


def test_shu_against_ringo_rock_paper_scissors():
    """"상대가 같은 전장에 링고를 대장으로 배치했다면 가위바위보를 통해 진 사람부터 능력 사용 여부를 결정합니다." (play
    rock-paper-scissors; the loser decides first.) The result is drawn from the game's seed."""
    firsts = set()
    for seed in range(12):
        state = fight(position(seed=seed), cats=("lead:1:ringo",), dogs=("lead:1:shu",))
        first = min(GAME.to_act(state))
        firsts.add(first)
        move = "ringo:1" if first == CATS else "shu:none"
        state = play(state, first, move)
        assert GAME.to_act(state) == {1 - first}, "then the winner decides, having seen the loser's choice"
    assert firsts == {CATS, DOGS}


def test_yaou_returns_to_the_hand_when_it_wins():
    """"야오우는 전투에서 승리할 경우 휴식 구역에 놓지 않고 다시 손으로 회수할 수 있습니다." """
    state = fight(position(), cats=("lead:1:yaou", "lead:2:genin"), dogs=("lead:2:monk",))
    assert state.results[0] == CATS and c("yaou") in state.players[CATS].hand
    assert state.phase == REGROUP and c("yaou") not in state.players[CATS].rest


def test_raifu_tokens_on_the_other_arenas():
    """"라이후우는 나머지 두 전장에 라이후우 토큰을 놓습니다. 각 라이후우 토큰은 전장에 동물 카드를 배치하지 않았더라도
    2AP를 전장에 추가합니다. 단, 동물 카드가 없다면 비밀 무기 토큰이나 코코넛 토큰은 추가할 수 없습니다. 전투가 끝난 후
    라이후우 토큰을 제거합니다." """
    state = play(position(), CATS, "lead:2:raifu")
    assert "weapon:1" not in ids(state, CATS)
    state = fight(state, dogs=("lead:1:hua",))
    assert state.results == (CATS, CATS, CATS)  # a token's 2 against Hua's 1; Raifu's 1 and a token's 2 against 0
    assert state.raifu == (None, None, None), "removed after the battle phase"


def test_teacher_gongming_wins_two_vp():
    """"공밍 선생은 전투에서 승리할 경우 1VP대신 2VP를 획득합니다." """
    state = fight(position(), cats=("lead:1:genin",), dogs=("lead:1:gongming",))
    assert state.players[DOGS].vp == 2


def test_siu_yao_sends_the_weakest_assistant_to_rest():
    """"시우-야오는 전투를 처리할 때 해당 전장의 상대 보조 중 AP가 가장 적은 카드 하나를 휴식 구역으로 보냅니다. 상대
    전장에 동물 카드가 1장만 존재한다면 시우-야오의 능력은 무시됩니다." """
    state = fight(position(), cats=("lead:1:genin", "assist:1:jonin", "assist:1:raifu"),
                  dogs=("lead:1:siu-yao", "assist:1:monk"))
    assert c("raifu") in state.players[CATS].rest and state.plans[CATS].stacks[0] == (c("genin"), c("jonin"))
    assert state.results[0] == DOGS  # 7 against 5
    alone = fight(position(), cats=("lead:1:jonin",), dogs=("lead:1:siu-yao",))
    assert alone.plans[CATS].stacks[0] == (c("jonin"),) and alone.results[0] == CATS


def test_boshak_costs_the_loser_two_sp_more():
    """"보샤크는 전투에서 승리할 경우 상대는 2AP를 잃습니다." read with the Musashi paragraph ("보샤크의 능력 ... 으로
    인해 SP를 잃을 때"): the loser loses 2 SP more."""
    state = player(position(), CATS, hand=("boshak", "genin"))
    state = fight(state, cats=("lead:1:boshak",), dogs=("lead:1:hua",))
    assert state.results[0] == CATS and state.players[DOGS].sp == 10 - 1 - 2


def test_musashi_loses_at_most_one_sp_per_loss():
    """"무사시는 전투에서 패배할 때 최대 1SP만 잃습니다. 보샤크의 능력이나 성취 카드로 인해 SP를 잃을 때 1이상 SP를 잃을
    경우 1SP만 잃습니다." """
    state = player(position(rewards=(("might",), (), ())), DOGS, hand=("boshak", "monk"))
    state = fight(state, cats=("lead:1:musashi",), dogs=("lead:1:boshak", "assist:1:monk"))
    assert state.results[0] == DOGS
    assert state.players[CATS].sp == 10 - 1 - 1 - 1  # the battle, Boshak and Might: 1 each


def test_tai_chii_also_wins_four_behind():
    """"타이-치이는 AP가 상대보다 높을 때 뿐만 아니라 상대의 AP가 자신보다 4이상 높을 경우에도 승리합니다." """
    state = player(position(), CATS, hand=("tai-chii", "genin"))
    far = fight(state, cats=("lead:1:tai-chii",), dogs=("lead:1:monk",))  # 1 against 5
    assert far.results[0] == CATS
    near = fight(state, cats=("lead:1:tai-chii",), dogs=("lead:1:novice",))  # 1 against 3
    assert near.results[0] == DOGS


def test_heo_yun_grows_stronger_as_sp_falls():
    """"허윤은 배치된 전장에서 전투를 처리할 때 당신의 SP가 5~8이라면 2AP를 0~4이라면 4AP를 추가합니다." """
    for sp, expected in ((10, 1), (8, 3), (5, 3), (4, 5), (1, 5)):
        state = player(position(), CATS, hand=("heo-yun",), sp=sp)
        state = fight(state, cats=("lead:1:heo-yun",))
        assert ap(state, CATS, 0) == expected, sp


def test_kkami_recovers_one_card_in_the_regroup():
    """"까미는 재정비 단계에 이 카드를 제외하고 사용한 자신의 동물 카드 중 1장을 회수합니다. 회수 할 카드는 상대에게
    보여줘야 합니다." """
    state = player(position(), CATS, hand=("kkami", "jonin", "genin"))
    state = fight(state, cats=("lead:1:kkami", "assist:1:jonin", "lead:2:genin"))
    assert ids(state, CATS) == ["kkami:genin", "kkami:jonin"]
    assert GAME.move_is_public(state, CATS, GAME.move_by_id(state, CATS, "kkami:jonin"))
    state = play(state, CATS, "kkami:jonin")
    assert c("jonin") in state.players[CATS].hand and state.players[CATS].rest == cards("genin", "kkami")

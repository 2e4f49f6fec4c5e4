"""The planning phase: leaders, assistants, the card limit, tokens, and the cards that bend those rules."""

from __future__ import annotations

import pytest

from games.base import IllegalMove
from games.kungfur import GAME
from games.kungfur.moves import Lead, Token
from tests.kungfur.positions import CATS, DOGS, c, fight, ids, play, player, position


def test_the_card_limit():
    """"배치할 수 있는 동물의 최대 장수는 플레이어 판의 카드 제한을 따릅니다." (the most animals you can place follows
    the card limit on your player board), which starts at 3."""
    state = play(position(), CATS, "lead:1:jonin", "assist:1:jonin", "lead:2:genin")
    assert not any(i.startswith(("lead:", "assist:")) and not i.endswith("himiko") for i in ids(state, CATS))
    with pytest.raises(IllegalMove, match="card limit is 3"):
        GAME.apply(state, CATS, Lead(2, c("musashi")))


def test_up_to_three_arenas_and_three_animals_per_arena():
    """"최대 3전장까지 배치할 수 있습니다." (on up to 3 arenas) and at most 3 cards on one arena."""
    state = player(position(), CATS, limit=5)
    state = play(state, CATS, "lead:1:jonin", "assist:1:jonin", "assist:1:genin")
    assert not any(i.startswith("assist:1:") for i in ids(state, CATS))
    assert "lead:2:genin" in ids(state, CATS) and "lead:3:genin" in ids(state, CATS)


def test_leader_first_then_assistants_add_only_ap():
    """"가장 위에 있는 대장의 능력을 활성화하고 나머지 카드는 보조가 되어 AP만 합산하여 계산합니다." (the leader's
    ability is active; the other cards are assistants and only add their AP): Gongming as an assistant gives no
    second VP."""
    state = player(position(), DOGS, hand=("monk", "gongming"))
    state = player(state, CATS, hand=("genin",))
    state = fight(state, cats=("lead:1:genin",), dogs=("lead:1:monk", "assist:1:gongming"))
    assert state.results[0] == DOGS and state.players[DOGS].vp == 1
    assert "assist:1:monk" not in ids(position(), DOGS), "no assistant without a leader"


def test_tokens_only_where_you_have_animals_and_after_them():
    """"그 후 비밀 무기 토큰이나 코코넛 토큰을 원하는 만큼 전장에 배치합니다. 단, 동물 카드가 없는 전장에는 배치할 수
    없습니다." (then place Hidden Weapon or Coconut tokens as you like, never on an arena without an animal card.)"""
    state = play(position(), CATS, "lead:2:genin")
    assert "weapon:2" in ids(state, CATS) and "weapon:1" not in ids(state, CATS) and "weapon:3" not in ids(state, CATS)
    with pytest.raises(IllegalMove, match="tokens go only on an arena where you have an animal"):
        GAME.apply(state, CATS, Token(0, "weapon"))
    state = play(state, CATS, "weapon:2")
    assert not any(i.startswith(("lead:", "assist:")) for i in ids(state, CATS)), "tokens come after the animals"
    with pytest.raises(IllegalMove, match="animals are placed before the tokens"):
        GAME.apply(state, CATS, Lead(0, c("jonin")))
    state = play(state, CATS, "weapon:2", "weapon:2", "weapon:2")
    assert "weapon:2" not in ids(state, CATS), "only 4 Hidden Weapons"
    assert not any(i.startswith("weapon") for i in ids(position(), DOGS)), "the dogs start without Hidden Weapons"


def test_himiko_does_not_count_toward_the_card_limit():
    """"히미코는 카드제한에 포함되지 않습니다. 자신의 카드 제한이 4장이라도 히미코를 대장으로 배치할 경우 5장까지 배치할
    수 있습니다. 단, 한 전장에는 최대 3장까지만 배치 가능합니다." (Himiko does not count toward the card limit; at most
    3 cards on one arena still.)"""
    state = play(position(), CATS, "lead:1:himiko", "assist:1:jonin", "assist:1:jonin", "lead:2:genin")
    assert "lead:3:genin" not in ids(state, CATS)
    assert not any(i.startswith("assist:1:") for i in ids(state, CATS))
    state = play(position(), CATS, "lead:1:jonin", "assist:1:jonin", "lead:2:genin")
    assert "assist:2:himiko" in ids(state, CATS) and "lead:3:himiko" in ids(state, CATS)


def test_tumaz_fights_alone():
    """"투마즈는 대장으로 혼자 플레이 되어야 합니다. 보조가 합류할 수 없으며 보조로 사용할 수도 없습니다." (Tumaz must
    be played alone as a leader: no assistant joins it and it is never an assistant.) "비밀 무기 토큰과 코코넛 토큰은
    사용할 수 있습니다." (tokens can be used.)"""
    state = player(position(), CATS, hand=("tumaz", "genin", "jonin"))
    state = play(state, CATS, "lead:1:tumaz")
    assert not any(i.startswith("assist:1:") for i in ids(state, CATS))
    state = play(state, CATS, "lead:2:genin")
    assert "assist:2:tumaz" not in ids(state, CATS) and "assist:2:jonin" in ids(state, CATS)
    assert "weapon:1" in ids(state, CATS)


def test_reinforcements_raise_the_card_limit_for_one_round():
    """(The card whose name is missing) "원하는 라운드에 사용하여 일시적으로 카드 제한을 1 늘립니다. ... 사용한 후
    라운드 종료 시 카드를 버립니다." (use it in any round to raise your card limit by 1; discard it
    at the end of the round.)"""
    state = player(position(), CATS, items=("reinforcements",))
    state = play(state, CATS, "reinforce", "lead:1:jonin", "assist:1:jonin", "lead:2:genin", "lead:3:genin")
    assert GAME.view(state, DOGS) == GAME.view(player(position(), CATS, items=("reinforcements",)), DOGS)
    state = fight(state)
    assert c("reinforcements") not in state.players[CATS].items and c("reinforcements") in state.discard


def test_blockade_lowers_the_next_planning_limit():
    """"봉쇄를 활성화할 경우 상대는 1SP를 잃고 ... 상대는 다음 계획 단계에 카드 제한이 1 줄어듭니다. 재정비 단계가
    끝나면 카드 제한 -1 토큰을 제거합니다." (the opponent loses 1 SP and has card limit -1 in the next planning phase;
    the token goes at the end of that regroup phase.)"""
    state = position(rewards=(("blockade",), (), ()))
    state = fight(state, cats=("lead:1:jonin",), dogs=("lead:2:monk",))
    assert state.players[DOGS].sp == 10 - 1 - 1  # the lost battle and the Blockade
    state = play(state, CATS, "recover:none") if "recover:none" in ids(state, CATS) else state
    state = play(state, DOGS, "recover:none") if "recover:none" in ids(state, DOGS) else state
    assert state.round == 2 and state.players[DOGS].limit == 4  # SP 8: the limit marker moved to 4
    state = play(state, DOGS, "lead:1:monk", "lead:2:novice", "assist:2:ye")
    assert not any(i.startswith(("lead:", "assist:")) and "himiko" not in i for i in ids(state, DOGS))
    state = play(state, DOGS, "done")
    state = play(state, CATS, "done")
    for seat in (CATS, DOGS):
        if "recover:none" in ids(state, seat):
            state = play(state, seat, "recover:none")
    assert state.round == 3 and state.players[DOGS].blocked == 0


def test_the_built_planning_moves_are_the_remembered_ones():
    """The compiled path builds a seat's planning moves at each call (`_list_plan_moves`); the pure path remembers
    them by a key of what they depend on (`_remembered_plan_moves`). Not a rule, but the two must give the same
    moves in the same order, or the two paths would play different games from one seed: at every planning decision
    of random games (the table shared by all of them, so that a key met before must hold everything its list
    depends on), which reach the cases the lists bend on."""
    import random

    from games.kungfur import planning, rules
    from games.kungfur.data import HIMIKO, REINFORCEMENTS
    from games.kungfur.planning import LONER

    seen = {"past the limit, Himiko free": 0, "Tumaz free, an arena open to assistants": 0,
            "the Reinforcements to use": 0, "tokens begun": 0, "an arena closed": 0}
    compared = 0
    for seed in range(60):
        rng = random.Random(seed)
        work = rules.thaw(GAME.new_game(2, {}, seed))
        while acting := rules.to_act(work):
            seat = acting[0]
            if work.phase == rules.PLAN:
                for side_seat in acting:
                    side = work.sides[side_seat]
                    if side.done:
                        continue
                    if not side.derived:
                        planning.derive(work, side)
                    built = tuple(planning._list_plan_moves(side))
                    assert built == planning._remembered_plan_moves(side), (seed, side_seat, built)
                    assert tuple(rules.legal_moves(work, side_seat)) == built
                    compared += 1
                    animals = side.tokens == 0
                    seen["past the limit, Himiko free"] += animals and side.room <= 0 and HIMIKO in side.avail
                    seen["Tumaz free, an arena open to assistants"] += (
                        animals and side.room > 0 and LONER in side.avail and 1 in side.shapes)
                    seen["the Reinforcements to use"] += (
                        animals and not side.boost and REINFORCEMENTS in side.items)
                    seen["tokens begun"] += not animals
                    seen["an arena closed"] += animals and 2 in side.shapes
            moves = rules.legal_moves(work, seat)
            rules.play(work, seat, moves[rng.randrange(len(moves))])
    assert compared > 1000
    assert all(seen.values()), seen

"""Kung Fur Fight's text renderer (games/kungfur/render.py) reads only the public KungFurView: the three arenas side
by side with their rewards, tokens, teams and AP, each seat's board, the plan in progress to its own seat only, the
decision due, and what happened between two views in words."""

from __future__ import annotations

import random
import re

from clients.render import render_state
from games.kungfur import GAME
from games.kungfur.data import CARDS, NAMES
from games.kungfur.render import card_name
from tabletop.terminal.style import Style
from tests.kungfur.positions import CATS, DOGS, c, change, fight, play, player, position
from tests.support.screens import Screens

SEATS = ("Ann", "Bob")  # Ann plays the cats (seat 0), Bob the dogs (seat 1)


SCREENS = Screens(GAME, SEATS)
game_state, board, said = SCREENS.game_state, SCREENS.board, SCREENS.said


def columns(text: str, label: str) -> list[str]:
    """The three arena cells of the first line starting with `label` (cells are separated by 2+ spaces)."""
    line = next(line for line in text.splitlines() if line.strip().startswith(label))
    rest = line.strip().removeprefix(label).strip()
    return re.split(r"\s{2,}", rest)


START = position(rewards=(("might",), ("tumaz",), ("banana",)))
PLANNED = play(START, CATS, "lead:1:jonin", "assist:1:genin", "lead:2:raifu", "weapon:1")
DONE = play(PLANNED, CATS, "done")
SHU_DUE = play(player(DONE, DOGS, limit=3), DOGS, "lead:1:shu", "lead:3:monk", "done")


def test_every_card_is_named_as_in_the_data_table():
    assert [card_name(v) for v in range(1, len(CARDS) + 1)] == list(NAMES)
    assert card_name(0) == "?"


def test_the_three_arenas_stand_side_by_side_with_their_rewards():
    """"보상 카드 더미에서 3장을 펼쳐 각 전장에 한 장씩 배치합니다." (a reward card on each arena)."""
    text = board(START, None)
    heads = next(line for line in text.splitlines() if "Arena 1" in line)
    assert heads.index("Arena 1") < heads.index("Arena 2") < heads.index("Arena 3"), "one line, three columns"
    assert columns(text, "Rewards") == ["Might", "Tumaz", "Banana"]
    rewards = next(line for line in text.splitlines() if line.strip().startswith("Rewards"))
    assert rewards.index("Tumaz") == heads.index("Arena 2"), "each reward under its arena"


def test_a_seat_sees_its_own_plan_in_progress_and_nothing_of_the_other():
    """"각 플레이어는 가림막 뒤에 동물 카드를 배치합니다." (behind the screen)."""
    text = board(PLANNED, CATS)
    assert columns(text, "Ann (cats)") == ["Kōga Jōnin", "Raifu", "-"]
    assert columns(text, "+ Kōga Genin") == ["AP 1"]
    assert columns(text, "Bob (dogs)") == ["(planning, hidden)"] * 3
    assert "Your plan (in progress): 3 of 3 animals placed" in text
    assert "Hand (not in the plan): Musashi, Himiko, Ringo, Yaou, Kōga Genin, Kōga Jōnin" in text
    assert "3 Hidden Weapons" in text, "the one on arena 1 is behind the screen"
    assert "Ann and Bob are planning behind the screen" in text
    for watcher in (DOGS, None):
        assert board(PLANNED, watcher) == board(START, watcher), "the plan shows nowhere else"
        assert columns(board(PLANNED, watcher), "Ann (cats)") == ["(planning, hidden)"] * 3
    assert "Ann has finished; Bob is planning behind the screen" in board(DONE, None)


def test_after_the_reveal_both_teams_their_tokens_and_ap_are_shown():
    """Raifu: "나머지 두 전장에 라이후우 토큰을 놓습니다. 각 라이후우 토큰은 ... 2AP를 부여합니다." """
    text = board(SHU_DUE, None)
    assert columns(text, "Tokens") == ["Raifu (Ann)", "-", "Raifu (Ann)"]
    assert columns(text, "Ann (cats)") == ["Kōga Jōnin", "Raifu", "-"]
    assert columns(text, "Bob (dogs)") == ["Master Shu", "-", "Shaolin Monk"]
    lines = text.splitlines()
    ap = [line for line in lines if "AP" in line and "Hidden" not in line]
    assert "AP 8" in ap[1], "Jōnin 3 + Genin 2 + 1 Hidden Weapon + a Raifu token 2"
    assert "Due now: Bob decides Master Shu's ability" in text
    assert "*Arena 1*" in text, "the arena being fought"


def test_a_board_tells_vp_sp_limit_hand_rest_and_tokens():
    state = player(player(START, CATS, vp=3, sp=7, limit=4, rest=("musashi",), items=("chef",), apple=1), DOGS,
                   coconuts=2)
    text = board(state, None)
    assert "Ann, the cats: VP 3  SP 7  card limit 4  food 3  Special Dish not taken" in text
    assert "Rest area: Musashi" in text
    assert "Tokens and cards: 4 Hidden Weapons, Head Chef, 1 Apple" in text
    assert "Tokens and cards: 2 Coconuts, 3 Hua tokens" in text


def test_the_banana_draw_is_shown_to_its_chooser_only():
    state = change(position(rewards=(("banana",), (), ())), deck=(c("tumaz"), c("might"), c("apple"), c("ginseng")))
    state = fight(state, cats=("lead:1:jonin",))
    assert "The Banana's draw: Ginseng, Apple, Might (keep one; the others go face down)" in board(state, CATS)
    assert "Due now: You decide which card of the Banana's draw to keep" in board(state, CATS)
    assert "A Banana's draw of 3 cards waits for a choice" in board(state, DOGS)
    assert "Might" not in board(state, DOGS).split("Reward deck")[0].split("Rewards")[0]


def test_changes_tell_who_finished_planning_and_nothing_else():
    assert said(START, PLANNED, DOGS) == [] and said(START, PLANNED, None) == []
    assert said(PLANNED, DONE, DOGS) == ["Ann finished their plan"]
    assert said(PLANNED, DONE, CATS, skip_seat=CATS) == [], "the mover's own move is told by its label"


def test_changes_tell_the_reveal():
    assert said(DONE, SHU_DUE, None) == [
        "Bob finished their plan",
        "Both plans are done: the screens come down",
        "Ann placed 3 animals: arena 1: Kōga Jōnin, Kōga Genin with 1 Hidden Weapon; arena 2: Raifu",
        "Bob placed 2 animals: arena 1: Master Shu; arena 3: Shaolin Monk",
    ]


def test_changes_tell_the_battles_the_rewards_and_the_points():
    """"전투에서 승리할 경우 1VP를 얻어"; the winner takes the rewards; Master Shu's ability in the open."""
    after = play(SHU_DUE, DOGS, "shu:monk")
    assert said(SHU_DUE, after, CATS) == [
        "Bob's Master Shu adds Shaolin Monk as an assistant on arena 1",
        "Arena 1: Ann won the battle against Bob",
        "Ann took the rewards of arena 1: Might",
        "Arena 2: Ann won the battle against Bob",
        "Ann took the rewards of arena 2: Tumaz",
        "Arena 3: Bob won the battle against Ann by 3 AP",
        "Bob took the rewards of arena 3: Banana",
        "Bob drew 3 cards with the Banana and keeps one",
        "Ann gains 2 VP (now 2)",
        "Bob gains 1 VP (now 1)",
        "Bob loses 4 SP (now 6)",
    ]
    assert said(SHU_DUE, after, DOGS, skip_seat=DOGS)[0] == "Arena 1: Ann won the battle against Bob"
    assert columns(board(after, None), "Battle") == ["won by Ann", "won by Ann", "won by Bob"]


def test_changes_tell_a_tie_and_the_rewards_that_stay():
    """Equal AP: nobody wins; the rewards stay for the next round."""
    state = fight(position(rewards=(("might",), (), ())), cats=("lead:1:genin",), dogs=("lead:1:novice", "lead:2:monk"))
    before = play(position(rewards=(("might",), (), ())), CATS, "lead:1:genin", "done")
    lines = said(before, state, None)
    assert "Arena 1: a tie, nobody won; its rewards stay (Might)" in lines
    assert columns(board(state, None), "Battle")[0] == "tie"


def test_changes_tell_the_banana_choice_to_both_seats():
    state = change(position(rewards=(("banana",), (), ())), deck=(c("tumaz"), c("might"), c("apple"), c("ginseng")))
    state = fight(state, cats=("lead:1:jonin",))
    after = play(state, CATS, "banana:might")
    for watcher in (CATS, DOGS, None):
        assert said(state, after, watcher)[0] == "Ann kept Might from the Banana's draw; the other 2 went face down"


def test_changes_tell_the_regroup_the_recovery_and_the_next_round():
    """"음식 토큰을 하나 사용해 사용한 모든 동물 카드를 손으로 가져옵니다." """
    state = fight(position(), cats=("lead:1:jonin",), dogs=("lead:2:monk",))
    before = play(position(), CATS, "lead:1:jonin", "done")
    assert "Regroup: the animals used go to the rest area" in said(before, state, None)
    cats_recovered = play(state, CATS, "recover:food")
    assert said(state, cats_recovered, DOGS) == ["Ann spent a food token to recover their animals (Kōga Jōnin)"]
    next_round = play(cats_recovered, DOGS, "recover:none")
    lines = said(cats_recovered, next_round, None)
    assert lines[0] == "Bob left their animals in the rest area"
    assert lines[-1].startswith("Round 2 begins; the rewards on the arenas: arena 1: ")


def test_changes_tell_the_end_of_the_game():
    """"2. 상대의 SP가 0일 경우" """
    state = player(position(rewards=(("might",), (), ())), DOGS, sp=1)
    before = play(state, CATS, "lead:1:jonin", "done")
    over = play(before, DOGS, "done")
    lines = said(before, over, None)
    assert "Bob loses 1 SP (now 0)" in lines
    assert lines[-1] == "The game is over: Ann wins (the opponent's SP is 0)"
    assert "The game is over: Ann wins (the opponent's SP is 0)." in board(over, DOGS)


def test_a_seat_without_a_name_is_counted_from_1():
    message = game_state(DONE, None)
    del message.seats[:]
    text = "\n".join(render_state(message, Style()))
    assert "seat 1 has finished; seat 2 is planning behind the screen" in text


def test_random_games_render_and_tell_their_changes_to_every_watcher():
    """Whatever happens, the renderer reads every view: the board always has its three arena columns, and the
    changes of a step that ends the game say so."""
    rng = random.Random(11)
    endings = 0
    for _ in range(6):
        state = GAME.new_game(2, {}, rng.getrandbits(32))
        while GAME.to_act(state):
            seat = rng.choice(sorted(GAME.to_act(state)))
            after = GAME.apply(state, seat, rng.choice(GAME.legal_moves(state, seat)))
            for watcher in (0, 1, None):
                assert "Arena 3" in board(after, watcher)
                lines = said(state, after, watcher, skip_seat=watcher)
                if not GAME.to_act(after):
                    assert lines[-1].startswith("The game is over: ")
                    endings += 1
            state = after
    assert endings == 6 * 3

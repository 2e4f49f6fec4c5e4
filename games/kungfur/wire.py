"""Kung Fur Fight's public messages (protos/tabletop/v1/kungfur.proto) <-> its engine objects, exactly both ways.

The engine keeps cards as small ints (their place in the data table), phases, stages and decisions as strings, and
a plan as stacks and token counts per arena; the messages speak the game's words (a KungFurCard enum, the three
arenas with each seat's team on them, a board per seat). A card's enum value is the engine's int + 1; an arena's is
its place + 1 (arena 1 is the engine's 0). A plan the viewer may not see is `None` in the engine's view and
`plan_secret` on the wire. Fields marked derived (a team's AP now, an arena's `fought`, a card type's kind and
side) are for frontends; reading a view ignores them.
"""

from __future__ import annotations

from games.kungfur.battle import RINGO_MAX, team_ap
from games.kungfur.data import (
    ACHIEVEMENT,
    ANIMAL,
    ARENAS,
    CARDS,
    CATS,
    DOGS,
    ITEM,
    MAX_PER_ARENA,
    MAX_SP,
    RANGER,
    Table,
)
from games.kungfur.moves import (
    RECOVER_LABELS,
    Assist,
    BananaPick,
    Done,
    KkamiTake,
    Lead,
    Recover,
    Reinforce,
    RingoAdd,
    ShuAdd,
    Token,
)
from games.kungfur.state import (
    BANANA,
    BATTLE,
    FIGHT,
    KKAMI,
    OPEN,
    OVER,
    PLAN,
    RECOVER,
    REGROUP,
    RINGO,
    SHU,
    SPOILS,
    Plan,
    Player,
    View,
)
from tabletop.v1 import kungfur_pb2 as kp
from tabletop.wire import GameWire, WireError

SEATS = (0, 1)
NUM_CARDS = len(CARDS)
MAX_COPIES = 9  # the data option's bound: a copies figure beyond it is not a Kung Fur Fight table
MAX_AP = 9


def _names(mapping: dict) -> dict:
    return {v: k for k, v in mapping.items()}


SIDES = {CATS: kp.KUNG_FUR_SIDE_CATS, DOGS: kp.KUNG_FUR_SIDE_DOGS}
SIDE_NAMES = _names(SIDES)
KINDS = {ANIMAL: kp.KUNG_FUR_CARD_KIND_ANIMAL, RANGER: kp.KUNG_FUR_CARD_KIND_RANGER, ITEM: kp.KUNG_FUR_CARD_KIND_ITEM,
         ACHIEVEMENT: kp.KUNG_FUR_CARD_KIND_ACHIEVEMENT}
PHASES = {PLAN: kp.KUNG_FUR_PHASE_PLANNING, BATTLE: kp.KUNG_FUR_PHASE_BATTLE, REGROUP: kp.KUNG_FUR_PHASE_REGROUP,
          OVER: kp.KUNG_FUR_PHASE_OVER}
PHASE_NAMES = _names(PHASES)
STAGES = {OPEN: kp.KUNG_FUR_BATTLE_STAGE_OPENING, FIGHT: kp.KUNG_FUR_BATTLE_STAGE_FIGHT,
          SPOILS: kp.KUNG_FUR_BATTLE_STAGE_REWARDS}
STAGE_NAMES = _names(STAGES)
DECISIONS = {SHU: kp.KUNG_FUR_DECISION_MASTER_SHU, RINGO: kp.KUNG_FUR_DECISION_RINGO,
             BANANA: kp.KUNG_FUR_DECISION_BANANA, KKAMI: kp.KUNG_FUR_DECISION_KKAMI,
             RECOVER: kp.KUNG_FUR_DECISION_RECOVERY}
DECISION_NAMES = _names(DECISIONS)
DISHES = {0: kp.KUNG_FUR_DISH_STATE_NOT_TAKEN, 1: kp.KUNG_FUR_DISH_STATE_HELD, 2: kp.KUNG_FUR_DISH_STATE_EATEN}
DISH_NAMES = _names(DISHES)
TOKENS = {"weapon": kp.KUNG_FUR_TOKEN_HIDDEN_WEAPON, "coconut": kp.KUNG_FUR_TOKEN_COCONUT}
TOKEN_NAMES = _names(TOKENS)
RECOVERIES = {"food": kp.KUNG_FUR_RECOVERY_FOOD, "dish": kp.KUNG_FUR_RECOVERY_SPECIAL_DISH,
              "chef": kp.KUNG_FUR_RECOVERY_HEAD_CHEF, "none": kp.KUNG_FUR_RECOVERY_LEAVE_RESTING}
RECOVERY_NAMES = _names(RECOVERIES)
assert set(RECOVERIES) == set(RECOVER_LABELS)


def enum_name(name: str) -> str:
    """The KungFurCard value of a card named `name` in the data table: 'Kōga Jōnin' -> KUNG_FUR_CARD_KOGA_JONIN."""
    plain = name.replace("ō", "o").replace("-", " ").upper().replace(" ", "_")
    return "KUNG_FUR_CARD_" + plain


# The enum follows the data table, card for card; a drift would mislabel every card, so it fails at import.
assert [kp.KungFurCard.Name(c + 1) for c in range(NUM_CARDS)] == [enum_name(r.name) for r in CARDS]
assert len(kp.KungFurCard.values()) == NUM_CARDS + 1


# --- small pieces -------------------------------------------------------------------------------------------
def card_to_proto(card: int | None) -> int:
    return 0 if card is None else card + 1


def card_from_proto(value: int, what: str = "a card") -> int:
    if not 1 <= value <= NUM_CARDS:
        raise WireError(f"{what} must be set to a KungFurCard, got {value}")
    return value - 1


def _cards(values, what: str) -> tuple[int, ...]:
    return tuple(card_from_proto(v, what) for v in values)


def _sorted_cards(values, what: str) -> tuple[int, ...]:
    cards = _cards(values, what)
    if list(cards) != sorted(cards):
        raise WireError(f"{what}s are listed in the order of KungFurCard")
    return cards


def arena_from_proto(value: int, what: str = "the arena") -> int:
    if not 1 <= value <= ARENAS:
        raise WireError(f"{what} must be set to a KungFurArenaNumber, got {value}")
    return value - 1


def _enum(value: int, names: dict, what: str):
    if value not in names:
        raise WireError(f"{what} must be set to a known value, got {value}")
    return names[value]


def _optional(message, name: str) -> int | None:
    return getattr(message, name) if message.HasField(name) else None


def _seat(value: int | None, what: str) -> int | None:
    if value is not None and value not in SEATS:
        raise WireError(f"{what} is a seat, 0 or 1, not {value}")
    return value


def _count(value: int, what: str, most: int | None = None) -> int:
    if value < 0 or (most is not None and value > most):
        bound = f"0..{most}" if most is not None else "never negative"
        raise WireError(f"{what} is {bound}, got {value}")
    return value


# --- the data table -----------------------------------------------------------------------------------------
def _copies(table: Table) -> list[int]:
    copies = [0] * NUM_CARDS
    for card in (*table.hands[0], *table.hands[1], *table.rewards):
        copies[card] += 1
    return copies


def card_types_to_proto(table: Table) -> list[kp.KungFurCardType]:
    copies = _copies(table)
    return [
        kp.KungFurCardType(card=c + 1, kind=KINDS[row.kind], side=SIDES.get(row.side, 0), attack_points=table.ap[c],
                           copies=copies[c])
        for c, row in enumerate(CARDS)
    ]


def table_from_proto(m: kp.KungFurView) -> Table:
    if [t.card for t in m.card_types] != list(range(1, NUM_CARDS + 1)):
        raise WireError(f"card_types lists the {NUM_CARDS} cards in the order of KungFurCard")
    ap = tuple(_count(t.attack_points, "a card's AP", MAX_AP) for t in m.card_types)
    copies = [_count(t.copies, "a card's copies", MAX_COPIES) for t in m.card_types]
    hands = tuple(tuple(c for c, row in enumerate(CARDS) if row.side == side for _ in range(copies[c]))
                  for side in (CATS, DOGS))
    rewards = tuple(c for c, row in enumerate(CARDS) if row.kind != ANIMAL for _ in range(copies[c]))
    return Table(
        ap=ap,
        hands=hands,  # type: ignore[arg-type]
        rewards=rewards,
        start_sp=_count(m.starting_sp, "the starting SP", MAX_SP),
        battle_loss=_count(m.battle_loss_sp, "the SP a lost battle costs", MAX_SP),
        destruction_max=_count(m.destruction_max_sp, "the most SP a Destruction takes", MAX_SP),
    )


# --- boards and arenas --------------------------------------------------------------------------------------
def player_to_proto(v: View, seat: int) -> kp.KungFurPlayer:
    p = v.players[seat]
    plan = v.plans[seat]
    return kp.KungFurPlayer(
        seat=seat, side=SIDES[p.species], hand=[c + 1 for c in p.hand], rest_area=[c + 1 for c in p.rest], sp=p.sp,
        vp=p.vp, limit=p.limit, food_tokens=p.food, special_dish=DISHES[p.dish], hidden_weapons=p.weapons,
        hua_tokens=p.hua, coconuts=p.coconuts, items=[c + 1 for c in p.items], apples=p.apple, sinkings=p.sinking,
        ginseng_recovery=p.ginseng, blockade_round=p.blocked or None, animals_used=v.used[seat],
        plan_done=v.done[seat], plan_secret=plan is None, reinforced=plan is not None and plan.boost,
        face_down_discards=v.buried_sizes[seat],
    )  # fmt: skip


def player_from_proto(m: kp.KungFurPlayer) -> Player:
    blocked = _optional(m, "blockade_round")
    if blocked is not None and blocked < 1:
        raise WireError(f"a Blockade's round counts from 1, not {blocked}")
    return Player(
        species=_enum(m.side, SIDE_NAMES, "a seat's side"),
        hand=_sorted_cards(m.hand, "a card in hand"),
        rest=_sorted_cards(m.rest_area, "a card in a rest area"),
        sp=_count(m.sp, "a seat's SP", MAX_SP),
        vp=_count(m.vp, "a seat's VP"),
        limit=_count(m.limit, "a card limit"),
        food=_count(m.food_tokens, "food tokens"),
        dish=_enum(m.special_dish, DISH_NAMES, "the Special Dish"),
        weapons=_count(m.hidden_weapons, "Hidden Weapon tokens"),
        hua=_count(m.hua_tokens, "Hua tokens"),
        coconuts=_count(m.coconuts, "Coconut tokens"),
        items=_sorted_cards(m.items, "an item held"),
        apple=_count(m.apples, "Apple cards"),
        sinking=_count(m.sinkings, "Sinking cards"),
        ginseng=m.ginseng_recovery,
        blocked=blocked or 0,
    )


def arena_to_proto(v: View, k: int) -> kp.KungFurArena:
    teams = []
    for seat in SEATS:
        plan = v.plans[seat]
        team = kp.KungFurTeam(seat=seat)
        if plan is not None:
            stack = plan.stacks[k]
            team.leader = card_to_proto(stack[0] if stack else None)
            team.assistants.extend(c + 1 for c in stack[1:])
            team.hidden_weapons = plan.weapons[k]
            team.coconuts = plan.coconuts[k]
            # AP as the viewer sees them: a secret opposing plan counts as no cards (for Ye).
            opposing = v.plans[1 - seat]
            team.attack_points = team_ap(
                v.table.ap, list(stack), plan.weapons[k], plan.coconuts[k], seat, v.songo[k], v.raifu[k], v.hua[k],
                len(opposing.stacks[k]) if opposing is not None else 0, v.players[seat].sp,
            )  # fmt: skip
        teams.append(team)
    return kp.KungFurArena(
        number=k + 1, rewards=[c + 1 for c in v.rewards[k]], teams=teams, raifu_token=v.raifu[k],
        hua_token=v.hua[k], songo_mushrooms=v.songo[k], winner=v.results[k], fought=_fought(v, k),
    )  # fmt: skip


def _fought(v: View, k: int) -> bool:
    if v.phase in (REGROUP, OVER):
        return True
    return v.phase == BATTLE and (k < v.arena or (k == v.arena and v.stage == SPOILS))


def _plans_from_proto(m: kp.KungFurView) -> tuple[Plan | None, ...]:
    plans: list[Plan | None] = []
    for seat, player in zip(SEATS, m.players, strict=True):
        teams = [arena.teams[seat] for arena in m.arenas]
        if player.plan_secret:
            if player.reinforced or any(t.leader or t.assistants or t.hidden_weapons or t.coconuts for t in teams):
                raise WireError("a secret plan shows nothing of itself")
            plans.append(None)
            continue
        stacks = []
        for team in teams:
            if not team.leader:
                if team.assistants:
                    raise WireError("assistants need a leader on their arena")
                stacks.append(())
                continue
            if len(team.assistants) > MAX_PER_ARENA - 1:
                raise WireError(f"at most {MAX_PER_ARENA} animals of a seat on an arena")
            stacks.append((card_from_proto(team.leader, "a leader"), *_cards(team.assistants, "an assistant")))
        plans.append(Plan(
            stacks=tuple(stacks),
            weapons=tuple(_count(t.hidden_weapons, "Hidden Weapons on an arena") for t in teams),
            coconuts=tuple(_count(t.coconuts, "Coconuts on an arena") for t in teams),
            boost=player.reinforced,
            done=player.plan_done,
        ))  # fmt: skip
    return tuple(plans)


class KungFurWire(GameWire):
    view_message = kp.KungFurView
    move_message = kp.KungFurMove
    score_message = kp.KungFurScoreBreakdown

    # --- moves ---

    def move_to_proto(self, move) -> kp.KungFurMove:
        cls = type(move)
        if cls is Lead:
            return kp.KungFurMove(lead=kp.KungFurLead(arena=move.arena + 1, animal=move.card + 1))
        if cls is Assist:
            return kp.KungFurMove(assist=kp.KungFurAssist(arena=move.arena + 1, animal=move.card + 1))
        if cls is Token:
            return kp.KungFurMove(place_token=kp.KungFurPlaceToken(arena=move.arena + 1, token=TOKENS[move.kind]))
        if cls is Reinforce:
            return kp.KungFurMove(reinforce=kp.KungFurReinforce())
        if cls is Done:
            return kp.KungFurMove(finish_plan=kp.KungFurFinishPlan())
        if cls is ShuAdd:
            return kp.KungFurMove(master_shu=kp.KungFurMasterShu(animal=card_to_proto(move.card),
                                                                 decline=move.card is None))
        if cls is RingoAdd:
            return kp.KungFurMove(ringo=kp.KungFurRingo(hidden_weapons=move.count))
        if cls is BananaPick:
            return kp.KungFurMove(banana_pick=kp.KungFurBananaPick(card=move.card + 1))
        if cls is KkamiTake:
            return kp.KungFurMove(kkami=kp.KungFurKkami(animal=move.card + 1))
        if cls is Recover:
            return kp.KungFurMove(recover=kp.KungFurRecover(recovery=RECOVERIES[move.how]))
        raise WireError(f"not a Kung Fur Fight move: {cls.__name__}")

    def move_from_proto(self, m: kp.KungFurMove):
        kind = m.WhichOneof("kind")
        if kind == "lead":
            return Lead(arena_from_proto(m.lead.arena), card_from_proto(m.lead.animal, "the leader"))
        if kind == "assist":
            return Assist(arena_from_proto(m.assist.arena), card_from_proto(m.assist.animal, "the assistant"))
        if kind == "place_token":
            t = m.place_token
            return Token(arena_from_proto(t.arena), _enum(t.token, TOKEN_NAMES, "the token (a Hidden Weapon or a "
                                                                                 "Coconut)"))
        if kind == "reinforce":
            return Reinforce()
        if kind == "finish_plan":
            return Done()
        if kind == "master_shu":
            shu = m.master_shu
            if shu.decline:
                if shu.animal:
                    raise WireError("declining Master Shu's ability names no animal")
                return ShuAdd(None)
            return ShuAdd(card_from_proto(shu.animal, "the animal Master Shu adds (or decline)"))
        if kind == "ringo":
            return RingoAdd(_count(m.ringo.hidden_weapons, "the Hidden Weapons Ringo adds", RINGO_MAX))
        if kind == "banana_pick":
            return BananaPick(card_from_proto(m.banana_pick.card, "the card kept"))
        if kind == "kkami":
            return KkamiTake(card_from_proto(m.kkami.animal, "the animal Kkami brings back"))
        if kind == "recover":
            return Recover(_enum(m.recover.recovery, RECOVERY_NAMES, "the recovery"))
        raise WireError("KungFurMove has no move set")

    # --- views ---

    def view_to_proto(self, v: View) -> kp.KungFurView:
        return kp.KungFurView(
            seat=v.seat,
            round=v.round,
            phase=PHASES[v.phase],
            players=[player_to_proto(v, s) for s in SEATS],
            arenas=[arena_to_proto(v, k) for k in range(ARENAS)],
            current_arena=v.arena + 1,
            stage=STAGES[v.stage],
            ap_difference=v.diff,
            rewards_to_take=[c + 1 for c in v.todo],
            decisions=[kp.KungFurPendingDecision(seat=s, decision=DECISIONS[d]) for s, d in v.queue],
            reward_deck_size=v.deck_size,
            discard=[c + 1 for c in v.discard],
            your_face_down_discards=[c + 1 for c in v.buried],
            banana_draw=[c + 1 for c in v.offer],
            banana_draw_size=v.offer_size,
            unseen=[c + 1 for c in v.unseen],
            winners=v.winners,
            end_reason=v.end,
            card_types=card_types_to_proto(v.table),
            starting_sp=v.table.start_sp,
            battle_loss_sp=v.table.battle_loss,
            destruction_max_sp=v.table.destruction_max,
        )

    def view_from_proto(self, m: kp.KungFurView) -> View:
        phase = _enum(m.phase, PHASE_NAMES, "the phase")
        seat = _seat(_optional(m, "seat"), "the viewing seat")
        if [p.seat for p in m.players] != list(SEATS):
            raise WireError("a Kung Fur Fight view has 2 players, seat 0's then seat 1's")
        if [a.number for a in m.arenas] != [k + 1 for k in range(ARENAS)]:
            raise WireError(f"a Kung Fur Fight view has the {ARENAS} arenas, in order")
        for arena in m.arenas:
            if [t.seat for t in arena.teams] != list(SEATS):
                raise WireError("an arena has 2 teams, seat 0's then seat 1's")
        players = tuple(player_from_proto(p) for p in m.players)
        sides = [p.species for p in players]
        if sorted(sides) != sorted((CATS, DOGS)):
            raise WireError("one seat plays the cats, the other the dogs")
        if m.round < 1:
            raise WireError(f"rounds count from 1, not {m.round}")
        return View(
            seat=seat,
            table=table_from_proto(m),
            cats=sides.index(CATS),
            round=m.round,
            phase=phase,
            players=players,
            plans=_plans_from_proto(m),
            done=tuple(p.plan_done for p in m.players),
            used=tuple(_count(p.animals_used, "animals used") for p in m.players),
            arena=arena_from_proto(m.current_arena, "the current arena"),
            stage=_enum(m.stage, STAGE_NAMES, "the battle's stage"),
            rewards=tuple(_cards(a.rewards, "a reward card on an arena") for a in m.arenas),
            raifu=tuple(_seat(_optional(a, "raifu_token"), "a Raifu token's owner") for a in m.arenas),
            hua=tuple(_seat(_optional(a, "hua_token"), "a Hua token's owner") for a in m.arenas),
            songo=tuple(tuple(_seat(s, "a Songo Mushroom's owner") for s in a.songo_mushrooms) for a in m.arenas),
            results=tuple(_seat(_optional(a, "winner"), "an arena's winner") for a in m.arenas),
            diff=_count(m.ap_difference, "the AP difference"),
            todo=_cards(m.rewards_to_take, "a reward to take"),
            deck_size=_count(m.reward_deck_size, "the reward deck's size"),
            discard=_cards(m.discard, "a discarded card"),
            buried=_sorted_cards(m.your_face_down_discards, "a face-down discard"),
            buried_sizes=tuple(_count(p.face_down_discards, "face-down discards") for p in m.players),
            offer=_sorted_cards(m.banana_draw, "a card of the Banana's draw"),
            offer_size=_count(m.banana_draw_size, "the Banana's draw size"),
            unseen=_sorted_cards(m.unseen, "an unseen card"),
            queue=tuple((_seat(d.seat, "a deciding seat"), _enum(d.decision, DECISION_NAMES, "a decision"))
                        for d in m.decisions),  # type: ignore[misc]
            winners=tuple(_seat(w, "a winner") for w in m.winners),  # type: ignore[misc]
            end=m.end_reason,
        )


WIRE = KungFurWire()

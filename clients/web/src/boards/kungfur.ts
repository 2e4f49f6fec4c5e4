// Kung Fur Fight's board: the three Arenas (rewards, each side's team with its leader and assistants, the winner),
// both players' resources and hands (the opponent's as far as it is known), and the piles.
import { chip, defineBoard, enumName, type Names } from "../board";
import { h } from "../dom";
import {
  KungFurArenaNumberSchema,
  KungFurBattleStageSchema,
  KungFurCardSchema,
  KungFurDecisionSchema,
  KungFurDishStateSchema,
  KungFurPhaseSchema,
  KungFurSideSchema,
  KungFurViewSchema,
  type KungFurView,
} from "../gen/tabletop/v1/kungfur_pb";

export function kungfurBoard(view: KungFurView, names: Names): HTMLElement {
  const cards = (values: number[]) => h("div.cards.small-cards", {}, values.map((c) => chip(KungFurCardSchema, c)));
  const side = (seat: number) => enumName(KungFurSideSchema, view.players.find((p) => p.seat === seat)?.side ?? 0);
  return h(
    "div.board.kungfur",
    {},
    h("div.status-line", {}, [
      `Round ${view.round}`,
      `phase: ${enumName(KungFurPhaseSchema, view.phase)}`,
      view.currentArena ? `arena ${enumName(KungFurArenaNumberSchema, view.currentArena)}, ${enumName(KungFurBattleStageSchema, view.stage)}` : "",
      view.endReason,
    ].filter(Boolean).join(" · ")),
    h("div.arenas", {}, view.arenas.map((a) =>
      h(`div.arena${a.number === view.currentArena ? ".acting" : ""}`, {},
        h("strong", {}, `Arena ${enumName(KungFurArenaNumberSchema, a.number)}`,
          a.winner !== undefined ? ` — won by ${names(a.winner)}` : a.fought ? " — fought" : ""),
        h("div.small", {}, "Rewards"), cards(a.rewards),
        a.teams.map((t) => h("div.team", {},
          h("div.small", {}, `${names(t.seat)} (${side(t.seat)}) · ${t.attackPoints} AP`,
            t.hiddenWeapons ? ` · ${t.hiddenWeapons} hidden weapons` : "", t.coconuts ? ` · ${t.coconuts} coconuts` : ""),
          cards([t.leader, ...t.assistants])))))),
    h("div.positions", {}, view.players.map((p) =>
      h(`div.position${p.seat === view.seat ? ".mine" : ""}`, {},
        h("strong", {}, `${names(p.seat)} (${enumName(KungFurSideSchema, p.side)})`, p.seat === view.seat ? " (you)" : ""),
        h("div.small", {}, `SP ${p.sp} · VP ${p.vp} · limit ${p.limit} · food ${p.foodTokens} · dish ${enumName(KungFurDishStateSchema, p.specialDish)}`,
          p.planDone ? " · plan done" : ""),
        h("div.small", {}, "Hand"), cards(p.hand),
        p.restArea.length ? [h("div.small", {}, "Resting"), cards(p.restArea)] : null,
        p.items.length ? [h("div.small", {}, "Items"), cards(p.items)] : null))),
    view.decisions.length ? h("div.small", {}, "Waiting for: ", view.decisions.map((d) =>
      `${names(d.seat)} (${enumName(KungFurDecisionSchema, d.decision)})`).join(", ")) : null,
    view.rewardsToTake.length ? [h("div.rowlabel", {}, "Rewards to take"), cards(view.rewardsToTake)] : null,
    view.discard.length ? [h("div.rowlabel", {}, "Discard"), cards(view.discard)] : null,
    h("div.small", {}, `Reward deck: ${view.rewardDeckSize} cards`),
  );
}

export const board = defineBoard(KungFurViewSchema, kungfurBoard);

// Kung Fur Fight's board: the three Arenas (rewards, each side's team with its leader and assistants, the winner),
// both players' resources and hands (the opponent's as far as it is known), and the piles.
import { card, chip, defineBoard, enumEffect, enumName, target, type Names } from "../board";
import { h } from "../dom";
import {
  KungFurArenaNumberSchema,
  KungFurBattleStageSchema,
  KungFurCardKindSchema,
  KungFurCardSchema,
  KungFurDecisionSchema,
  KungFurDishStateSchema,
  KungFurMoveSchema,
  KungFurPhaseSchema,
  KungFurSideSchema,
  KungFurToken,
  KungFurTokenSchema,
  KungFurViewSchema,
  type KungFurView,
} from "../gen/tabletop/v1/kungfur_pb";

// Why the game ended, saying whose SP hit 0 (the engine's reason says "the opponent's").
export function ending(view: KungFurView, names: Names): string {
  if (!view.endReason) return "";
  const zero = view.players.filter((p) => p.sp === 0).map((p) => names(p.seat));
  const winners = view.winners.length === 1 ? `${names(view.winners[0])} wins` : view.winners.length ? "a draw" : "";
  // "both players' SP are 0: the higher VP wins": the seats named, and what decided kept.
  const decided = view.endReason.includes(":") ? view.endReason.slice(view.endReason.indexOf(":")) : "";
  const why = zero.length
    ? `${zero.map((n) => `${n}'s`).join(" and ")} SP ${zero.length > 1 ? "are" : "is"} 0${decided}` : view.endReason;
  return `Game over: ${[winners, why].filter(Boolean).join(": ")}`;
}

export function kungfurBoard(view: KungFurView, names: Names): HTMLElement {
  // A card's AP in this game (the game's data option may change them), from the view's card table.
  const ap = new Map(view.cardTypes.filter((t) => t.attackPoints).map((t) => [t.card, `${t.attackPoints} AP`]));
  const cards = (values: number[]) => h("div.cards.small-cards", {}, values.map((c) => chip(KungFurCardSchema, c, ap.get(c))));
  // The viewer's cards that moves are chosen by: its hand ("hand:CARD"), its rest area for Kkami ("rest:CARD"), the
  // Banana's draw ("banana:CARD"), its tokens ("token:TOKEN"); then an arena ("arena:NUMBER").
  const pointed = (key: string, c: number, element: HTMLElement) => target(element, `${key}:${c}`, enumName(KungFurCardSchema, c));
  const hand = (values: number[]) => h("div.cards.with-text", { "data-testid": "hand" },
    values.map((c) => pointed("hand", c, card(KungFurCardSchema, c, ap.get(c)))));
  const resting = (values: number[]) => h("div.cards.small-cards", {}, values.map((c) => pointed("rest", c, chip(KungFurCardSchema, c, ap.get(c)))));
  const tokens = (p: { hiddenWeapons: number; coconuts: number }) => {
    const stock = [[KungFurToken.HIDDEN_WEAPON, p.hiddenWeapons], [KungFurToken.COCONUT, p.coconuts]] as const;
    return stock.some(([, n]) => n) ? h("div.cards.tokens", {}, stock.filter(([, n]) => n).map(([token, n]) =>
      target(h("span.token", {}, `${enumName(KungFurTokenSchema, token)} ×${n}`), `token:${token}`,
        `${enumName(KungFurTokenSchema, token)} token (${n} left)`))) : null;
  };
  const side = (seat: number) => enumName(KungFurSideSchema, view.players.find((p) => p.seat === seat)?.side ?? 0);
  const player = (seat: number) => view.players.find((p) => p.seat === seat);
  // An arena's team: its animals; none is drawn as "no animal" (or a plan still behind its screen), never as cards.
  const team = (seat: number, animals: number[]) => animals.length ? cards(animals)
    : h("div.small.empty-team", {}, player(seat)?.planSecret ? "plan behind the screen" : "no animal");
  return h(
    "div.board.kungfur",
    {},
    h("div.status-line", {}, [
      `Round ${view.round}`,
      `phase: ${enumName(KungFurPhaseSchema, view.phase)}`,
      view.currentArena ? `arena ${enumName(KungFurArenaNumberSchema, view.currentArena)}, ${enumName(KungFurBattleStageSchema, view.stage)}` : "",
    ].filter(Boolean).join(" · ")),
    view.endReason ? h("div.status-line", { "data-testid": "end-reason" }, ending(view, names)) : null,
    h("div.arenas", {}, view.arenas.map((a) => target(
      h(`div.arena${a.number === view.currentArena ? ".acting" : ""}`, {},
        h("strong", {}, `Arena ${enumName(KungFurArenaNumberSchema, a.number)}`,
          a.winner !== undefined ? ` — won by ${names(a.winner)}` : a.fought ? " — fought" : ""),
        h("div.small", {}, "Rewards"), cards(a.rewards),
        a.teams.map((t) => h("div.team", {},
          h("div.small", {}, `${names(t.seat)} (${side(t.seat)}) · ${t.attackPoints} AP`,
            t.hiddenWeapons ? ` · ${t.hiddenWeapons} hidden weapons` : "", t.coconuts ? ` · ${t.coconuts} coconuts` : ""),
          team(t.seat, [t.leader, ...t.assistants].filter(Boolean))))), `arena:${a.number}`,
      `Arena ${enumName(KungFurArenaNumberSchema, a.number)}`))),
    h("div.positions", {}, view.players.map((p) =>
      h(`div.position${p.seat === view.seat ? ".mine" : ""}`, {},
        h("strong", {}, `${names(p.seat)} (${enumName(KungFurSideSchema, p.side)})`, p.seat === view.seat ? " (you)" : ""),
        h("div.small", {}, `SP ${p.sp} · VP ${p.vp} · limit ${p.limit} · food ${p.foodTokens} · dish ${enumName(KungFurDishStateSchema, p.specialDish)}`,
          p.planDone ? " · plan done" : ""),
        h("div.small", {}, "Hand"), p.seat === view.seat ? hand(p.hand) : cards(p.hand),
        p.seat === view.seat ? tokens(p) : null,
        p.restArea.length ? [h("div.small", {}, "Resting"), p.seat === view.seat ? resting(p.restArea) : cards(p.restArea)] : null,
        p.items.length ? [h("div.small", {}, "Items"), cards(p.items)] : null))),
    view.decisions.length ? h("div.small", {}, "Waiting for: ", view.decisions.map((d) =>
      `${names(d.seat)} (${enumName(KungFurDecisionSchema, d.decision)})`).join(", ")) : null,
    view.bananaDraw.length ? [h("div.rowlabel", {}, "The Banana's draw"), h("div.cards.small-cards", { "data-testid": "banana-draw" },
      view.bananaDraw.map((c) => pointed("banana", c, chip(KungFurCardSchema, c, ap.get(c)))))] : null,
    view.rewardsToTake.length ? [h("div.rowlabel", {}, "Rewards to take"), cards(view.rewardsToTake)] : null,
    view.discard.length ? [h("div.rowlabel", {}, "Discard"), cards(view.discard)] : null,
    h("div.small", {}, `Reward deck: ${view.rewardDeckSize} cards`),
    h("details", { "data-testid": "card-reference" }, h("summary", {}, "Every card"), h("table.reference", {},
      h("tr", {}, h("th", {}, "card"), h("th", {}, "kind"), h("th", {}, "AP"), h("th", {}, "copies"), h("th", {}, "what it does")),
      view.cardTypes.map((t) => h("tr", {}, h("td", {}, enumName(KungFurCardSchema, t.card)),
        h("td", {}, enumName(KungFurCardKindSchema, t.kind)), h("td", {}, `${t.attackPoints}`), h("td", {}, `${t.copies}`),
        h("td", {}, enumEffect(KungFurCardSchema, t.card) ?? ""))))),
  );
}

export const board = defineBoard(KungFurViewSchema, kungfurBoard, {
  howTo: [
    "Cats against dogs, in rounds. In the planning both players, behind their screens, put animals from their hand " +
      "on the three arenas: one leader per arena (its ability counts), then assistants (their AP only), up to the " +
      "card limit, and tokens.",
    "Then the screens come down and the arenas fight in order: the higher AP wins the arena's reward cards and VP; " +
      "the loser loses SP.",
    "In the regroup the used animals rest; food, the Special Dish or the Head Chef bring them back.",
    "You win with 4 VP more than the opponent, or when the opponent's SP reaches 0; when the reward deck runs out, " +
      "the higher VP wins.",
  ],
  legend: [
    ["SP / VP", "spirit points (0 loses the game) and victory points"],
    ["3 AP", "a card's attack points in battle; an arena's team shows its total AP"],
    ["limit", "how many animals the player may place in a planning"],
    ["plan behind the screen", "the opponent is planning: what it placed stays hidden until the reveal"],
    ["Rewards", "the cards the arena's winner takes"],
    ["Every card", "the table of every card's kind, AP, copies and ability in this game"],
  ],
  secretMove: "planned (behind the screen)",
}, {
  move: KungFurMoveSchema,
  // An animal is put on an arena by clicking it in hand, then the arena (as leader or assistant, whichever the arena
  // takes); a token by clicking it, then the arena; Master Shu's assistant, Kkami's animal and the Banana's card by
  // clicking them. Reinforcements, finishing the plan, Ringo's weapons and the recovery are buttons.
  path: ({ kind }) => {
    switch (kind.case) {
      case "lead": case "assist": return [`hand:${kind.value.animal}`, `arena:${kind.value.arena}`];
      case "placeToken": return [`token:${kind.value.token}`, `arena:${kind.value.arena}`];
      case "masterShu": return kind.value.animal ? [`hand:${kind.value.animal}`] : [];
      case "bananaPick": return [`banana:${kind.value.card}`];
      case "kkami": return [`rest:${kind.value.animal}`];
      default: return [];
    }
  },
});

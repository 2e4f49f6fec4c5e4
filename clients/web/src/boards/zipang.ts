// Zipang Portable's board: every player's coins, hand size and what the viewer knows of it, the viewer's hand, the
// battle in progress (an effect being resolved, a reaction asked for), the piles, and the card types for reference.
import { card, chip, defineBoard, enumEffect, enumName, panel, target, type Names } from "../board";
import { h } from "../dom";
import {
  ZipangAnswer,
  ZipangCard,
  ZipangCardSchema,
  ZipangEffectSchema,
  ZipangMoveSchema,
  ZipangPhaseSchema,
  ZipangReactionSchema,
  ZipangViewSchema,
  type ZipangView,
} from "../gen/tabletop/v1/zipang_pb";

export function zipangBoard(view: ZipangView, names: Names): HTMLElement {
  // A card's battle and honour points in this game (the cards option may change them), from the view's table.
  const points = new Map(view.cardTypes.map((t) => [t.card, `BTL ${t.battlePoints} · HNR ${t.honorPoints}`]));
  const cards = (values: number[]) => h("div.cards.small-cards", {}, values.map((c) => chip(ZipangCardSchema, c, points.get(c))));
  // The cards the viewer may use now (Kabuki's choice from the discard pile, the card taken with the Shrine
  // Maiden): each is clicked to choose it ("usable:CARD").
  const effect = view.effect;
  const usable = effect && effect.user === view.seat && effect.usable.length ? [
    h("div.rowlabel", {}, "Cards you may use"),
    h("div.cards.with-text", { "data-testid": "usable" }, effect.usable.map((c) =>
      target(card(ZipangCardSchema, c, points.get(c)), `usable:${c}`, enumName(ZipangCardSchema, c))))] : null;
  return h(
    "div.board.zipang",
    {},
    h("div.status-line", {}, [
      `Phase: ${enumName(ZipangPhaseSchema, view.phase)}`,
      `battle ${view.battle} (started by ${names(view.battleStarter)})`,
      `active: ${names(view.active)}`,
      view.actor !== undefined ? `to decide: ${names(view.actor)}` : "",
    ].filter(Boolean).join(" · ")),
    // A player is clicked as the target of an attack, a theft or a look ("seat:SEAT").
    h("div.positions", {}, view.players.map((p) => target(
      h(`div.position${p.seat === view.actor ? ".acting" : ""}${p.inBattle ? "" : ".out"}`, {},
        h("strong", {}, names(p.seat), p.seat === view.seat ? " (you)" : ""),
        h("div.small", {}, `${p.coins} coins · ${p.handSize} cards${p.inBattle ? "" : " · out of the battle"}`),
        // a card known in another hand is taken from it by clicking it, once looked at ("seen:SEAT:CARD")
        p.knownCards.length ? [h("div.small", {}, "Known in hand:"), h("div.cards.small-cards", {}, p.knownCards.map((c) =>
          target(chip(ZipangCardSchema, c, points.get(c)), `seen:${p.seat}:${c}`,
            `${enumName(ZipangCardSchema, c)} in ${names(p.seat)}'s hand`)))] : null),
      `seat:${p.seat}`, `${names(p.seat)}${p.seat === view.seat ? " (you)" : ""}`))),
    usable,
    view.hand.length ? [h("div.rowlabel", {}, "Your hand"), h("div.cards.with-text", { "data-testid": "hand" },
      view.hand.map((c) => target(card(ZipangCardSchema, c, points.get(c)), `hand:${c}`, enumName(ZipangCardSchema, c))))] : null,
    h("div.small", {}, `Coin area: ${view.coinArea} · draw pile: ${view.drawPileSize} · face-down discards: ${view.faceDownDiscards}`),
    view.discard.length ? [h("div.rowlabel", {}, "Discard"), cards(view.discard)] : null,
    view.battleResults.length ? h("div.small", {}, "Battles won: ", view.battleResults.map((r) =>
      `${r.battle}: ${r.winner !== undefined ? names(r.winner) : "nobody"}`).join(", ")) : null,
    h("div.panels", {}, view.effect ? panel(ZipangEffectSchema, view.effect) : null,
      view.reaction ? panel(ZipangReactionSchema, view.reaction) : null),
    h("details", { "data-testid": "card-reference" }, h("summary", {}, "Every card"), h("table.reference", {},
      h("tr", {}, h("th", {}, "card"), h("th", {}, "battle (BTL)"), h("th", {}, "honour (HNR)"), h("th", {}, "copies"),
        h("th", {}, "what it does")),
      view.cardTypes.map((t) => h("tr", {}, h("td", {}, enumName(ZipangCardSchema, t.card)), h("td", {}, `${t.battlePoints}`),
        h("td", {}, `${t.honorPoints}`), h("td", {}, `${t.copies}`), h("td", {}, enumEffect(ZipangCardSchema, t.card) ?? ""))))),
  );
}

export const board = defineBoard(ZipangViewSchema, zipangBoard, {
  howTo: [
    "Battles, one after another. Everyone holds 2 cards. On your turn draw 1, then play 1 of your 3 cards face up: " +
      "its effect happens (an attack, a theft, ...); then refill to 2.",
    "An attack with a card's BTL is blocked when the defender's hand totals as much BTL or more; otherwise the " +
      "defender is out of the battle. Before your first turn of a battle you may block an attack with a coin.",
    "The last player left in the battle takes the coins in the center. When the draw pile runs out, or an Emperor is " +
      "played, the highest honour (HNR) in hand takes them.",
    "The game ends when a battle starts with a player who has no coin: most coins wins.",
  ],
  legend: [
    ["BTL · HNR", "a card's battle points (attack and defence) and honour points (who wins when a battle ends)"],
    ["coins", "the Mangoku coins a player owns; the coin area is the pot of the battle"],
    ["Known in hand", "cards you saw in another player's hand that are still there for certain"],
    ["out of the battle", "a player beaten in this battle: no hand until the next battle"],
    ["Every card", "the table of every card's values, copies and effect in this game"],
  ],
  secretMove: "made a secret move",
}, {
  move: ZipangMoveSchema,
  // A card is played by clicking it in hand, then the player it aims at (an attack's variants, none or every
  // player, and an Ikki are its buttons then); a card looked at or offered is taken or used by clicking it; a Monk
  // answers an attack from the hand. The other answers (a coin, defending) are buttons.
  path: ({ kind }) => {
    const aimed = (targets: number[]) => (targets.length === 1 ? [`seat:${targets[0]}`] : []);
    switch (kind.case) {
      case "play": return [`hand:${kind.value.card}`, ...aimed(kind.value.targets)];
      case "use": return [`usable:${kind.value.card}`, ...aimed(kind.value.targets)];
      case "take": return kind.value.card ? [`seen:${kind.value.fromSeat}:${kind.value.card}`] : [];
      case "react": return kind.value.answer === ZipangAnswer.MONK ? [`hand:${ZipangCard.MONK}`] : [];
      default: return [];
    }
  },
});

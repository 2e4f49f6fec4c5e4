// Zipang Portable's board: every player's coins, hand size and what the viewer knows of it, the viewer's hand, the
// battle in progress (an effect being resolved, a reaction asked for), the piles, and the card types for reference.
import { chip, defineBoard, enumName, panel, type Names } from "../board";
import { h } from "../dom";
import {
  ZipangCardSchema,
  ZipangEffectSchema,
  ZipangPhaseSchema,
  ZipangReactionSchema,
  ZipangViewSchema,
  type ZipangView,
} from "../gen/tabletop/v1/zipang_pb";

export function zipangBoard(view: ZipangView, names: Names): HTMLElement {
  const cards = (values: number[]) => h("div.cards.small-cards", {}, values.map((c) => chip(ZipangCardSchema, c)));
  return h(
    "div.board.zipang",
    {},
    h("div.status-line", {}, [
      `Phase: ${enumName(ZipangPhaseSchema, view.phase)}`,
      `battle ${view.battle} (started by ${names(view.battleStarter)})`,
      `active: ${names(view.active)}`,
      view.actor !== undefined ? `to decide: ${names(view.actor)}` : "",
    ].filter(Boolean).join(" · ")),
    h("div.positions", {}, view.players.map((p) =>
      h(`div.position${p.seat === view.actor ? ".acting" : ""}${p.inBattle ? "" : ".out"}`, {},
        h("strong", {}, names(p.seat), p.seat === view.seat ? " (you)" : ""),
        h("div.small", {}, `${p.coins} coins · ${p.handSize} cards${p.inBattle ? "" : " · out of the battle"}`),
        p.knownCards.length ? [h("div.small", {}, "Known in hand:"), cards(p.knownCards)] : null))),
    view.hand.length ? [h("div.rowlabel", {}, "Your hand"), h("div.cards", { "data-testid": "hand" },
      view.hand.map((c) => chip(ZipangCardSchema, c)))] : null,
    h("div.small", {}, `Coin area: ${view.coinArea} · draw pile: ${view.drawPileSize} · face-down discards: ${view.faceDownDiscards}`),
    view.discard.length ? [h("div.rowlabel", {}, "Discard"), cards(view.discard)] : null,
    view.battleResults.length ? h("div.small", {}, "Battles won: ", view.battleResults.map((r) =>
      `${r.battle}: ${r.winner !== undefined ? names(r.winner) : "nobody"}`).join(", ")) : null,
    h("div.panels", {}, view.effect ? panel(ZipangEffectSchema, view.effect) : null,
      view.reaction ? panel(ZipangReactionSchema, view.reaction) : null),
    h("details", {}, h("summary", {}, "Card types"), h("table.reference", {},
      h("tr", {}, h("th", {}, "card"), h("th", {}, "battle"), h("th", {}, "honor"), h("th", {}, "copies")),
      view.cardTypes.map((t) => h("tr", {}, h("td", {}, enumName(ZipangCardSchema, t.card)), h("td", {}, `${t.battlePoints}`),
        h("td", {}, `${t.honorPoints}`), h("td", {}, `${t.copies}`))))),
  );
}

export const board = defineBoard(ZipangViewSchema, zipangBoard);

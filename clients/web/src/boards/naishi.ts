// Naishi's board: the opponent's territory, the River and the Imperial Court, then the viewer's territory; each
// territory its Line (face up) above its Hand (the viewer's own in order; the other's as far as it is known).
import { chip, defineBoard, enumName, type Names } from "../board";
import { h } from "../dom";
import {
  NaishiCardSchema,
  NaishiCourtKindSchema,
  NaishiPhaseSchema,
  type NaishiTerritory,
  NaishiViewSchema,
  type NaishiView,
} from "../gen/tabletop/v1/naishi_pb";

function cards(values: number[], testid: string): HTMLElement {
  return h("div.cards", { "data-testid": testid }, values.map((c) => chip(NaishiCardSchema, c)));
}

function territory(t: NaishiTerritory, viewer: number | undefined, names: Names): HTMLElement {
  const known = t.seat === viewer ? undefined : (t.knownToOpponent ?? t.knownToEveryone);
  const hand = t.hand.length
    ? cards(t.hand, `hand-${t.seat}`)
    : h(
        "div.cards.hidden-hand",
        { "data-testid": `hand-${t.seat}` },
        (known?.places.length ? known.places : [0, 0, 0, 0, 0]).map((c) => chip(NaishiCardSchema, c)),
      );
  const among = !t.hand.length && known?.among.length
    ? h("div.note", {}, "Somewhere in this Hand: ", known.among.map((c) => chip(NaishiCardSchema, c)))
    : null;
  return h(
    `section.territory${t.seat === viewer ? ".mine" : ""}`,
    { "data-seat": t.seat },
    h("h3", {}, `${names(t.seat)}${t.seat === viewer ? " (you)" : ""}`, t.giftChosen ? h("span.tag", {}, "gift chosen") : null),
    h("div.rowlabel", {}, "Line"),
    cards(t.line, `line-${t.seat}`),
    h("div.rowlabel", {}, "Hand"),
    hand,
    among,
  );
}

export function naishiBoard(view: NaishiView, names: Names): HTMLElement {
  const viewer = view.seat;
  const order = [...view.territories].sort((a, b) => (a.seat === viewer ? 1 : 0) - (b.seat === viewer ? 1 : 0));
  const status = [
    `Phase: ${enumName(NaishiPhaseSchema, view.phase)}`,
    `turn: ${names(view.turn)}`,
    `first player: ${names(view.firstPlayer)}`,
    view.finalTurn !== undefined ? `last turn: ${names(view.finalTurn)}` : "",
    view.declaredBy !== undefined ? `end declared by ${names(view.declaredBy)}` : "",
  ].filter(Boolean);
  const gift = view.offer.length
    ? h("div.gift", {}, "Your development cards (give one): ", view.offer.map((c) => chip(NaishiCardSchema, c)))
    : null;
  const middle = h(
    "section.middle",
    {},
    h("div.rowlabel", {}, "River"),
    h(
      "div.cards.river",
      { "data-testid": "river" },
      view.river.map((p) => h("div.pile", {}, p.size ? chip(NaishiCardSchema, p.top) : h("span.chip.empty", {}, "empty"),
        h("span.size", {}, `${p.size}`))),
    ),
    h("div.rowlabel", {}, "Imperial Court"),
    h(
      "div.court",
      {},
      view.court.map((s, i) =>
        h(
          `div.space${s.emissary !== undefined ? ".taken" : ""}`,
          { title: `space ${i}` },
          enumName(NaishiCourtKindSchema, s.kind),
          h("span.emissary", {}, s.emissary !== undefined ? names(s.emissary) : "free"),
        ),
      ),
    ),
    view.discard.length ? h("div.note", {}, "Discard: ", view.discard.map((c) => chip(NaishiCardSchema, c))) : null,
  );
  return h(
    "div.board.naishi",
    {},
    h("div.status-line", {}, status.join(" · ")),
    gift,
    order.map((t, i) => [territory(t, viewer, names), i === 0 ? middle : null]),
  );
}

export const board = defineBoard(NaishiViewSchema, naishiBoard);

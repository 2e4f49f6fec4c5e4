// Naishi's board: the opponent's territory, the River and the Imperial Court, then the viewer's territory; each
// territory its Line (face up) above its Hand (the viewer's own in order; the other's as far as it is known).
import { card, chip, defineBoard, enumEffect, enumName, target, type Names } from "../board";
import { h } from "../dom";
import {
  NaishiCardSchema,
  NaishiCourtKind,
  NaishiCourtKindSchema,
  NaishiMoveSchema,
  NaishiPhaseSchema,
  NaishiRow,
  NaishiSwitchKind,
  type NaishiTerritory,
  NaishiViewSchema,
  type NaishiView,
} from "../gen/tabletop/v1/naishi_pb";

// A row of places numbered from 1, left to right, as the moves name them ("position 3 of your Hand"). With `key`,
// each place is the thing "KEY:PLACE" that moves are chosen by (PLACE counted from 0, as in the moves), named
// "NAME(card), position N of ROW" for people.
type Pointed = { key: string; row: string; name: (i: number) => string };
function numbered(testid: string, items: HTMLElement[], classes = "", pointed?: Pointed): HTMLElement {
  return h(`div.cards.numbered${classes}`, { "data-testid": testid }, items.map((item, i) => {
    const place = h("div.place", { "data-position": i + 1 }, h("span.place-number", { "aria-hidden": "true" }, `${i + 1}`), item);
    return pointed ? target(place, `${pointed.key}:${i}`, `${pointed.name(i)}, position ${i + 1} of ${pointed.row}`) : place;
  }));
}

function cards(values: number[], testid: string, key?: string, row = ""): HTMLElement {
  return numbered(testid, values.map((c) => chip(NaishiCardSchema, c)), "",
    key ? { key, row, name: (i) => enumName(NaishiCardSchema, values[i]) } : undefined);
}

function territory(t: NaishiTerritory, viewer: number | undefined, names: Names): HTMLElement {
  const mine = t.seat === viewer;
  const known = mine ? undefined : (t.knownToOpponent ?? t.knownToEveryone);
  const hand = t.hand.length
    ? cards(t.hand, `hand-${t.seat}`, mine ? "hand" : undefined, "your Hand")
    : numbered(`hand-${t.seat}`, (known?.places.length ? known.places : [0, 0, 0, 0, 0]).map((c) => chip(NaishiCardSchema, c)),
        ".hidden-hand");
  const among = !t.hand.length && known?.among.length
    ? h("div.note", {}, "Somewhere in this Hand: ", known.among.map((c) => chip(NaishiCardSchema, c)))
    : null;
  return h(
    `section.territory${t.seat === viewer ? ".mine" : ""}`,
    { "data-seat": t.seat },
    h("h3", {}, `${names(t.seat)}${t.seat === viewer ? " (you)" : ""}`, t.giftChosen ? h("span.tag", {}, "gift chosen") : null),
    h("div.rowlabel", {}, "Line"),
    cards(t.line, `line-${t.seat}`, mine ? "line" : undefined, "your Line"),
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
  // The gift, a choice of the viewer's own: the table shows it in the panel of your moves (main.ts).
  const gift = view.offer.length
    ? h("div.gift", { "data-testid": "gift" }, h("span", {}, view.giftGiven
      ? `You give the ${enumName(NaishiCardSchema, view.giftGiven)}.` : "Your development cards: give one, keep the other."),
      h("div.cards", {}, view.offer.map((c) => target(card(NaishiCardSchema, c), `gift:${c}`, enumName(NaishiCardSchema, c)))))
    : null;
  // The Court: the first free space of each kind is where an Emissary goes (the moves name the kind, not the
  // space); a space holding the viewer's Emissary is recalled from.
  const firstFree = new Map<number, number>();
  view.court.forEach((s, i) => { if (s.emissary === undefined && !firstFree.has(s.kind)) firstFree.set(s.kind, i); });
  const courtKey = (kind: number, i: number, emissary: number | undefined) =>
    emissary === undefined ? (firstFree.get(kind) === i ? `court:${kind}` : undefined)
      : emissary === viewer ? `space:${i}` : undefined;
  const middle = h(
    "section.middle",
    {},
    h("div.rowlabel", {}, "River"),
    numbered("river", view.river.map((p) => h("div.pile", {}, p.size ? chip(NaishiCardSchema, p.top) : h("span.chip.empty", {}, "empty"),
      h("span.size", {}, `${p.size} left`))), ".river",
      { key: "river", row: "the River", name: (i) => view.river[i].size ? enumName(NaishiCardSchema, view.river[i].top) : "empty pile" }),
    h("div.rowlabel", {}, "Imperial Court"),
    h(
      "div.court",
      {},
      view.court.map((s, i) => {
        const space = h(
          `div.space${s.emissary !== undefined ? ".taken" : ""}`,
          { title: `space ${i}` },
          enumName(NaishiCourtKindSchema, s.kind),
          h("span.emissary", {}, s.emissary !== undefined ? names(s.emissary) : "free"),
        );
        const key = courtKey(s.kind, i, s.emissary);
        return key ? target(space, key, `Imperial Court: ${enumName(NaishiCourtKindSchema, s.kind)} space${
          s.emissary !== undefined ? " (your Emissary)" : ""}`) : space;
      }),
    ),
    view.discard.length ? h("div.note", {}, "Discard: ", view.discard.map((c) => chip(NaishiCardSchema, c))) : null,
    h("details", { "data-testid": "card-reference" }, h("summary", {}, "Every card"), h("table.reference", {},
      h("tr", {}, h("th", {}, "card"), h("th", {}, "what it is")),
      NaishiCardSchema.values.filter((v) => v.number).map((v) => h("tr", {},
        h("td", {}, chip(NaishiCardSchema, v.number)), h("td", {}, enumEffect(NaishiCardSchema, v.number) ?? ""))))),
  );
  return h(
    "div.board.naishi",
    {},
    h("div.status-line", {}, status.join(" · ")),
    gift,
    order.map((t, i) => [territory(t, viewer, names), i === 0 ? middle : null]),
  );
}

export const board = defineBoard(NaishiViewSchema, naishiBoard, {
  howTo: [
    "Your territory is a Line of 5 cards (face up) above a Hand of 5 (hidden from your opponent). You can never " +
      "reorder them: every card keeps its position.",
    "At the start each player keeps one of 2 development cards and secretly gives the other to the opponent.",
    "On your turn, develop: discard a card of your Hand or Line and take the River's card at the same position in " +
      "its place. Before or after it you may send an Emissary to the Imperial Court for one additional action: " +
      "switch 2 River cards, 2 of your cards, or a Hand card with the Line card above it; or discard 2 River cards.",
    "Instead of developing you may use the Imperial Decree (exchange both players' cards at one position), recall " +
      "your Emissaries, or declare the end once a River pile is empty.",
    "The game ends when 2 River piles are empty (or after a declared end): each card type scores by its own rule " +
      "(the score table shows them by row); most points wins.",
  ],
  legend: [
    ["1 to 5", "the positions of a row, left to right: the moves say \"position 3 of your Hand\""],
    ["Line / Hand", "a territory's two rows: the Line is face up, the Hand hidden from the opponent"],
    ["striped card", "a card you cannot see; \"Somewhere in this Hand\" lists cards known to be in it"],
    ["River (n left)", "the 5 draw piles: the top card and how many cards the pile holds"],
    ["Imperial Court", "the spaces where Emissaries go for additional actions; a taken space shows whose it is"],
    ["gift chosen", "that player has chosen the card to give; which one stays secret until both have"],
  ],
  secretMove: "chose a card to give (secret until both have chosen)",
}, {
  move: NaishiMoveSchema,
  // A card of your Line or Hand is developed by clicking it; an additional action or the Decree starts on the
  // Court's space, then the cards it takes (a column switch: the Hand card, then the Line card above it).
  path: ({ kind }) => {
    const row = (r: NaishiRow) => (r === NaishiRow.LINE ? "line" : "hand");
    const switched: Record<number, [string, string]> = { [NaishiSwitchKind.RIVER]: ["river", "river"],
      [NaishiSwitchKind.LINE]: ["line", "line"], [NaishiSwitchKind.HAND]: ["hand", "hand"],
      [NaishiSwitchKind.COLUMN]: ["hand", "line"] };
    switch (kind.case) {
      case "give": return [`gift:${kind.value.card}`];
      case "develop": return [`${row(kind.value.row)}:${kind.value.place}`];
      case "decree": return [`court:${NaishiCourtKind.DECREE}`, `${row(kind.value.row)}:${kind.value.place}`];
      case "switchCards": {
        const [first, second] = switched[kind.value.kind] ?? [];
        return first ? [`court:${NaishiCourtKind.SWITCH}`, `${first}:${kind.value.firstPlace}`,
          `${second}:${kind.value.secondPlace}`] : [];
      }
      case "discardRiver":
        return [`court:${NaishiCourtKind.DISCARD}`, `river:${kind.value.firstPile}`, `river:${kind.value.secondPile}`];
      case "recall": return kind.value.spaces.length === 1 ? [`space:${kind.value.spaces[0]}`] : [];
      default: return []; // declare the end, end the turn: their buttons
    }
  },
});

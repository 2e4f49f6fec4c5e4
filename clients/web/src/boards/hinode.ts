// Top of the Hinode Town's board: the town (3 rows of 4 Areas, and the Bonus Area) with each Area's Nawabari card,
// resources and place markers, the four positions around the table, the trick being played, and the viewer's hand.
import { defineBoard, enumName, type Names } from "../board";
import { h } from "../dom";
import {
  HinodeColourSchema,
  HinodePhaseSchema,
  HinodeTribeSchema,
  type HinodeArea,
  type HinodeCard,
  type HinodeResources,
  HinodeViewSchema,
  type HinodeView,
} from "../gen/tabletop/v1/hinode_pb";

function card(c: HinodeCard | undefined): HTMLElement {
  if (!c) return h("span.chip.unknown", {}, "?");
  if (c.hero) return h("span.chip.hinode-hero", {}, "Hero");
  const colour = enumName(HinodeColourSchema, c.suit).toLowerCase();
  return h(`span.chip.hinodecolour-${colour}`, { title: `${colour} ${c.number}` }, h("strong", {}, `${c.number}`));
}

function resources(r: HinodeResources | undefined): HTMLElement {
  const dots = (n: number, colour: string) => Array.from({ length: n }, () => h(`span.dot.${colour}`, {}));
  return h("span.resources", {}, dots(r?.red ?? 0, "red"), dots(r?.blue ?? 0, "blue"), dots(r?.yellow ?? 0, "yellow"));
}

export function hinodeBoard(view: HinodeView, names: Names): HTMLElement {
  const who = (p: number | undefined) =>
    p === undefined ? "—" : p < view.numPlayers ? names(p) : `Proxy ${p}`;
  const area = (a: HinodeArea, index: number | undefined) => {
    const n = a.nawabari;
    const colour = n ? enumName(HinodeColourSchema, n.colour).toLowerCase() : "none";
    return h(
      `div.area.area-${colour}${index !== undefined && index === view.battlefield ? ".battlefield" : ""}`,
      { title: index === undefined ? "Bonus Area" : `Area ${index} (row ${a.row}, column ${a.column})` },
      h("div.area-head", {}, n ? `${enumName(HinodeColourSchema, n.colour)} ${n.number}` : "", index === undefined ? " · Bonus" : ""),
      n ? h("div.small", {}, `1st ${n.firstPlaceVp} VP · 2nd ${n.secondPlaceVp} VP`) : null,
      resources(a.resources),
      h("div.small", {}, `1st: ${who(a.firstPlace)} · 2nd: ${who(a.secondPlace)}`),
      a.samuraiMarkers.length ? h("div.small", {}, `Samurai: ${a.samuraiMarkers.map(who).join(", ")}`) : null,
    );
  };
  return h(
    "div.board.hinode",
    {},
    h("div.status-line", {}, [
      `Phase: ${enumName(HinodePhaseSchema, view.phase)}`,
      `tricks done: ${view.tricksDone}`,
      `to decide: ${who(view.actor)}`,
      view.battlefieldColour ? `battlefield colour: ${enumName(HinodeColourSchema, view.battlefieldColour)}` : "",
    ].filter(Boolean).join(" · ")),
    h("div.town", {}, view.areas.map((a, i) => area(a, i))),
    view.bonusArea ? h("div.bonus", {}, area(view.bonusArea, undefined)) : null,
    h("div.positions", {}, view.positions.map((p) =>
      h(`div.position${p.position === view.actor ? ".acting" : ""}`, {},
        h("strong", {}, who(p.position), p.position === view.seat ? " (you)" : ""),
        h("div.small", {}, `${p.tribe ? enumName(HinodeTribeSchema, p.tribe) : "no tribe yet"} · ${p.handSize} cards${p.heroAvailable ? " · Hero" : ""}`),
        resources(p.resources)))),
    h("div.rowlabel", {}, "Trick"),
    h("div.cards", { "data-testid": "trick" }, view.trick.length
      ? view.trick.map((play) => h("div.pile", {}, card(play.play?.card), h("span.size", {}, `${who(play.position)} (${play.power})`)))
      : h("span.small", {}, "No card played yet")),
    view.hand.length ? [h("div.rowlabel", {}, "Your hand"), h("div.cards", { "data-testid": "hand" }, view.hand.map(card))] : null,
  );
}

export const board = defineBoard(HinodeViewSchema, hinodeBoard);

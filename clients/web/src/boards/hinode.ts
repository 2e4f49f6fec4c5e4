// Top of the Hinode Town's board: the town (3 rows of 4 Areas, and the Bonus Area) with each Area's Nawabari card,
// resources and place markers, the four positions around the table, the trick being played, and the viewer's hand.
import { defineBoard, enumEffect, enumName, target, type Names } from "../board";
import { h } from "../dom";
import {
  HinodeColour,
  HinodeColourSchema,
  HinodeMoveSchema,
  HinodePhaseSchema,
  HinodeTribeSchema,
  type HinodeArea,
  type HinodeCard,
  type HinodeResources,
  HinodeViewSchema,
  type HinodeView,
} from "../gen/tabletop/v1/hinode_pb";

// Colour is never the only cue: each suit and resource colour has a shape too, and its name in words.
const SHAPES: Record<string, string> = { red: "▲", blue: "●", yellow: "■", white: "◇" };

function card(c: HinodeCard | undefined): HTMLElement {
  if (!c) return h("span.chip.unknown", {}, "?");
  if (c.hero) return h("span.chip.hinode-hero", {}, "Hero");
  const colour = enumName(HinodeColourSchema, c.suit).toLowerCase();
  return h(`span.chip.hinodecolour-${colour}`, { title: `${colour} ${c.number}` }, h("strong", {}, `${c.number}`),
    h("span.suit", {}, `${SHAPES[colour] ?? ""} ${colour}`));
}

// A card in hand, as the moves' paths name it: "hand:hero" or "hand:SUIT-NUMBER".
const cardKey = (c: HinodeCard | undefined) => `hand:${c?.hero ? "hero" : `${c?.suit}-${c?.number}`}`;

const COLOURS = [["red", HinodeColour.RED], ["blue", HinodeColour.BLUE], ["yellow", HinodeColour.YELLOW]] as const;

function resources(r: HinodeResources | undefined, battlefield = false): HTMLElement {
  const counts = COLOURS.map(([colour, value]) => [colour, value, r?.[colour] ?? 0] as const);
  const said = counts.filter(([, , n]) => n).map(([colour, , n]) => `${n} ${colour}`).join(", ");
  const dots = (n: number, colour: string) => Array.from({ length: n }, () =>
    h(`span.dot.${colour}`, { "aria-hidden": "true" }, SHAPES[colour]));
  // The Battlefield's resources are taken one colour at a time by clicking that colour's group ("resource:COLOUR").
  if (battlefield) {
    return h("span.resources", { title: said || "no resources" }, counts.filter(([, , n]) => n).map(([colour, value, n]) =>
      target(h("span.resource-group", {}, h("span", { role: "img", "aria-label": `resources: ${n} ${colour}` }, dots(n, colour))),
        `resource:${value}`, `${n} ${colour} resource${n > 1 ? "s" : ""} on the Battlefield`)));
  }
  return h("span.resources", { role: "img", "aria-label": `resources: ${said || "none"}`, title: said || "no resources" },
    counts.map(([colour, , n]) => dots(n, colour)));
}

export function hinodeBoard(view: HinodeView, names: Names): HTMLElement {
  // A proxy is named by its position counted from 1, as the moves and the log name it ("the proxy at position 4").
  const who = (p: number | undefined) =>
    p === undefined ? "—" : p < view.numPlayers ? names(p) : `Proxy ${p + 1}`;
  const area = (a: HinodeArea, index: number | undefined) => {
    const n = a.nawabari;
    const colour = n ? enumName(HinodeColourSchema, n.colour).toLowerCase() : "none";
    const drawn = h(
      `div.area.area-${colour}${index !== undefined && index === view.battlefield ? ".battlefield" : ""}`,
      { title: index === undefined ? "Bonus Area" : `Area ${index + 1} (row ${a.row}, column ${a.column})` },
      h("div.area-head", {}, n ? `${enumName(HinodeColourSchema, n.colour)} ${n.number}` : "", index === undefined ? " · Bonus" : "",
        index !== undefined && index === view.battlefield ? " · Battlefield" : ""),
      n ? h("div.small", {}, `1st ${n.firstPlaceVp} VP · 2nd ${n.secondPlaceVp} VP`) : null,
      resources(a.resources, index !== undefined && index === view.battlefield),
      h("div.small", {}, `1st: ${who(a.firstPlace)} · 2nd: ${who(a.secondPlace)}`),
      a.samuraiMarkers.length ? h("div.small", {}, `Samurai: ${a.samuraiMarkers.map(who).join(", ")}`) : null,
    );
    // An Area of the town is chosen as the Battlefield by clicking it ("area:INDEX", as the moves count them).
    return index === undefined ? drawn
      : target(drawn, `area:${index}`, `Area at row ${a.row}, column ${a.column}${n ? `, ${colour} ${n.number}` : ""}`);
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
    h("div.positions", {}, view.positions.map((p) => target(
      h(`div.position${p.position === view.actor ? ".acting" : ""}`, { "data-position": p.position + 1 },
        h("span.small", {}, `Position ${p.position + 1} · `),
        h("strong", {}, who(p.position), p.position === view.seat ? " (you)" : ""),
        h("div.small", {}, p.tribe ? enumName(HinodeTribeSchema, p.tribe) : "no tribe yet",
          ` · ${p.handSize} cards${p.heroAvailable ? " · Hero" : ""}`),
        // A tribe's skill (the game's words for it) counts in the advanced rules only.
        view.advanced && p.tribe ? h("div.card-text.tribe-skill", {}, enumEffect(HinodeTribeSchema, p.tribe) ?? "") : null,
        resources(p.resources)), `position:${p.position}`, `Position ${p.position + 1}: ${who(p.position)}`))),
    h("div.rowlabel", {}, "Trick"),
    h("div.cards", { "data-testid": "trick" }, view.trick.length
      ? view.trick.map((play) => h("div.pile", {}, card(play.play?.card), h("span.size", {}, `${who(play.position)} (${play.power})`)))
      : h("span.small", {}, "No card played yet")),
    view.hand.length ? [h("div.rowlabel", {}, "Your hand"), h("div.cards", { "data-testid": "hand" }, view.hand.map((c) =>
      target(card(c), cardKey(c), c.hero ? "the Hero" : `${enumName(HinodeColourSchema, c.suit).toLowerCase()} ${c.number}`)))] : null,
  );
}

export const board = defineBoard(HinodeViewSchema, hinodeBoard, {
  howTo: [
    "9 tricks. The start player chooses a free Area of the town as the Battlefield; then everyone plays one card, " +
      "clockwise from the start player.",
    "A card whose suit is the Battlefield's colour Follows (the white Area takes the start player's suit). Follow " +
      "cards rank first, highest number first, then the others; the Hero is strongest and always Follows.",
    "1st and 2nd place put their tribe markers on the Battlefield; 3rd takes 2 of its resources, 4th the last one. " +
      "1st starts the next trick.",
    "A red resource played with a card makes its power 14 minus its number; a blue one turns Follow into Not Follow " +
      "or back; yellow ones are treasure at the end.",
    "At the end: each Area's 1st and 2nd place VP, the Bonus Area, your largest group of connected Areas (2 VP each), " +
      "3 VP for the last Hero played, and treasure. With fewer than 4 players, proxies play the empty positions.",
  ],
  legend: [
    ["Red 7 · Bonus", "an Area's Nawabari card (its colour and number); Bonus marks the Bonus Area"],
    ["1st 5 VP · 2nd 2 VP", "what the Area's 1st and 2nd place score at the end"],
    ["1st: Ann · 2nd: —", "whose markers hold the Area's 1st and 2nd place; — is a place still empty"],
    ["Samurai: Ann", "markers put next to the Battlefield by the Blue SAMURAI skill (they count for connected Areas)"],
    ["▲ red · ● blue · ■ yellow", "the suits of the cards, and the resources: on an Area, those still to win; under " +
      "a position, that player's unused ones"],
    ["Position 3", "the four positions round the table, clockwise from 1; moves and the log count them the same way"],
    ["Proxy 3", "the proxy player at position 3: it plays the top card of its pile and keeps no resources"],
    ["Ann (5)", "in the trick: who played the card, and its battle power after a red resource"],
    ["Hero", "a player's Hero card, still unplayed: power 14, every suit, always Follows, once per trick"],
    ["Battlefield", "the Area this trick is fought for (outlined in orange)"],
  ],
  secretMove: "made a move",
}, {
  move: HinodeMoveSchema,
  // A card is played by clicking it in hand (its ways to be played, with a resource or a skill, are its buttons
  // then), the Battlefield chosen by clicking its Area, a resource taken by clicking its colour on the Battlefield
  // then, when a proxy may get it, the position that gets it. The tribes are not on the board: their buttons.
  path: ({ kind }) => {
    switch (kind.case) {
      case "chooseArea": return [`area:${kind.value.area}`];
      case "playCard": return [cardKey(kind.value.card)];
      case "takeResource": return [`resource:${kind.value.colour}`, `position:${kind.value.receiver}`];
      default: return [];
    }
  },
});

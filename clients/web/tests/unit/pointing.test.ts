// Playing by pointing: which clicks choose which legal move (src/pointing.ts), and each board's keys for its game's
// moves (the `path` of defineBoard in src/boards/*.ts). The board's elements carrying those keys are clicked in
// Chromium by tests/click_play.mjs.
import { create, type Message } from "@bufbuild/protobuf";
import { describe, expect, it } from "vitest";
import type { Board } from "../../src/board";
import { board as hinode } from "../../src/boards/hinode";
import { board as kungfur } from "../../src/boards/kungfur";
import { board as naishi } from "../../src/boards/naishi";
import { board as zipang } from "../../src/boards/zipang";
import { choices, choose, following, targetAction, type Pointable } from "../../src/pointing";
import { HinodeColour, HinodeMoveSchema, HinodeViewSchema } from "../../src/gen/tabletop/v1/hinode_pb";
import {
  KungFurArenaNumber, KungFurCard, KungFurMoveSchema, KungFurToken, KungFurViewSchema,
} from "../../src/gen/tabletop/v1/kungfur_pb";
import {
  NaishiCard, NaishiCourtKind, NaishiMoveSchema, NaishiRow, NaishiSwitchKind, NaishiViewSchema,
} from "../../src/gen/tabletop/v1/naishi_pb";
import { ZipangAnswer, ZipangCard, ZipangMoveSchema, ZipangViewSchema } from "../../src/gen/tabletop/v1/zipang_pb";

const move = (id: string, ...path: string[]): Pointable => ({ id, label: `label of ${id}`, path });

describe("choosing a move by clicking", () => {
  // Naishi-like: develop a card in one click; a switch is the Court's space, then two cards.
  const moves = [
    move("develop-hand-0", "hand:0"),
    move("develop-line-0", "line:0"),
    move("switch-hand-0-1", "court:1", "hand:0", "hand:1"),
    move("switch-column-0", "court:1", "hand:0", "line:0"),
    move("switch-river-2-3", "court:1", "river:2", "river:3"),
    move("end-turn"), // no card stands for it: its button only
  ];

  it("offers first the keys that start a move, never a move without a path", () => {
    expect([...choices(moves, []).keys()]).toEqual(["hand:0", "line:0", "court:1"]);
    expect(choices(moves, []).get("court:1")!.map((m) => m.id)).toEqual(["switch-hand-0-1", "switch-column-0", "switch-river-2-3"]);
    expect(following(moves, []).map((m) => m.id)).not.toContain("end-turn");
  });

  it("plays at once the only move a key leaves", () => {
    expect(choose(moves, [], "hand:0")).toEqual({ kind: "play", move: moves[0] });
    expect(choose(moves, ["court:1"], "river:2")).toEqual({ kind: "play", move: moves[4] });
  });

  it("selects a key that leaves several moves, then offers only the compatible next keys", () => {
    const first = choose(moves, [], "court:1");
    expect(first).toMatchObject({ kind: "select", chosen: ["court:1"], complete: [] });
    const second = choose(moves, ["court:1"], "hand:0");
    expect(second).toMatchObject({ kind: "select", chosen: ["court:1", "hand:0"] });
    expect([...choices(moves, ["court:1", "hand:0"]).keys()]).toEqual(["hand:1", "line:0"]);
    expect(choose(moves, ["court:1", "hand:0"], "line:0")).toEqual({ kind: "play", move: moves[3] });
  });

  it("does nothing for a key that is not a choice now", () => {
    expect(choose(moves, [], "river:2")).toEqual({ kind: "none" });
    expect(choose(moves, ["court:1", "hand:0"], "river:3")).toEqual({ kind: "none" });
    expect(choose(moves, [], "nothing")).toEqual({ kind: "none" });
  });

  it("leaves the moves a click cannot tell apart to their buttons", () => {
    // Hinode: a card played plain, with a red resource, or aiming a player (a further click)
    const card = [move("plain", "hand:red-4"), move("red", "hand:red-4"), move("aim-2", "hand:red-4", "position:2")];
    const step = choose(card, [], "hand:red-4");
    expect(step.kind).toBe("select");
    if (step.kind !== "select") return;
    expect(step.complete.map((m) => m.id)).toEqual(["plain", "red"]);
    expect([...choices(card, step.chosen).keys()]).toEqual(["position:2"]);
  });

  it("says what a card does after what it shows: the move it leads to, or what it is and how many moves it opens", () => {
    expect(targetAction("Torii, position 3 of your Hand", [moves[0]])).toBe(": label of develop-hand-0");
    expect(targetAction("Imperial Court: Switch space", moves.slice(2, 5)))
      .toBe(" (Imperial Court: Switch space): choose it, 3 moves");
    expect(targetAction("Hua", "chosen")).toBe(" (Hua): chosen, press it again or Escape to undo");
  });
});

// A board's path for a move of its game, as main.ts asks it (the typed move and the typed view).
const pathOf = (b: Board, m: Message, view: Message) => b.path!(m, view);

describe("each board's cards and places for its game's moves", () => {
  it("Naishi: a card of your Line or Hand develops it; the Court's space starts a switch, a discard or the Decree", () => {
    const view = create(NaishiViewSchema, {});
    const m = (kind: Record<string, unknown>) => pathOf(naishi, create(NaishiMoveSchema, { kind } as never), view);
    expect(m({ case: "give", value: { card: NaishiCard.TORII } })).toEqual([`gift:${NaishiCard.TORII}`]);
    expect(m({ case: "develop", value: { row: NaishiRow.HAND, place: 2 } })).toEqual(["hand:2"]);
    expect(m({ case: "develop", value: { row: NaishiRow.LINE, place: 0 } })).toEqual(["line:0"]);
    expect(m({ case: "decree", value: { row: NaishiRow.LINE, place: 4 } })).toEqual([`court:${NaishiCourtKind.DECREE}`, "line:4"]);
    expect(m({ case: "switchCards", value: { kind: NaishiSwitchKind.RIVER, firstPlace: 1, secondPlace: 3 } }))
      .toEqual([`court:${NaishiCourtKind.SWITCH}`, "river:1", "river:3"]);
    expect(m({ case: "switchCards", value: { kind: NaishiSwitchKind.COLUMN, firstPlace: 2, secondPlace: 2 } }))
      .toEqual([`court:${NaishiCourtKind.SWITCH}`, "hand:2", "line:2"]);
    expect(m({ case: "discardRiver", value: { firstPile: 0, secondPile: 4 } })).toEqual([`court:${NaishiCourtKind.DISCARD}`, "river:0", "river:4"]);
    expect(m({ case: "recall", value: { spaces: [1] } })).toEqual(["space:1"]);
    expect(m({ case: "recall", value: { spaces: [0, 1] } })).toEqual([]);
    expect(m({ case: "endTurn", value: {} })).toEqual([]);
    expect(m({ case: "declareEnd", value: {} })).toEqual([]);
  });

  it("Hinode: a card in hand, an Area, a resource of the Battlefield then who gets it; no tribe on the board", () => {
    const view = create(HinodeViewSchema, {});
    const m = (kind: Record<string, unknown>) => pathOf(hinode, create(HinodeMoveSchema, { kind } as never), view);
    expect(m({ case: "playCard", value: { card: { suit: HinodeColour.RED, number: 4 }, resource: HinodeColour.BLUE } }))
      .toEqual([`hand:${HinodeColour.RED}-4`]);
    expect(m({ case: "playCard", value: { card: { hero: true } } })).toEqual(["hand:hero"]);
    expect(m({ case: "chooseArea", value: { area: 7 } })).toEqual(["area:7"]);
    expect(m({ case: "takeResource", value: { colour: HinodeColour.YELLOW, receiver: 3 } }))
      .toEqual([`resource:${HinodeColour.YELLOW}`, "position:3"]);
    expect(m({ case: "chooseTribe", value: { tribe: 1 } })).toEqual([]);
  });

  it("Zipang: a card in hand then the player it aims at; a card looked at or offered; a Monk against an attack", () => {
    const view = create(ZipangViewSchema, {});
    const m = (kind: Record<string, unknown>) => pathOf(zipang, create(ZipangMoveSchema, { kind } as never), view);
    expect(m({ case: "play", value: { card: ZipangCard.WARLORD, targets: [1] } })).toEqual([`hand:${ZipangCard.WARLORD}`, "seat:1"]);
    expect(m({ case: "play", value: { card: ZipangCard.WARLORD } })).toEqual([`hand:${ZipangCard.WARLORD}`]);
    expect(m({ case: "play", value: { card: ZipangCard.PEASANT, ikki: true } })).toEqual([`hand:${ZipangCard.PEASANT}`]);
    expect(m({ case: "use", value: { card: ZipangCard.CAPTAIN, targets: [2] } })).toEqual([`usable:${ZipangCard.CAPTAIN}`, "seat:2"]);
    expect(m({ case: "take", value: { card: ZipangCard.MONK, fromSeat: 1 } })).toEqual([`seen:1:${ZipangCard.MONK}`]);
    expect(m({ case: "take", value: { fromSeat: 1 } })).toEqual([]);
    expect(m({ case: "react", value: { answer: ZipangAnswer.MONK, card: ZipangCard.WARLORD } })).toEqual([`hand:${ZipangCard.MONK}`]);
    expect(m({ case: "react", value: { answer: ZipangAnswer.COIN_BLOCK, card: ZipangCard.WARLORD } })).toEqual([]);
  });

  it("Kung Fur Fight: an animal then the arena, a token then the arena; Master Shu's, Kkami's and the Banana's cards", () => {
    const view = create(KungFurViewSchema, {});
    const m = (kind: Record<string, unknown>) => pathOf(kungfur, create(KungFurMoveSchema, { kind } as never), view);
    const two = KungFurArenaNumber.TWO;
    expect(m({ case: "lead", value: { arena: two, animal: KungFurCard.HUA } })).toEqual([`hand:${KungFurCard.HUA}`, `arena:${two}`]);
    expect(m({ case: "assist", value: { arena: two, animal: KungFurCard.HUA } })).toEqual([`hand:${KungFurCard.HUA}`, `arena:${two}`]);
    expect(m({ case: "placeToken", value: { arena: two, token: KungFurToken.COCONUT } }))
      .toEqual([`token:${KungFurToken.COCONUT}`, `arena:${two}`]);
    expect(m({ case: "masterShu", value: { animal: KungFurCard.HUA } })).toEqual([`hand:${KungFurCard.HUA}`]);
    expect(m({ case: "masterShu", value: { decline: true } })).toEqual([]);
    expect(m({ case: "kkami", value: { animal: KungFurCard.HUA } })).toEqual([`rest:${KungFurCard.HUA}`]);
    expect(m({ case: "bananaPick", value: { card: KungFurCard.GINSENG } })).toEqual([`banana:${KungFurCard.GINSENG}`]);
    expect(m({ case: "finishPlan", value: {} })).toEqual([]);
  });

  it("gives no path for another game's move or view", () => {
    expect(pathOf(naishi, create(HinodeMoveSchema, { kind: { case: "chooseArea", value: { area: 1 } } }), create(NaishiViewSchema))).toEqual([]);
    expect(pathOf(hinode, create(HinodeMoveSchema, { kind: { case: "chooseArea", value: { area: 1 } } }), create(NaishiViewSchema))).toEqual([]);
  });
});

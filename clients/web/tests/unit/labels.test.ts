// The game log's lines and the new-game form's seat counts (src/labels.ts).
import { create } from "@bufbuild/protobuf";
import { describe, expect, it } from "vitest";
import { eventText, seatCounts, seatRange } from "../../src/labels";
import { GameEvent_Kind, GameEvent_MovedBy, GameEventSchema } from "../../src/gen/tabletop/v1/game_service_pb";

const names = (seat: number) => ["Ann", "Bo"][seat];

describe("the game log", () => {
  it("tells another seat's secret move as such, in the game's word, never as nothing", () => {
    const secret = create(GameEventSchema, { kind: GameEvent_Kind.MOVE, seat: 1, version: 5n });
    expect(eventText(secret, names, "planned (behind the screen)")).toBe("Bo planned (behind the screen)");
    expect(eventText(secret, names)).toBe("Bo made a secret move");
  });

  it("tells a public move by its label, and who played it for an absent player", () => {
    const move = create(GameEventSchema, { kind: GameEvent_Kind.MOVE, seat: 0, moveLabel: "Ann develops", moveId: "d" });
    expect(eventText(move, names)).toBe("Ann develops");
    move.movedBy = GameEvent_MovedBy.AI_ON_TIMEOUT;
    expect(eventText(move, names)).toBe("Ann develops (the AI, as time ran out)");
  });

  it("tells the events that are no move", () => {
    expect(eventText(create(GameEventSchema, { kind: GameEvent_Kind.CREATED }), names)).toBe("The game was created.");
    expect(eventText(create(GameEventSchema, { kind: GameEvent_Kind.JOINED, seat: 1 }), names)).toBe("Bo took a seat.");
    expect(eventText(create(GameEventSchema, { kind: GameEvent_Kind.RESIGNED, seat: 0 }), names)).toBe("Ann resigned.");
  });
});

describe("the seat counts of a new game", () => {
  it("keeps the count just changed within the game's range and makes the other follow", () => {
    expect(seatCounts(2, 2, 3, 0)).toEqual([1, 0]); // Naishi: 3 AIs asked, 1 given
    expect(seatCounts(2, 2, 1, 1)).toEqual([1, 0]); // an open seat leaves no room for the AI
    expect(seatCounts(2, 2, 0, 0)).toEqual([0, 1]); // nobody else: one must come
    expect(seatCounts(1, 4, 0, 0)).toEqual([0, 0]); // Hinode may be played alone
    expect(seatCounts(2, 6, 2, 9)).toEqual([2, 3]); // Zipang: at most 6 in all
    expect(seatCounts(2, 6, -1, Number.NaN)).toEqual([0, 1]);
  });

  it("says the game's range", () => {
    expect(seatRange("Naishi", 2, 2)).toBe("Naishi is for 2 players: you and 1 more.");
    expect(seatRange("Zipang", 2, 6)).toBe("Zipang is for 2 to 6 players: you and 1 to 5 more.");
  });
});

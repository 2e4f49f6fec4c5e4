// Cards in the game's own words (src/board.ts: the .proto comments ListGameTypes sends) and Kung Fur Fight's end.
import { clone, create, createFileRegistry } from "@bufbuild/protobuf";
import { FileDescriptorProtoSchema, FileDescriptorSetSchema } from "@bufbuild/protobuf/wkt";
import { afterEach, describe, expect, it } from "vitest";
import { enumEffect, enumName, useDescriptions } from "../../src/board";
import { ending } from "../../src/boards/kungfur";
import {
  file_tabletop_v1_kungfur, KungFurCard, KungFurCardSchema, KungFurPlayerSchema, KungFurViewSchema,
} from "../../src/gen/tabletop/v1/kungfur_pb";

// Kung Fur Fight's file as the service sends it: with the comment of one card (KungFurCard is the file's first
// enum: path 5 0 2 <value index>).
function served(comment: string) {
  const proto = clone(FileDescriptorProtoSchema, file_tabletop_v1_kungfur.proto);
  const index = KungFurCardSchema.values.findIndex((v) => v.number === KungFurCard.KOGA_GENIN);
  proto.sourceCodeInfo = { $typeName: "google.protobuf.SourceCodeInfo", location: [
    { $typeName: "google.protobuf.SourceCodeInfo.Location", path: [5, file_tabletop_v1_kungfur.enums.indexOf(KungFurCardSchema), 2, index],
      span: [], leadingComments: ` ${comment}\n`, trailingComments: "", leadingDetachedComments: [] }] };
  return createFileRegistry(create(FileDescriptorSetSchema, { file: [proto] }));
}

afterEach(() => useDescriptions(createFileRegistry(create(FileDescriptorSetSchema, { file: [] }))));

describe("a card in the game's own words", () => {
  it("takes its name's spelling and its effect from the game's .proto comment", () => {
    useDescriptions(served("Kōga Genin (cats): no ability."));
    expect(enumName(KungFurCardSchema, KungFurCard.KOGA_GENIN)).toBe("Kōga Genin");
    expect(enumEffect(KungFurCardSchema, KungFurCard.KOGA_GENIN)).toBe("Cats: no ability.");
  });

  it("keeps the .proto's name when the comment names something else, and tells no effect without comments", () => {
    useDescriptions(served("A ninja: no ability."));
    expect(enumName(KungFurCardSchema, KungFurCard.KOGA_GENIN)).toBe("Koga genin");
    expect(enumEffect(KungFurCardSchema, KungFurCard.HUA)).toBeUndefined();
  });
});

describe("Kung Fur Fight's end", () => {
  const names = (seat: number) => ["Ann", "Bo"][seat];
  const over = (sp: [number, number], winners: number[]) => create(KungFurViewSchema, {
    endReason: "the opponent's SP is 0", winners,
    players: sp.map((value, seat) => create(KungFurPlayerSchema, { seat, sp: value })),
  });

  it("says whose SP hit 0", () => {
    expect(ending(over([4, 0], [0]), names)).toBe("Game over: Ann wins: Bo's SP is 0");
    const both = over([0, 0], [0, 1]);
    both.endReason = "both players' SP are 0: the higher VP wins (VP and SP tied: a draw)";
    expect(ending(both, names)).toBe("Game over: a draw: Ann's and Bo's SP are 0: the higher VP wins (VP and SP tied: a draw)");
  });

  it("keeps the game's reason otherwise, and says nothing while the game goes on", () => {
    const lead = over([3, 5], [1]);
    lead.endReason = "VP 4 or more higher than the opponent's";
    expect(ending(lead, names)).toBe("Game over: Bo wins: VP 4 or more higher than the opponent's");
    expect(ending(create(KungFurViewSchema, {}), names)).toBe("");
  });
});

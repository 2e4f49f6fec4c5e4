// Refusals in plain words (src/errors.ts).
import { create } from "@bufbuild/protobuf";
import { DurationSchema } from "@bufbuild/protobuf/wkt";
import { Code, ConnectError } from "@connectrpc/connect";
import { describe, expect, it } from "vitest";
import { errorCode, plainError } from "../../src/errors";
import { ErrorInfoSchema, RetryInfoSchema } from "../../src/gen/google/rpc/error_details_pb";

const refused = (code: Code, reason?: string, message = "raw words", retrySeconds?: number) => new ConnectError(
  message, code, undefined, [
    ...(reason ? [{ desc: ErrorInfoSchema, value: { reason, domain: "tabletop.dev" } }] : []),
    ...(retrySeconds ? [{ desc: RetryInfoSchema, value: { retryDelay: create(DurationSchema, { seconds: BigInt(retrySeconds) }) } }] : []),
  ]);

describe("a refusal in plain words", () => {
  it("says a known reason as a sentence, never the raw code", () => {
    const e = refused(Code.InvalidArgument, "MALFORMED_JOIN_CODE");
    expect(plainError(e)).toBe("That is not a join code: a join code is the game id, a dot, then a secret.");
    expect(plainError(e)).not.toContain("InvalidArgument");
    expect(errorCode(e)).toBe("InvalidArgument / MALFORMED_JOIN_CODE");
  });

  it("passes on a game's own refusal of a move, which is written for players", () => {
    expect(plainError(refused(Code.FailedPrecondition, "COURT_SPACE_TAKEN", "that court space is taken")))
      .toBe("That court space is taken.");
  });

  it("falls back to the status code's sentence, and says how long to wait", () => {
    expect(plainError(refused(Code.Unavailable))).toBe("The game server cannot be reached just now.");
    expect(plainError(refused(Code.ResourceExhausted, "QUOTA_CREATE_RATE", "", 30)))
      .toBe("You have created many games in a short time. Try again in 30 s.");
  });
});

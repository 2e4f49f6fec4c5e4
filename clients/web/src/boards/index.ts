// The boards a game has of its own, by the full name of its view message; any other game gets the generic board.
import type { Message } from "@bufbuild/protobuf";
import type { HinodeView } from "../gen/tabletop/v1/hinode_pb";
import type { KungFurView } from "../gen/tabletop/v1/kungfur_pb";
import type { NaishiView } from "../gen/tabletop/v1/naishi_pb";
import type { ZipangView } from "../gen/tabletop/v1/zipang_pb";
import { hinodeBoard } from "./hinode";
import { kungfurBoard } from "./kungfur";
import { naishiBoard } from "./naishi";
import { zipangBoard } from "./zipang";

export type Names = (seat: number) => string;

export const BOARDS: Record<string, (view: Message, names: Names) => HTMLElement> = {
  "tabletop.v1.HinodeView": (v, n) => hinodeBoard(v as HinodeView, n),
  "tabletop.v1.NaishiView": (v, n) => naishiBoard(v as NaishiView, n),
  "tabletop.v1.ZipangView": (v, n) => zipangBoard(v as ZipangView, n),
  "tabletop.v1.KungFurView": (v, n) => kungfurBoard(v as KungFurView, n),
};

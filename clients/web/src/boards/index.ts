// The boards of the games that have one of their own, found by file: each other module of this folder exports
// `board`, made with defineBoard from its view's schema. Every other game gets the generic board (board.ts), so a
// new game edits nothing here, and a new board is one new file.
import type { Board, Path, Rules } from "../board";

const boards = import.meta.glob<Board>(["./*.ts", "!./index.ts"], { eager: true, import: "board" });

export const BOARDS: ReadonlyMap<string, Board["draw"]> = new Map(
  Object.values(boards).map((b) => [b.viewType, b.draw]));

// Each board's rules help (how to play, its notation, the word for a secret move), by view type.
export const RULES: ReadonlyMap<string, Rules> = new Map(
  Object.values(boards).flatMap((b) => (b.rules ? [[b.viewType, b.rules] as const] : [])));

// Each board's way of playing by pointing (which cards and places stand for a move), by view type.
export const PATHS: ReadonlyMap<string, Path> = new Map(
  Object.values(boards).flatMap((b) => (b.path ? [[b.viewType, b.path] as const] : [])));

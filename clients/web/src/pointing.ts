// Playing by pointing: which cards and places of a board stand for which legal moves, and what a click on one does.
// A board names its clickable things by keys ("hand:3", "river:2", "arena:1") on `data-target`, and says for each
// legal move the keys clicked in order to choose it (its path: a card, then maybe a place). The moves are the ones
// the service sent to the seat, never guessed here; a move with no path is chosen by its button only.
// Pure functions of the moves and the keys chosen so far, without a page (tests/unit/pointing.test.ts).

export type Pointable = { id: string; label: string; path: readonly string[] };

const startsWith = (path: readonly string[], prefix: readonly string[]) =>
  path.length >= prefix.length && prefix.every((key, i) => path[i] === key);

// The moves still possible once `chosen` is clicked (every move with a path, when nothing is chosen).
export function following(moves: readonly Pointable[], chosen: readonly string[]): Pointable[] {
  return moves.filter((m) => m.path.length > 0 && startsWith(m.path, chosen));
}

// The keys that may be clicked next, each with the moves it leads to (in the order of the legal moves).
export function choices(moves: readonly Pointable[], chosen: readonly string[]): Map<string, Pointable[]> {
  const next = new Map<string, Pointable[]>();
  for (const m of following(moves, chosen)) {
    const key = m.path[chosen.length];
    if (key !== undefined) next.set(key, [...(next.get(key) ?? []), m]);
  }
  return next;
}

// What clicking `key` does after `chosen`: play the one move it leaves; or select it, the moves it leaves to be told
// apart by the next click or (those whose path ends here: `complete`, e.g. a card played with or without a
// resource) by their buttons; or nothing, when the key is not a choice now.
export type Step =
  | { kind: "play"; move: Pointable }
  | { kind: "select"; chosen: string[]; moves: Pointable[]; complete: Pointable[] }
  | { kind: "none" };

export function choose(moves: readonly Pointable[], chosen: readonly string[], key: string): Step {
  if (!choices(moves, chosen).has(key)) return { kind: "none" };
  const next = [...chosen, key];
  const left = following(moves, next);
  if (left.length === 1) return { kind: "play", move: left[0] };
  return { kind: "select", chosen: next, moves: left, complete: left.filter((m) => m.path.length === next.length) };
}

// What a clickable card or place does, said after what it shows (it is read out as part of its name, so that the
// name starts with the text seen, as a voice command says it): the move itself when it is the only one it leads to
// ("Torii: Develop position 3 of your Hand..."), else what it is and how many moves it opens; once chosen, how to
// undo it.
export function targetAction(name: string, leadsTo: readonly Pointable[] | "chosen"): string {
  if (leadsTo === "chosen") return ` (${name}): chosen, press it again or Escape to undo`;
  if (leadsTo.length === 1) return `: ${leadsTo[0].label}`;
  return ` (${name}): choose it, ${leadsTo.length} moves`;
}

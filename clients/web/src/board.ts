// The board of any game, drawn from its typed view by reflection over the message's descriptor (which the service
// sends at run time, see api.ts): enums as cards or tags (by their names in the .proto), lists as rows, nested
// messages as panels. A game with a board of its own (a file in boards/, made with defineBoard) is drawn by it;
// every other game, including one added later, gets this one with no code here.
import { toJson, type DescEnum, type DescField, type DescMessage, type Message, type MessageShape,
  type Registry } from "@bufbuild/protobuf";
import { anyUnpack } from "@bufbuild/protobuf/wkt";
import type { Any } from "@bufbuild/protobuf/wkt";
import { h, words } from "./dom";

export type Names = (seat: number) => string;
// What a board tells a newcomer: how to play in a few lines, what its notation means, and how the game log names
// another seat's secret move (the service tells others only that the seat moved: "Ann planned").
export type Rules = { howTo: string[]; legend: [string, string][]; secretMove: string };
// How a board is played by pointing (src/pointing.ts): for a legal move of the game, the keys of the cards and places
// (their `data-target`, see target()) clicked in order to choose it; empty when nothing on the board stands for it.
export type Path = (move: Message, view: Message) => string[];
export type Board = { viewType: string; draw: (view: Message, names: Names) => HTMLElement; rules?: Rules; path?: Path };

// A game's own board, for the view message of `schema` (its generated file is imported by the board's file only);
// the board's element is marked with the view's type name, as the generic board's is. `pointing` maps the game's
// move message (`move`) to its path, for the moves chosen by clicking the board.
export function defineBoard<Desc extends DescMessage, MoveDesc extends DescMessage>(
  schema: Desc, draw: (view: MessageShape<Desc>, names: Names) => HTMLElement, rules?: Rules,
  pointing?: { move: MoveDesc; path: (move: MessageShape<MoveDesc>, view: MessageShape<Desc>) => string[] }): Board {
  return {
    viewType: schema.typeName,
    rules,
    draw: (view, names) => {
      const board = draw(view as MessageShape<Desc>, names);
      board.dataset.view = schema.typeName;
      return board;
    },
    path: pointing && ((move, view) => move.$typeName === pointing.move.typeName && view.$typeName === schema.typeName
      ? pointing.path(move as MessageShape<MoveDesc>, view as MessageShape<Desc>) : []),
  };
}

// Marks a card or place of a board as the thing named `key` in the paths of moves, and `name` for people ("Torii,
// position 3 of your Hand"): the table makes it a button while a legal move goes through it.
export function target<E extends HTMLElement>(element: E, key: string, name: string): E {
  element.dataset.target = key;
  element.dataset.targetName = name;
  return element;
}

// The hosted games' messages as the service describes them (ListGameTypes), with their .proto comments: what a
// card does is told there, once, by the game ("Kōga Genin (cats): no ability."), so the page copies none of it.
let described: Registry | undefined;
export function useDescriptions(registry: Registry): void {
  described = registry;
  comments.clear();
}

// The comment of an enum value in the game's .proto, from the source info of the described file; undefined when
// the service sent none (a game whose descriptors carry no comments).
const comments = new Map<string, string | undefined>();
export function enumComment(desc: DescEnum, value: number): string | undefined {
  const key = `${desc.typeName}=${value}`;
  if (!comments.has(key) && described) comments.set(key, findComment(desc, value));
  return comments.get(key);
}

function findComment(desc: DescEnum, value: number): string | undefined {
  const served = described?.getEnum(desc.typeName);
  if (!served) return undefined;
  const index = served.values.findIndex((v) => v.number === value);
  if (index < 0) return undefined;
  const path = [...enumPath(served), 2, index];
  const at = served.file.proto.sourceCodeInfo?.location.find((l) =>
    l.path.length === path.length && l.path.every((p, i) => p === path[i]));
  return at?.leadingComments.replace(/\s+/g, " ").trim() || undefined;
}

// The path of an enum in its file's descriptor (FileDescriptorProto field 5 enum_type, or DescriptorProto field 4
// enum_type under its message: field 4 message_type, then 3 nested_type).
function enumPath(desc: DescEnum): number[] {
  const messagePath = (m: DescMessage): number[] => m.parent
    ? [...messagePath(m.parent), 3, m.parent.nestedMessages.indexOf(m)]
    : [4, m.file.messages.indexOf(m)];
  return desc.parent ? [...messagePath(desc.parent), 4, desc.parent.nestedEnums.indexOf(desc)]
    : [5, desc.file.enums.indexOf(desc)];
}

// An enum value's name for people: the rulebook's spelling when its comment starts with the name ("Kōga Genin",
// "Siu-Yao"), else the name in the .proto ("Koga genin").
export function enumName(desc: DescEnum, value: number): string {
  const v = desc.values.find((x) => x.number === value);
  if (!v) return String(value);
  const plain = words(v.localName);
  const comment = enumComment(desc, value);
  const named = comment && /^[^(:.]+/.exec(comment)?.[0].trim();
  const letters = (t: string) => t.normalize("NFD").replace(/[^A-Za-z]/g, "").toLowerCase();
  return named && letters(named) === letters(plain) ? named : plain;
}

// What an enum value's comment says beyond its name: "(cats): no ability." -> "Cats: no ability."
export function enumEffect(desc: DescEnum, value: number): string | undefined {
  const comment = enumComment(desc, value);
  if (!comment) return undefined;
  const rest = comment.replace(/^[^(:.]+/, "").replace(/^\(([^)]*)\)/, "$1").replace(/^[:.]\s*/, "").trim();
  return rest ? rest.charAt(0).toUpperCase() + rest.slice(1) : undefined;
}

// A card-like chip for an enum value: its colour class comes from the enum and value names (see style.css); its
// tooltip (and accessible description) is what the game's .proto says of it; `values` adds game values ("3 AP").
export function chip(desc: DescEnum, value: number, values = ""): HTMLElement {
  const v = desc.values.find((x) => x.number === value);
  const known = v && value !== 0;
  const slug = `${desc.name}-${v?.localName ?? value}`.toLowerCase().replace(/_/g, "-");
  const effect = known ? enumEffect(desc, value) : undefined;
  const name = known ? enumName(desc, value) : "?";
  return h(`span.chip.${known ? slug : "unknown"}`,
    { "data-enum": desc.name, title: effect ? `${name}${values ? ` (${values})` : ""}: ${effect}` : null },
    known ? name : "?", values ? h("span.values", {}, values) : null);
}

// A card with its text under it, for the cards a player chooses among (a hand).
export function card(desc: DescEnum, value: number, values = ""): HTMLElement {
  const effect = value ? enumEffect(desc, value) : undefined;
  return h("div.card-with-text", {}, chip(desc, value, values), effect ? h("span.card-text", {}, effect) : null);
}

function scalar(value: unknown): string {
  if (typeof value === "boolean") return value ? "yes" : "no";
  return String(value);
}

function fieldValue(field: DescField, value: unknown): HTMLElement | string | null {
  switch (field.fieldKind) {
    case "enum":
      return chip(field.enum, value as number);
    case "scalar":
      return scalar(value);
    case "message":
      return value ? panel(field.message, value as Message) : null;
    case "list":
      if (!(value as unknown[]).length) return null;
      if (field.listKind === "enum") return h("span.row", {}, (value as number[]).map((v) => chip(field.enum, v)));
      if (field.listKind === "scalar") return (value as unknown[]).map(scalar).join(", ");
      return h("div.panels", {}, (value as Message[]).map((m) => panel(field.message, m)));
    case "map":
      return JSON.stringify(value);
  }
}

export function panel(desc: DescMessage, message: Message): HTMLElement {
  const rows: HTMLElement[] = [];
  for (const member of desc.members) {
    let field: DescField | undefined = member.kind === "field" ? member : undefined;
    let value: unknown;
    if (member.kind === "oneof") {
      const chosen = (message as unknown as Record<string, { case?: string; value?: unknown }>)[member.localName];
      field = member.fields.find((f) => f.localName === chosen?.case);
      value = chosen?.value;
    } else {
      value = (message as unknown as Record<string, unknown>)[member.localName];
    }
    if (!field || value === undefined) continue;
    const shown = fieldValue(field, value);
    if (shown === null || shown === "") continue;
    rows.push(h("div.field", { "data-field": field.name }, h("span.label", {}, words(field.name)), shown));
  }
  return h("div.panel", { "data-message": desc.name }, h("div.title", {}, words(desc.name.replace(/^[A-Z][a-z]+/, "")) || desc.name), rows);
}

export function unpack(any: Any | undefined, registry: Registry): Message | undefined {
  return any ? anyUnpack(any, registry) : undefined;
}

export function genericBoard(any: Any, registry: Registry): HTMLElement {
  const message = unpack(any, registry);
  if (!message) return h("div.panel", {}, `A view of type ${any.typeUrl}, which the service did not describe`);
  const desc = registry.getMessage(message.$typeName)!;
  // A game without messages of its own sends its view as JSON in a Struct: shown as JSON.
  const body = desc.typeName === "google.protobuf.Struct"
    ? h("pre.json", {}, JSON.stringify(toJson(desc, message), null, 1))
    : panel(desc, message);
  return h("div.board.generic", { "data-view": message.$typeName }, body);
}

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
export type Board = { viewType: string; draw: (view: Message, names: Names) => HTMLElement };

// A game's own board, for the view message of `schema` (its generated file is imported by the board's file only);
// the board's element is marked with the view's type name, as the generic board's is.
export function defineBoard<Desc extends DescMessage>(
  schema: Desc, draw: (view: MessageShape<Desc>, names: Names) => HTMLElement): Board {
  return {
    viewType: schema.typeName,
    draw: (view, names) => {
      const board = draw(view as MessageShape<Desc>, names);
      board.dataset.view = schema.typeName;
      return board;
    },
  };
}

export function enumName(desc: DescEnum, value: number): string {
  const v = desc.values.find((x) => x.number === value);
  return v ? words(v.localName) : String(value);
}

// A card-like chip for an enum value: its colour class comes from the enum and value names (see style.css).
export function chip(desc: DescEnum, value: number): HTMLElement {
  const v = desc.values.find((x) => x.number === value);
  const known = v && value !== 0;
  const slug = `${desc.name}-${v?.localName ?? value}`.toLowerCase().replace(/_/g, "-");
  return h(`span.chip.${known ? slug : "unknown"}`, { "data-enum": desc.name }, known ? words(v.localName) : "?");
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

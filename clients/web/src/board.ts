// The board of any game, drawn from its typed view by reflection over the message's descriptor: enums as cards or
// tags (by their names in the .proto), lists as rows, nested messages as panels. A game with a board of its own
// (boards/) is drawn by it; every other game, including one added later, gets this one with no code here.
import type { DescEnum, DescField, DescMessage, Message } from "@bufbuild/protobuf";
import { anyUnpack } from "@bufbuild/protobuf/wkt";
import type { Any } from "@bufbuild/protobuf/wkt";
import { registry } from "./api";
import { h, words } from "./dom";

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

export function unpack(any: Any | undefined): Message | undefined {
  return any ? anyUnpack(any, registry) : undefined;
}

export function genericBoard(any: Any): HTMLElement {
  const message = unpack(any);
  if (!message) return h("div.panel", {}, `A view of type ${any.typeUrl}: regenerate the code from protos/`);
  const desc = registry.getMessage(message.$typeName);
  return h("div.board.generic", { "data-view": message.$typeName }, desc ? panel(desc, message) : "");
}

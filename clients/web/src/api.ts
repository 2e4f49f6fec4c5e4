// The one connection of the table to Tabletop: a gRPC-Web transport to the gateway that serves this page (or
// VITE_TABLETOP_GATEWAY_URL), the typed GameService client, and a registry of every generated file so that
// google.protobuf.Any values (views, moves, score breakdowns) unpack to their typed messages.
import { createRegistry, type DescFile, type Registry } from "@bufbuild/protobuf";
import { Code, ConnectError, createClient } from "@connectrpc/connect";
import { createGrpcWebTransport } from "@connectrpc/connect-web";
import { ErrorInfoSchema, RetryInfoSchema } from "./gen/google/rpc/error_details_pb";
import { GameService } from "./gen/tabletop/v1/game_service_pb";

const baseUrl = import.meta.env.VITE_TABLETOP_GATEWAY_URL || window.location.origin;
export const client = createClient(GameService, createGrpcWebTransport({ baseUrl }));

// Every generated file of protos/tabletop/v1: a game added to protos/ is known here once the code is regenerated.
const modules = import.meta.glob("./gen/tabletop/v1/*_pb.ts", { eager: true }) as Record<string, Record<string, unknown>>;
const files = Object.values(modules).flatMap((m) =>
  Object.values(m).filter((v): v is DescFile => (v as DescFile)?.kind === "file"),
);
export const registry: Registry = createRegistry(...files);

export function auth(token?: string): { headers?: Record<string, string> } {
  return token ? { headers: { authorization: `Bearer ${token}` } } : {};
}

// A failed call in words: the status code, the ErrorInfo reason and message, and the RetryInfo delay if any.
export function describeError(error: unknown): string {
  const e = ConnectError.from(error);
  const info = e.findDetails(ErrorInfoSchema)[0];
  const retry = e.findDetails(RetryInfoSchema)[0];
  const parts = [`${Code[e.code]}${info ? ` (${info.reason})` : ""}: ${e.rawMessage}`];
  if (retry?.retryDelay) parts.push(`retry in ${Number(retry.retryDelay.seconds)} s`);
  return parts.join("; ");
}

export function errorReason(error: unknown): string | undefined {
  return ConnectError.from(error).findDetails(ErrorInfoSchema)[0]?.reason;
}

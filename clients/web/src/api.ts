// The one connection of the table to Tabletop: a gRPC-Web transport to the gateway that serves this page (or
// VITE_TABLETOP_GATEWAY_URL), the typed GameService client, and the games the service hosts with a registry of
// their messages, learnt at run time, so that google.protobuf.Any values (views, moves, score breakdowns) unpack to
// typed messages for any game, one added after this page was built included.
import { createFileRegistry, createRegistry, fromBinary, type Registry } from "@bufbuild/protobuf";
import { FileDescriptorSetSchema } from "@bufbuild/protobuf/wkt";
import { ConnectError, createClient } from "@connectrpc/connect";
import { createGrpcWebTransport } from "@connectrpc/connect-web";
import { useDescriptions } from "./board";
import { plainError } from "./errors";
import { ErrorInfoSchema } from "./gen/google/rpc/error_details_pb";
import { file_tabletop_v1_game_service, GameService, type GameType } from "./gen/tabletop/v1/game_service_pb";
import { withIdentity } from "./identity";

const baseUrl = import.meta.env.VITE_TABLETOP_GATEWAY_URL || window.location.origin;
// Every call without a seat token of its own carries the signed-in player's identity, if any (identity.ts).
export const client = createClient(GameService, createGrpcWebTransport({ baseUrl, interceptors: [withIdentity] }));

export type Games = { types: GameType[]; registry: Registry };

// Each game type carries the .proto files of its messages (GameType.file_descriptor_set): the registry is built
// from them, so this bundle holds no generated code of any game but what a game's own board imports.
function registryOf(types: GameType[]): Registry {
  return createRegistry(file_tabletop_v1_game_service,
    ...types.map((t) => createFileRegistry(fromBinary(FileDescriptorSetSchema, t.fileDescriptorSet))));
}

let hosted: Promise<Games> | undefined;

// The hosted games, asked once per page (a failed answer is asked again on the next call).
export function hostedGames(): Promise<Games> {
  if (!hosted) {
    hosted = client.listGameTypes({}).then(({ gameTypes }) => {
      const registry = registryOf(gameTypes);
      useDescriptions(registry); // every board tells its cards in the game's words (their .proto comments)
      return { types: gameTypes, registry };
    });
    hosted.catch(() => { hosted = undefined; });
  }
  return hosted;
}

export function auth(token?: string): { headers?: Record<string, string> } {
  return token ? { headers: { authorization: `Bearer ${token}` } } : {};
}

// A failed call in plain words (errors.ts): the reason as a sentence, and the RetryInfo delay if any.
export function describeError(error: unknown): string {
  return plainError(error);
}

export function errorReason(error: unknown): string | undefined {
  return ConnectError.from(error).findDetails(ErrorInfoSchema)[0]?.reason;
}

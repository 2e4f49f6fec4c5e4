// A refused call in plain words for the person at the table: the service's ErrorInfo reason (docs/api.md, Errors)
// as a sentence, else the status code as one; the code and reason stay available for a bug report (errorCode).
import { Code, ConnectError } from "@connectrpc/connect";
import { ErrorInfoSchema, RetryInfoSchema } from "./gen/google/rpc/error_details_pb";

// Reasons a player can meet at this table; a reason not listed falls back to its status code's sentence.
const REASONS: Record<string, string> = {
  GAME_NOT_FOUND: "There is no such game: its id is wrong, or it ended and is no longer kept.",
  INVALID_GAME_ID: "That is not a game id: an id is letters, digits, - and _ only.",
  UNKNOWN_GAME_TYPE: "This server does not host that game.",
  INVALID_OPTIONS: "The game's options were refused.",
  INVALID_SEAT_COUNT: "That number of players does not fit this game.",
  INVALID_NAME: "Names are at most 64 printable characters.",
  INVALID_STRENGTH: "The AI's strength is easy, normal or hard.",
  MALFORMED_JOIN_CODE: "That is not a join code: a join code is the game id, a dot, then a secret.",
  INVALID_JOIN_CODE: "That join code is not right: ask your friend for it again.",
  JOIN_CODE_OR_GAME_ID: "Give a join code to join a game.",
  NOT_PUBLIC: "This game is private: join it with the join code its creator shares.",
  NO_OPEN_SEAT: "Every seat of this game is taken.",
  SEAT_TAKEN: "That seat has just been taken.",
  ALREADY_SEATED: "You already have a seat in this game.",
  GAME_ALREADY_STARTED: "The game has already started: nobody can join it now.",
  GAME_NOT_STARTED: "The game has not started yet.",
  MISSING_TOKEN: "Only a player of this game may do that.",
  MALFORMED_AUTHORIZATION: "This tab's seat could not be read: open the game again from its join code.",
  INVALID_TOKEN: "This tab's seat is not valid for this game any more.",
  NOT_GAME_CREATOR: "Only the player who created the game can start it.",
  NOT_A_SEAT: "The creator's key cannot play a seat.",
  NOT_YOUR_SEAT: "You hold no seat in this game.",
  SEAT_LEFT: "You left this game: the AI plays your seat now.",
  SEAT_RESIGNED: "You resigned this game: the AI plays your seat now.",
  NOT_YOUR_TURN: "It is not your turn.",
  GAME_OVER: "The game is over.",
  UNKNOWN_MOVE: "That move is not possible now.",
  ILLEGAL_MOVE: "That move is not allowed now.",
  VERSION_MISMATCH: "The game changed while you chose: look at the table again and choose again.",
  CONTENDED: "The game was busy: try the move again.",
  AI_UNAVAILABLE: "The AI is not available for a hint now.",
  AI_ERROR: "The AI could not work out a hint.",
  QUOTA_CREATE_RATE: "You have created many games in a short time.",
  QUOTA_OPEN_GAMES: "You have too many unfinished games: finish, resign or leave one first.",
  QUOTA_WATCH_STREAMS: "Too many tables are open in this browser: close one.",
  QUOTA_SUGGESTIONS: "Another hint is being worked out: wait for it.",
  WATCHER_TOO_SLOW: "This page fell behind the game.",
  REDIS_UNAVAILABLE: "The game server cannot reach its storage just now.",
  STORE_FULL: "The game server is full just now.",
  INVALID_API_KEY: "This page's API key is not accepted by the server.",
  // Signed-in players (docs/api.md, Player identity) and their history
  IDENTITY_REQUIRED: "Sign in first.",
  IDENTITY_NOT_CONFIGURED: "This server takes no sign-in.",
  MALFORMED_IDENTITY: "That is not a sign-in token.",
  UNSIGNED_IDENTITY: "That sign-in token is not signed.",
  IDENTITY_ALGORITHM_NOT_ALLOWED: "That sign-in token was not signed by this site.",
  IDENTITY_KEY_UNKNOWN: "That sign-in token was not signed by this site.",
  INVALID_IDENTITY_SIGNATURE: "That sign-in token was not signed by this site.",
  IDENTITY_EXPIRED: "That sign-in token has expired: sign in again.",
  IDENTITY_NOT_YET_VALID: "That sign-in token is not valid yet: check this computer's clock.",
  WRONG_IDENTITY_ISSUER: "That sign-in token was issued by another site.",
  WRONG_IDENTITY_AUDIENCE: "That sign-in token was issued for another site.",
  IDENTITY_CLAIM_MISSING: "That sign-in token is incomplete.",
  INVALID_IDENTITY_SUBJECT: "That sign-in token names no valid player.",
  INVALID_IDENTITY: "That sign-in token is not valid.",
  RATED_NEEDS_IDENTITY: "A rated game needs you signed in (and its other human seats open, for signed-in players).",
  PRIVATE_REPLAY: "This game was private: only its players can see its replay.",
  GAME_NOT_ARCHIVED: "The game is not in the archive yet: try again in a moment.",
  DATABASE_NOT_CONFIGURED: "This server keeps no finished games.",
  DATABASE_UNAVAILABLE: "The archive of finished games cannot be reached just now.",
  DATABASE_NOT_MIGRATED: "The archive of finished games is not set up yet.",
};

const CODES: Partial<Record<Code, string>> = {
  [Code.InvalidArgument]: "The server refused the request as malformed.",
  [Code.NotFound]: "The server found nothing by that name.",
  [Code.PermissionDenied]: "You may not do that.",
  [Code.Unauthenticated]: "Only a player of this game may do that.",
  [Code.FailedPrecondition]: "That cannot be done at this point of the game.",
  [Code.Aborted]: "The game changed meanwhile: try again.",
  [Code.ResourceExhausted]: "The server is busy with this browser's requests.",
  [Code.Unavailable]: "The game server cannot be reached just now.",
  [Code.DeadlineExceeded]: "The game server took too long to answer.",
  [Code.Canceled]: "The request was cancelled.",
  [Code.Unimplemented]: "This server does not offer that.",
};

// The reason and the status code, for whoever reads a bug report ("FailedPrecondition / NOT_YOUR_TURN").
export function errorCode(error: unknown): string {
  const e = ConnectError.from(error);
  const reason = e.findDetails(ErrorInfoSchema)[0]?.reason;
  return reason ? `${Code[e.code]} / ${reason}` : Code[e.code] ?? String(e.code);
}

// A failed call in words; a wait the server asks for (RetryInfo) is said too.
export function plainError(error: unknown): string {
  const e = ConnectError.from(error);
  const reason = e.findDetails(ErrorInfoSchema)[0]?.reason;
  const retry = e.findDetails(RetryInfoSchema)[0];
  let text = (reason && REASONS[reason]) || CODES[e.code] || "Something went wrong.";
  // An engine's own refusal of a move says precisely why, in words meant for players.
  if (e.code === Code.FailedPrecondition && reason && !(reason in REASONS) && e.rawMessage) text = `${sentence(e.rawMessage)}`;
  if (retry?.retryDelay) text += ` Try again in ${Math.max(1, Number(retry.retryDelay.seconds))} s.`;
  return text;
}

function sentence(text: string): string {
  const t = text.trim();
  return `${t.charAt(0).toUpperCase()}${t.slice(1)}${/[.!?]$/.test(t) ? "" : "."}`;
}

// The signed-in player: a signed identity (a JWT) that a site's sign-in minted (`tabletop token` on the local stack),
// taken from a `#token=` link or the sign-in box, kept in this browser's localStorage, and sent as
// `authorization: Bearer <JWT>` on every call that carries no seat token (`withIdentity`, in api.ts's transport).
// The service checks it (docs/api.md, *Player identity*); this file only reads what the token says of its player,
// to show who is signed in. It imports nothing of the table, so that api.ts can import it.
import type { Interceptor } from "@connectrpc/connect";

const KEY = "tabletop:identity";
export const CHANGED = "tabletop:identity-changed"; // a window event: signed in, out, or the sign-in expired

export type Identity = { token: string; playerId: string; name: string; expiresMs?: number };

function base64UrlJson(part: string): unknown {
  const base64 = part.replace(/-/g, "+").replace(/_/g, "/").padEnd(Math.ceil(part.length / 4) * 4, "=");
  const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
  return JSON.parse(new TextDecoder().decode(bytes));
}

// What a token says of its player (unverified: the service verifies it), or an Error saying why it is no JWT.
export function readToken(raw: string): Identity | Error {
  const token = raw.trim().replace(/^Bearer\s+/i, "");
  const parts = token.split(".");
  if (parts.length !== 3 || parts.some((p) => !/^[A-Za-z0-9_-]*$/.test(p)) || !parts[0] || !parts[1]) {
    return new Error("This is not a sign-in token (a JWT: three parts separated by dots).");
  }
  let claims: Record<string, unknown>;
  try {
    claims = base64UrlJson(parts[1]) as Record<string, unknown>;
  } catch {
    return new Error("This token cannot be read (its middle part is not JSON).");
  }
  if (typeof claims !== "object" || claims === null || typeof claims.sub !== "string" || !claims.sub) {
    return new Error("This token names no player (no sub).");
  }
  const expiresMs = typeof claims.exp === "number" ? claims.exp * 1000 : undefined;
  if (expiresMs !== undefined && expiresMs <= Date.now()) return new Error("This token has expired: get a new one.");
  return { token, playerId: claims.sub, name: typeof claims.name === "string" ? claims.name : "", expiresMs };
}

let expiredNotice = false; // the sign-in expired while kept: said once by the sign-in box

// The player signed in now; an expired token is dropped (every call carrying it would be refused).
export function signedIn(): Identity | undefined {
  const raw = localStorage.getItem(KEY);
  if (!raw) return undefined;
  const read = readToken(raw);
  if (read instanceof Error) {
    localStorage.removeItem(KEY);
    expiredNotice = true;
    window.dispatchEvent(new Event(CHANGED));
    return undefined;
  }
  return read;
}

export function takeExpiredNotice(): boolean {
  const was = expiredNotice;
  expiredNotice = false;
  return was;
}

export function signIn(identity: Identity): void {
  localStorage.setItem(KEY, identity.token);
  window.dispatchEvent(new Event(CHANGED));
}

export function signOut(): void {
  localStorage.removeItem(KEY);
  window.dispatchEvent(new Event(CHANGED));
}

// Every call without an authorization of its own (a seat's token) carries the signed-in player's identity.
export const withIdentity: Interceptor = (next) => async (request) => {
  if (!request.header.has("authorization")) {
    const identity = signedIn();
    if (identity) request.header.set("authorization", `Bearer ${identity.token}`);
  }
  return next(request);
};

// A sign-in link (`#token=JWT`, maybe with the rest of an address: `#token=JWT&game=ID`): the token is taken out
// of the address at once (so it stays in no history entry, bookmark or screenshot) and returned.
export function takeTokenFromAddress(): string | undefined {
  const match = /(^#|&)token=([^&]*)/.exec(location.hash);
  if (!match) return undefined;
  const rest = location.hash.slice(1).split("&").filter((p) => !p.startsWith("token=")).join("&");
  history.replaceState(history.state, "", `${location.pathname}${location.search}${rest ? `#${rest}` : ""}`);
  return decodeURIComponent(match[2]);
}

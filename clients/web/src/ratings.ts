// Ratings (docs/ratings.md): a player's rating per game type (#ratings, #ratings=PLAYER_ID), a game type's
// leaderboard (#leaderboard=GAME_TYPE), each seated player's rating beside their name in the lobby, and the "rated"
// choice of the new-game form (a rated game needs the creator signed in).
import { client, describeError, errorReason, hostedGames } from "./api";
import { h } from "./dom";
import type { GameSummary, Rating } from "./gen/tabletop/v1/game_service_pb";
import { CHANGED, signedIn } from "./identity";
import type { Page } from "./pages";

// The displayed rating: openskill's ordinal (mu - 3 sigma), one decimal.
export function shownRating(r: Rating): string {
  return r.ordinal.toFixed(1);
}

function playerLabel(r: Rating): string {
  return r.ai ? `AI (${r.aiStrength})` : r.playerId;
}

function playerLink(playerId: string, text: string): HTMLElement {
  return h("a", { href: `#ratings=${encodeURIComponent(playerId)}`, "data-player": playerId }, text);
}

// --- the lobby: a bound seat's rating in the game's type, asked once per player and page ---

export type RatingsCache = Map<string, Promise<Rating[]>>;

function ratingsOf(cache: RatingsCache, playerId: string): Promise<Rating[]> {
  let found = cache.get(playerId);
  if (!found) {
    // No seat token is sent, so the signed-in player's identity may go with it: GetRatings takes any caller.
    found = client.getRatings({ playerId }).then((r) => r.ratings);
    cache.set(playerId, found);
  }
  return found;
}

// A lobby game's seats, "Ann (rating 3.2), Seat 2", each bound seat's rating in the game's type filled in when
// GetRatings answers (nothing when it cannot: a service without a database keeps no ratings).
export function seatsWithRatings(game: GameSummary, cache: RatingsCache): (Node | string)[] {
  const parts: (Node | string)[] = [];
  game.seats.forEach((s, i) => {
    if (i) parts.push(", ");
    parts.push(s.name || "open");
    if (!s.playerId) return;
    const rating = h("span.seat-rating", { "data-testid": "seat-rating", "data-player": s.playerId });
    parts.push(rating);
    ratingsOf(cache, s.playerId).then((ratings) => {
      const r = ratings.find((x) => x.gameType === game.gameType);
      rating.textContent = r ? ` (rating ${shownRating(r)})` : " (unrated)";
      if (r) rating.dataset.ordinal = String(r.ordinal);
    }, () => rating.remove());
  });
  return parts;
}

// --- the new-game form: "rated", for a signed-in creator ---

export function ratedChoice(shown: AbortSignal): { element: HTMLElement; rated: () => boolean } {
  const box = h("input", { id: "rated", type: "checkbox", "data-testid": "rated" }) as HTMLInputElement;
  const why = h("span.small", {});
  const fit = () => {
    const signed = !!signedIn();
    box.disabled = !signed;
    if (!signed) box.checked = false;
    why.textContent = signed ? " (every human seat signed in; open seats are joined by signed-in players)"
      : " (sign in to play rated games)";
  };
  window.addEventListener(CHANGED, fit, { signal: shown });
  fit();
  return { element: h("label", {}, box, " rated: the result moves the players' ratings", why),
    rated: () => box.checked && !box.disabled };
}

// --- #ratings[=PLAYER_ID]: one player's ratings ---

export async function ratingsPage(page: Page, playerId: string): Promise<void> {
  const own = !playerId;
  const me = signedIn();
  if (own && !me) {
    page.app.replaceChildren(h("section.card-box", {}, h("h2", {}, "Your ratings"),
      h("p", {}, "Sign in to see your ratings, or open the ", h("a", { href: "#leaderboard" }, "leaderboard"), ".")));
    return;
  }
  const whose = own ? me!.playerId : playerId;
  const body = h("div", { "data-testid": "ratings" }, "Loading the ratings...");
  page.app.replaceChildren(h("section.card-box.wide", {},
    h("h2", {}, own || whose === me?.playerId ? "Your ratings" : `Ratings of ${whose}`), body,
    h("p.small", {}, "The rating shown is mu - 3 sigma: 0 for a new player, rising as the games make the estimate " +
      "surer (openskill, Plackett-Luce).")));
  try {
    // Own: the caller's by its identity; another's: by its id, asked without a seat token.
    const answer = await client.getRatings({ playerId: own ? "" : whose });
    if (page.shown.aborted) return;
    body.replaceChildren(answer.ratings.length
      ? h("table.ratings", {},
        h("tr", {}, ["Game", "Rating", "mu", "sigma", "Rated games", "Leaderboard"].map((c) => h("th", {}, c))),
        answer.ratings.map((r) => h("tr", { "data-game-type": r.gameType },
          h("td", {}, r.gameType), h("td", { "data-testid": `rating-${r.gameType}` }, shownRating(r)),
          h("td", {}, r.mu.toFixed(2)), h("td", {}, r.sigma.toFixed(2)),
          h("td", { "data-testid": `games-${r.gameType}` }, r.games),
          h("td", {}, h("a", { href: `#leaderboard=${encodeURIComponent(r.gameType)}` }, "see")))))
      : h("p", {}, "No rated game yet."));
  } catch (e) {
    if (!page.shown.aborted) body.replaceChildren(archiveError(e));
  }
}

// --- #leaderboard[=GAME_TYPE]: a game type's best players, paged ---

export async function leaderboardPage(page: Page, gameType: string): Promise<void> {
  let types: string[] = [];
  try {
    types = (await hostedGames()).types.map((t) => t.name);
  } catch (e) {
    page.say(describeError(e), true);
  }
  if (page.shown.aborted) return;
  const chosen = gameType || types[0] || "";
  const select = h("select", { "data-testid": "leaderboard-type",
    onchange: (ev: Event) => { location.hash = `leaderboard=${encodeURIComponent((ev.target as HTMLSelectElement).value)}`; } },
    types.map((t) => h("option", { value: t, selected: t === chosen }, t)));
  const rows = h("tbody", {});
  const more = h("button", { hidden: true, "data-testid": "leaderboard-more" }, "More");
  const note = h("p", {});
  page.app.replaceChildren(h("section.card-box.wide", {},
    h("h2", {}, "Leaderboard"), h("label", {}, "Game ", select),
    h("table.ratings", { "data-testid": "leaderboard" },
      h("thead", {}, h("tr", {}, ["#", "Player", "Rating", "Rated games"].map((c) => h("th", {}, c)))), rows),
    note, more,
    h("p.small", {}, "AI strengths are players on the same ladder. ",
      h("a", { href: "#ratings" }, "Your ratings"))));
  const me = signedIn()?.playerId;
  let token = "";
  async function next(): Promise<void> {
    more.hidden = true;
    try {
      const answer = await client.getLeaderboard({ gameType: chosen, pageSize: 20, pageToken: token });
      if (page.shown.aborted) return;
      for (const r of answer.ratings) {
        rows.append(h(`tr${r.playerId === me ? ".me" : ""}`, { "data-player": r.playerId },
          h("td", {}, r.rank), h("td", {}, r.ai ? playerLabel(r) : playerLink(r.playerId, r.playerId)),
          h("td", {}, shownRating(r)), h("td", {}, r.games)));
      }
      if (!rows.children.length) note.textContent = "No rated game of this type yet.";
      token = answer.nextPageToken;
      more.hidden = !token;
    } catch (e) {
      if (!page.shown.aborted) note.replaceChildren(archiveError(e));
    }
  }
  more.addEventListener("click", () => void next());
  if (chosen) await next();
}

// What a history or ratings call's failure means to a player.
export function archiveError(e: unknown): string {
  switch (errorReason(e)) {
    case "DATABASE_NOT_CONFIGURED":
      return "This service keeps no archive (no database): finished games, replays and ratings are not kept.";
    case "DATABASE_UNAVAILABLE":
      return "The archive is not answering just now: try again in a moment.";
    case "IDENTITY_REQUIRED":
      return "Sign in first.";
    default:
      return describeError(e);
  }
}

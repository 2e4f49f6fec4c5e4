// #mine: the signed-in player's games. The games the service keeps (ListMyGames: live ones, and finished ones for a
// while), each opened with one click: the table reaches the seat by the player's identity, with no seat token. The
// finished games of the archive (ListFinishedGames), each with its replay. Both paged.
import { client, describeError } from "./api";
import { h } from "./dom";
import { GameStatus, type FinishedGame, type MyGame } from "./gen/tabletop/v1/game_service_pb";
import { CHANGED, signedIn } from "./identity";
import type { Page } from "./pages";
import { archiveError } from "./ratings";

const PAGE_SIZE = 10;

const STATUS_WORDS: Record<number, string> = {
  [GameStatus.WAITING_FOR_PLAYERS]: "waiting for players",
  [GameStatus.IN_PROGRESS]: "in progress",
  [GameStatus.FINISHED]: "finished",
};

function when(ms: bigint): string {
  return ms ? new Date(Number(ms)).toLocaleString() : "";
}

function liveGame(g: MyGame): HTMLElement {
  const seats = g.seats.map((s) => (s.seat === g.seat ? `${s.name} (you)` : s.name || "open")).join(", ");
  return h("li", { "data-game-id": g.gameId, "data-status": GameStatus[g.status] },
    h("strong", {}, g.gameType), ` · ${STATUS_WORDS[g.status] ?? "?"} · ${seats} · since ${when(g.joinedUnixMs)} `,
    // The table finds the seat by the identity (ListMyGames' games are the player's): no seat token is kept.
    h("button", { "data-testid": "open-game", onclick: () => { location.hash = `game=${encodeURIComponent(g.gameId)}`; } },
      g.status === GameStatus.FINISHED ? "See the end" : "Back to the table"));
}

function finishedGame(g: FinishedGame): HTMLElement {
  const mine = new Set(g.playerSeats);
  const seats = g.seats.map((s) => `${s.name}${mine.has(s.seat) ? " (you)" : ""}: ${s.total}, place ${s.place}`);
  const places = g.seats.filter((s) => mine.has(s.seat)).map((s) => s.place);
  return h("li", { "data-game-id": g.gameId },
    h("strong", {}, g.gameType), ` · ended ${when(g.endedUnixMs)} · `,
    places.length ? h("span", { "data-testid": "my-place" }, `you placed ${places.join(", ")} · `) : null,
    seats.join("; "), g.decidedBy ? ` (${g.decidedBy})` : "", " ",
    h("button", { "data-testid": "replay-game", onclick: () => { location.hash = `replay=${encodeURIComponent(g.gameId)}`; } },
      "Replay"));
}

// A list filled page by page: `fetch(token)` answers items and the next token ("" on the last page).
function pagedList<T>(testid: string, empty: string, fetch: (token: string) => Promise<{ items: T[]; next: string }>,
  draw: (item: T) => HTMLElement, failed: (e: unknown) => string, shown: AbortSignal): HTMLElement {
  const list = h("ul.games", { "data-testid": testid });
  const note = h("p", {});
  const more = h("button", { hidden: true, "data-testid": `${testid}-more` }, "More");
  let token = "";
  async function next(): Promise<void> {
    more.hidden = true;
    try {
      const page = await fetch(token);
      if (shown.aborted) return;
      list.append(...page.items.map(draw));
      token = page.next;
      more.hidden = !token;
      note.textContent = !token && !list.children.length ? empty : "";
    } catch (e) {
      if (!shown.aborted) note.textContent = failed(e);
    }
  }
  more.addEventListener("click", () => void next());
  void next();
  return h("div", {}, list, note, more);
}

export async function myGamesPage(page: Page): Promise<void> {
  window.addEventListener(CHANGED, () => { if (!signedIn()) location.hash = ""; }, { signal: page.shown });
  const me = signedIn();
  if (!me) {
    page.app.replaceChildren(h("section.card-box", {}, h("h2", {}, "My games"),
      h("p", {}, "Sign in (at the top right) to see your games here: those you play now, from any device, and your " +
        "finished games with their replays.")));
    return;
  }
  page.app.replaceChildren(
    h("section.card-box.wide", {}, h("h2", {}, "Your games at the table"),
      h("p.small", {}, "Games you play, or played lately, signed in as ", me.name || me.playerId,
        ": open one to play on, from this device or any other."),
      pagedList("my-live", "No game yet: create one or join one from the home page.",
        async (token) => {
          const r = await client.listMyGames({ pageSize: PAGE_SIZE, pageToken: token });
          return { items: r.games, next: r.nextPageToken };
        }, liveGame, describeError, page.shown)),
    h("section.card-box.wide", {}, h("h2", {}, "Finished games"),
      h("p.small", {}, "Every game you finished, kept for good, newest first; a replay shows every hand."),
      pagedList("my-finished", "No finished game yet.",
        async (token) => {
          const r = await client.listFinishedGames({ pageSize: PAGE_SIZE, pageToken: token });
          return { items: r.games, next: r.nextPageToken };
        }, finishedGame, archiveError, page.shown),
      h("p", {}, h("a", { href: "#ratings", "data-testid": "my-ratings-link" }, "Your ratings"))),
  );
}

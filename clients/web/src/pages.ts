// The signed-in player's pages, by address: #mine (their games), #replay=GAME_ID (a finished game, move by move),
// #ratings[=PLAYER_ID] and #leaderboard[=GAME_TYPE]. main.ts's router asks `playerPage` first; the home page and
// the tables stay its own.
import { myGamesPage } from "./mine";
import { leaderboardPage, ratingsPage } from "./ratings";
import { replayPage } from "./replay";

// What a page draws into, how it tells the status line, and when it is no longer shown (leaving aborts it).
export type Page = { app: HTMLElement; say: (text: string, error?: boolean) => void; shown: AbortSignal };

const PAGES: [RegExp, (page: Page, argument: string) => Promise<void>][] = [
  [/^#mine$/, (page) => myGamesPage(page)],
  [/^#replay=([^&]+)$/, replayPage],
  [/^#ratings(?:=([^&]*))?$/, ratingsPage],
  [/^#leaderboard(?:=([^&]*))?$/, leaderboardPage],
];

// Draw the page `hash` names and say true, or say false when it is none of these.
export function playerPage(hash: string, page: Page): boolean {
  for (const [pattern, draw] of PAGES) {
    const match = pattern.exec(hash);
    if (!match) continue;
    let argument = match[1] ?? "";
    try {
      argument = decodeURIComponent(argument);
    } catch {
      // a malformed escape: taken as it is (the service says what it makes of it)
    }
    void draw(page, argument);
    return true;
  }
  return false;
}

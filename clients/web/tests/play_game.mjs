// Plays a game (Naishi unless --game says another) against an easy AI to its end in a real headless Chromium, by
// clicking the web table as a person would, asking for a hint before the move numbered --hint-at; prints one JSON
// line: the game id, the view type its board drew, whether that board was the generic one, the final totals the
// page shows, the moves clicked and the screenshots taken.
// Usage: node tests/play_game.mjs URL OUT_DIR [--game naishi] [--hint-at 6]  (tests/frontends and
// tests/test_plugins.py run it).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { chromium } from "playwright-core";

const { values: options, positionals: [url, outDir] } = parseArgs({ allowPositionals: true, options: {
  game: { type: "string", default: "naishi" },
  "hint-at": { type: "string", default: "6" },
} });
const game = options.game;
const hintAt = Number(options["hint-at"]);
const executablePath = process.env.CHROMIUM ?? "/usr/bin/chromium";
const userDataDir = mkdtempSync(join(tmpdir(), "tabletop-chromium-"));
const FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
  "--disable-background-networking", "--disable-component-update", "--disable-sync"];
const MAX_MOVES = 400;

const context = await chromium.launchPersistentContext(userDataDir, {
  executablePath, headless: true, args: FLAGS, viewport: { width: 1280, height: 1000 },
});
const result = { moves: 0, hint: null, screenshots: [] };
try {
  const page = context.pages()[0] ?? (await context.newPage());
  page.setDefaultTimeout(60_000);
  const problems = [];
  page.on("pageerror", (e) => problems.push(String(e)));
  await page.goto(url);
  await page.getByTestId("game-type").selectOption(game);
  await page.getByTestId("opponents").fill("1");
  await page.getByTestId("strength").selectOption("easy");
  await page.getByTestId("create").click();
  const board = page.locator("[data-testid=board] [data-view]").first();
  await board.waitFor();
  result.viewType = await board.getAttribute("data-view");
  result.genericBoard = await board.evaluate((e) => e.classList.contains("generic"));
  result.gameId = decodeURIComponent(/game=([^&]+)/.exec(await page.evaluate(() => location.hash))[1]);

  let rng = 12345;
  const pick = (n) => ((rng = (rng * 1103515245 + 12345) % 2147483648) % n);
  while (result.moves < MAX_MOVES) {
    // Wait until either the game is over or a move of ours can be clicked (the AI moves in between, live).
    await page.waitForFunction(() => document.body.dataset.status === "FINISHED" ||
      [...document.querySelectorAll("button.move")].some((b) => !b.disabled));
    if (await page.evaluate(() => document.body.dataset.status === "FINISHED")) break;
    if (result.moves === hintAt && !result.hint) {
      await page.getByTestId("ask-hint").click();
      const hint = page.getByTestId("hint-move");
      await hint.waitFor();
      result.hint = { label: await hint.textContent(), moveId: await hint.getAttribute("data-move-id") };
      const shot = join(outDir, `${game}-midgame.png`);
      await page.screenshot({ path: shot, fullPage: true });
      result.screenshots.push(shot);
    }
    const buttons = page.locator("button.move:not([disabled])");
    const count = await buttons.count();
    if (!count) continue;
    const before = await page.evaluate(() => document.body.dataset.version);
    await buttons.nth(pick(count)).click();
    result.moves += 1;
    await page.waitForFunction((v) => document.body.dataset.version !== v, before);
  }
  await page.getByTestId("final-score").waitFor();
  result.totals = [];
  for (const seat of [0, 1]) result.totals.push(Number(await page.getByTestId(`total-${seat}`).textContent()));
  result.status = await page.evaluate(() => document.body.dataset.status);
  const end = join(outDir, `${game}-final.png`);
  await page.screenshot({ path: end, fullPage: true });
  result.screenshots.push(end);
  result.pageErrors = problems;
} finally {
  await context.close();
  rmSync(userDataDir, { recursive: true, force: true });
}
console.log(JSON.stringify(result));

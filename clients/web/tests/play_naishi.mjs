// Plays a Naishi game against an easy AI to its end in a real headless Chromium, by clicking the web table as a
// person would; prints one JSON line: the game id, the final totals the page shows, the moves clicked and the
// screenshots taken. Usage: node tests/play_naishi.mjs URL OUT_DIR  (tests/web/test_web_table.py runs it).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium } from "playwright-core";

const [url, outDir] = process.argv.slice(2);
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
  await page.getByTestId("game-type").selectOption("naishi");
  await page.getByTestId("opponents").fill("1");
  await page.getByTestId("strength").selectOption("easy");
  await page.getByTestId("create").click();
  await page.waitForSelector("[data-view='tabletop.v1.NaishiView']");
  result.gameId = decodeURIComponent(/game=([^&]+)/.exec(await page.evaluate(() => location.hash))[1]);

  let rng = 12345;
  const pick = (n) => ((rng = (rng * 1103515245 + 12345) % 2147483648) % n);
  while (result.moves < MAX_MOVES) {
    // Wait until either the game is over or a move of ours can be clicked (the AI moves in between, live).
    await page.waitForFunction(() => document.body.dataset.status === "FINISHED" ||
      [...document.querySelectorAll("button.move")].some((b) => !b.disabled));
    if (await page.evaluate(() => document.body.dataset.status === "FINISHED")) break;
    if (result.moves === 6 && !result.hint) {
      await page.getByTestId("ask-hint").click();
      const hint = page.getByTestId("hint-move");
      await hint.waitFor();
      result.hint = { label: await hint.textContent(), moveId: await hint.getAttribute("data-move-id") };
      const board = join(outDir, "naishi-midgame.png");
      await page.screenshot({ path: board, fullPage: true });
      result.screenshots.push(board);
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
  const end = join(outDir, "naishi-final.png");
  await page.screenshot({ path: end, fullPage: true });
  result.screenshots.push(end);
  result.pageErrors = problems;
} finally {
  await context.close();
  rmSync(userDataDir, { recursive: true, force: true });
}
console.log(JSON.stringify(result));

// Two players in two tabs: Ann creates a public Naishi game with one open seat and is shown its join code; Bo sees
// the game in the lobby and joins it with the code; Ann starts it, and both tables follow it live (Bo's learns that
// Ann chose her gift, never which). Prints one JSON line. Usage: node tests/join_and_lobby.mjs URL
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium } from "playwright-core";

const [url] = process.argv.slice(2);
const userDataDir = mkdtempSync(join(tmpdir(), "tabletop-chromium-"));
const FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
  "--disable-background-networking", "--disable-component-update", "--disable-sync"];
const context = await chromium.launchPersistentContext(userDataDir, {
  executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium", headless: true, args: FLAGS,
});
const result = {};
try {
  // sessionStorage is per tab: two pages are two players.
  const ann = context.pages()[0] ?? (await context.newPage());
  const bo = await context.newPage();
  for (const page of [ann, bo]) page.setDefaultTimeout(60_000);
  await ann.goto(url);
  await ann.getByTestId("game-type").selectOption("naishi");
  await ann.getByTestId("opponents").fill("0");
  await ann.locator("#open-seats").fill("1");
  await ann.locator("#public").check();
  await ann.getByTestId("create").click();
  const code = (await ann.getByTestId("share-code").textContent()).trim();
  result.gameId = decodeURIComponent(/game=([^&]+)/.exec(await ann.evaluate(() => location.hash))[1]);

  await bo.goto(url);
  const lobby = bo.getByTestId("lobby");
  await lobby.locator("li").first().waitFor();
  result.lobbyText = await lobby.textContent();
  result.inLobby = result.lobbyText.includes("naishi");
  await bo.getByTestId("join-code").fill(code);
  await bo.getByTestId("join").click();
  await bo.waitForSelector("[data-testid=seats] li[data-seat='1']");
  result.boSeat = await bo.evaluate(() => document.querySelector("[data-testid=seats]").textContent);

  await ann.getByTestId("start").click();
  // Both tables are live: after the start both seats have their gift to choose (a simultaneous secret choice).
  for (const page of [ann, bo]) {
    await page.waitForFunction(() => [...document.querySelectorAll("button.move")].some((b) => !b.disabled));
  }
  await ann.locator("button.move").first().click();
  // Bo's table learns of Ann's choice through WatchGame (the gift stays secret: only "gift chosen" shows).
  await bo.waitForFunction(() => document.querySelectorAll(".tag").length >= 1);
  result.boSeesGiftChosen = true;
  result.statusAnn = await ann.evaluate(() => document.body.dataset.status);
  result.statusBo = await bo.evaluate(() => document.body.dataset.status);
} finally {
  await context.close();
  rmSync(userDataDir, { recursive: true, force: true });
}
console.log(JSON.stringify(result));

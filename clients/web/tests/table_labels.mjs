// Honest labels, seats that follow the player, and rules at hand (issue 28, items 4, 5 and 1), in a real headless
// Chromium: the new-game form offers only seat counts the game takes, refusals are told in plain words, an unknown
// game id says so, the live score is marked as an estimate, a late spectator gets the whole log with the secret
// moves told as such and no "Your moves", a second tab takes its seat back, the join link is copied and opens the
// join form, the join code stays on one line on a phone; the boards number their places as the moves do, every
// card tells what it does in the game's own words (its .proto comments, sent by ListGameTypes), Kung Fur Fight's
// AP values show and its end says whose SP hit 0. Prints one JSON line of what it saw (the pytest wrapper,
// tests/frontends/test_web_table.py, asserts on it).
// Usage: node tests/table_labels.mjs URL KUNG_FUR_GAME_ID HINODE_GAME_ID (games of two AIs: a Kung Fur Fight that
// ends by SP, a Hinode with the advanced rules)
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium } from "playwright-core";

const [url, kungfurGameId, advancedHinodeGameId] = process.argv.slice(2);
const FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
  "--disable-background-networking", "--disable-component-update", "--disable-sync"];
const dirs = [];
const contexts = [];

// A browser profile of its own: its storage (session and local) is a separate browser's.
async function browser(viewport = { width: 1280, height: 800 }) {
  const dir = mkdtempSync(join(tmpdir(), "tabletop-chromium-"));
  dirs.push(dir);
  const context = await chromium.launchPersistentContext(dir, {
    executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium", headless: true, args: FLAGS, viewport,
  });
  contexts.push(context);
  return context;
}

async function open(context, address) {
  const page = context.pages().find((p) => p.url() === "about:blank") ?? (await context.newPage());
  page.setDefaultTimeout(60_000);
  page.on("pageerror", (e) => result.pageErrors.push(String(e)));
  await page.goto(address);
  return page;
}

const text = (page, selector) => page.locator(selector).first().textContent();
const gameIdOf = async (page) => decodeURIComponent(/game=([^&]+)/.exec(await page.evaluate(() => location.hash))[1]);
const logLines = (page) => page.$$eval("[data-testid=log] li", (lis) => lis.map((li) => ({ v: li.value, text: li.textContent,
  secret: li.classList.contains("secret") })));

// Click the first enabled move, and wait for the table to show the game after it.
async function playOne(page) {
  await page.waitForFunction(() => document.body.dataset.status === "FINISHED" ||
    [...document.querySelectorAll("button.move")].some((b) => !b.disabled));
  if (await page.evaluate(() => document.body.dataset.status === "FINISHED")) return false;
  const before = await page.evaluate(() => document.body.dataset.version);
  await page.locator("button.move:not([disabled])").first().click();
  await page.waitForFunction((v) => document.body.dataset.version !== v, before);
  return true;
}

const result = { pageErrors: [] };
try {
  const ann = await browser();
  const page = await open(ann, url);

  // Seat counts: Naishi is for 2, so 3 AI opponents come down to 1, and an open seat leaves room for no AI.
  await page.getByTestId("game-type").selectOption("naishi");
  await page.getByTestId("opponents").fill("3");
  result.seats = { opponentsAsked3: await page.getByTestId("opponents").inputValue() };
  await page.locator("#open-seats").fill("1");
  result.seats.opponentsWithOneOpen = await page.getByTestId("opponents").inputValue();
  await page.locator("#open-seats").fill("0");
  result.seats.opponentsWithNoneOpen = await page.getByTestId("opponents").inputValue();
  result.seats.range = await page.getByTestId("seat-range").textContent();

  // A refusal in plain words: a join code that is none.
  await page.getByTestId("join-code").fill("nonsense");
  await page.getByTestId("join").click();
  await page.waitForFunction(() => document.getElementById("status").textContent !== "");
  result.joinRefused = { text: await text(page, "#status"), code: await page.locator("#status").getAttribute("data-code") };

  // An unknown game id says so.
  await page.goto(`${url}#game=no-such-game-0`);
  await page.getByTestId("no-such-game").waitFor();
  result.unknownGame = await page.getByTestId("no-such-game").textContent();

  // Naishi against an AI: the rules at hand, numbered places, the cards' own words, the score as an estimate.
  await page.goto(url);
  await page.getByTestId("game-type").selectOption("naishi");
  await page.getByTestId("opponents").fill("1");
  await page.getByTestId("create").click();
  await page.locator("[data-testid=board] [data-view]").waitFor();
  const gameId = await gameIdOf(page);
  result.rules = { summary: await text(page, "[data-testid=rules] summary"),
    legend: await page.getByTestId("legend").count(), howTo: await page.getByTestId("how-to").count() };
  result.naishiLineNumbers = await page.$$eval("[data-testid=line-0] .place-number", (s) => s.map((x) => x.textContent));
  result.naishiCards = await page.$$eval("[data-testid=card-reference] tr", (rows) => rows.map((r) => r.textContent));
  await page.getByTestId("refresh-score").click();
  await page.getByTestId("live-score").waitFor();
  result.liveScore = { label: await page.getByTestId("live-score").textContent(),
    note: await page.getByTestId("estimate-note").count(), total: await page.getByTestId("total-1").textContent() };
  // The gift is secret: Ann's log tells the AI's as a secret move, never which card.
  await playOne(page);
  await page.waitForFunction(() => document.querySelectorAll("[data-testid=log] li.secret").length >= 1);
  result.annSecretLines = (await logLines(page)).filter((l) => l.secret).map((l) => l.text);
  for (let i = 0; i < 8 && (await playOne(page)); i += 1);

  // A late spectator (another browser): the whole log from the creation, the two gifts as secret moves, no moves.
  const spectator = await browser();
  const watcher = await open(spectator, `${url}#game=${encodeURIComponent(gameId)}`);
  await watcher.locator("[data-testid=log] li[value='1']").waitFor();
  const annLog = await logLines(page);
  await watcher.waitForFunction((n) => document.querySelectorAll("[data-testid=log] li").length >= n, annLog.length);
  const watched = await logLines(watcher);
  result.spectator = {
    lines: watched.length, annLines: annLog.length, first: watched.at(-1),
    secretLines: watched.filter((l) => l.secret).map((l) => l.text),
    yourMovesShown: await watcher.locator(".your-moves").isVisible(),
    watching: await watcher.getByTestId("watching").textContent(),
    resumeOffered: await watcher.getByTestId("resume-seat").count(),
  };

  // A second tab of Ann's browser: it watches, and is offered her seat back.
  const tab = await ann.newPage();
  tab.setDefaultTimeout(60_000);
  await tab.goto(`${url}#game=${encodeURIComponent(gameId)}`);
  await tab.getByTestId("resume-seat").waitFor();
  result.secondTab = { before: await tab.getByTestId("watching").textContent() };
  await tab.getByTestId("resume-seat").click();
  await tab.locator("[data-testid=seats] li", { hasText: "— you" }).waitFor();
  result.secondTab.yourMovesShown = await tab.locator(".your-moves").isVisible();
  result.secondTab.seat = await text(tab, "[data-testid=seats] li:has-text('— you')");
  await tab.close();

  // A game with an open seat, created on a phone: the join code on one line, the link copied, the link opening the
  // join form with the code in it.
  const phone = await browser({ width: 390, height: 844 });
  await phone.grantPermissions(["clipboard-read", "clipboard-write"], { origin: new URL(url).origin });
  const host = await open(phone, url);
  await host.getByTestId("game-type").selectOption("naishi");
  await host.getByTestId("opponents").fill("0");
  await host.locator("#open-seats").fill("1");
  await host.getByTestId("create").click();
  const code = (await host.getByTestId("share-code").textContent()).trim();
  result.share = {
    code,
    codeLines: await host.getByTestId("share-code").evaluate((e) => e.getClientRects().length),
    // a code holds "-" (a break opportunity) only now and then: whether it may wrap at all is checked too
    codeWraps: await host.getByTestId("share-code").evaluate((e) => getComputedStyle(e).whiteSpace !== "nowrap"),
    link: await host.getByTestId("join-link").inputValue(),
  };
  await host.getByTestId("copy-link").click();
  await host.waitForFunction(() => document.querySelector("[data-testid=copy-link]").textContent === "Link copied");
  result.share.copied = await host.evaluate(() => navigator.clipboard.readText());
  const friend = await browser();
  const invited = await open(friend, result.share.copied);
  await invited.getByTestId("join-invite").waitFor();
  result.share.friendCode = await invited.getByTestId("join-code").inputValue();

  // Hinode with 2 players: proxies at positions 3 and 4, named as the moves name them.
  await page.goto(url);
  await page.getByTestId("game-type").selectOption("hinode");
  await page.getByTestId("opponents").fill("1");
  await page.getByTestId("create").click();
  await page.locator("[data-testid=board] [data-view]").waitFor();
  result.hinode = { positions: await page.$$eval(".board.hinode .position", (ps) => ps.map((p) => p.textContent)),
    legend: await text(page, "[data-testid=legend]") };
  await playOne(page); // a tribe chosen: no skill in the basic game
  await page.waitForFunction(() => document.querySelector(".board.hinode .position").textContent.includes("no tribe") === false);
  result.hinode.skillsInBasicGame = await page.locator(".tribe-skill").count();
  await page.goto(`${url}#game=${encodeURIComponent(advancedHinodeGameId)}`);
  await page.locator(".tribe-skill").first().waitFor();
  result.hinode.advancedSkills = await page.$$eval(".tribe-skill", (ss) => ss.map((s) => s.textContent));

  // Kung Fur Fight: AP values on the cards, each card's ability in its own words, the names as the rulebook spells
  // them; and a finished game of two AIs that ended by SP says whose.
  await page.goto(url);
  await page.getByTestId("game-type").selectOption("kung-fur-fight");
  await page.getByTestId("opponents").fill("1");
  await page.getByTestId("create").click();
  await page.locator("[data-testid=board] [data-view]").waitFor();
  await page.getByTestId("refresh-score").click();
  await page.getByTestId("live-score").waitFor();
  result.kungfur = {
    liveScore: await page.getByTestId("live-score").textContent(), // VP are public: exact, no estimate
    estimateNote: await page.getByTestId("estimate-note").count(),
    hand: await page.$$eval("[data-testid=hand] .card-with-text", (cs) => cs.map((c) => c.textContent)),
    reference: await page.$$eval("[data-testid=card-reference] tr", (rows) => rows.map((r) => r.textContent)),
  };
  await page.goto(`${url}#game=${encodeURIComponent(kungfurGameId)}`);
  await page.getByTestId("end-reason").waitFor({ timeout: 240_000 }); // two AIs play it meanwhile
  result.kungfur.endReason = await page.getByTestId("end-reason").textContent();
  result.kungfur.names = await page.$$eval("[data-testid=seats] li", (lis) => lis.map((li) => li.textContent));
} finally {
  for (const context of contexts) await context.close();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
}
console.log(JSON.stringify(result));

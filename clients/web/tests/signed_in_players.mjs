// Two signed-in players play a rated game to its end at the web table, each in a browser context of their own: Ann
// signs in by a sign-in link (#token=), Bo by pasting his token into the sign-in box (after two that are refused). Ann creates a rated public
// game with one open seat, Bo sees it in the lobby and joins it by its code, Ann starts it and both click random
// legal moves until it ends. Meanwhile a third, anonymous context plays a game against an easy AI to its end.
// Then each finds the rated game among their finished games (My games), Ann replays it step by step (buttons and
// keys), every seat's view shown with its hand, both read their moved ratings, Bo sees Ann's rating beside her name
// in the lobby and both on the leaderboard, and signs out; Ann, from another device, gets back to her waiting game
// from My games by her identity alone. Prints one JSON line.
// Usage: node tests/signed_in_players.mjs URL ANN_TOKEN BO_TOKEN FORGED_TOKEN [--game naishi] (FORGED_TOKEN: one
// the service refuses)
import { parseArgs } from "node:util";
import { chromium } from "playwright-core";

const { values: options, positionals: [url, annToken, boToken, forgedToken] } = parseArgs({ allowPositionals: true, options: {
  game: { type: "string", default: "naishi" },
} });
const game = options.game;
const BOUND_MS = 120_000;
const MAX_MOVES = 400;
const FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
  "--disable-background-networking", "--disable-component-update", "--disable-sync"];

const browser = await chromium.launch({ executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium", headless: true,
  args: FLAGS });
const result = { pageErrors: [], moves: {}, replay: {}, ratings: {}, finished: {} };
const gameIdOf = async (page) => decodeURIComponent(/game=([^&]+)/.exec(await page.evaluate(() => location.hash))[1]);

async function newPlayer(name) {
  const context = await browser.newContext({ viewport: { width: 1400, height: 1000 } });
  const page = await context.newPage();
  page.setDefaultTimeout(BOUND_MS);
  page.on("pageerror", (e) => result.pageErrors.push(`${name}: ${e}`));
  return page;
}

// Click random legal moves of this page's seat until the game is over; the other seat moves in between, live.
async function playToTheEnd(page, name, seed) {
  let rng = seed;
  const pick = (n) => ((rng = (rng * 1103515245 + 12345) % 2147483648) % n);
  let moves = 0;
  while (moves < MAX_MOVES) {
    await page.waitForFunction(() => document.body.dataset.status === "FINISHED" ||
      [...document.querySelectorAll("button.move")].some((b) => !b.disabled), null, { timeout: BOUND_MS });
    if (await page.evaluate(() => document.body.dataset.status === "FINISHED")) break;
    const buttons = page.locator("button.move:not([disabled])");
    const count = await buttons.count();
    if (!count) continue;
    const before = await page.evaluate(() => document.body.dataset.version);
    try {
      await buttons.nth(pick(count)).click({ timeout: 5_000 });
    } catch {
      continue; // the buttons were redrawn under the click (the other seat moved): look again
    }
    moves += 1;
    await page.waitForFunction((v) => document.body.dataset.version !== v, before, { timeout: BOUND_MS });
  }
  result.moves[name] = moves;
  await page.getByTestId("final-score").waitFor();
}

async function signedInAs(page) {
  const who = page.getByTestId("signed-in");
  await who.waitFor();
  return who.getAttribute("data-player");
}

// The rated game in the player's finished games (the archive writer stores it moments after the end: reload until
// it is listed).
async function findFinished(page, gameId) {
  await page.getByTestId("my-games-link").click();
  const row = page.locator(`[data-testid=my-finished] li[data-game-id="${gameId}"]`);
  const deadline = Date.now() + BOUND_MS;
  for (;;) {
    await page.getByTestId("my-live").waitFor();
    try {
      await row.waitFor({ timeout: 2_000 });
      break;
    } catch (e) {
      if (Date.now() > deadline) throw new Error(`game ${gameId} never showed among the finished games`, { cause: e });
      await page.reload();
    }
  }
  return row;
}

const shots = process.env.SCREENSHOTS ?? "/tmp";
const stepShown = (page) => page.getByTestId("replay-step").textContent();

try {
  const ann = await newPlayer("ann");
  const bo = await newPlayer("bo");
  const anonymous = await newPlayer("anonymous");

  // Signing in: Ann by a link (the token leaves the address at once), Bo by the sign-in box.
  await ann.goto(`${url}#token=${encodeURIComponent(annToken)}`);
  result.annSignedIn = await signedInAs(ann);
  result.tokenLeftInAddress = (await ann.evaluate(() => location.href)).includes("token");
  await bo.goto(url);
  await bo.getByTestId("sign-in").click();
  // What is not a token is refused by the box; a token the service does not take (signed with another key) is
  // refused by the service, in words; neither signs in.
  const message = bo.getByTestId("sign-in-message");
  await bo.getByTestId("sign-in-token").fill("not a token");
  await bo.getByTestId("sign-in-submit").click();
  await message.filter({ hasText: "not a sign-in token" }).waitFor();
  result.notATokenMessage = await message.textContent();
  await bo.getByTestId("sign-in-token").fill(forgedToken);
  await bo.getByTestId("sign-in-submit").click();
  await message.filter({ hasText: "refused" }).waitFor();
  result.forgedMessage = await message.textContent();
  result.forgedSignedIn = await bo.getByTestId("signed-in").count();
  await bo.screenshot({ path: `${shots}/sign-in-refused.png` });
  await bo.getByTestId("sign-in-token").fill(boToken);
  await bo.getByTestId("sign-in-submit").click();
  result.boSignedIn = await signedInAs(bo);

  // Ann creates a rated public game with one open seat; Bo finds it in the lobby and joins it by its code.
  await ann.getByTestId("game-type").selectOption(game);
  await ann.getByTestId("opponents").fill("0");
  await ann.locator("#open-seats").fill("1");
  await ann.locator("#public").check();
  await ann.getByTestId("rated").check();
  await ann.getByTestId("create").click();
  const code = (await ann.getByTestId("share-code").textContent()).trim();
  result.gameId = await gameIdOf(ann);
  await bo.reload();
  const listed = bo.locator(`[data-testid=lobby] li[data-game-id="${result.gameId}"]`);
  await listed.locator("[data-testid=seat-rating]").filter({ hasText: "unrated" }).waitFor();
  result.lobbyBefore = await listed.textContent();
  await bo.getByTestId("join-code").fill(code);
  await bo.getByTestId("join").click();
  await bo.waitForSelector("[data-testid=seats] li[data-seat='1']");
  await ann.getByTestId("start").click();

  // Meanwhile an anonymous player (nobody signed in) plays against an easy AI.
  const anonymousGame = (async () => {
    await anonymous.goto(url);
    result.anonymousSignInOffered = await anonymous.getByTestId("sign-in").isVisible();
    await anonymous.getByTestId("game-type").selectOption(game);
    await anonymous.getByTestId("opponents").fill("1");
    await anonymous.getByTestId("strength").selectOption("easy");
    result.anonymousRatedDisabled = await anonymous.getByTestId("rated").isDisabled();
    await anonymous.getByTestId("create").click();
    await anonymous.waitForSelector("[data-testid=seats] li");
    result.anonymousGameId = await gameIdOf(anonymous);
    await playToTheEnd(anonymous, "anonymous", 777);
  })();
  await Promise.all([playToTheEnd(ann, "ann", 12345), playToTheEnd(bo, "bo", 54321), anonymousGame]);
  result.finished.status = await ann.evaluate(() => document.body.dataset.status);

  // Both find it among their finished games.
  for (const [name, page] of [["ann", ann], ["bo", bo]]) {
    const row = await findFinished(page, result.gameId);
    result.finished[name] = await row.textContent();
  }
  await ann.screenshot({ path: `${shots}/my-games-${game}.png`, fullPage: true });

  // Ann replays it: first step, next, the End key, back one with the left arrow; every step's event in words.
  await ann.locator(`[data-testid=my-finished] li[data-game-id="${result.gameId}"] [data-testid=replay-game]`).click();
  await ann.getByTestId("replay").waitFor();
  const replay = result.replay;
  replay.first = await stepShown(ann);
  await ann.getByTestId("replay-next").click();
  replay.second = await stepShown(ann);
  await ann.keyboard.press("End");
  replay.last = await stepShown(ann);
  await ann.keyboard.press("ArrowLeft");
  replay.beforeLast = await stepShown(ann);
  await ann.keyboard.press("Home");
  replay.events = [];
  const total = Number(/of (\d+)/.exec(replay.last)[1]);
  for (let i = 0; i < total; i += 1) {
    replay.events.push(await ann.getByTestId("replay-event").textContent());
    if (i === 4) {
      // Mid-game: every seat's view is drawn by the game's own board, each with its own hand shown.
      replay.midBoards = await ann.evaluate(() => [...document.querySelectorAll(".replay-seat")].map((s) => ({
        seat: Number(s.dataset.seat),
        view: s.querySelector("[data-view]")?.dataset.view,
        generic: !!s.querySelector(".generic"),
        ownHand: [...s.querySelectorAll(`[data-testid="hand-${s.dataset.seat}"] .chip`)].map((c) =>
          c.classList.contains("unknown") ? "?" : c.textContent),
      })));
    }
    await ann.keyboard.press("ArrowRight");
  }
  replay.finalScoreShown = await ann.getByTestId("replay-score").isVisible();
  await ann.screenshot({ path: `${shots}/replay-${game}.png`, fullPage: true });

  // Their ratings moved: each reads their own.
  for (const [name, page] of [["ann", ann], ["bo", bo]]) {
    await page.goto(`${url}#ratings`);
    const cell = page.getByTestId(`rating-${game}`);
    await cell.waitFor();
    result.ratings[name] = { shown: await cell.textContent(), games: await page.getByTestId(`games-${game}`).textContent() };
  }

  // Ann opens another public game: Bo's lobby shows her rating beside her name.
  await ann.goto(url);
  await ann.getByTestId("game-type").selectOption(game);
  await ann.getByTestId("opponents").fill("0");
  await ann.locator("#open-seats").fill("1");
  await ann.locator("#public").check();
  await ann.getByTestId("create").click();
  const secondId = await (async () => { await ann.getByTestId("share-code").waitFor(); return gameIdOf(ann); })();
  await bo.goto(url);
  const annRating = bo.locator(`[data-testid=lobby] li[data-game-id="${secondId}"] [data-testid=seat-rating][data-player=ann]`);
  await annRating.filter({ hasText: "rating" }).waitFor();
  result.lobbyRating = await annRating.textContent();
  await bo.screenshot({ path: `${shots}/lobby-ratings-${game}.png`, fullPage: true });

  // Ann on another device (a fresh browser context: no seat token there) signs in, finds the waiting game among her
  // games and is back at her seat with one click, by her identity alone.
  const annElsewhere = await newPlayer("ann elsewhere");
  await annElsewhere.goto(`${url}#token=${encodeURIComponent(annToken)}`);
  await annElsewhere.getByTestId("my-games-link").click();
  await annElsewhere.locator(`[data-testid=my-live] li[data-game-id="${secondId}"] [data-testid=open-game]`).click();
  await annElsewhere.waitForSelector("[data-testid=seats] li[data-seat='0']");
  await annElsewhere.waitForFunction(() => document.body.dataset.version !== undefined);
  result.elsewhereSeat = await annElsewhere.locator("[data-testid=seats] li[data-seat='0']").textContent();
  result.elsewhereStoredSeats = await annElsewhere.evaluate(() => Object.keys(sessionStorage).length);
  result.elsewhereStatus = await annElsewhere.locator("#status").textContent();

  // The leaderboard lists both; then Bo signs out.
  await bo.goto(`${url}#leaderboard=${game}`);
  await bo.locator("[data-testid=leaderboard] tbody tr").nth(1).waitFor();
  result.leaderboard = await bo.locator("[data-testid=leaderboard] tbody tr").evaluateAll((rows) =>
    rows.map((r) => r.dataset.player));
  await bo.screenshot({ path: `${shots}/leaderboard-${game}.png`, fullPage: true });
  await bo.getByTestId("sign-out").click();
  await bo.getByTestId("sign-in").waitFor();
  result.signedOutLinks = await bo.getByTestId("my-games-link").count();
} finally {
  await browser.close();
}
console.log(JSON.stringify(result));

// The table is accessible and fits the screen (issue 28, items 6, 3 and 8), in a real headless Chromium: on the
// lobby and on each of the four games' tables, at 1280x800 (a laptop) and at 390x844 (a phone), axe-core (injected
// into the page) is run and its serious and critical violations kept; every control's accessible name, the focus
// ring of a control reached by the keyboard, and a symbol or words beside every colour are looked at; the moves
// panel and the hand are measured against the viewport with the page scrolled to its top, and the page's width
// against the viewport's. With SCREENSHOTS=DIR it saves the table at both sizes there (docs/img/, for the docs).
// Prints one JSON line of what it saw (the pytest wrapper, tests/frontends/test_web_a11y.py, asserts on it).
// Usage: node tests/a11y_layout.mjs URL
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium } from "playwright-core";
import { SIZES, axe } from "./axe.mjs";

const [url] = process.argv.slice(2);
const screenshots = process.env.SCREENSHOTS;
const FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
  "--disable-background-networking", "--disable-component-update", "--disable-sync"];
const GAMES = ["naishi", "hinode", "zipang", "kung-fur-fight"];

// Controls without a name of their own (axe checks this too; this says which, plainly).
const unnamed = (page) => page.evaluate(() => [...document.querySelectorAll("button, input, select, textarea, summary, a[href]")]
  .filter((e) => e.getClientRects().length && !(e.getAttribute("aria-label") || e.labels?.length
    || e.getAttribute("aria-labelledby") || (e.tagName !== "INPUT" && e.textContent.trim())))
  .map((e) => e.outerHTML.slice(0, 80)));

// Cards and marks drawn in a colour that say nothing in words or symbols: a colour must never be the only cue.
const colourOnly = (page) => page.evaluate(() => [...document.querySelectorAll(
  "[class*=hinodecolour-], .dot, .chip[class*='-red'], .chip[class*='-blue'], .chip[class*='-yellow'], .chip[class*='-white']")]
  // a card names its colour; a resource's dot is its colour's shape, the group of them says them in words
  .filter((e) => e.classList.contains("dot") ? !(e.textContent.trim() && /[a-z]/i.test(e.parentElement.getAttribute("aria-label")))
    : !/[a-z]/i.test(`${e.textContent} ${e.getAttribute("aria-label") ?? ""}`))
  .map((e) => e.outerHTML.slice(0, 100)));

// The focus ring of the first move button reached with the Tab key: a visible outline (not the 1 px default).
async function focusRing(page) {
  await page.evaluate(() => document.activeElement?.blur());
  for (let i = 0; i < 200; i += 1) {
    await page.keyboard.press("Tab");
    const ring = await page.evaluate(() => {
      const e = document.activeElement;
      if (!e?.matches("button.move")) return undefined;
      const s = getComputedStyle(e);
      return { style: s.outlineStyle, width: parseFloat(s.outlineWidth) };
    });
    if (ring) return ring;
  }
  return null;
}

// Where the moves panel, its first move and the hand are with the page at its top, and whether it overflows sideways.
const layout = (page) => page.evaluate(() => {
  window.scrollTo(0, 0);
  const box = (e) => {
    if (!e) return null;
    const r = e.getBoundingClientRect();
    return { top: Math.round(r.top), bottom: Math.round(r.bottom), left: Math.round(r.left), right: Math.round(r.right) };
  };
  const fits = (b) => !!b && b.top >= 0 && b.left >= 0 && b.bottom <= window.innerHeight && b.right <= window.innerWidth;
  const panel = box(document.querySelector(".your-moves"));
  const move = box(document.querySelector("button.move:not([disabled])"));
  const hand = box(document.querySelector(".your-moves [data-testid^=hand], [data-testid=hand], .territory.mine [data-testid^=hand-]"));
  return {
    viewport: [window.innerWidth, window.innerHeight], panel, move, hand,
    panelFits: fits(panel), moveFits: fits(move) && move.bottom <= panel.bottom && move.top >= panel.top, handFits: hand ? fits(hand) : null,
    // rows of places numbered as the moves count them (Naishi's 5) that wrap onto a second line
    wrappedRows: [...document.querySelectorAll(".cards.numbered")].filter((row) =>
      new Set([...row.children].map((c) => Math.round(c.getBoundingClientRect().top))).size > 1).map((row) => row.dataset.testid),
    pageWidth: document.documentElement.scrollWidth, pageHeight: document.documentElement.scrollHeight,
  };
});

const result = { pageErrors: [], lobby: {}, games: {} };
const dirs = [];
const contexts = [];
try {
  for (const [size, viewport] of Object.entries(SIZES)) {
    const dir = mkdtempSync(join(tmpdir(), "tabletop-chromium-"));
    dirs.push(dir);
    const context = await chromium.launchPersistentContext(dir, {
      executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium", headless: true, args: FLAGS, viewport,
    });
    contexts.push(context);
    const page = context.pages()[0] ?? (await context.newPage());
    page.setDefaultTimeout(60_000);
    page.on("pageerror", (e) => result.pageErrors.push(String(e)));

    await page.goto(url);
    await page.waitForFunction(() => !document.querySelector("[data-testid=lobby]")?.textContent.startsWith("Loading"));
    result.lobby[size] = { axe: await axe(page), unnamed: await unnamed(page),
      pageWidth: await page.evaluate(() => document.documentElement.scrollWidth) };

    for (const game of GAMES) {
      await page.goto(url);
      await page.getByTestId("game-type").selectOption(game);
      await page.getByTestId("opponents").fill("1");
      await page.getByTestId("create").click();
      await page.locator("[data-testid=board] [data-view]").waitFor();
      await page.locator("button.move:not([disabled])").first().waitFor({ timeout: 120_000 }); // the AI may go first
      // Beside the board: the seats, the score and the log, folded on a phone, each opened with a tap.
      const folds = await page.$$eval("details.fold", (ds) => ds.map((d) => [d.dataset.fold, d.open]));
      const folded = page.locator("details.fold:not([open]) > summary");
      while (await folded.count()) await folded.first().click();
      await page.getByTestId("refresh-score").click();
      await page.getByTestId("live-score").waitFor();
      const seen = { folds, axe: await axe(page), unnamed: await unnamed(page), colourOnly: await colourOnly(page),
        layout: await layout(page) };
      // Open the rules and the card table too: what they show must pass as well.
      await page.getByTestId("rules").evaluate((d) => { d.open = true; });
      const reference = page.getByTestId("card-reference");
      if (await reference.count()) await reference.evaluate((d) => { d.open = true; });
      seen.axeOpened = await axe(page);
      await page.getByTestId("rules").evaluate((d) => { d.open = false; });
      if (await reference.count()) await reference.evaluate((d) => { d.open = false; });
      seen.focus = await focusRing(page);
      if (screenshots && (process.env.ALL_SHOTS || game === "hinode" || game === "naishi")) {
        await page.evaluate(() => {
          document.activeElement?.blur();
          window.scrollTo(0, 0);
          document.querySelector(".your-moves")?.scrollTo(0, 0);
        });
        await page.screenshot({ path: join(screenshots, `table-${game}-${size}.png`) });
      }
      result.games[`${game}@${size}`] = seen;
    }
  }
} finally {
  for (const context of contexts) await context.close();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
}
console.log(JSON.stringify(result));

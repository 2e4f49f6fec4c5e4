// Plays each of the four games to its end by pointing (issue 28, item 2), in a real headless Chromium, at 1280x800
// and at 390x844: a game against one easy AI created from the page, the human seat played by clicking the cards
// and places the board highlights (src/pointing.ts), one of every three with the keyboard (focus, then Enter or
// Space), and a move button only where no card or place is highlighted (counted, with its label). A choice of
// several parts is clicked through: the next highlighted card or place, or the buttons of the moves it leaves; the
// first such choice of each game is cancelled with Escape once, then made again (until then, and until axe-core
// has looked at one, a card that opens several moves is preferred).
//
// Every element clicked (or pressed) must be within reach without scrolling past the board. The rule, checked just
// before each click: the page is scrolled by the least amount, from where it is, that brings the element into view
// (an element of the panel of your hand and moves is scrolled into view inside that panel, which sticks to the
// bottom of the screen; when the board got shorter since the last click and the page is left scrolled past it, it
// is first scrolled back to the limit below); then (1) the element's whole box is inside the viewport and, for an
// element of the board, above the panel's top edge; (2) the element itself is what the pointer hits at its centre
// (nothing covers it); and (3) the page's vertical scroll is at most the limit: the scroll at which the board's
// bottom edge meets the panel's top edge (further down is past the board). The click is a real pointer click at
// that centre.
//
// axe-core (as tests/a11y_layout.mjs injects it) is run mid-game with highlights shown, and again with a choice
// half made; the focus ring of a highlighted card reached with the Tab key is measured. A game that ends before
// those checks came up (a short Zipang game) is played again, up to three games of it in all.
// With SCREENSHOTS=DIR it saves Kung Fur Fight's table with a choice half made (a card chosen, the arenas lit), at
// both sizes, there (docs/img/, for docs/frontends.md). Prints one JSON line (tests/frontends/test_web_click_play.py
// asserts on it).
// Usage: node tests/click_play.mjs URL [--games naishi,hinode] [--sizes desktop,phone]
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { chromium } from "playwright-core";
import { SIZES, axe } from "./axe.mjs";

const { values: options, positionals: [url] } = parseArgs({ allowPositionals: true, options: {
  games: { type: "string", default: "naishi,hinode,zipang,kung-fur-fight" },
  sizes: { type: "string", default: "desktop,phone" },
} });
const screenshots = process.env.SCREENSHOTS;
const FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
  "--disable-background-networking", "--disable-component-update", "--disable-sync"];
const MAX_ACTIONS = 600; // clicks in one game; a game that needs more is reported as not finished

// Scrolls `el` into reach as the rule above says and tells where it is: { ok, why, x, y, ... }.
const reach = (el) => {
  if (!el.isConnected) return null; // drawn again meanwhile (an update of the game)
  const panel = document.querySelector(".your-moves");
  const board = document.querySelector("[data-testid=board]");
  const inPanel = panel.contains(el);
  // the scroll at which the board's bottom edge meets the top edge of the panel stuck to the bottom of the screen
  // (sticky, bottom: 0): further down is past the board
  const limitNow = () => Math.max(0, Math.ceil(board.getBoundingClientRect().bottom + window.scrollY
    - (window.innerHeight - panel.getBoundingClientRect().height)));
  if (window.scrollY > limitNow()) window.scrollTo(0, limitNow()); // the board got shorter since the last click
  if (inPanel) {
    // within the panel only: the panel itself and the hand's row, which scroll (never the page: a sticky panel
    // scrolled into view by the browser takes the page to the panel's place in the flow, past the board)
    for (let a = el.parentElement; a && a !== panel.parentElement; a = a.parentElement) {
      const r = el.getBoundingClientRect(), box = a.getBoundingClientRect();
      if (a.scrollWidth > a.clientWidth) {
        if (r.left < box.left) a.scrollLeft -= box.left - r.left;
        else if (r.right > box.right) a.scrollLeft += r.right - box.right;
      }
      if (a.scrollHeight > a.clientHeight) {
        if (r.top < box.top) a.scrollTop -= box.top - r.top;
        else if (r.bottom > box.bottom) a.scrollTop += r.bottom - box.bottom;
      }
    }
  } else {
    const r = el.getBoundingClientRect();
    const top = panel.getBoundingClientRect().top;
    if (r.top < 0) window.scrollBy(0, r.top - 4);
    else if (r.bottom > top) window.scrollBy(0, r.bottom - top + 4);
    const again = el.getBoundingClientRect(); // the panel's top may have moved with the scroll
    const top2 = panel.getBoundingClientRect().top;
    if (again.bottom > top2) window.scrollBy(0, again.bottom - top2 + 4);
  }
  const r = el.getBoundingClientRect();
  const p = panel.getBoundingClientRect();
  const limit = limitNow();
  const above = inPanel ? Math.min(window.innerHeight, p.bottom) : p.top;
  const inside = r.top >= -0.5 && r.left >= -0.5 && r.right <= window.innerWidth + 0.5 && r.bottom <= above + 0.5;
  const x = (r.left + r.right) / 2, y = (r.top + r.bottom) / 2;
  const hit = document.elementFromPoint(x, y);
  const onTop = !!hit && (hit === el || el.contains(hit));
  const scrolled = Math.round(window.scrollY);
  const why = [!inside && `box ${Math.round(r.top)}..${Math.round(r.bottom)} outside 0..${Math.round(above)}`,
    !onTop && `covered by ${hit?.outerHTML.slice(0, 60)}`, scrolled > limit + 1 && `scrolled ${scrolled} > ${limit}`]
    .filter(Boolean).join("; ");
  return { ok: !why, why, x, y, scrolled, limit, what: el.textContent.trim().slice(0, 80) };
};

const result = { pageErrors: [], games: {} };
const dirs = [];
const contexts = [];
try {
  for (const size of options.sizes.split(",")) {
    const dir = mkdtempSync(join(tmpdir(), "tabletop-chromium-"));
    dirs.push(dir);
    const context = await chromium.launchPersistentContext(dir, {
      executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium", headless: true, args: FLAGS, viewport: SIZES[size],
    });
    contexts.push(context);
    const page = context.pages()[0] ?? (await context.newPage());
    page.setDefaultTimeout(120_000);
    page.on("pageerror", (e) => result.pageErrors.push(String(e)));

    for (const game of options.games.split(",")) {
      const seen = { boardClicks: 0, keyboard: 0, confirms: 0, fallbacks: 0, fallbackLabels: [], unreachable: [],
        pointedWithoutTarget: [], refused: [], escape: null, axe: null, axeChoosing: null, focus: null, actions: 0 };
      result.games[`${game}@${size}`] = seen;
      // A short game can end before the checks made mid-game came up (a Zipang game the AI ends in a few moves):
      // then the same game is played again, up to three games in all, the tallies kept.
      for (let round = 0; round < 3 && (round === 0 || seen.axe === null); round += 1) {
        await page.goto(url);
        await page.getByTestId("game-type").selectOption(game);
        await page.getByTestId("opponents").fill("1");
        await page.getByTestId("strength").selectOption("easy");
        await page.getByTestId("create").click();
        await page.locator("[data-testid=board] [data-view]").waitFor();
        let rng = 4242;
        const pick = (n) => ((rng = (rng * 1103515245 + 12345) % 2147483648) % n);

        // Clicks (or presses) one element after checking it is within reach; false when the page moved on meanwhile.
        const press = async (handle, keyboard) => {
          const at = await handle.evaluate(reach).catch(() => null);
          if (!at) return false; // redrawn meanwhile (an update of the game): look again
          if (!at.ok) seen.unreachable.push(`${at.what}: ${at.why}`);
          if (keyboard) {
            await handle.evaluate((el) => el.focus({ preventScroll: true }));
            await page.keyboard.press(seen.keyboard % 2 ? " " : "Enter");
            seen.keyboard += 1;
          } else {
            await page.mouse.click(at.x, at.y);
          }
          return true;
        };
        const version = () => page.evaluate(() => document.body.dataset.version);
        const choosing = () => page.evaluate(() => !document.querySelector("[data-testid=selection]").hidden);

        while (seen.actions < MAX_ACTIONS) {
          await page.waitForFunction(() => document.body.dataset.status === "FINISHED" ||
            [...document.querySelectorAll(".your-moves button.move")].some((b) => !b.disabled));
          if (await page.evaluate(() => document.body.dataset.status === "FINISHED")) break;
          const before = await version();
          const targets = await page.$$("[data-target].choosable");
          // Every move a card or place stands for has its card or place highlighted.
          const pointed = await page.evaluate(() => document.querySelectorAll(".moves button.move[data-pointed]:not([disabled])").length);
          if (pointed && !targets.length) seen.pointedWithoutTarget.push(before);

          if (!seen.axe && targets.length && seen.boardClicks >= 3) {
            seen.axe = await axe(page);
            // The highlighted cards are in the Tab order, with a visible focus ring.
            await page.evaluate(() => { document.activeElement?.blur(); window.scrollTo(0, 0); });
            for (let i = 0; i < 300 && !seen.focus; i += 1) {
              await page.keyboard.press("Tab");
              seen.focus = await page.evaluate(() => {
                const e = document.activeElement;
                if (!e?.matches("[data-target].choosable")) return null;
                const s = getComputedStyle(e);
                return { role: e.getAttribute("role"), name: e.querySelector(".target-action")?.textContent, style: s.outlineStyle,
                  width: parseFloat(s.outlineWidth) };
              });
            }
            // the Tab key took the page where the focus went (the log, the score...): back to the top
            await page.evaluate(() => { document.activeElement?.blur(); window.scrollTo(0, 0); });
            continue; // the game may have moved on meanwhile
          }

          if (!targets.length) {
            // No card or place stands for any move now: a move button (Naishi's end of turn, Hinode's tribes...).
            const buttons = await page.$$(".moves button.move:not([disabled])");
            if (!buttons.length) continue;
            const button = buttons[pick(buttons.length)];
            const label = await button.textContent().catch(() => null);
            if (label === null || !(await press(button, false))) continue;
            seen.fallbacks += 1;
            if (!seen.fallbackLabels.includes(label)) seen.fallbackLabels.push(label);
            seen.actions += 1;
            await page.waitForFunction((v) => document.body.dataset.version !== v, before);
            continue;
          }

          // A highlighted card or place, then, while a choice is half made, the next one or a move it leaves.
          // Until Escape and axe-core have been tried on a choice half made, a card or place that opens several moves
          // (aria-pressed="false") is preferred, when there is one.
          const opening = seen.escape === null || seen.axeChoosing === null
            ? await page.$$("[data-target].choosable[aria-pressed=false]") : [];
          let handle = opening.length ? opening[pick(opening.length)] : targets[pick(targets.length)];
          let keyboard = seen.actions % 3 === 2;
          let clicked = await press(handle, keyboard);
          seen.actions += 1;
          if (!clicked) continue; // the board was drawn again: look again
          seen.boardClicks += 1;
          let cancelled = false;
          while (clicked && (await choosing()) && seen.actions < MAX_ACTIONS) {
            if (seen.escape === null) {
              await page.keyboard.press("Escape");
              seen.escape = await page.evaluate(() => document.querySelector("[data-testid=selection]").hidden &&
                !document.querySelector("[data-target].chosen"));
              cancelled = true; // the turn starts again
              break;
            }
            if (!seen.axeChoosing) {
              seen.axeChoosing = await axe(page);
              if (screenshots && (process.env.ALL_SHOTS || game === "kung-fur-fight")) {
                await page.evaluate(() => { document.activeElement?.blur(); window.scrollTo(0, 0); });
                await page.screenshot({ path: join(screenshots, `pointing-${game}-${size}.png`) });
              }
            }
            const next = await page.$$("[data-target].choosable");
            const confirm = await page.$$("[data-testid=selection] button.confirm:not([disabled])");
            const n = pick(next.length + confirm.length);
            handle = n < next.length ? next[n] : confirm[n - next.length];
            keyboard = seen.actions % 3 === 2;
            clicked = await press(handle, keyboard);
            seen.actions += 1;
            if (clicked && n < next.length) seen.boardClicks += 1;
            else if (clicked) seen.confirms += 1;
          }
          if (cancelled || !clicked) continue;
          // The move is made (or refused, said on the status line): the page draws the next version.
          await page.waitForFunction((v) => document.body.dataset.version !== v ||
            document.getElementById("status").classList.contains("error"), before).catch(async (e) => {
            const state = await page.evaluate(() => ({ status: document.getElementById("status").textContent,
              selection: document.querySelector("[data-testid=selection]").outerHTML.slice(0, 500),
              choosable: [...document.querySelectorAll("[data-target].choosable")].map((x) => x.getAttribute("aria-label")),
              moves: [...document.querySelectorAll("button.move")].map((b) => `${b.textContent}${b.disabled ? " (off)" : ""}`) }));
            throw new Error(`${e.message}: ${game}@${size} after ${seen.actions} actions, ${JSON.stringify(state)}`);
          });
          const refusal = await page.evaluate(() => document.getElementById("status").classList.contains("error")
            ? document.getElementById("status").textContent : "");
          if (refusal) seen.refused.push(refusal);
        }
        seen.status = await page.evaluate(() => document.body.dataset.status);
        if (seen.status === "FINISHED") {
          await page.getByTestId("final-score").waitFor({ state: "attached" }); // folded on a phone
          seen.totals = await page.$$eval("[data-testid^=total-]", (cells) => cells.map((c) => c.textContent));
        }
      }
    }
  }
} finally {
  for (const context of contexts) await context.close();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
}
console.log(JSON.stringify(result));

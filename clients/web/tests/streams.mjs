// One WatchGame stream per table, and none left behind: a page creates a game against an AI (one stream), is
// reloaded (the old stream ends, a new one opens), goes home (its stream ends with the page still open), comes back
// to the game, and is closed; then a second page spectating the game is left open while the browser closes. After
// each step the gateway's tabletop_gateway_calls_in_flight and the service's tabletop_streams_open{WatchGame} are
// read until they equal the streams the open pages should hold. Every wait is on a condition with a generous bound
// (how fast is not checked). Prints one JSON line; exits 1 naming the step whose condition never held.
// Usage: node tests/streams.mjs URL GATEWAY_METRICS_URL SERVICE_METRICS_URL
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium } from "playwright-core";

const [url, gatewayMetrics, serviceMetrics] = process.argv.slice(2);
const WATCH = "/tabletop.v1.GameService/WatchGame";
const BOUND_MS = 60_000;
const POLL_MS = 100;

// A gauge's value; undefined when its server refused the connection: looked at again until the step's bound, and a
// server that stays away fails the step, named (a variable leaked by an earlier test once left the service without
// a metrics server: tests/conftest.py now restores the environment after every test).
async function sample(metricsUrl, name) {
  let reply;
  try {
    reply = await fetch(metricsUrl);
  } catch (error) {
    result.refused.push(`${metricsUrl}: ${error.cause?.code ?? error}`);
    return undefined;
  }
  const text = await reply.text();
  const line = text.split("\n").find((l) => l.startsWith(`${name} `));
  return line === undefined ? 0 : Number(line.slice(name.length + 1));
}

async function gauges() {
  return {
    gateway: await sample(gatewayMetrics, "tabletop_gateway_calls_in_flight"),
    service: await sample(serviceMetrics, 'tabletop_streams_open{method="WatchGame"}'),
  };
}

// Wait until both gauges equal the streams the open pages should hold (`streams()`, asked again at each look;
// undefined: not known yet); the gauges seen last are in the error when they never do.
async function gaugesReach(step, streams) {
  const deadline = Date.now() + BOUND_MS;
  let seen;
  for (;;) {
    seen = await gauges();
    if (seen.gateway === streams() && seen.service === streams()) return seen;
    if (Date.now() > deadline) {
      throw new Error(`${step}: the gauges never came to ${streams()} open stream(s) in ${BOUND_MS / 1000} s; ` +
        `last seen ${JSON.stringify(seen)}; WatchGame calls per page load so far ${JSON.stringify(result.loads)}; ` +
        `refused looks: ${JSON.stringify(result.refused.slice(-5))}`);
    }
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
}

const userDataDir = mkdtempSync(join(tmpdir(), "tabletop-chromium-"));
const FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
  "--disable-background-networking", "--disable-component-update", "--disable-sync"];
const context = await chromium.launchPersistentContext(userDataDir, {
  executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium", headless: true, args: FLAGS,
});
const result = { loads: {}, gauges: {}, statusLines: [], pageErrors: [], refused: [] };
let closed = false;
try {
  const page = context.pages()[0] ?? (await context.newPage());
  page.setDefaultTimeout(BOUND_MS);
  page.on("pageerror", (e) => result.pageErrors.push(String(e)));
  let opened = 0; // WatchGame calls the page made since the last step began
  const tableStreams = () => (opened > 0 ? opened : undefined); // a table shown follows its game: 1 call at least
  page.on("request", (r) => { if (new URL(r.url()).pathname === WATCH) opened += 1; });
  const tableShown = () => page.waitForSelector("[data-testid=seats] li");
  const status = async () => result.statusLines.push(await page.locator("#status").textContent());

  // 1. Create a game against an AI: the table follows it with one stream.
  await page.goto(url);
  await page.getByTestId("game-type").selectOption("naishi");
  await page.getByTestId("create").click();
  await tableShown();
  result.gameId = decodeURIComponent(/game=([^&]+)/.exec(await page.evaluate(() => location.hash))[1]);
  result.gauges.created = await gaugesReach("after creating a game", tableStreams);
  await status();

  // 2. Reload: the old page's stream ends (the gateway sees its connection go), the new page opens one.
  result.loads.created = opened;
  opened = 0;
  await page.reload();
  await tableShown();
  result.gauges.reloaded = await gaugesReach("after a reload", tableStreams);
  await status();

  // 3. Home, the page still open: the table's stream ends with the table.
  result.loads.reloaded = opened;
  opened = 0;
  await page.locator("#home-link").click();
  await page.getByTestId("create").waitFor();
  result.gauges.home = await gaugesReach("on the home page", () => 0);
  result.loads.home = opened;

  // 4. Back to the game, then close the page: nothing is left open.
  opened = 0;
  await page.goBack();
  await tableShown();
  result.gauges.back = await gaugesReach("back at the table", tableStreams);
  await status();
  result.loads.back = opened;
  await page.close({ runBeforeUnload: true });
  result.gauges.pageClosed = await gaugesReach("after the page closed", () => 0);

  // 5. A spectator's page left open while the whole browser closes.
  const spectator = await context.newPage();
  let spectating = 0;
  spectator.on("request", (r) => { if (new URL(r.url()).pathname === WATCH) spectating += 1; });
  await spectator.goto(`${url}#game=${encodeURIComponent(result.gameId)}`);
  await spectator.waitForSelector("[data-testid=seats] li");
  result.gauges.spectating = await gaugesReach("a spectator's page", () => (spectating > 0 ? spectating : undefined));
  result.loads.spectator = spectating;
  await context.close();
  closed = true;
  result.gauges.browserClosed = await gaugesReach("after the browser closed", () => 0);
} finally {
  if (!closed) await context.close();
  rmSync(userDataDir, { recursive: true, force: true });
}
console.log(JSON.stringify(result));

// #replay=GAME_ID: a finished game from the archive (GetReplay), move by move. Each step is an event (every move
// revealed, the secret ones too) and every seat's view after it, drawn side by side by the same boards as the live
// table (boards/, else the generic board): each seat's own hand is in its view, so every hidden card is shown.
// First / previous / next / last, and the keyboard's arrows, Home and End.
import type { Registry } from "@bufbuild/protobuf";
import type { Any } from "@bufbuild/protobuf/wkt";
import { client, hostedGames } from "./api";
import { genericBoard, unpack, type Names } from "./board";
import { BOARDS } from "./boards";
import { h } from "./dom";
import { GameEvent_Kind, GameStatus, type GetReplayResponse, type ReplayStep } from "./gen/tabletop/v1/game_service_pb";
import type { Page } from "./pages";
import { archiveError } from "./ratings";

function boardOf(view: Any, registry: Registry, names: Names): HTMLElement {
  const typed = unpack(view, registry);
  const own = typed && BOARDS.get(typed.$typeName);
  return own ? own(typed, names) : genericBoard(view, registry);
}

const KIND_WORDS: Partial<Record<GameEvent_Kind, string>> = {
  [GameEvent_Kind.CREATED]: "The game was created",
  [GameEvent_Kind.JOINED]: "joined",
  [GameEvent_Kind.STARTED]: "The game started",
  [GameEvent_Kind.LEFT]: "left (the AI plays on)",
  [GameEvent_Kind.RESIGNED]: "resigned",
  [GameEvent_Kind.AWAY]: "is away (the AI plays)",
  [GameEvent_Kind.RETURNED]: "is back",
};

function eventText(step: ReplayStep): string {
  const event = step.event;
  if (!event) return "";
  if (event.moveLabel) return event.moveLabel;
  const who = event.seat !== undefined ? step.seats[event.seat]?.name ?? `Seat ${event.seat}` : "";
  const words = KIND_WORDS[event.kind] ?? "Something happened";
  return who && event.kind !== GameEvent_Kind.CREATED && event.kind !== GameEvent_Kind.STARTED ? `${who} ${words}` : words;
}

export async function replayPage(page: Page, gameId: string): Promise<void> {
  page.app.replaceChildren(h("p", {}, "Loading the replay..."));
  let replay: GetReplayResponse;
  let registry: Registry;
  try {
    registry = (await hostedGames()).registry;
    replay = await client.getReplay({ gameId });
  } catch (e) {
    if (!page.shown.aborted) {
      page.app.replaceChildren(h("section.card-box", {}, h("h2", {}, "Replay"),
        h("p", { "data-testid": "replay-error" }, archiveError(e))));
    }
    return;
  }
  if (page.shown.aborted) return;
  if (!replay.steps.length || !replay.game) {
    page.app.replaceChildren(h("p", { "data-testid": "replay-error" }, "This game has no events to replay."));
    return;
  }
  const steps = replay.steps;
  const game = replay.game;
  let at = 0;
  const counter = h("span.step", { "data-testid": "replay-step" });
  const event = h("p.replay-event", { "data-testid": "replay-event" });
  const seats = h("ul.seats", { "data-testid": "replay-seats" });
  const boards = h("div.replay-boards", { "data-testid": "replay-boards" });
  const score = h("div.score", { "data-testid": "replay-score" });
  const go = (to: number) => { at = Math.max(0, Math.min(steps.length - 1, to)); draw(); };
  const button = (label: string, testid: string, to: () => number) =>
    h("button", { "data-testid": testid, onclick: () => go(to()) }, label);
  const controls = h("div.replay-controls", {},
    button("« First", "replay-first", () => 0), button("◀ Previous", "replay-prev", () => at - 1), counter,
    button("Next ▶", "replay-next", () => at + 1), button("Last »", "replay-last", () => steps.length - 1));

  function draw(): void {
    const step = steps[at];
    const names: Names = (n) => step.seats[n]?.name || `Seat ${n}`;
    counter.textContent = `Step ${at + 1} of ${steps.length}`;
    document.body.dataset.replayStep = String(at + 1);
    event.textContent = eventText(step);
    seats.replaceChildren(...step.seats.map((s) =>
      h(`li${step.toAct.includes(s.seat) ? ".to-act" : ""}`, { "data-seat": s.seat }, s.name)));
    boards.replaceChildren(...step.seatViews.map((view, seat) =>
      h("section.replay-seat", { "data-seat": seat },
        h("h3", {}, `${names(seat)}'s view`), boardOf(view, registry, names))));
    if (!step.seatViews.length) boards.replaceChildren(h("p", {}, "Before the start: nothing dealt yet."));
    score.hidden = !(at === steps.length - 1 && step.status === GameStatus.FINISHED && replay.score);
  }

  const finalScore = replay.score;
  if (finalScore) {
    const place = new Map(finalScore.ranking.flatMap((g, i) => g.seats.map((s) => [s, i + 1] as const)));
    score.replaceChildren(h("h3", {}, "Final score"), h("table", {},
      h("tr", {}, h("th", {}, ""), finalScore.seats.map((s) => h("th", {}, game.seats[s.seat]?.name ?? `Seat ${s.seat}`))),
      h("tr.total", {}, h("td", {}, "Total"), finalScore.seats.map((s) => h("td", {}, `${s.total}`))),
      h("tr", {}, h("td", {}, "Place"), finalScore.seats.map((s) => h("td", {}, `${place.get(s.seat) ?? ""}`)))),
      finalScore.decidedBy ? h("p", {}, finalScore.decidedBy) : "");
  }
  page.app.replaceChildren(h("section.replay", { "data-testid": "replay", "data-game-id": game.gameId },
    h("h2", {}, `Replay: ${game.gameType}, ${game.seats.map((s) => s.name).join(" vs ")}`),
    h("p.small", {}, "Every hand is shown. Keys: ← →, Home, End."),
    controls, event, h("div.replay-body", {}, h("div", {}, h("h3", {}, "Seats"), seats, score), boards)));
  window.addEventListener("keydown", (e) => {
    if (e.target instanceof HTMLInputElement || e.target instanceof HTMLTextAreaElement || e.altKey || e.ctrlKey
      || e.metaKey) return;
    const keys: Record<string, number> = { ArrowLeft: at - 1, ArrowRight: at + 1, Home: 0, End: steps.length - 1 };
    const to = keys[e.key];
    if (to === undefined) return;
    e.preventDefault();
    go(to);
  }, { signal: page.shown });
  draw();
}

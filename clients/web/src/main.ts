// The reference web table: create a game against AIs, join one by its code or from the lobby, then play it live.
import { create, createRegistry, type Registry } from "@bufbuild/protobuf";
import { ConnectError, Code } from "@connectrpc/connect";
import { auth, client, describeError, errorReason, hostedGames } from "./api";
import { genericBoard, unpack, type Rules } from "./board";
import { BOARDS, PATHS, RULES } from "./boards";
import { h } from "./dom";
import { errorCode } from "./errors";
import { choices, choose, following, targetAction, type Pointable } from "./pointing";
import { eventText, seatCounts, seatRange as seatRangeText } from "./labels";
// webplayers: sign-in, the player's pages (#mine, #replay=, #ratings, #leaderboard), ratings in the lobby
import { playerPage } from "./pages";
import { ratedChoice, seatsWithRatings, type RatingsCache } from "./ratings";
import { mountSignIn } from "./signin";
import {
  GameEvent_Kind,
  GameStatus,
  SeatKind,
  SeatSpecSchema,
  Visibility,
  type GameEvent,
  type GameState,
  type GameType,
  type GetScoreResponse,
  type LegalMove,
} from "./gen/tabletop/v1/game_service_pb";

const app = document.getElementById("app")!;
const statusLine = document.getElementById("status")!;

function say(text: string, error = false): void {
  statusLine.textContent = text;
  statusLine.className = error ? "error" : "";
  delete statusLine.dataset.code;
}

// A refused call in plain words; its status code and reason stay on the status line for a bug report.
function sayError(e: unknown): void {
  say(describeError(e), true);
  statusLine.dataset.code = errorCode(e);
}

// A seat's token lives in this tab's session storage, so a reload finds the game again (#game=ID); and in the
// browser's local storage, so that another tab (or this one after it was closed) can take the seat back: it is
// offered there, never taken silently (two tabs acting for one seat would confuse their player).
type Seat = { gameId: string; token?: string; creatorToken?: string; joinCode?: string; savedAt?: number };
const KEPT_SEATS = 50; // the most recent seats kept in local storage

// Go to a seat's table. The address says which game is shown (#game=ID) and route() alone opens tables: setting the
// address runs it (hashchange), so nothing else may open the table too, or the page would follow it twice.
function openTable(seat: Seat): void {
  sessionStorage.setItem(`tabletop:${seat.gameId}`, JSON.stringify(seat));
  keep(seat);
  const hash = `#game=${encodeURIComponent(seat.gameId)}`;
  if (location.hash === hash) route(); // already there: no hashchange would come
  else location.hash = hash;
}

function recall(gameId: string): Seat {
  const raw = sessionStorage.getItem(`tabletop:${gameId}`);
  return raw ? (JSON.parse(raw) as Seat) : { gameId };
}

function keep(seat: Seat): void {
  if (!seat.token && !seat.creatorToken) return;
  try {
    localStorage.setItem(`tabletop-seat:${seat.gameId}`, JSON.stringify({ ...seat, savedAt: Date.now() }));
    const kept = Object.keys(localStorage).filter((k) => k.startsWith("tabletop-seat:"))
      .map((k) => [k, (JSON.parse(localStorage.getItem(k) ?? "{}") as Seat).savedAt ?? 0] as const)
      .sort((a, b) => b[1] - a[1]);
    for (const [k] of kept.slice(KEPT_SEATS)) localStorage.removeItem(k);
  } catch {
    // Storage full or refused (a private window): the seat stays in this tab only.
  }
}

// The seat this browser holds in a game, as another tab kept it.
function keptSeat(gameId: string): Seat | undefined {
  try {
    const raw = localStorage.getItem(`tabletop-seat:${gameId}`);
    return raw ? (JSON.parse(raw) as Seat) : undefined;
  } catch {
    return undefined;
  }
}

// The address that opens the home page with a join code filled in, for a friend.
function joinLink(code: string): string {
  return `${location.origin}${location.pathname}#join=${encodeURIComponent(code)}`;
}

// --- the home page: new game, join by code, the lobby, watch ---

async function home(shown: AbortSignal, joinCode = ""): Promise<void> {
  app.replaceChildren(h("p", {}, "Loading the games..."));
  let types: GameType[] = [];
  try {
    types = (await hostedGames()).types;
  } catch (e) {
    sayError(e);
  }
  if (shown.aborted) return; // the page moved on meanwhile
  const gameSelect = h("select", { id: "game-type", "data-testid": "game-type" },
    types.map((t) => h("option", { value: t.name }, t.title))) as HTMLSelectElement;
  // Empty: the service names the seat "Player 1". The others read this name, so it is never "You" (this table
  // marks the reader's own seat itself).
  const name = h("input", { id: "your-name", value: "", placeholder: "Player 1", maxlength: 64 }) as HTMLInputElement;
  const opponents = h("input", { id: "opponents", type: "number", min: 0, value: 1, "data-testid": "opponents" }) as HTMLInputElement;
  const seatRange = h("p.small", { "data-testid": "seat-range" });
  const strength = h("select", { id: "strength", "data-testid": "strength", "aria-label": "AI strength" },
    ["easy", "normal", "hard"].map((s) => h("option", { value: s }, s))) as HTMLSelectElement;
  const open = h("input", { id: "open-seats", type: "number", min: 0, value: 0 }) as HTMLInputElement;
  const isPublic = h("input", { id: "public", type: "checkbox" }) as HTMLInputElement;
  const rated = ratedChoice(shown); // webplayers
  // Only seat counts the game takes (ListGameTypes' min_seats and max_seats): the field just changed keeps its value
  // within the game's range, and the other one follows so that you, the AIs and the open seats make a valid count.
  const fit = (changed: HTMLInputElement = opponents) => {
    const t = types.find((x) => x.name === gameSelect.value);
    if (!t) return;
    const other = changed === opponents ? open : opponents;
    const [mine, theirs] = seatCounts(t.minSeats, t.maxSeats, Number(changed.value), Number(other.value));
    if (changed.value !== "") changed.value = String(mine); // a field being retyped is left alone until a digit comes
    other.value = String(theirs);
    opponents.max = open.max = String(t.maxSeats - 1);
    seatRange.textContent = seatRangeText(t.title, t.minSeats, t.maxSeats);
  };
  gameSelect.addEventListener("change", () => fit());
  opponents.addEventListener("input", () => fit(opponents));
  open.addEventListener("input", () => fit(open));
  fit();

  async function createGame(): Promise<void> {
    const ai = Number(opponents.value), openSeats = Number(open.value);
    const seats = [
      create(SeatSpecSchema, { kind: SeatKind.HUMAN, name: name.value }),
      ...Array.from({ length: ai }, () => create(SeatSpecSchema, { kind: SeatKind.AI, strength: strength.value })),
      ...Array.from({ length: openSeats }, () => create(SeatSpecSchema, { kind: SeatKind.OPEN })),
    ];
    try {
      const created = await client.createGame({
        gameType: gameSelect.value, seats, start: openSeats === 0,
        visibility: isPublic.checked ? Visibility.PUBLIC : Visibility.PRIVATE,
        rated: rated.rated(), // webplayers
      });
      const seat = { gameId: created.gameId, token: created.seatTokens[0]?.token, creatorToken: created.creatorToken,
                     joinCode: openSeats ? created.joinCode : undefined };
      openTable(seat);
    } catch (e) {
      sayError(e);
    }
  }

  const code = h("input", { id: "join-code", placeholder: "join code", "data-testid": "join-code", value: joinCode }) as HTMLInputElement;
  const joinName = h("input", { id: "join-name", value: "", placeholder: "Player 2, 3...", maxlength: 64 }) as HTMLInputElement;
  async function join(request: { joinCode?: string; gameId?: string }): Promise<void> {
    try {
      const joined = await client.joinGame({ ...request, name: joinName.value });
      const seat = { gameId: joined.gameId, token: joined.token };
      openTable(seat);
    } catch (e) {
      sayError(e);
    }
  }
  const watchId = h("input", { id: "watch-id", placeholder: "game id", "aria-label": "Id of the game to watch" }) as HTMLInputElement;
  const lobby = h("div.lobby", { "data-testid": "lobby" }, "Loading the lobby...");

  app.replaceChildren(
    h("section.card-box", {},
      h("h2", {}, "New game"),
      h("label", {}, "Game ", gameSelect),
      h("label", {}, "Your name ", name),
      h("label", {}, "AI opponents ", opponents, " strength ", strength),
      h("label", {}, "Open seats for friends ", open),
      seatRange,
      h("label", {}, isPublic, " list it in the lobby"),
      rated.element, // webplayers
      h("button", { "data-testid": "create", onclick: createGame }, "Create and play")),
    h("section.card-box", {},
      h("h2", {}, "Join a game"),
      joinCode ? h("p", { "data-testid": "join-invite" }, "A friend invites you: type your name and join.") : null,
      h("label", {}, "Join code ", code), h("label", {}, "Your name ", joinName),
      h("button", { "data-testid": "join", onclick: () => join({ joinCode: code.value.trim() }) }, "Join")),
    h("section.card-box", {}, h("h2", {}, "Lobby"), lobby),
    h("section.card-box", {},
      h("h2", {}, "Watch a game"), watchId,
      h("button", { "data-testid": "watch", onclick: () => { location.hash = `game=${encodeURIComponent(watchId.value.trim())}`; } },
        "Watch")),
  );
  if (joinCode) joinName.focus();
  try {
    const games = (await client.listGames({ pageSize: 20 })).games;
    const ratings: RatingsCache = new Map(); // webplayers: each signed-in seat's rating beside its name
    lobby.replaceChildren(games.length ? h("ul", {}, games.map((g) =>
      h("li", { "data-game-id": g.gameId }, `${g.gameType}${g.rated ? " (rated)" : ""}: `, seatsWithRatings(g, ratings),
        ` (${g.openSeats} open) `,
        h("button", { onclick: () => join({ gameId: g.gameId }) }, "Join")))) : "No public game is waiting.");
  } catch (e) {
    lobby.replaceChildren(describeError(e));
  }
}

// --- the table: board, moves, hint, score, live events ---

// The seats, the score and the log beside the board: open on a wide screen; on a phone (where they come after the
// board) folded, each a tap away, so that the page is the board and the panel of your hand and moves.
function fold(title: string, name: string, ...content: HTMLElement[]): HTMLElement {
  const wide = window.matchMedia("(min-width: 801px)").matches;
  return h("details.fold", { open: wide, "data-fold": name }, h("summary", {}, h("h3", {}, title)), ...content);
}

// `shown` is aborted when the page moves on (another table, home, leaving the page): the table's WatchGame stream
// ends with it.
async function table(seat: Seat, shown: AbortSignal): Promise<void> {
  let state: GameState | undefined;
  let registry: Registry = createRegistry();  // the hosted games' messages, once ListGameTypes has answered
  let rules: Rules | undefined;  // the game's board's rules help, once the game's type is known
  const board = h("div.board-box", { "data-testid": "board" });
  const seats = h("ul.seats", { "data-testid": "seats" });
  const moves = h("div.moves", { "data-testid": "moves" });
  const hint = h("div.hint", { "data-testid": "hint" });
  // A spectator has no moves: the section is for players only, and a spectator is told what it is instead.
  // Your hand and your moves in one panel, kept at the bottom of the screen (sticky) while the board scrolls above
  // it: every move is in reach without scrolling past the board, on a laptop and on a phone.
  const handSlot = h("div.hand-slot", { "data-testid": "your-hand" });
  // A card or place clicked on the way to a move of several parts: what is chosen so far, the moves it leaves that
  // no further click tells apart (their buttons), and a way back (Escape too).
  const selection = h("div.selection", { "data-testid": "selection", hidden: true, "aria-live": "polite" });
  const yours = h("section.your-moves", { hidden: true, "aria-label": "Your hand and your moves" },
    handSlot, selection, h("h3", {}, "Your moves"), moves, hint);
  const watching = h("div.watching", { "data-testid": "watching", hidden: true });
  const help = h("details.rules", { "data-testid": "rules" }, h("summary", {}, "How to play"));
  const score = h("div.score", { "data-testid": "score" });
  // The log scrolls once long: the keyboard reaches it too (arrow keys scroll it once it has the focus).
  const log = h("ol.log", { "data-testid": "log", tabindex: 0, "aria-label": "Game log, newest first" });
  const share = seat.joinCode ? shareBox(seat.joinCode) : null;
  app.replaceChildren(
    h("div.table", {},
      h("div.left", {}, board, yours, watching),
      h("div.right", {}, help, share, fold("Seats", "seats", seats), fold("Score", "score", score,
        h("button", { "data-testid": "refresh-score", onclick: showScore }, "Score now")),
      fold("Game log", "log", log))),
  );
  const names = (n: number) => state?.seats[n]?.name || `Seat ${n + 1}`;
  const left = app.querySelector<HTMLElement>(".left")!;

  // Playing by pointing (src/pointing.ts): the legal moves that a card or place of the board stands for, each with
  // the keys clicked to choose it, and the keys clicked so far. Recomputed at every state drawn; a new version of
  // the game forgets a half-made choice.
  let pointables: Pointable[] = [];
  let chosen: string[] = [];
  let pointedVersion: bigint | undefined;

  function point(next: GameState): void {
    const view = unpack(next.view, registry);
    const path = view && PATHS.get(view.$typeName);
    const mine = next.yourSeat !== undefined && next.toAct.includes(next.yourSeat);
    pointables = path && mine ? next.legalMoves.flatMap((m) => {
      const typed = unpack(m.move, registry);
      return typed ? [{ id: m.id, label: m.label, path: path(typed, view) }] : [];
    }) : [];
    // A move that a card or place stands for says so on its button (tests/click_play.mjs checks its card is lit).
    const pointed = new Set(pointables.filter((m) => m.path.length).map((m) => m.id));
    for (const b of moves.querySelectorAll<HTMLElement>("button.move")) b.toggleAttribute("data-pointed", pointed.has(b.dataset.moveId!));
    if (pointedVersion !== next.version) chosen = [];
    pointedVersion = next.version;
    arm();
  }

  // Marks the board's cards and places that a legal move goes through next as buttons ("choosable": an outline and a
  // marker), and those chosen so far as pressed. A button's name is what it shows (the text seen is in the name, as
  // WCAG's label in name asks) followed by what it does, in words only a screen reader reads.
  function arm(): void {
    const next = choices(pointables, chosen);
    for (const el of left.querySelectorAll<HTMLElement>("[data-target]")) {
      const key = el.dataset.target!;
      const name = el.dataset.targetName ?? key;
      const isChosen = chosen.includes(key);
      const leadsTo = next.get(key);
      el.classList.toggle("chosen", isChosen);
      el.classList.toggle("choosable", !isChosen && !!leadsTo);
      if (isChosen || leadsTo) {
        el.setAttribute("role", "button");
        el.tabIndex = 0;
        let said = el.querySelector<HTMLElement>(":scope > .target-action");
        if (!said) el.append(said = h("span.target-action.visually-hidden"));
        said.textContent = targetAction(name, isChosen ? "chosen" : leadsTo!);
        if (isChosen || leadsTo!.length > 1) el.setAttribute("aria-pressed", String(isChosen));
        else el.removeAttribute("aria-pressed");
      } else {
        for (const a of ["role", "tabindex", "aria-pressed"]) el.removeAttribute(a);
        el.querySelector(":scope > .target-action")?.remove();
      }
    }
    drawSelection();
  }

  function drawSelection(): void {
    // While a choice is half made, the move buttons below are those it may still become (less those offered here).
    const still = new Set(following(pointables, chosen).filter((m) => m.path.length > chosen.length).map((m) => m.id));
    for (const group of moves.querySelectorAll<HTMLElement>(".group")) {
      const buttons = [...group.querySelectorAll<HTMLButtonElement>("button.move")];
      for (const b of buttons) b.hidden = chosen.length > 0 && !still.has(b.dataset.moveId!);
      group.hidden = buttons.every((b) => b.hidden);
    }
    selection.hidden = !chosen.length;
    if (!chosen.length) {
      selection.replaceChildren();
      return;
    }
    const named = chosen.map((key) => left.querySelector<HTMLElement>(`[data-target="${CSS.escape(key)}"]`)?.dataset.targetName ?? key);
    const complete = following(pointables, chosen).filter((m) => m.path.length === chosen.length);
    const more = choices(pointables, chosen).size;
    selection.replaceChildren(
      h("p", {}, h("strong", {}, `Chosen: ${named.join(", then ")}. `),
        more ? "Click a highlighted card or place to go on" : "", more && complete.length ? ", or choose below." : more ? "." : "Choose below."),
      h("div.group", {}, complete.map((m) => h("button.move.confirm", { "data-move-id": m.id, onclick: () => playId(m.id) }, m.label)),
        h("button.cancel", { "data-testid": "cancel-choice", onclick: cancelChoice }, "Cancel (Esc)")),
    );
  }

  function cancelChoice(): void {
    chosen = [];
    arm();
  }

  // A click (or Enter, Space) on a card or place: play the one move it leaves, or choose it and show what follows.
  function activate(key: string): void {
    const at = chosen.indexOf(key);
    if (at >= 0) {
      chosen = chosen.slice(0, at); // a chosen one clicked again: undo back to before it
      arm();
      return;
    }
    const step = choose(pointables, chosen, key);
    if (step.kind === "play") void playId(step.move.id);
    else if (step.kind === "select") {
      chosen = step.chosen;
      arm();
    }
  }

  const pointedAt = (e: Event) => (e.target as Element | null)?.closest<HTMLElement>("[data-target].choosable, [data-target].chosen");
  left.addEventListener("click", (e) => {
    const el = pointedAt(e);
    if (el && left.contains(el)) activate(el.dataset.target!);
  });
  left.addEventListener("keydown", (e) => {
    const el = pointedAt(e);
    if (!el || e.target !== el || (e.key !== "Enter" && e.key !== " ")) return;
    e.preventDefault(); // Space would scroll the page
    activate(el.dataset.target!);
  });
  const escape = (e: KeyboardEvent) => {
    if (e.key === "Escape" && chosen.length) cancelChoice();
  };
  document.addEventListener("keydown", escape);
  shown.addEventListener("abort", () => document.removeEventListener("keydown", escape));

  function playId(id: string): Promise<void> {
    const move = state?.legalMoves.find((m) => m.id === id);
    return move ? play(move) : Promise.resolve();
  }

  function shareBox(code: string): HTMLElement {
    const link = joinLink(code);
    const field = h("input.join-link", { readonly: true, value: link, "data-testid": "join-link",
      "aria-label": "Join link for your friends" }) as HTMLInputElement;
    const copy: HTMLElement = h("button", { "data-testid": "copy-link", onclick: async () => {
      try {
        await navigator.clipboard.writeText(link);
        copy.textContent = "Link copied";
        say("The join link is copied: send it to your friends.");
      } catch {
        field.select(); // no clipboard (an insecure page, or refused): the link is selected for Ctrl+C
        say("Copy the selected link (Ctrl+C) and send it to your friends.");
      }
    } }, "Copy join link");
    return h("div.share", {},
      h("div", {}, "Join code for your friends: ", h("code.join-code", { "data-testid": "share-code" }, code)),
      h("div.share-link", {}, field, copy),
      h("button", { "data-testid": "start", onclick: start }, "Start (open seats go to the AI)"));
  }

  async function start(): Promise<void> {
    try {
      await client.startGame({ gameId: seat.gameId }, auth(seat.creatorToken));
      share?.remove();
    } catch (e) {
      sayError(e);
    }
  }

  function explain(type: GameType | undefined): void {
    const title = type?.title ?? state?.gameType ?? "this game";
    help.replaceChildren(h("summary", {}, `How to play ${title}`), h("div", {},
      type?.description ? h("p", {}, type.description) : null,
      rules ? h("ul", { "data-testid": "how-to" }, rules.howTo.map((line) => h("li", {}, line))) : null,
      rules?.legend.length ? [h("h4", {}, "What the board shows"),
        h("dl.legend", { "data-testid": "legend" }, rules.legend.map(([term, meaning]) => [h("dt", {}, term), h("dd", {}, meaning)]))]
        : null,
      h("p.small", {}, "Hover over a card for what it does; the game log tells every move.")));
  }

  function draw(next: GameState): void {
    if (shown.aborted) return; // an answer for a table no longer shown
    if (state && next.version < state.version) return; // an older answer that arrived late
    state = next;
    const view = next.view;
    const typed = unpack(view, registry);
    const own = typed && BOARDS.get(typed.$typeName);
    // A card or place with the keyboard's focus keeps it when the board is drawn again (an update of the game).
    const focused = document.activeElement instanceof HTMLElement && left.contains(document.activeElement)
      ? document.activeElement.dataset.target : undefined;
    if (!view) board.replaceChildren(h("p", {}, "Waiting for the game to start."));
    else board.replaceChildren(own ? own(typed, names) : genericBoard(view, registry));
    handSlot.replaceChildren(...yourHand());
    seats.replaceChildren(...next.seats.map((s) =>
      h(`li${next.toAct.includes(s.seat) ? ".to-act" : ""}`, { "data-seat": s.seat },
        `${s.name} (${SeatKind[s.kind].toLowerCase()}${s.strength ? ` ${s.strength}` : ""})`,
        s.seat === next.yourSeat ? " — you" : "")));
    const spectator = next.yourSeat === undefined;
    yours.hidden = spectator;
    watching.hidden = !spectator;
    if (spectator) drawWatching();
    else drawMoves(next.legalMoves);
    point(next);
    if (focused) left.querySelector<HTMLElement>(`[data-target="${CSS.escape(focused)}"][tabindex]`)?.focus({ preventScroll: true });
    for (const event of next.recentEvents) addEvent(event);
    const over = next.status === GameStatus.FINISHED;
    say(over ? "The game is over." : !spectator && next.toAct.includes(next.yourSeat!)
      ? "Your turn." : next.status === GameStatus.WAITING_FOR_PLAYERS ? "Waiting for players."
        : spectator ? "You are watching." : "Waiting for the others.");
    document.body.dataset.version = String(next.version);
    document.body.dataset.status = GameStatus[next.status];
    if (over) void showScore();
  }

  // The reader's hand, as the board drew it (a game's board marks it "hand", Naishi's "hand-SEAT" in the reader's
  // territory), taken out of the board, with its label, into the panel of your moves; and a secret choice of the
  // reader's own that the board shows (Naishi's gift, "gift"), after it.
  function yourHand(): HTMLElement[] {
    const hand = board.querySelector<HTMLElement>("[data-testid=hand], .territory.mine [data-testid^=hand-]");
    const gift = board.querySelector<HTMLElement>("[data-testid=gift]");
    const choice = gift ? [h("h3", {}, "Your choice"), gift] : [];
    if (!hand) return choice;
    const label = hand.previousElementSibling;
    if (label?.matches(".rowlabel, .small") && /hand/i.test(label.textContent ?? "")) label.remove();
    // a row that may scroll sideways: the keyboard reaches it too (arrow keys scroll it once it has the focus)
    hand.tabIndex = 0;
    hand.setAttribute("role", "group");
    hand.setAttribute("aria-label", "Your hand");
    return [h("h3", {}, "Your hand"), hand, ...choice];
  }

  // A spectator's note, and the seat this browser holds in the game (kept by another tab) offered back.
  function drawWatching(): void {
    const kept = keptSeat(seat.gameId);
    watching.replaceChildren(h("p", {}, "You are watching this game: you hold no seat in this tab."),
      kept && kept.token !== seat.token
        ? h("p", {}, "This browser holds a seat in it. ",
          h("button", { "data-testid": "resume-seat", onclick: () => openTable({ ...kept }) }, "Resume your seat"))
        : "");
  }

  function moveGroup(move: LegalMove): string {
    const typed = unpack(move.move, registry) as unknown as Record<string, { case?: string }> | undefined;
    const kind = typed && Object.values(typed).find((v) => v && typeof v === "object" && "case" in v)?.case;
    return kind ? kind.replace(/([A-Z])/g, " $1").toLowerCase() : "moves";
  }

  function drawMoves(legal: LegalMove[]): void {
    hint.replaceChildren();
    if (!legal.length) {
      moves.replaceChildren(h("p", {}, state?.status === GameStatus.FINISHED ? "No more moves." : "Nothing to do now."));
      return;
    }
    const groups = new Map<string, LegalMove[]>();
    for (const m of legal) groups.set(moveGroup(m), [...(groups.get(moveGroup(m)) ?? []), m]);
    moves.replaceChildren(
      h("button.hint-button", { "data-testid": "ask-hint", onclick: askHint }, "Hint: what would the AI play?"),
      ...[...groups].map(([group, list]) => h("div.group", {}, h("div.group-name", {}, group),
        list.map((m) => h("button.move", { "data-move-id": m.id, onclick: () => play(m) }, m.label)))),
    );
  }

  async function play(move: LegalMove): Promise<void> {
    if (!state) return;
    for (const b of yours.querySelectorAll("button")) (b as HTMLButtonElement).disabled = true;
    pointables = []; // nothing more to click until the answer comes
    chosen = [];
    arm();
    try {
      const answer = await client.makeMove({ gameId: seat.gameId, move: { case: "moveId", value: move.id },
        expectedVersion: state.version, requestId: crypto.randomUUID() }, auth(seat.token));
      if (answer.state) draw(answer.state);
    } catch (e) {
      // ABORTED: the game changed meanwhile in a way this seat sees (a timer, a seat leaving; never another seat's
      // secret choice made while this one chooses, docs/api.md): read it again and let the player decide.
      sayError(e);
      if (ConnectError.from(e).code === Code.Aborted || ConnectError.from(e).code === Code.FailedPrecondition) {
        const fresh = await client.getState({ gameId: seat.gameId }, auth(seat.token));
        if (fresh.state) draw(fresh.state);
      } else if (state) {
        drawMoves(state.legalMoves);
        point(state);
      }
    }
  }

  async function askHint(): Promise<void> {
    hint.replaceChildren("The AI is thinking...");
    try {
      const s = await client.suggestMove({ gameId: seat.gameId, timeBudgetSeconds: 1 }, auth(seat.token));
      const searched = s.candidates.some((c) => c.visits > 0n);
      hint.replaceChildren(h("strong", { "data-testid": "hint-move", "data-move-id": s.bestMoveId }, s.bestMoveLabel),
        searched
          ? h("ul", {}, s.candidates.slice(0, 5).map((c) =>
            h("li", {}, `${c.label}: wins about ${Math.round(100 * c.winRate)}% of the ${c.visits} games the AI ` +
              "played out after it")))
          : h("p", {}, "The only legal move: nothing to search."));
      moves.querySelector(`button[data-move-id="${CSS.escape(s.bestMoveId)}"]`)?.classList.add("suggested");
    } catch (e) {
      hint.replaceChildren(describeError(e));
    }
  }

  async function showScore(): Promise<void> {
    try {
      drawScore(await client.getScore({ gameId: seat.gameId }, auth(seat.token)));
    } catch (e) {
      score.replaceChildren(describeError(e));
    }
  }

  // A live score reckoned on a guess of what the reader cannot see (GetScore.estimated: another Hand's order) is
  // shown as an estimate; a public one (Zipang's coins) and the final score are exact.
  function drawScore(s: GetScoreResponse): void {
    const categories = s.seats[0]?.breakdown.map((b) => b.category) ?? [];
    const place = new Map(s.ranking.flatMap((g, i) => g.seats.map((seatNo) => [seatNo, i + 1] as const)));
    const about = s.estimated ? "≈ " : "";
    score.replaceChildren(
      h("div", { "data-testid": s.final ? "final-score" : "live-score" },
        s.final ? "Final score" : s.estimated ? "Score so far, estimated" : "Score so far"),
      s.estimated ? h("p.small", { "data-testid": "estimate-note" },
        "An estimate: what you cannot see (the other Hand) is counted as a random guess, so it may be wrong.") : "",
      h(`table${s.estimated ? ".estimate" : ""}`, {},
        h("tr", {}, h("th", {}, ""), s.seats.map((x) => h("th", {}, names(x.seat)))),
        categories.map((c, i) => h("tr", {}, h("td", {}, c), s.seats.map((x) =>
          h("td", {}, `${x.breakdown[i]?.points ?? ""}`)))),
        h("tr.total", {}, h("td", {}, "Total"), s.seats.map((x) =>
          h("td", { "data-testid": `total-${x.seat}` }, `${about}${x.total}`))),
        s.final ? h("tr", {}, h("td", {}, "Place"), s.seats.map((x) => h("td", {}, `${place.get(x.seat) ?? ""}`))) : null),
      s.decidedBy ? h("p", {}, s.decidedBy) : "",
    );
  }

  const seen = new Set<number>();
  function addEvent(event: GameEvent): void {
    const version = Number(event.version);
    // Another seat's secret move is told as such ("Ann planned": the service names the seat, never the move).
    const text = eventText(event, names, rules?.secretMove);
    if (!text || seen.has(version)) return;
    seen.add(version);
    const line = h(`li${event.kind === GameEvent_Kind.MOVE && !event.moveLabel ? ".secret" : ""}`, { value: version }, text);
    const later = [...log.children].find((li) => Number((li as HTMLLIElement).value) < version);
    log.insertBefore(line, later ?? null); // newest first
  }

  // Follow the game: one WatchGame stream, until the table is left (the signal cancels the call: the browser closes
  // the connection and the gateway ends the upstream call). It starts from the version drawn when the log drawn is
  // the whole game's, else from the creation (GetState tells only the latest events: a late spectator gets them
  // all), and resumes after a dropped stream from the last event received.
  async function follow(from: bigint): Promise<void> {
    while (!shown.aborted) {
      try {
        for await (const update of client.watchGame({ gameId: seat.gameId, fromVersion: from },
          { ...auth(seat.token), signal: shown })) {
          if (update.event) {
            addEvent(update.event);
            from = update.event.version;
          }
          if (update.state) draw(update.state);
        }
        if (state?.status === GameStatus.FINISHED) return;
      } catch (e) {
        if (shown.aborted) return;
        say(`Live updates interrupted (${describeError(e)}); reconnecting...`, true);
        await new Promise((r) => setTimeout(r, 1000));
      }
    }
  }

  let first: GameState | undefined;
  try {
    const games = await hostedGames();
    registry = games.registry;
    first = (await client.getState({ gameId: seat.gameId }, auth(seat.token))).state;
    const type = games.types.find((t) => t.name === first?.gameType);
    rules = type && RULES.get(type.viewType);
    explain(type);
    if (first) draw(first);
  } catch (e) {
    if (shown.aborted) return;
    sayError(e);
    const e2 = ConnectError.from(e);
    if (e2.code === Code.NotFound || errorReason(e) === "INVALID_GAME_ID") {
      app.replaceChildren(h("section.card-box", { "data-testid": "no-such-game" },
        h("h2", {}, "No such game"),
        h("p", {}, `No game has the id “${seat.gameId}”: check it, or the game ended and is no longer kept.`),
        h("p", {}, h("a", { href: "#" }, "Back to the start page"))));
    }
    return;
  }
  if (!first || shown.aborted) return;
  const whole = first.recentEvents[0]?.version === 1n;
  void follow(whole ? first.version : 0n);
}

// What the page shows now (home or one table): leaving it (another address, or leaving the page) aborts it, which
// ends what it holds open. One thing shown at a time, so one WatchGame stream at most.
let showing = new AbortController();

function route(): void {
  showing.abort();
  showing = new AbortController();
  const match = /game=([^&]+)/.exec(location.hash);
  const invited = /join=([^&]+)/.exec(location.hash);
  say("");
  if (match) void table(recall(decodeURIComponent(match[1])), showing.signal);
  else if (!playerPage(location.hash, { app, say, shown: showing.signal })) { // webplayers
    void home(showing.signal, invited ? decodeURIComponent(invited[1]) : "");
  }
}

document.getElementById("home-link")!.addEventListener("click", () => { location.hash = ""; });
mountSignIn(document.querySelector("header")!); // webplayers
window.addEventListener("hashchange", route);
// Leaving the page (closed, reloaded, another site; or put in the back-forward cache) ends its stream at once rather
// than when the browser gets round to closing the connection; a page restored from that cache opens it again.
window.addEventListener("pagehide", () => showing.abort());
window.addEventListener("pageshow", (event) => { if (event.persisted) route(); });
route();

// The table's words that follow from the game's facts alone (no page, no call): a log line per event, and the seat
// counts the new-game form allows. Kept apart from main.ts so that they are unit-tested (tests/unit).
import { GameEvent_Kind, GameEvent_MovedBy, type GameEvent } from "./gen/tabletop/v1/game_service_pb";

// One line of the game log. Another seat's secret move comes with the seat and no label (the service never tells
// it): it is told as "Ann planned", with the game's word for it (its board's Rules.secretMove).
export function eventText(e: GameEvent, names: (seat: number) => string, secretMove = "made a secret move"): string {
  const who = e.seat !== undefined ? names(e.seat) : "";
  switch (e.kind) {
    case GameEvent_Kind.CREATED: return "The game was created.";
    case GameEvent_Kind.JOINED: return `${who} took a seat.`;
    case GameEvent_Kind.STARTED: return "The game started.";
    case GameEvent_Kind.LEFT: return `${who} left: the AI plays that seat now.`;
    case GameEvent_Kind.RESIGNED: return `${who} resigned.`;
    case GameEvent_Kind.AWAY: return `${who} is away: the AI plays for them until they are back.`;
    case GameEvent_Kind.RETURNED: return `${who} is back.`;
    case GameEvent_Kind.MOVE: {
      const said = e.moveLabel || `${who} ${secretMove}`;
      const by = e.movedBy === GameEvent_MovedBy.AI_ON_TIMEOUT ? " (the AI, as time ran out)"
        : e.movedBy === GameEvent_MovedBy.AI_TAKEOVER ? " (the AI, for the absent player)" : "";
      return said + by;
    }
    default: return "";
  }
}

// The AI opponents and open seats of a new game, after one of the two counts changed: the changed one kept within
// the game's range, the other following, so that the creator, the AIs and the open seats make minSeats to maxSeats.
export function seatCounts(minSeats: number, maxSeats: number, changed: number, other: number): [number, number] {
  const whole = (n: number) => Math.max(0, Math.floor(Number.isFinite(n) ? n : 0));
  const mine = Math.min(whole(changed), maxSeats - 1);
  return [mine, Math.max(minSeats - 1 - mine, Math.min(whole(other), maxSeats - 1 - mine))];
}

// What the form says of a game's seats: "Naishi is for 2 players: you and 1 more."
export function seatRange(title: string, minSeats: number, maxSeats: number): string {
  return minSeats === maxSeats
    ? `${title} is for ${minSeats} players: you and ${minSeats - 1} more.`
    : `${title} is for ${minSeats} to ${maxSeats} players: you and ${minSeats - 1} to ${maxSeats - 1} more.`;
}

"""`tabletop play` and `tabletop watch`: a game in the terminal, on plain stdin / stdout.

Play: your view (your hand, the board, what the others did, the score on demand), the legal moves numbered;
type a number (or a move id), `?` for what the board's abbreviations mean, `h` for a hint with the AI's statistics
(a page of candidates; `h` again: the next page), `s` for the score, `b` to show the board and the moves again, `f`
for the full board, `q` to quit. The board and the moves fit on the terminal (80 x 24 at the least,
shutil.get_terminal_size): a compact board when the full one does not fit, and a long move list grouped in two
steps (tabletop.terminal.screen); other lines are wrapped at words. Colours only on a terminal, and never with
NO_COLOR set. The seat's name is what the other players read: by default the service's "Player N", never "You".
"""

from __future__ import annotations

import argparse
import shutil
import sys
import time
from dataclasses import dataclass

from clients import connection, render
from clients.render import Style
from clients.session import (
    CONNECT_SECONDS,
    DEFAULT_TARGET,
    LocalStarter,
    fail,
    given_target,
    open_client,
    parse_seats,
    say,
    service_target,
)
from games import registry
from tabletop.client import Client, Player, StaleVersion, TabletopError
from tabletop.terminal import screen
from tabletop.v1 import game_service_pb2 as pb

KEYS = "? legend, h hint, s score, b board, f full board, q quit"
HELP_KEYS = f"number or id; {KEYS}"
HINT_PAGE = 5  # candidates a hint lists at once (`h` again: the next ones): with its head, well within 80 x 24


@dataclass(frozen=True)
class Hint:
    """The last hint of a decision: the state's version it was asked at, the AI's answer, the next page's start."""

    version: int
    suggestion: pb.SuggestMoveResponse
    next: int


def _game_type(client: Client, name: str) -> pb.GameType:
    types = {t.name: t for t in client.game_types()}
    if name not in types:
        raise SystemExit(f"unknown game {name!r}; this service hosts: {', '.join(sorted(types))}")
    return types[name]


def event_lines(update: pb.WatchGameResponse, before: pb.GameState | None) -> list[str]:
    """An event in words: a move told to this reader by its label ("You play ...", "Ann plays ..."), then what it
    changed that the label does not say; a secret move (no label) by its visible effects, or as "Ann moved"."""
    event, state = update.event, update.state
    who = render.seat_name(state, event.seat) if event.HasField("seat") else ""
    kind = pb.GameEvent.Kind.Name(event.kind).removeprefix("KIND_").lower()
    if event.kind == pb.GameEvent.KIND_MOVE:
        head = event.move_label or f"{who} moved"
    elif event.kind == pb.GameEvent.KIND_JOINED:
        head = f"{who} joined"
    else:
        head = f"the game was {kind}"
    told = bool(event.move_label)
    effects = render.describe_changes(before, state, skip_seat=event.seat if told else None)
    lines = [head, *effects] if told else effects or [head]
    return [f"  v{event.version} {line}" for line in lines]


def terminal_size() -> tuple[int, int]:
    """The terminal's columns and lines, 80 x 24 at the least."""
    columns, lines = shutil.get_terminal_size((screen.MIN_WIDTH, screen.MIN_HEIGHT))
    return screen.size(columns, lines)


def say_wrapped(*lines: str) -> None:
    """Lines wrapped at the screen's width, at word boundaries."""
    width, _ = terminal_size()
    say(*[part for line in lines for part in screen.wrap(line, width)])


def say_fitted(*lines: str) -> None:
    """Lines wrapped at words on a terminal; to a pipe or a file, as they are (a log keeps one line per line)."""
    if sys.stdout.isatty():
        say_wrapped(*lines)
    else:
        say(*lines)


# --- play -----------------------------------------------------------------------------------------------------


def countdown(state: pb.GameState, seat: int) -> str:
    """The seat's turn timer in words: " (23 s left, then the AI moves for you)"; empty without a timer."""
    info = next((s for s in state.seats if s.seat == seat), None)
    if info is None or not info.HasField("deadline_unix_ms"):
        return ""
    left = max(0, round(info.deadline_unix_ms / 1000 - time.time()))
    then = "you forfeit" if state.timer.on_timeout == pb.TIMEOUT_POLICY_FORFEIT else "the AI moves for you"
    return f" ({left} s left, then {then})"


class Table:
    """One human seat at the terminal: show, ask, send."""

    def __init__(self, player: Player, style: Style, hint_strength: str, own_stack: bool = False):
        self.player = player
        self.own_stack = own_stack  # the service is the local stack this command started: it stops as we go
        self.style = style
        self.hint_strength = hint_strength
        self.menu: screen.Menu | None = None  # the numbering of the decision being made
        self.opened: int | None = None  # the group listed, in a grouped list
        self.hint: Hint | None = None  # the decision's last hint, paged by `h`
        self.quitted = ""  # how the player went, when they did: "left" or "resigned"

    @staticmethod
    def size() -> tuple[int, int]:
        return terminal_size()

    @staticmethod
    def say(*lines: str) -> None:
        say_wrapped(*lines)

    def show_board(self, state: pb.GameState) -> None:
        self.say("", *render.render_state(state, self.style))

    def show_score(self, state: pb.GameState) -> None:
        self.say(*render.render_score(self.player.score(), state, self.style))

    def show_decision(self, state: pb.GameState) -> None:
        """The board and the moves (or the opened group's moves), together on one screen."""
        width, height = self.size()
        head = self.style.paint("Your move:", "bold") + countdown(state, self.player.seat)
        shown = render.decision_screen(state, self.style, head, width, height, menu=self.menu, opened=self.opened)
        self.menu = shown.menu
        say(*shown.lines)

    def prompt(self) -> str:
        if self.opened is not None:
            return f"[{self.menu.choices(self.opened)} back; {KEYS}] > "
        return f"[{HELP_KEYS}] > "

    def decide(self, state: pb.GameState) -> bool:
        """Ask until a move is made (True) or the player quits (False)."""
        self.menu, self.opened, self.hint = None, None, None
        self.show_decision(state)
        while True:
            try:
                answer = input(self.prompt()).strip()
            except EOFError:
                return False
            if answer in ("q", "quit"):
                if self.quit():
                    return False
                continue
            if answer == "h":
                self._hint(state)
            elif answer == "s":
                self.show_score(state)
            elif answer == "?":
                self.say(*render.legend(state), f"  Keys: {HELP_KEYS}")
            elif answer == "f":
                self.show_board(state)
            elif answer in ("b", ""):
                self.opened = None
                self.show_decision(state)
            elif answer in ("0", "-") and self.opened is not None:
                self.opened = None
                self.show_decision(state)
            else:
                picked = self.menu.pick(answer, self.opened)
                if isinstance(picked, int):
                    self.opened = picked
                    self.show_decision(state)
                    continue
                if picked is None:
                    self.say(f"  '{answer}' is not one of the moves ({self.menu.choices(self.opened)}); "
                             f"? explains the board, b shows the moves again")
                    continue
                try:
                    self.player.move(picked.id, expected_version=state.version)
                    return True
                except StaleVersion:
                    say("  not played: the game changed before your move arrived (what changed follows); choose again")
                    return True
                except TabletopError as error:
                    self.say(f"  not played: {error.message} ({error.reason or error.code.name})")
                    state = self.player.state()
                    if self.player.seat not in state.to_act or not state.legal_moves:
                        return True  # the next event tells what happened
                    self.menu, self.opened = None, None
                    self.show_decision(state)

    def quit(self) -> bool:
        """Ask how to go: leave (the AI plays on for you) or resign (last place); False to stay."""
        try:
            leave = "the game stops with the local stack" if self.own_stack else "the AI plays your seat on"
            answer = input(f"  l = leave ({leave}), r = resign (last place), anything else = stay > ").strip().lower()
        except EOFError:
            answer = "l"
        try:
            if answer in ("l", "leave"):
                self.player.leave()
                self.quitted = "left"
                return True
            if answer in ("r", "resign"):
                self.player.resign()
                self.quitted = "resigned"
                return True
        except TabletopError as error:
            say(f"  could not: {error.message} ({error.reason or error.code.name})")
        return False

    def _hint(self, state: pb.GameState) -> None:
        """The AI's pick and a page of its candidates (HINT_PAGE, so that the move list stays on the screen); `h`
        again at the same decision shows the next page of the same search, then the first again."""
        if self.hint is not None and self.hint.version == state.version:
            suggestion, first = self.hint.suggestion, self.hint.next
        else:
            say(f"  thinking ({self.hint_strength})...")
            try:
                suggestion = self.player.suggest(strength=self.hint_strength)
            except TabletopError as error:
                say(f"  no hint: {error.message} ({error.reason or error.code.name})")
                return
            first = 0
        width, _ = self.size()
        number = self.menu.number if self.menu is not None else None
        lines = render.render_suggestion(suggestion, state, self.style, number, first=first, count=HINT_PAGE,
                                         width=width)
        total, last = len(suggestion.candidates), min(first + HINT_PAGE, len(suggestion.candidates))
        following = last if last < total else 0
        if total > HINT_PAGE:
            then = f"the next {min(HINT_PAGE, total - last)}" if following else "the first ones again"
            lines.append(f"  candidates {first + 1}-{last} of {total}; h again shows {then}")
        self.hint = Hint(state.version, suggestion, following)
        self.say(*lines)

    def play(self) -> bool:
        """Follow the game and decide whenever the seat is to act; False if the player quit."""
        state = self.player.state()
        seat = self.player.seat
        previous = state
        if seat in state.to_act and state.legal_moves:
            if not self.decide(state):
                return False
        else:
            self.show_board(state)
        for update in self.player.watch(from_version=state.version):
            self.say(*event_lines(update, previous))
            previous = update.state
            if update.event.game_over:
                return True
            if seat in update.state.to_act and update.state.legal_moves:
                now = self.player.state()
                if now.version != update.event.version or seat not in now.to_act:
                    continue  # the game moved on: later events are on their way
                if not self.decide(now):
                    return False
        return True


def _play_args(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="tabletop play", description="Play a game in the terminal against AI seats.")
    parser.add_argument("game", help=f"the game to play: {', '.join(registry.names())}")
    parser.add_argument("--seats", help="who holds each seat, in order: one `human` (you) and `ai`, `ai:easy`, "
                        "`ai:normal`, `ai:hard` (default: you, then normal AIs up to the game's seat count)")
    parser.add_argument("--target", help="HOST:PORT of a running game service (default: TABLETOP_SERVICE_TARGET, "
                        "else a local stack is started and stopped)")
    parser.add_argument("--name", default="", help="your name as the other players see it (default: the "
                        "service's name for your seat, e.g. Player 1)")
    parser.add_argument("--options", default=None, help="game options as a JSON object, e.g. '{\"advanced\": true}'")
    parser.add_argument("--hint-strength", default="normal", choices=("easy", "normal", "hard"),
                        help="the AI strength behind the h key")
    parser.add_argument("--turn-seconds", type=int, default=0,
                        help="a turn timer: seconds per decision, then the AI moves for you (default: none)")
    parser.add_argument("--resume", metavar="GAME_ID",
                        help="go back to your seat of a game you took with your --token, from any machine, instead "
                             "of creating a game (needs --target)")
    connection.add_arguments(parser, identity=True)
    return parser.parse_args(argv)


def play_main(argv: list[str], local: LocalStarter | None = None) -> int:
    """`tabletop play`; `local` starts a local stack when no service is named (see clients.session)."""
    import json

    args = _play_args(argv)
    try:
        options = json.loads(args.options) if args.options else {}
    except ValueError as exc:
        return fail(f"--options is not JSON: {exc}")
    style = Style.for_stream(sys.stdout)
    if args.resume and not given_target(args.target):
        return fail("tabletop play: --resume needs the service the game is on (--target or TABLETOP_SERVICE_TARGET)")
    with service_target(args.target, local=local) as target:
        try:
            link = connection.Connection.from_args(args)
            if args.resume and not link.identity:
                return fail("tabletop play: --resume needs your identity (--token or TABLETOP_IDENTITY_TOKEN)")
            link.check(target, "your seat token")
            client = link.connect(target, wait=CONNECT_SECONDS)
        except TabletopError as error:
            return fail(f"tabletop play: {error.message}")
        except ValueError as error:  # PlaintextRefused, an unreadable --ca-file, a bad TABLETOP_* flag
            return fail(f"tabletop play: {error}")
        with client:
            return _play(args, client, target, options, style, own_stack=given_target(args.target) is None)


def _play(args: argparse.Namespace, client, target: str, options: dict, style: Style, own_stack: bool) -> int:
    """Create the game and play it; `own_stack`: the service is the local stack this command started."""
    try:
        if args.resume:
            return _resume(args, client, target, style)
        game_type = _game_type(client, args.game)
        default = ",".join(["human"] + ["ai:normal"] * (max(game_type.max_seats, 2) - 1))
        seats = parse_seats(args.seats or default, args.name)
        humans = [i for i, s in enumerate(seats) if s.kind == pb.SEAT_KIND_HUMAN]
        if len(humans) != 1:
            return fail("--seats needs exactly one human seat (you)")
        timer = pb.TurnTimer(turn_seconds=args.turn_seconds) if args.turn_seconds else None
        game = client.create_game(args.game, seats, options=options or None, start=True, timer=timer)
        watch = f"tabletop watch {game.game_id} --target {target}"
        say_wrapped(f"Game {game.game_id}: {game_type.title}. "
                    f"You are seat {humans[0] + 1} ({render.seat_name(game.state, humans[0])}).",
                    f"Others may watch it {'while you play' if own_stack else 'with'}:", f"  {watch}")
        return _play_seat(Table(game.player(humans[0]), style, args.hint_strength, own_stack), own_stack, watch)
    except ValueError as exc:
        return fail(str(exc))
    except TabletopError as error:
        return fail(f"tabletop play: {error}")
    except KeyboardInterrupt:
        say("", "Interrupted.")
        return 130


def _resume(args: argparse.Namespace, client, target: str, style: Style) -> int:
    """Play on the signed-in player's seat of a game (`--resume`), acting with the identity only."""
    player = client.resume(args.resume)
    state = player.last_state
    if state.game_type != args.game:
        return fail(f"tabletop play: game {args.resume} is a {state.game_type} game, not {args.game}")
    watch = f"tabletop watch {args.resume} --target {target}"
    say_wrapped(f"Game {args.resume}: back at seat {player.seat + 1} ({render.seat_name(state, player.seat)}).")
    return _play_seat(Table(player, style, args.hint_strength, False), False, watch)


def _play_seat(table: Table, own_stack: bool, watch: str) -> int:
    try:
        finished = table.play()
        final = table.player.state()
        if not finished:
            say_wrapped(*_gone(table.quitted, final, own_stack, watch))
            if final.status != pb.GAME_STATUS_FINISHED:
                table.show_score(final)
                return 0
        table.show_board(final)
        say("", table.style.paint("The game is over.", "bold"))
        table.show_score(final)
        return 0
    except ValueError as exc:
        return fail(str(exc))
    except TabletopError as error:
        return fail(f"tabletop play: {error}")
    except KeyboardInterrupt:
        say("", "Interrupted.")
        return 130


def _gone(how: str, state: pb.GameState, own_stack: bool, watch: str) -> list[str]:
    """What became of the game once the player left or resigned (`how`), in one truthful message: over (the last
    opponent won), stopped with the local stack this command started, or going on without them; `how` is empty
    when the input ended without a choice."""
    said = {"left": "You left", "resigned": "You resigned"}.get(how, "You stopped playing (no more input)")
    if state.status == pb.GAME_STATUS_FINISHED:
        return [f"  {said}."]
    if own_stack:
        return [f"  {said}. The game ends here: the local stack this command started stops now."]
    if how == "left":
        return ["  You left: the AI plays your seat from now on. Follow the game with:", f"  {watch}"]
    if how == "resigned":
        return ["  You resigned. The others play on; follow the game with:", f"  {watch}"]
    return [f"  {said}: your seat waits, unplayed. Follow the game with:", f"  {watch}"]


# --- watch ----------------------------------------------------------------------------------------------------


def watch_main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="tabletop watch", description="Follow a game as a spectator.")
    parser.add_argument("game_id", help="the id of the game to follow, as `tabletop play` prints it")
    parser.add_argument("--target", help="HOST:PORT of the game service (default: TABLETOP_SERVICE_TARGET, "
                        f"else {DEFAULT_TARGET})")
    parser.add_argument("--from-version", type=int, default=0, help="replay the events after this version first")
    parser.add_argument("--no-board", action="store_true", help="print the events only")
    connection.add_arguments(parser)
    args = parser.parse_args(argv)
    style = Style.for_stream(sys.stdout)
    client = open_client(args, "watch")  # a spectator sends no seat token: plaintext is refused only for an API key
    if client is None:
        return 1
    with client:
        previous: pb.GameState | None = None
        try:
            for update in client.watch(args.game_id, from_version=args.from_version):
                say_fitted(*event_lines(update, previous))
                previous = update.state
                if not args.no_board and update.state.HasField("view"):
                    say_fitted(*render.render_state(update.state, style), "")
            if previous is not None:
                say_fitted(*render.render_score(client.score(args.game_id), previous, style))
        except TabletopError as error:
            return fail(f"tabletop watch: {error}")
        except KeyboardInterrupt:
            return 130
    return 0

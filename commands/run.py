"""`tabletop run`: the whole stack on one machine (tabletop/stack: Redis, PostgreSQL and the archive writer, the
game service, the AI worker, and the gRPC-Web gateway serving the web table), until Ctrl-C, SIGTERM or SIGHUP.
Players sign in with identities signed by a development secret (`tabletop token` mints them).

Every port can be set, by a flag or its environment variable (the flag wins). A port so asked for is used, or the
command stops before starting anything, saying which port is taken; a default port that is taken gives way to a
free one, which the banner shows."""

from __future__ import annotations

import argparse
import os
import signal
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from tabletop.stack import dev_identity
from tabletop.stack.embedded_redis import free_port
from tabletop.stack.launcher import WEB_DIST, LocalStack, port_free, port_or_free


@dataclass(frozen=True)
class Port:
    dest: str  # the argparse destination
    flag: str
    variable: str
    default: int | None  # None: a free port
    what: str
    zero: str  # what 0 means


PORTS = (
    Port("port", "--port", "TABLETOP_GRPC_PORT", 50051, "the game service (gRPC)", "a free port"),
    Port("web_port", "--web-port", "TABLETOP_GATEWAY_PORT", 8080,
         "the gRPC-Web gateway and the web table", "no gateway"),
    Port("ai_port", "--ai-port", "TABLETOP_AI_GRPC_PORT", 50061, "the AI worker (gRPC: SuggestMove)",
         "a free port"),
    Port("redis_port", "--redis-port", "TABLETOP_REDIS_PORT", None,
         "the embedded Redis", "a free port"),
    Port("database_port", "--database-port", "TABLETOP_DATABASE_PORT", None,
         "the embedded PostgreSQL", "a free port"),
    Port("archive_health_port", "--archive-health-port", "TABLETOP_ARCHIVE_HEALTH_PORT", 50071,
         "the archive writer's gRPC health service", "none"),
    Port("metrics_port", "--metrics-port", "TABLETOP_METRICS_PORT", 9100, "the game service's Prometheus metrics",
         "no metrics"),
    Port("ai_metrics_port", "--ai-metrics-port", "TABLETOP_AI_METRICS_PORT", 9101, "the AI worker's Prometheus metrics",
         "no metrics"),
    Port("gateway_metrics_port", "--gateway-metrics-port", "TABLETOP_GATEWAY_METRICS_PORT", 9102,
         "the gateway's Prometheus metrics", "no metrics"),
    Port("archive_metrics_port", "--archive-metrics-port", "TABLETOP_ARCHIVE_METRICS_PORT", 9103,
         "the archive writer's Prometheus metrics", "no metrics"),
)


class PortRefused(Exception):
    pass


def parse_port(text: str) -> int:
    try:
        port = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a port number") from None
    if not 0 <= port <= 65535:
        raise argparse.ArgumentTypeError(f"{port} is not a port number (0-65535)")
    return port


def choose_ports(args: argparse.Namespace, env: dict[str, str] | os._Environ,
                 unused: frozenset[str] = frozenset()) -> tuple[dict[str, int], list[str]]:
    """{dest: port} for every port (0: off, for the web table, metrics and health), and notes on the defaults that gave
    way; the ports of `unused` parts (a Redis or PostgreSQL given by URL, no database) are 0.

    A port asked for (flag, else variable) is checked as the servers will bind it (SO_REUSEADDR: a connection of a
    previous run in TIME-WAIT is no obstacle); one that is taken, or asked for twice, is refused (PortRefused)."""
    chosen: dict[str, int] = {}
    asked_by: dict[int, str] = {}
    notes: list[str] = []
    wanted = [p for p in PORTS if p.dest not in unused]
    for port in wanted:
        value, source = getattr(args, port.dest), port.flag
        if value is None and env.get(port.variable, "").strip():
            source = port.variable
            try:
                value = parse_port(env[port.variable].strip())
            except argparse.ArgumentTypeError as exc:
                raise PortRefused(f"{port.variable}: {exc}") from None
        if value:  # asked for
            if value in asked_by:
                raise PortRefused(f"port {value} is asked for twice: {asked_by[value]} and {source}")
            if not port_free(value):
                raise PortRefused(
                    f"port {value} for {port.what} ({source}) is in use: something listens on 127.0.0.1:{value} "
                    f"(another `tabletop run`?). Stop it, or choose another port with {port.flag} or "
                    f"{port.variable}.")
            asked_by[value] = source
        elif value is None and port.default is not None:
            value = port_or_free(port.default)
            if value != port.default:
                notes.append(f"port {port.default} was in use: {port.what} is on {value} "
                             f"({port.flag} or {port.variable} sets it)")
        chosen[port.dest] = value or 0
    for port in wanted:  # a free port for those left to chance, distinct from the others
        if not chosen[port.dest] and port.zero == "a free port":
            while (value := free_port()) in chosen.values():
                pass
            chosen[port.dest] = value
    for dest in unused:
        chosen[dest] = 0
    return chosen, notes


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="tabletop run", description=__doc__)
    for port in PORTS:
        parser.add_argument(port.flag, dest=port.dest, type=parse_port, metavar="PORT",
                            help=f"port of {port.what} (default: ${port.variable}, else "
                                 f"{port.default or 'a free port'}; 0: {port.zero})")
    parser.add_argument("--data-dir", default=os.environ.get("TABLETOP_DATA_DIR", "var/redis"),
                        help="where the embedded Redis keeps its append-only file (default: var/redis)")
    parser.add_argument("--database-dir", default=os.environ.get("TABLETOP_DATABASE_DIR", "var/postgres"),
                        help="where the embedded PostgreSQL keeps its data (default: var/postgres)")
    parser.add_argument("--no-database", action="store_true",
                        help="no archive: start no PostgreSQL and no archive writer (finished games expire from Redis)")
    parser.add_argument("--no-worker", action="store_true", help="do not start the AI worker")
    parser.add_argument("--identity-file", type=Path, default=Path(os.environ.get("TABLETOP_DEV_IDENTITY_FILE")
                                                                   or dev_identity.DEFAULT_FILE),
                        help="where the development secret that signs players' identities is kept, made at the first "
                             "run (default: $TABLETOP_DEV_IDENTITY_FILE, else var/dev-identity.json); unused when "
                             "TABLETOP_JWT_SECRET is set. `tabletop token` mints a player's sign-in with it")
    parser.add_argument("--no-identity", action="store_true",
                        help="accept no signed identities (seat tokens only, as a service without keys)")
    args = parser.parse_args(argv)
    unused = set()
    if os.environ.get("TABLETOP_REDIS_URL"):
        unused.add("redis_port")
    if args.no_database or os.environ.get("TABLETOP_DATABASE_URL"):
        unused.add("database_port")
    if args.no_database:
        unused.update(("archive_health_port", "archive_metrics_port"))
    try:
        ports, notes = choose_ports(args, os.environ, frozenset(unused))
    except PortRefused as exc:
        print(f"tabletop run: {exc}", file=sys.stderr, flush=True)
        return 2
    web_url = f"http://127.0.0.1:{ports['web_port']}/" if ports["web_port"] else None
    try:
        identity = choose_identity(args, os.environ, web_url)
    except dev_identity.IdentityFileError as exc:
        print(f"tabletop run: {exc}", file=sys.stderr, flush=True)
        return 2
    stack = LocalStack(
        ai_port=ports["ai_port"],
        redis_url=os.environ.get("TABLETOP_REDIS_URL") or None,
        redis_port=ports["redis_port"],
        data_dir=args.data_dir,
        grpc_port=ports["port"],
        with_worker=not args.no_worker,
        quiet=False,
        gateway_port=ports["web_port"] or None,
        static_dir=WEB_DIST if (WEB_DIST / "index.html").is_file() else None,
        metrics_port=ports["metrics_port"],
        ai_metrics_port=ports["ai_metrics_port"],
        gateway_metrics_port=ports["gateway_metrics_port"],
        archive_metrics_port=ports["archive_metrics_port"],
        database=not args.no_database,
        database_url=None if args.no_database else os.environ.get("TABLETOP_DATABASE_URL") or None,
        database_dir=args.database_dir,
        database_port=ports["database_port"],
        archive_health_port=ports["archive_health_port"],
        identity_env=identity.env() if identity else None,
    )
    stop = False

    def on_signal(signum, frame):
        nonlocal stop
        stop = True

    for signum in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):  # SIGHUP: the terminal was closed
        signal.signal(signum, on_signal)
    try:
        stack.start()
    except Exception as exc:  # noqa: BLE001 - said in one line; the part's own output is above it
        print(f"tabletop run: could not start the stack: {exc}", file=sys.stderr, flush=True)
        return 1
    print(banner(stack, args, notes, identity), flush=True)
    try:
        while not stop:
            for name, proc in stack.procs:
                if proc.poll() is not None:
                    print(f"{name} exited with code {proc.returncode}; stopping", file=sys.stderr)
                    stop = True
            time.sleep(0.5)
    finally:
        stack.stop()
    return 0


def choose_identity(args: argparse.Namespace, env: dict[str, str] | os._Environ,
                    web_url: str | None) -> dev_identity.DevIdentity | None:
    """The key that signs players' identities on this stack (tabletop/stack/dev_identity.py): none with
    --no-identity or when the environment configures a public key set alone (a real identity provider's, left as
    it is), else TABLETOP_JWT_SECRET's or the development secret of --identity-file."""
    if args.no_identity or (env.get("TABLETOP_JWT_JWKS_FILE") and not env.get("TABLETOP_JWT_SECRET")):
        return None
    return dev_identity.for_run(args.identity_file, env, web_url)


def banner(stack: LocalStack, args: argparse.Namespace, notes: list[str],
           identity: dev_identity.DevIdentity | None = None) -> str:
    """What is running where: every port the stack listens on, as started."""
    redis_desc = (f"embedded {stack.redis.binary} at {stack.redis_url} (data in {args.data_dir})" if stack.redis
                  else "Redis at TABLETOP_REDIS_URL")
    if not stack.database:
        database_desc = "none (--no-database): finished games are not archived"
    else:
        health = (f"health at 127.0.0.1:{stack.archive_health_port}" if stack.archive_health_port
                  else "no health port")
        where = (f"embedded PostgreSQL {stack.postgres.bin_dir / 'postgres'} at {stack.database_url} "
                 f"(data in {stack.postgres.dir})" if stack.postgres else "PostgreSQL at TABLETOP_DATABASE_URL")
        database_desc = f"{where}; archive writer running ({health})"
    worker = f"AI worker      127.0.0.1:{stack.ai_port}" if stack.with_worker else "AI worker      not started"
    if stack.tls_ca_file is None:
        grpcurl, play = "-plaintext", ""
    else:
        ca = stack.tls_ca_file
        grpcurl, play = (f"-cacert {ca}", f" --tls --ca-file {ca}") if ca else ("", " --tls")
    if stack.gateway_port is None:
        web = "web table      not started (--web-port 0)\n"
    elif stack.static_dir:
        web = f"web table      {stack.gateway_url}/   <- open this in a browser to play (gRPC-Web gateway)\n"
    else:
        web = (f"gRPC-Web       {stack.gateway_url}   (the web table is not built: install Node.js >= 20.19 "
               "and npm, then `make web`)\n")
    metrics = ", ".join(f"http://127.0.0.1:{port}/metrics ({part})" if port else f"{part}: off"
                        for part, port in stack.metrics.items())
    moved = "".join(f"  note: {note}\n" for note in notes)
    if identity is not None:
        sign_in = (f"sign-in        players' identities signed with the secret of {identity.source}: "
                   f"`.venv/bin/tabletop token PLAYER_ID --name NAME` prints a sign-in link\n")
    elif args.no_identity:
        sign_in = "sign-in        none (--no-identity): seat tokens only\n"
    else:
        sign_in = "sign-in        identities checked with TABLETOP_JWT_JWKS_FILE\n"
    return (
        f"\nTabletop is running.\n"
        f"  {web}"
        f"  game service   {stack.target}   (gRPC{' over TLS' if play else ''}; health and reflection on)\n"
        f"  {worker}\n"
        f"  Redis          {redis_desc}\n"
        f"  archive        {database_desc}\n"
        f"  metrics        {metrics}\n"
        f"  {sign_in}"
        f"{moved}\n"
        f"Try:  grpcurl {grpcurl} {stack.target} list\n"
        f"      .venv/bin/tabletop play hinode --target {stack.target}{play}\n"
        f"Stop with Ctrl-C.\n"
    )

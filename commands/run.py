"""`tabletop run`: the whole stack on one machine (tabletop/stack: Redis, PostgreSQL and the archive writer, the
game service, the AI worker, and the gRPC-Web gateway serving the web table), until Ctrl-C or SIGTERM."""

from __future__ import annotations

import argparse
import os
import signal
import sys
import time

from tabletop.stack.launcher import WEB_DIST, LocalStack, port_or_free


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="tabletop run", description=__doc__.split("\n\n")[0])
    parser.add_argument("--port", type=int, default=int(os.environ.get("TABLETOP_GRPC_PORT", "50051")),
                        help="port of the game service's gRPC API (default: TABLETOP_GRPC_PORT, else 50051)")
    parser.add_argument("--data-dir", default=os.environ.get("TABLETOP_DATA_DIR", "var/redis"),
                        help="where the embedded Redis keeps its append-only file (default: var/redis)")
    parser.add_argument("--database-dir", default=os.environ.get("TABLETOP_DATABASE_DIR", "var/postgres"),
                        help="where the embedded PostgreSQL keeps its data (default: var/postgres)")
    parser.add_argument("--no-database", action="store_true",
                        help="no archive: start no PostgreSQL and no archive writer (finished games expire from Redis)")
    parser.add_argument("--no-worker", action="store_true", help="do not start the AI worker")
    parser.add_argument("--web-port", type=int, default=int(os.environ.get("TABLETOP_GATEWAY_PORT", "8080")),
                        help="port of the gRPC-Web gateway and the web table (default 8080; 0: no gateway)")
    args = parser.parse_args(argv)
    # The documented default ports (docs/config.md) where they are free, so `make run` is predictable.
    os.environ.setdefault("TABLETOP_METRICS_PORT", str(port_or_free(9100)))
    os.environ.setdefault("TABLETOP_AI_METRICS_PORT", str(port_or_free(9101)))
    stack = LocalStack(
        ai_port=port_or_free(int(os.environ.get("TABLETOP_AI_GRPC_PORT", "50061"))),
        redis_url=os.environ.get("TABLETOP_REDIS_URL") or None,
        data_dir=args.data_dir,
        grpc_port=args.port,
        with_worker=not args.no_worker,
        quiet=False,
        gateway_port=port_or_free(args.web_port) if args.web_port else None,
        static_dir=WEB_DIST if (WEB_DIST / "index.html").is_file() else None,
        database=not args.no_database,
        database_url=None if args.no_database else os.environ.get("TABLETOP_DATABASE_URL") or None,
        database_dir=args.database_dir,
    )
    stop = False

    def on_signal(signum, frame):
        nonlocal stop
        stop = True

    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGINT, on_signal)
    stack.start()
    redis_desc = (f"embedded {stack.redis.binary} at {stack.redis_url} (data in {args.data_dir})" if stack.redis
                  else "Redis at TABLETOP_REDIS_URL")
    if not stack.database:
        database_desc = "none (--no-database): finished games are not archived"
    elif stack.postgres:
        database_desc = (f"embedded PostgreSQL {stack.postgres.bin_dir / 'postgres'} at {stack.database_url} "
                         f"(data in {stack.postgres.dir}); archive writer running")
    else:
        database_desc = "PostgreSQL at TABLETOP_DATABASE_URL; archive writer running"
    worker = f"AI worker      127.0.0.1:{stack.ai_port}" if stack.with_worker else "AI worker: not started"
    if stack.tls_ca_file is None:
        grpcurl, play = "-plaintext", ""
    else:
        ca = stack.tls_ca_file
        grpcurl, play = (f"-cacert {ca}", f" --tls --ca-file {ca}") if ca else ("", " --tls")
    if stack.gateway_port is None:
        web = "web table: not started (--web-port 0)\n"
    elif stack.static_dir:
        web = f"web table      {stack.gateway_url}/   <- open this in a browser to play (gRPC-Web gateway)\n"
    else:
        web = (f"gRPC-Web       {stack.gateway_url}   (the web table is not built: install Node.js >= 20.19 "
               "and npm, then `make web`)\n")
    print(
        f"\nTabletop is running.\n"
        f"  {web}"
        f"  game service   {stack.target}   (gRPC{' over TLS' if play else ''}; health and reflection on)\n"
        f"  {worker}\n"
        f"  Redis          {redis_desc}\n"
        f"  archive        {database_desc}\n"
        f"  metrics        http://127.0.0.1:{stack.metrics[0]}/metrics (service), "
        f"http://127.0.0.1:{stack.metrics[1]}/metrics (worker)\n\n"
        f"Try:  grpcurl {grpcurl} {stack.target} list\n"
        f"      .venv/bin/tabletop play hinode --target {stack.target}{play}\n"
        f"Stop with Ctrl-C.\n",
        flush=True,
    )
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

"""`tabletop ai-worker`: plays the AI seats (jobs from Redis) and serves AIService.SuggestMove.

One process: the job consumers of its two lanes (ai/worker_jobs.py: the jobs of games a person plays in, in the
main thread; those of games only the AI plays, in a thread of their own), the AIService with gRPC health in a
thread pool (ai/worker_service.py), Prometheus metrics on their own port. Only the interactive lane searches in
this process: suggestions and the bulk lane search in forked processes at a lower CPU priority
(TABLETOP_AI_SUGGEST_NICE, TABLETOP_AI_BULK_NICE), so that neither shares the interpreter with, nor takes a
busy core from, a search a person is waiting on. SIGTERM stops taking jobs, finishes the ones in hand, then
stops the gRPC server gracefully. Run as many workers side by side as you like: they
share the consumer group, and each needs its own AIService port.
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import signal
import sys
import threading
from concurrent import futures

# The worker forks its searches (the lanes, root parallelism), from threads beside gRPC's own, and the children never
# touch gRPC. gRPC's fork handlers (on by default) pause its threads around each fork and re-initialise it in the
# child, or skip that when another thread is in a call; under the flood benchmark about one forked suggestion in
# 40 died without a result. Read when grpc is first imported, so set before the imports below.
os.environ.setdefault("GRPC_ENABLE_FORK_SUPPORT", "0")

import grpc  # noqa: E402
import redis  # noqa: E402
import structlog  # noqa: E402
from grpc_health.v1 import health, health_pb2, health_pb2_grpc  # noqa: E402

from ai.worker_config import WorkerConfig  # noqa: E402
from ai.worker_jobs import BULK, JobConsumer  # noqa: E402
from ai.worker_service import AIServicer, add_to_server  # noqa: E402
from games import compiled  # noqa: E402
from tabletop import logconfig, redis_client, reflection, transport  # noqa: E402
from tabletop.v1 import ai_service_pb2

SERVICE_NAME = ai_service_pb2.DESCRIPTOR.services_by_name["AIService"].full_name
log = structlog.get_logger("tabletop.ai")
READINESS_INTERVAL = 2.0


def configure_logs(level: str) -> None:
    """JSON log lines on stderr, with the job's fields bound per job; never a token."""
    logconfig.configure(level)


PLAINTEXT_REMEDIES = (
    "Set TABLETOP_SERVICE_TLS=true (and TABLETOP_TLS_CA_FILE for a certificate from a private CA), or",
    "TABLETOP_ALLOW_INSECURE=true if the network is trusted (e.g. in-cluster, behind the NetworkPolicies).",
)


def check_service_transport(config: WorkerConfig) -> None:
    """Raise PlaintextRefused if the AI service credential would go in plaintext to another machine unasked."""
    if not (config.service_tls or config.allow_insecure):
        transport.refuse_plaintext(config.service_target, "the AI service credential", PLAINTEXT_REMEDIES)


def start_ai_service(config: WorkerConfig) -> tuple[grpc.Server, int, health.HealthServicer]:
    """The AIService with health and reflection on `grpc_host:grpc_port` (port 0: a free one), with TLS when a
    certificate is configured."""
    server = grpc.server(futures.ThreadPoolExecutor(max_workers=4), options=[("grpc.so_reuseport", 0)])
    add_to_server(AIServicer(config), server)
    checker = health.HealthServicer()
    health_pb2_grpc.add_HealthServicer_to_server(checker, server)
    reflection.enable((SERVICE_NAME, health.SERVICE_NAME), server)
    port = transport.listen(server, f"{config.grpc_host}:{config.grpc_port}", config.tls_cert_file,
                            config.tls_key_file)
    server.start()
    checker.set("", health_pb2.HealthCheckResponse.SERVING)
    checker.set(SERVICE_NAME, health_pb2.HealthCheckResponse.NOT_SERVING)  # until Redis answers
    return server, port, checker


def start_health_port(config: WorkerConfig, checker: health.HealthServicer) -> grpc.Server:
    """Health alone, in plaintext, on `health_port` (kubelet's gRPC probes speak no TLS): a server of its own, so
    that no AIService call travels unencrypted."""
    server = grpc.server(futures.ThreadPoolExecutor(max_workers=1), options=[("grpc.so_reuseport", 0)])
    health_pb2_grpc.add_HealthServicer_to_server(checker, server)
    transport.listen(server, f"{config.grpc_host}:{config.health_port}")
    server.start()
    return server


def _watch_readiness(client: redis.Redis | redis.cluster.RedisCluster, checker: health.HealthServicer,
                     stopping: threading.Event) -> None:
    """AIService is SERVING while Redis answers; everything turns NOT_SERVING as soon as a stop is asked."""
    while not stopping.is_set():
        try:
            ready = bool(client.ping())
        except (redis.exceptions.RedisError, *redis_client.UNAVAILABLE):
            ready = False
        status = health_pb2.HealthCheckResponse.SERVING if ready else health_pb2.HealthCheckResponse.NOT_SERVING
        checker.set(SERVICE_NAME, status)
        stopping.wait(READINESS_INTERVAL)
    checker.enter_graceful_shutdown()


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="tabletop ai-worker", description=__doc__.splitlines()[0])
    parser.add_argument("--redis-url", help="Redis URL (TABLETOP_REDIS_URL)")
    parser.add_argument("--service-target", help="game service address (TABLETOP_SERVICE_TARGET)")
    parser.add_argument("--port", type=int, help="AIService port, 0 = a free one, -1 = none (TABLETOP_AI_GRPC_PORT)")
    parser.add_argument("--metrics-port", type=int, help="Prometheus port, 0 = off (TABLETOP_AI_METRICS_PORT)")
    parser.add_argument("--consumer", help="name in the consumer group (TABLETOP_AI_CONSUMER; default host-pid)")
    args = parser.parse_args(argv)
    try:
        config = WorkerConfig.from_env()
    except ValueError as exc:
        print(f"tabletop ai-worker: {exc}", file=sys.stderr)
        return 2
    overrides = {"redis_url": args.redis_url, "service_target": args.service_target, "grpc_port": args.port,
                 "metrics_port": args.metrics_port, "consumer": args.consumer}
    config = dataclasses.replace(config, **{k: v for k, v in overrides.items() if v is not None})
    try:
        check_service_transport(config)
    except transport.PlaintextRefused as exc:
        print(f"tabletop ai-worker: {exc}", file=sys.stderr)
        return 2
    configure_logs(config.log_level)
    if not config.ai_service_token:
        log.warning("TABLETOP_AI_SERVICE_TOKEN is empty: the game service will refuse this worker's moves")

    stopping = threading.Event()

    def stop(signum, frame):
        log.info("stop requested", signal=signal.Signals(signum).name)
        stopping.set()

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)

    if config.metrics_port:
        from prometheus_client import start_http_server

        start_http_server(config.metrics_port, addr=config.grpc_host)
    server = checker = health_server = None
    port = None
    if config.grpc_port >= 0:
        server, port, checker = start_ai_service(config)
        if config.health_port:
            health_server = start_health_port(config, checker)
    log.info("AI worker started", consumer=config.consumer, streams=config.streams(), ai_port=port,
             tls=bool(config.tls_cert_file), health_port=config.health_port or None,
             metrics_port=config.metrics_port, service_target=config.service_target, service_tls=config.service_tls,
             rules=compiled.PATH)
    client = redis_client.connect(config.redis_url, cluster=config.redis_cluster, decode_responses=True,
                                  health_check_interval=30, socket_connect_timeout=2, socket_timeout=5)
    if config.service_tls:
        channel = grpc.secure_channel(config.service_target, transport.channel_credentials(config.tls_ca_file))
    else:
        channel = grpc.insecure_channel(config.service_target)
    if checker is not None:
        threading.Thread(target=_watch_readiness, args=(client, checker, stopping), daemon=True).start()
    lane_failed = threading.Event()
    bulk = threading.Thread(target=_run_lane, args=(JobConsumer(config, client, channel, stopping, BULK), lane_failed),
                            name="bulk-lane")
    bulk.start()
    try:
        JobConsumer(config, client, channel, stopping).run()
    finally:
        stopping.set()
        bulk.join()
        log.info("shutting down", grace_seconds=config.shutdown_grace_seconds)
        if server is not None:
            checker.enter_graceful_shutdown()  # again, in case the loop ended on an error rather than a signal
            server.stop(config.shutdown_grace_seconds).wait()
        if health_server is not None:
            health_server.stop(0).wait()
        channel.close()
        client.close()
        log.info("stopped")
    return 1 if lane_failed.is_set() else 0


def _run_lane(consumer: JobConsumer, failed: threading.Event) -> None:
    """Run a lane's consumer in its thread; if it fails, the whole worker stops (and is restarted as a whole), as
    it would on a failure of the main lane."""
    try:
        consumer.run()
    except BaseException:
        log.exception("lane failed", lane=consumer.lane)
        failed.set()
        consumer.stopping.set()

"""The AI worker's settings, from TABLETOP_* environment variables (docs/config.md lists them)."""

from __future__ import annotations

import os
import socket
from collections.abc import Mapping
from dataclasses import dataclass, field

from ai.ismcts import PRESETS, Budget, parse_budget
from tabletop import job_shards, redis_client, transport
from tabletop.settings import ConfigError, env_reader, flag


@dataclass(frozen=True)
class WorkerConfig:
    redis_url: str = "redis://127.0.0.1:6379/0"
    redis_cluster: bool = False  # TABLETOP_REDIS_CLUSTER: a cluster-aware client; the URL names any node
    service_target: str = "127.0.0.1:50051"
    ai_service_token: str = ""
    grpc_host: str = "127.0.0.1"
    grpc_port: int = 50061  # 0: a free port; -1: no AIService
    metrics_port: int = 9101  # 0: no metrics server
    job_shards: int = job_shards.DEFAULT_SHARDS  # must equal the game service's
    consumer: str = ""  # this worker's name in the consumer group; unique per process
    group: str = "ai-workers"
    claim_idle_seconds: float = 30.0  # a job pending this long with a silent worker is reclaimed
    max_attempts: int = 3  # deliveries before a job goes to the dead-letter stream
    dead_consumer_seconds: float = 3600.0  # a consumer idle this long with nothing pending (a gone worker) is removed
    budgets: dict[str, Budget] = field(default_factory=lambda: dict(PRESETS))
    # A person is waiting (a job of `ai:jobs:*`): the search stops after this many seconds whatever its strength
    # (0: no cap).
    interactive_seconds: float = 0.5
    # A game only the AI plays (`ai:bulk:*`): its search stops after this many seconds, so that such games hold a
    # worker for at most this long at a time and a job a person waits on never waits longer for it (0: no cap).
    bulk_seconds: float = 1.0
    hint_seconds: float = 0.6  # a SuggestMove by strength (no budget of its own) searches at most this long
    suggest_max_seconds: float = 2.0  # any SuggestMove, an explicit budget too, searches at most this long
    processes: int = 1  # forked processes per search (root parallelism): the cores the worker may use
    # CPU priority of the worker's lanes (docs/ai.md, "Lanes"): jobs a person waits on search in the worker's own
    # process; suggestions and the jobs of games only the AI plays search in forked processes this many steps
    # lower (0: in the worker's process, sharing its interpreter), so that on a busy core the kernel serves the
    # person waiting first.
    suggest_nice: int = 5
    bulk_nice: int = 10
    log_level: str = "info"
    shutdown_grace_seconds: float = 20.0
    # TLS (tabletop/transport.py): the AIService port serves TLS with this certificate and key; the game service is
    # reached with TLS when service_tls, trusting tls_ca_file (else the system's roots). Without TLS the AI service
    # credential goes only to a loopback service_target, unless allow_insecure says the network is trusted.
    tls_cert_file: str = ""
    tls_key_file: str = ""
    tls_ca_file: str = ""
    service_tls: bool = False
    allow_insecure: bool = False
    health_port: int = 0  # plaintext gRPC health only, for probes that speak no TLS; 0 = none

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> WorkerConfig:
        env = os.environ if env is None else env

        get = env_reader(env)
        d = cls()
        config = cls(
            redis_url=get("REDIS_URL", d.redis_url),
            redis_cluster=redis_client.cluster_flag(env),
            service_target=get("SERVICE_TARGET", d.service_target),
            ai_service_token=get("AI_SERVICE_TOKEN", d.ai_service_token),
            grpc_host=get("AI_GRPC_HOST", d.grpc_host),
            grpc_port=get("AI_GRPC_PORT", d.grpc_port),
            metrics_port=get("AI_METRICS_PORT", d.metrics_port),
            job_shards=max(1, get("AI_JOB_SHARDS", d.job_shards)),
            consumer=get("AI_CONSUMER", "") or f"{socket.gethostname()}-{os.getpid()}",
            claim_idle_seconds=get("AI_CLAIM_IDLE_SECONDS", d.claim_idle_seconds),
            max_attempts=max(1, get("AI_MAX_ATTEMPTS", d.max_attempts)),
            dead_consumer_seconds=get("AI_DEAD_CONSUMER_SECONDS", d.dead_consumer_seconds),
            budgets=parse_budgets(env.get("TABLETOP_AI_BUDGETS", "")),
            interactive_seconds=max(0.0, get("AI_INTERACTIVE_SECONDS", d.interactive_seconds)),
            bulk_seconds=max(0.0, get("AI_BULK_SECONDS", d.bulk_seconds)),
            hint_seconds=max(0.0, get("AI_HINT_SECONDS", d.hint_seconds)),
            suggest_max_seconds=max(0.0, get("AI_SUGGEST_MAX_SECONDS", d.suggest_max_seconds)),
            processes=processes(get("AI_PROCESSES", "1")),
            suggest_nice=niceness("AI_SUGGEST_NICE", get("AI_SUGGEST_NICE", d.suggest_nice)),
            bulk_nice=niceness("AI_BULK_NICE", get("AI_BULK_NICE", d.bulk_nice)),
            log_level=get("LOG_LEVEL", d.log_level),
            shutdown_grace_seconds=get("SHUTDOWN_GRACE_SECONDS", d.shutdown_grace_seconds),
            tls_cert_file=get("TLS_CERT_FILE", d.tls_cert_file),
            tls_key_file=get("TLS_KEY_FILE", d.tls_key_file),
            tls_ca_file=get("TLS_CA_FILE", d.tls_ca_file),
            service_tls=flag(env, "SERVICE_TLS"),
            allow_insecure=flag(env, "ALLOW_INSECURE"),
            health_port=get("AI_HEALTH_PORT", d.health_port),
        )
        transport.check_certificate(config.tls_cert_file, config.tls_key_file, config.tls_ca_file)
        return config

    def streams(self) -> list[str]:
        """The job streams of games a person plays in, `ai:jobs:{jB}` for the shards B (the braces are a Redis
        Cluster hash tag): served first."""
        return [job_shards.job_stream(b) for b in range(self.job_shards)]

    def bulk_streams(self) -> list[str]:
        """The job streams of games only the AI plays, `ai:bulk:{jB}`: served when no person is waiting."""
        return [job_shards.bulk_stream(b) for b in range(self.job_shards)]


def dead_letter_stream(job_stream: str) -> str:
    """`ai:dead:{jB}` beside `ai:jobs:{jB}` and `ai:bulk:{jB}`: same hash tag, same Cluster slot."""
    return job_stream.replace("ai:jobs:", "ai:dead:", 1).replace("ai:bulk:", "ai:dead:", 1)


def processes(text: str) -> int:
    """TABLETOP_AI_PROCESSES: a count, or "auto" for the CPUs this process may run on (its affinity, and its
    cgroup's CPU quota when one is set, as in a Kubernetes pod with a CPU limit)."""
    text = text.strip().lower()
    if text == "auto":
        return available_cpus()
    try:
        count = int(text)
    except ValueError:
        raise ConfigError(f"TABLETOP_AI_PROCESSES={text!r} is not a count of processes or auto") from None
    if not 1 <= count <= 64:
        raise ConfigError(f"TABLETOP_AI_PROCESSES={count} must be from 1 to 64")
    return count


def niceness(name: str, value: int) -> int:
    if not 0 <= value <= 19:
        raise ConfigError(f"TABLETOP_{name}={value} must be from 0 (as the worker) to 19 (the lowest priority)")
    return value


def available_cpus() -> int:
    cpus = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
    try:
        with open("/sys/fs/cgroup/cpu.max") as quota_file:  # cgroup v2: "<quota> <period>" or "max <period>"
            quota, period = quota_file.read().split()[:2]
        if quota != "max":
            cpus = min(cpus, max(1, int(quota) // int(period)))
    except (OSError, ValueError):
        pass
    return max(1, cpus)


def parse_budgets(text: str) -> dict[str, Budget]:
    """The presets, overridden by "easy=50,normal=300,hard=2s" (each an iteration count or seconds)."""
    budgets = dict(PRESETS)
    for item in filter(None, (part.strip() for part in text.split(","))):
        name, sep, value = item.partition("=")
        if not sep or name.strip() not in PRESETS:
            raise ValueError(f"TABLETOP_AI_BUDGETS: {item!r} is not <easy|normal|hard>=<iterations|seconds>s")
        budgets[name.strip()] = parse_budget(value)
    return budgets

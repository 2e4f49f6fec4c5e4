"""The game service's settings, read from environment variables (docs/config.md lists them all)."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field

from tabletop import job_shards, redis_client, transport
from tabletop.settings import ConfigError, env_reader, flag

__all__ = ["Config", "ConfigError"]


@dataclass(frozen=True)
class Config:
    redis_url: str = "redis://127.0.0.1:6379/0"
    redis_cluster: bool = False  # TABLETOP_REDIS_CLUSTER: a cluster-aware client; the URL names any node
    grpc_host: str = "127.0.0.1"
    grpc_port: int = 50051
    metrics_port: int = 9100  # 0: no metrics HTTP server
    retention_seconds: int = 86400
    abandoned_seconds: int = 604800
    log_level: str = "info"
    ai_target: str = "127.0.0.1:50061"
    ai_service_token: str = ""
    ai_job_shards: int = job_shards.DEFAULT_SHARDS
    shutdown_grace_seconds: float = 20.0
    max_message_bytes: int = 1 << 20
    suggest_timeout_seconds: float = 10.0
    watch_write_seconds: float = 10.0  # a WatchGame stream whose client reads nothing for this long is dropped
    redis_max_connections: int = 48  # the replica's Redis pool: calls wait for a free one beyond this
    ai_job_retention_seconds: int = 86_400  # AI jobs older than this are trimmed from the job streams
    request_id_seconds: int = 600  # a game's request-id answers are kept this long after its last request
    # Caller identity and quotas (service/quotas.py): API keys as `name:sha256hex[:multiplier]`, inline or in a
    # file (a mounted Secret), never both. Each limit is per caller (API key, else IP address); 0 = unlimited.
    api_keys: str = ""
    api_keys_file: str = ""
    quota_create_rate: int = 0  # games a caller may create per quota_create_window_seconds
    quota_create_window_seconds: float = 60.0
    quota_open_games: int = 0  # unfinished games a caller created
    quota_watch_streams: int = 0  # concurrent WatchGame streams
    quota_suggestions: int = 0  # concurrent SuggestMove calls
    quota_lease_seconds: float = 30.0  # a stream's or call's slot outlives a replica that died by at most this
    # TLS (tabletop/transport.py): the gRPC port serves TLS with this certificate and key (PEM files, e.g. a mounted
    # kubernetes.io/tls Secret); the AI service is reached with TLS when ai_tls, trusting tls_ca_file (else the
    # system's roots). health_port: plaintext gRPC health only, for probes that speak no TLS; 0 = none.
    tls_cert_file: str = ""
    tls_key_file: str = ""
    tls_ca_file: str = ""
    ai_tls: bool = False
    health_port: int = 0
    gateway_forward_secret: str = ""  # callers through the gRPC-Web gateway are known by the address it forwards
    # The replica runs the timekeeper (service/timekeeper.py): it competes for the leases of the shards' turn
    # deadlines. Off on replicas that should never keep time (the watch tier); at least one replica needs it.
    timekeeper: bool = True
    # The archive (service/archive/, docs/archive.md): with a PostgreSQL URL, finished games go on the archive
    # stream and stay in Redis until the archive writer (`tabletop archive-writer`, its settings in
    # service/archive/writer.py) has stored them; "" = no database: finished games expire after retention_seconds.
    database_url: str = ""
    # Signed player identities (service/identity.py): a frontend's JWTs, checked with a shared secret (HS256/384/512,
    # at least 32 bytes) and/or the public keys of a JWKS or PEM file (a mounted Secret); issuer and audience are
    # required with either. None set: identities are refused (IDENTITY_NOT_CONFIGURED), seat tokens work as ever.
    jwt_secret: str = field(default="", repr=False)
    jwt_jwks_file: str = ""
    jwt_issuer: str = ""
    jwt_audience: str = ""

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> Config:
        env = os.environ if env is None else env

        get = env_reader(env)
        d = cls()
        try:
            redis_cluster = redis_client.cluster_flag(env)
        except ValueError as exc:
            raise ConfigError(str(exc)) from None
        config = cls(
            redis_url=get("REDIS_URL", d.redis_url),
            redis_cluster=redis_cluster,
            grpc_host=get("GRPC_HOST", d.grpc_host),
            grpc_port=get("GRPC_PORT", d.grpc_port),
            metrics_port=get("METRICS_PORT", d.metrics_port),
            retention_seconds=get("RETENTION_SECONDS", d.retention_seconds),
            abandoned_seconds=get("ABANDONED_SECONDS", d.abandoned_seconds),
            log_level=get("LOG_LEVEL", d.log_level),
            ai_target=get("AI_TARGET", d.ai_target),
            ai_service_token=get("AI_SERVICE_TOKEN", d.ai_service_token),
            ai_job_shards=max(1, get("AI_JOB_SHARDS", d.ai_job_shards)),
            shutdown_grace_seconds=get("SHUTDOWN_GRACE_SECONDS", d.shutdown_grace_seconds),
            max_message_bytes=get("MAX_MESSAGE_BYTES", d.max_message_bytes),
            suggest_timeout_seconds=get("SUGGEST_TIMEOUT_SECONDS", d.suggest_timeout_seconds),
            watch_write_seconds=get("WATCH_WRITE_SECONDS", d.watch_write_seconds),
            redis_max_connections=max(8, get("REDIS_MAX_CONNECTIONS", d.redis_max_connections)),
            ai_job_retention_seconds=max(60, get("AI_JOB_RETENTION_SECONDS", d.ai_job_retention_seconds)),
            request_id_seconds=max(1, get("REQUEST_ID_SECONDS", d.request_id_seconds)),
            api_keys=get("API_KEYS", d.api_keys),
            api_keys_file=get("API_KEYS_FILE", d.api_keys_file),
            quota_create_rate=max(0, get("QUOTA_CREATE_RATE", d.quota_create_rate)),
            quota_create_window_seconds=max(1.0, get("QUOTA_CREATE_WINDOW_SECONDS", d.quota_create_window_seconds)),
            quota_open_games=max(0, get("QUOTA_OPEN_GAMES", d.quota_open_games)),
            quota_watch_streams=max(0, get("QUOTA_WATCH_STREAMS", d.quota_watch_streams)),
            quota_suggestions=max(0, get("QUOTA_SUGGESTIONS", d.quota_suggestions)),
            quota_lease_seconds=max(3.0, get("QUOTA_LEASE_SECONDS", d.quota_lease_seconds)),
            tls_cert_file=get("TLS_CERT_FILE", d.tls_cert_file),
            tls_key_file=get("TLS_KEY_FILE", d.tls_key_file),
            tls_ca_file=get("TLS_CA_FILE", d.tls_ca_file),
            ai_tls=flag(env, "AI_TLS"),
            health_port=get("HEALTH_PORT", d.health_port),
            gateway_forward_secret=get("GATEWAY_FORWARD_SECRET", d.gateway_forward_secret),
            timekeeper=flag(env, "TIMEKEEPER", d.timekeeper),
            database_url=get("DATABASE_URL", d.database_url),
            jwt_secret=get("JWT_SECRET", d.jwt_secret),
            jwt_jwks_file=get("JWT_JWKS_FILE", d.jwt_jwks_file),
            jwt_issuer=get("JWT_ISSUER", d.jwt_issuer),
            jwt_audience=get("JWT_AUDIENCE", d.jwt_audience),
        )
        transport.check_certificate(config.tls_cert_file, config.tls_key_file, config.tls_ca_file)
        from service.quotas import load_api_keys

        load_api_keys(config)  # a malformed key list is reported at start, naming its variable
        from service.identity import Verifier

        Verifier.from_config(config)  # so are unusable JWT keys, or keys without issuer and audience
        return config

"""The gateway's settings, read from TABLETOP_GATEWAY_* environment variables (docs/config.md lists them)."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from urllib.parse import urlsplit

from tabletop.settings import ConfigError, env_reader, flag

__all__ = ["Config", "ConfigError", "parse_origins"]


def parse_origins(raw: str) -> frozenset[str]:
    """Comma-separated origins (`scheme://host[:port]`) allowed to call from another page; `*` is refused."""
    origins = set()
    for item in (part.strip().rstrip("/") for part in raw.split(",")):
        if not item:
            continue
        if item == "*":
            raise ConfigError("TABLETOP_GATEWAY_ALLOWED_ORIGINS must list origins, not '*': a wide-open gateway "
                              "lets any page spend its visitors' quotas")
        parts = urlsplit(item)
        if parts.scheme not in ("http", "https") or not parts.netloc or parts.path or parts.query:
            raise ConfigError(f"TABLETOP_GATEWAY_ALLOWED_ORIGINS: {item!r} is not an origin like "
                              "https://play.example.com or http://127.0.0.1:5173")
        origins.add(f"{parts.scheme}://{parts.netloc.lower()}")
    return frozenset(origins)


@dataclass(frozen=True)
class Config:
    host: str = "127.0.0.1"
    port: int = 8080
    upstream: str = "127.0.0.1:50051"  # the game service (native gRPC)
    watch_upstream: str = ""  # the watch tier: where WatchGame streams go (empty: to `upstream` like every call)
    services: tuple[str, ...] = ("tabletop.v1.GameService",)  # the gRPC services browsers may call
    allowed_origins: frozenset[str] = frozenset()  # empty: same-origin pages only
    static_dir: str = ""  # a built web table to serve at / (clients/web/dist); empty: none
    metrics_port: int = 9102  # 0: no metrics server
    max_message_bytes: int = 1 << 20
    shutdown_grace_seconds: float = 10.0
    log_level: str = "info"
    forward_secret: str = ""  # shared with the service: lets it trust the client address the gateway forwards
    trust_forwarded_for: bool = False  # behind an Ingress: take the client address from X-Forwarded-For
    # The upstream is reached with TLS when service_tls (trusting tls_ca_file, else the system's roots); in
    # plaintext only to a loopback address, unless allow_insecure says the network is trusted.
    service_tls: bool = False
    tls_ca_file: str = ""
    allow_insecure: bool = False

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> Config:
        env = os.environ if env is None else env
        get = env_reader(env)
        d = cls()
        services = tuple(s.strip() for s in get("GATEWAY_SERVICES", ",".join(d.services)).split(",") if s.strip())
        return cls(
            host=get("GATEWAY_HOST", d.host),
            port=get("GATEWAY_PORT", d.port),
            upstream=get("GATEWAY_UPSTREAM", get("SERVICE_TARGET", d.upstream)),
            watch_upstream=get("GATEWAY_WATCH_UPSTREAM", d.watch_upstream),
            services=services,
            allowed_origins=parse_origins(get("GATEWAY_ALLOWED_ORIGINS", "")),
            static_dir=get("GATEWAY_STATIC_DIR", d.static_dir),
            metrics_port=get("GATEWAY_METRICS_PORT", d.metrics_port),
            max_message_bytes=get("MAX_MESSAGE_BYTES", d.max_message_bytes),
            shutdown_grace_seconds=get("SHUTDOWN_GRACE_SECONDS", d.shutdown_grace_seconds),
            log_level=get("LOG_LEVEL", d.log_level),
            forward_secret=get("GATEWAY_FORWARD_SECRET", d.forward_secret),
            trust_forwarded_for=flag(env, "GATEWAY_TRUST_FORWARDED_FOR"),
            service_tls=flag(env, "SERVICE_TLS"),
            tls_ca_file=get("TLS_CA_FILE", d.tls_ca_file),
            allow_insecure=flag(env, "ALLOW_INSECURE"),
        )

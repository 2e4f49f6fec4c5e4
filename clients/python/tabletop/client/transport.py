"""How a client of ours reaches the game service: the rule that it never sends a credential in plaintext off this
machine, and the certificate name override.

`refuse_plaintext` is called by every client of ours (this SDK, the terminal, the AI worker, the gateway) before a
seat token, an API key or the AI service credential would go to a plaintext target that is not a loopback address.
The servers' side of TLS (certificates from PEM files, listening) is the server distribution's `tabletop.transport`.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Sequence


class PlaintextRefused(ValueError):
    """A credential would have travelled unencrypted to another machine; nothing was sent."""


def server_name_options(server_name: str = "") -> list[tuple[str, str]]:
    """Channel options that check the server's certificate for `server_name` instead of the target's host."""
    return [("grpc.ssl_target_name_override", server_name)] if server_name else []


def target_hosts(target: str) -> list[str]:
    """The host names or addresses a gRPC target names ("host:port", "[::1]:port", "dns:///host:port",
    "ipv4:a:port,b:port"); a Unix socket is "localhost"."""
    if target.startswith(("unix:", "unix-abstract:")):
        return ["localhost"]
    if target.startswith(("ipv4:", "ipv6:")):
        return [_host_of(address) for address in target.split(":", 1)[1].split(",")]
    if target.startswith("dns:"):
        rest = target[len("dns:"):]
        if rest.startswith("//"):  # dns://authority/host:port: the authority is the DNS server, not the target
            rest = rest[2:].split("/", 1)[1] if "/" in rest[2:] else ""
        target = rest
    return [_host_of(target)]


def _host_of(address: str) -> str:
    if address.startswith("["):
        return address[1:].split("]", 1)[0]
    if address.count(":") > 1:  # a bare IPv6 address, no port
        return address
    return address.rsplit(":", 1)[0] if ":" in address else address


def is_loopback(target: str) -> bool:
    """Whether every host of `target` is this machine: localhost, 127.0.0.0/8 or ::1 (names are not resolved:
    a name that resolves to a loopback address does not count)."""
    hosts = target_hosts(target)
    return bool(hosts) and all(_loopback_host(host) for host in hosts)


def _loopback_host(host: str) -> bool:
    if host.lower().rstrip(".") == "localhost":
        return True
    try:
        address = ipaddress.ip_address(host.split("%", 1)[0])
    except ValueError:
        return False
    mapped = getattr(address, "ipv4_mapped", None)
    return address.is_loopback or bool(mapped and mapped.is_loopback)


def refuse_plaintext(target: str, what: str, remedies: Sequence[str]) -> None:
    """Raise PlaintextRefused if `target` is not a loopback address: `what` (e.g. "a seat token") must not go
    there unencrypted. Call it only for a plaintext channel with no explicit permission to send in the clear."""
    if is_loopback(target):
        return
    raise PlaintextRefused(
        f"refusing to send {what} to {target} without TLS: anyone on the network could read it. "
        f"{' '.join(remedies)}"
    )

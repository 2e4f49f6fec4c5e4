"""TLS on the gRPC ports, and the rule that our clients never send a credential in plaintext off this machine.

Servers: `server_credentials` from a certificate and key in PEM files (a mounted kubernetes.io/tls Secret),
checked at startup with the standard library so that a missing, unreadable or mismatched file stops the process
with a message naming the variable. Clients: `channel_credentials` trusting the system roots or a CA file, and
`refuse_plaintext`, which every client of ours calls before a seat token, an API key or the AI service credential
would go to a plaintext target that is not a loopback address.
"""

from __future__ import annotations

import ipaddress
import ssl
from collections.abc import Sequence
from pathlib import Path

import grpc

from tabletop.settings import ConfigError


class PlaintextRefused(ValueError):
    """A credential would have travelled unencrypted to another machine; nothing was sent."""


def read_pem(path: str, variable: str) -> bytes:
    """The bytes of a PEM file, or a ConfigError naming `variable` and what is wrong with the file."""
    try:
        data = Path(path).read_bytes()
    except OSError as exc:
        raise ConfigError(f"{variable}={path!r} cannot be read: {exc.strerror or exc}") from None
    if b"-----BEGIN " not in data:
        raise ConfigError(f"{variable}={path!r} is not a PEM file (no -----BEGIN line)")
    return data


def check_certificate(cert_file: str, key_file: str, ca_file: str = "", prefix: str = "TABLETOP_TLS") -> None:
    """Raise a ConfigError unless the certificate and key load and belong together (and the CA file loads)."""
    if bool(cert_file) != bool(key_file):
        raise ConfigError(f"give both {prefix}_CERT_FILE and {prefix}_KEY_FILE (TLS), or neither (plaintext)")
    if cert_file:
        read_pem(cert_file, f"{prefix}_CERT_FILE")
        read_pem(key_file, f"{prefix}_KEY_FILE")
        try:
            ssl.create_default_context(ssl.Purpose.CLIENT_AUTH).load_cert_chain(cert_file, key_file)
        except ssl.SSLError as exc:
            raise ConfigError(f"{prefix}_CERT_FILE={cert_file!r} and {prefix}_KEY_FILE={key_file!r} do not make "
                              f"a certificate and its private key ({exc.reason or exc})") from None
    if ca_file:
        read_pem(ca_file, f"{prefix}_CA_FILE")
        try:
            ssl.create_default_context().load_verify_locations(cafile=ca_file)
        except ssl.SSLError as exc:
            raise ConfigError(f"{prefix}_CA_FILE={ca_file!r} holds no usable CA certificate "
                              f"({exc.reason or exc})") from None


def server_credentials(cert_file: str, key_file: str) -> grpc.ServerCredentials:
    """TLS for a gRPC port from the PEM certificate (chain) and private key (checked: see check_certificate)."""
    check_certificate(cert_file, key_file)
    pair = (read_pem(key_file, "TABLETOP_TLS_KEY_FILE"), read_pem(cert_file, "TABLETOP_TLS_CERT_FILE"))
    return grpc.ssl_server_credentials([pair])


def channel_credentials(ca_file: str = "", variable: str = "TABLETOP_TLS_CA_FILE") -> grpc.ChannelCredentials:
    """TLS for a client channel, trusting the CAs in `ca_file` (PEM; errors name `variable`), else the system's
    roots."""
    return grpc.ssl_channel_credentials(read_pem(ca_file, variable) if ca_file else None)


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


def listen(server: grpc.Server | grpc.aio.Server, address: str, cert_file: str = "", key_file: str = "") -> int:
    """Bind `address` on a gRPC server (sync or asyncio), with TLS when a certificate is given; the port bound."""
    if cert_file or key_file:
        port = server.add_secure_port(address, server_credentials(cert_file, key_file))
    else:
        port = server.add_insecure_port(address)
    if port == 0:
        raise OSError(f"cannot listen on {address}")
    return port

"""TLS on the gRPC ports (the servers' side), and the client side's rule re-exported for the server's own clients.

Servers: `server_credentials` from a certificate and key in PEM files (a mounted kubernetes.io/tls Secret),
checked at startup with the standard library so that a missing, unreadable or mismatched file stops the process
with a message naming the variable. Clients: `channel_credentials` trusting the system roots or a CA file, and
`refuse_plaintext` (with `is_loopback`, `PlaintextRefused`, `server_name_options`), which every client of ours
calls before a seat token, an API key or the AI service credential would go to a plaintext target that is not a
loopback address: it is the SDK's (`tabletop.client.transport`, in the tabletop-client distribution), named here
too so that the service, the worker and the gateway reach both sides of TLS through one module.
"""

from __future__ import annotations

import ssl
from pathlib import Path

import grpc

from tabletop.client.transport import (  # noqa: F401  (re-exported: see above)
    PlaintextRefused,
    is_loopback,
    refuse_plaintext,
    server_name_options,
    target_hosts,
)
from tabletop.settings import ConfigError


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


class CannotListen(OSError):
    """A server's address cannot be bound: a port in use, a host that is not this machine's."""


def listen(server: grpc.Server | grpc.aio.Server, address: str, cert_file: str = "", key_file: str = "") -> int:
    """Bind `address` on a gRPC server (sync or asyncio), with TLS when a certificate is given; the port bound.
    An address that cannot be bound (a port in use, a host that is not this machine's) is CannotListen, saying why."""
    check_bindable(address)
    try:
        if cert_file or key_file:
            port = server.add_secure_port(address, server_credentials(cert_file, key_file))
        else:
            port = server.add_insecure_port(address)
    except RuntimeError:  # grpc's "Failed to bind to address": taken since the check above
        port = 0
    if port == 0:
        check_bindable(address)
        raise CannotListen(f"cannot listen on {address}")
    return port


def check_bindable(address: str) -> None:
    """Raise CannotListen naming `address` and the reason ("address already in use") if a TCP socket cannot bind it
    now, as gRPC would (SO_REUSEADDR); a port of 0 or an address that is not HOST:PORT is left to gRPC."""
    import socket

    host, _, port = address.rpartition(":")
    if not port.isdigit() or int(port) == 0 or not host:
        return
    host = host[1:-1] if host.startswith("[") and host.endswith("]") else host
    try:
        family, kind, proto, _, where = socket.getaddrinfo(host, int(port), type=socket.SOCK_STREAM,
                                                           flags=socket.AI_PASSIVE)[0]
    except socket.gaierror as exc:
        raise CannotListen(f"cannot listen on {address}: {exc.strerror or exc}") from None
    with socket.socket(family, kind, proto) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind(where)
        except OSError as exc:
            raise CannotListen(f"cannot listen on {address}: {(exc.strerror or str(exc)).lower()}") from None

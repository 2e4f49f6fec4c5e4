"""How the `tabletop` commands reach a game service: the TLS, API key and plaintext flags they share, with their
TABLETOP_* defaults, and the refusal to send credentials in plaintext off this machine unless --insecure."""

from __future__ import annotations

import argparse
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass

import grpc

from tabletop import transport
from tabletop.client import Client, connect
from tabletop.settings import flag

ADDRESS = re.compile(r"(?P<host>\[[0-9A-Fa-f:.%\w]+\]|[A-Za-z0-9._-]+):(?P<port>\d{1,5})")


class BadAddress(ValueError):
    """A target that is not the address of a game service (HOST:PORT); nothing was sent."""


def check_address(target: str) -> None:
    """Raise BadAddress unless `target` reads as HOST:PORT (a port from 1 to 65535, [IPv6]:PORT), or as one of
    gRPC's forms of it: dns:[//AUTHORITY/]HOST:PORT, ipv4:/ipv6: with comma-separated addresses, unix:PATH."""
    if target.startswith(("unix:", "unix-abstract:")) and target.split(":", 1)[1]:
        return
    addresses = [target]
    if target.startswith(("ipv4:", "ipv6:")):
        addresses = target.split(":", 1)[1].split(",")
    elif target.startswith("dns:"):
        rest = target[len("dns:"):]
        addresses = [rest[2:].split("/", 1)[1] if rest.startswith("//") and "/" in rest[2:] else rest]
    for address in addresses:
        match = ADDRESS.fullmatch(address)
        if match is None or not 1 <= int(match["port"]) <= 65535:
            raise BadAddress(f"not a game service address: {target!r} (give HOST:PORT, e.g. 127.0.0.1:50051)")


REMEDIES = ("Give --tls (and --ca-file CA.pem for a certificate from a private CA), or --insecure if you trust "
            "the network between you and the service.",)


def add_arguments(parser: argparse.ArgumentParser, api_key: bool = True, identity: bool = False) -> None:
    """The connection flags of a command that talks to the game service."""
    group = parser.add_argument_group("connection")
    group.add_argument("--tls", action="store_true",
                       help="connect with TLS, checking the certificate against the system's roots "
                            "(default: TABLETOP_SERVICE_TLS)")
    group.add_argument("--ca-file", help="PEM file of the CAs to trust, e.g. a private or self-signed one; "
                                         "implies --tls (default: TABLETOP_TLS_CA_FILE)")
    group.add_argument("--server-name", help="the name the service's certificate must carry, when it is not the "
                                             "target's host (e.g. through a port-forward)")
    if api_key:
        group.add_argument("--api-key", help="your API key, sent as x-api-key (default: TABLETOP_API_KEY)")
    if identity:
        group.add_argument("--token", help="your signed identity, a JWT from the site you sign in to, sent as "
                                           "authorization: Bearer: your seat is bound to you, and you may resume it "
                                           "from anywhere (default: TABLETOP_IDENTITY_TOKEN)")
    group.add_argument("--insecure", action="store_true",
                       help="send seat tokens and the API key in plaintext to a target that is not this machine "
                            "(a network you trust; default: TABLETOP_ALLOW_INSECURE)")


@dataclass(frozen=True)
class Connection:
    tls: bool = False
    ca_file: str = ""
    server_name: str = ""
    api_key: str = ""
    insecure: bool = False
    identity: str = ""  # a signed player identity (JWT)

    def __repr__(self) -> str:
        return (f"Connection(tls={self.tls}, ca_file={self.ca_file!r}, server_name={self.server_name!r}, "
                f"api_key={'***' if self.api_key else ''!r}, insecure={self.insecure}, "
                f"identity={'***' if self.identity else ''!r})")

    @classmethod
    def from_args(cls, args: argparse.Namespace, env: Mapping[str, str] | None = None) -> Connection:
        """The flags, else their TABLETOP_* variables (a bad value is a ConfigError, a ValueError)."""
        env = os.environ if env is None else env
        ca_file = args.ca_file or env.get("TABLETOP_TLS_CA_FILE", "")
        return cls(tls=args.tls or flag(env, "SERVICE_TLS") or bool(ca_file), ca_file=ca_file,
                   server_name=args.server_name or "",
                   api_key=getattr(args, "api_key", None) or env.get("TABLETOP_API_KEY", ""),
                   insecure=args.insecure or flag(env, "ALLOW_INSECURE"),
                   identity=(getattr(args, "token", None) or env.get("TABLETOP_IDENTITY_TOKEN", "")).strip()
                   if hasattr(args, "token") else "")

    def check(self, target: str, what: str) -> None:
        """Refuse, before any connection, a target that is not an address (BadAddress), or to send `what` in
        plaintext to a target that is not this machine (transport.PlaintextRefused)."""
        check_address(target)
        if not (self.tls or self.insecure):
            transport.refuse_plaintext(target, what, REMEDIES)

    def connect(self, target: str, wait: float | None = None) -> Client:
        """An SDK client; the plaintext rule is checked again, call by call, by the SDK."""
        check_address(target)
        if self.api_key:
            self.check(target, "your API key")
        if self.identity:
            self.check(target, "your identity token")
        roots = transport.read_pem(self.ca_file, "--ca-file") if self.ca_file else None
        return connect(target, tls=self.tls, root_certificates=roots, wait=wait, server_name=self.server_name,
                       api_key=self.api_key or None, allow_insecure=self.insecure, identity=self.identity or None)

    def aio_channel(self, target: str, options: list[tuple[str, object]]) -> grpc.aio.Channel:
        """An asyncio channel (the load generator's), with TLS when asked."""
        options = options + transport.server_name_options(self.server_name)
        if self.tls:
            return grpc.aio.secure_channel(target, transport.channel_credentials(self.ca_file, "--ca-file"), options)
        return grpc.aio.insecure_channel(target, options)

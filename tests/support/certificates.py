"""Self-signed TLS certificates made on the spot with the `openssl` command (a test skips without it)."""

from __future__ import annotations

import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

import pytest


@dataclass(frozen=True)
class Certificate:
    cert_file: str  # PEM certificate, also the CA a client must trust (it signs itself)
    key_file: str  # PEM private key, unencrypted

    @property
    def pem(self) -> bytes:
        return Path(self.cert_file).read_bytes()


def self_signed(directory: Path, name: str = "tabletop-test",
                hosts: tuple[str, ...] = ("DNS:localhost", "IP:127.0.0.1", "IP:::1")) -> Certificate:
    """A one-day P-256 certificate for `hosts` (subjectAltName entries), with its key, written in `directory`."""
    openssl = shutil.which("openssl")
    if openssl is None:
        pytest.skip("the `openssl` command is not installed: the TLS tests make their certificate with it "
                    "(Debian: apt-get install openssl)")
    cert, key = directory / f"{name}.crt", directory / f"{name}.key"
    subprocess.run(
        [openssl, "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-days", "1",
         "-subj", f"/CN={name}", "-addext", f"subjectAltName={','.join(hosts)}",
         "-keyout", str(key), "-out", str(cert)],
        check=True, capture_output=True, timeout=30,
    )
    return Certificate(str(cert), str(key))

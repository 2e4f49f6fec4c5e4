"""Signed identities for the local stack: `tabletop run` configures the game service with a development secret,
and `tabletop token` mints a player's JWT with it (and a sign-in link to the web table), standing in for the sign-in
of a real site (docs/api.md, *Player identity*).

The secret is TABLETOP_JWT_SECRET when set (with TABLETOP_JWT_ISSUER and TABLETOP_JWT_AUDIENCE, defaulting to the
names below); otherwise it is kept in a file of the run's data (var/dev-identity.json, readable by its owner only),
made at the first run and reused, so that tokens and the players they name outlive a restart, as the games and
ratings in var/ do. The file also records the web table's address of the last run, for the sign-in link.
"""

from __future__ import annotations

import json
import os
import secrets
import time
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

import jwt

DEFAULT_FILE = Path("var") / "dev-identity.json"
ISSUER = "tabletop-run"
AUDIENCE = "tabletop"
SECRET_BYTES = 48  # token_urlsafe(48): 64 characters, over the service's 32-byte minimum
DEFAULT_WEB_URL = "http://127.0.0.1:8080/"


class IdentityFileError(Exception):
    """The identity file cannot be read or written; the message says which and why."""


@dataclass(frozen=True)
class DevIdentity:
    """The key the local service checks identities with, and where it came from."""

    secret: str
    issuer: str
    audience: str
    source: str  # "TABLETOP_JWT_SECRET" or the file's path
    web_url: str = DEFAULT_WEB_URL

    def env(self) -> dict[str, str]:
        """The game service's settings for this key."""
        return {"TABLETOP_JWT_SECRET": self.secret, "TABLETOP_JWT_ISSUER": self.issuer,
                "TABLETOP_JWT_AUDIENCE": self.audience}

    def mint(self, player_id: str, name: str = "", lifetime_seconds: int = 86_400, now: float | None = None) -> str:
        """A JWT naming `player_id` (and its display name), valid for `lifetime_seconds`."""
        issued = int(time.time() if now is None else now)
        claims = {"sub": player_id, "iss": self.issuer, "aud": self.audience, "iat": issued,
                  "exp": issued + lifetime_seconds}
        if name:
            claims["name"] = name
        return jwt.encode(claims, self.secret, algorithm="HS256")

    def sign_in_link(self, token: str, web_url: str | None = None) -> str:
        """The web table's address that signs its reader in (the token in the fragment, which is never sent to a
        server; the table moves it to its local storage and clears the address)."""
        base = web_url or self.web_url
        return f"{base.split('#')[0].rstrip('/')}/#token={token}"


def from_environment(environ: Mapping[str, str]) -> DevIdentity | None:
    """The identity TABLETOP_JWT_SECRET configures, or None when it is not set."""
    secret = environ.get("TABLETOP_JWT_SECRET", "")
    if not secret:
        return None
    return DevIdentity(secret, environ.get("TABLETOP_JWT_ISSUER") or ISSUER,
                       environ.get("TABLETOP_JWT_AUDIENCE") or AUDIENCE, "TABLETOP_JWT_SECRET")


def read(path: Path) -> DevIdentity | None:
    """The identity kept in `path`, or None when there is no such file."""
    try:
        doc = json.loads(path.read_text())
    except FileNotFoundError:
        return None
    except (OSError, ValueError) as exc:
        raise IdentityFileError(f"{path} cannot be read as a development identity: {exc}") from None
    if not isinstance(doc, dict) or not all(isinstance(doc.get(k), str) and doc.get(k)
                                            for k in ("secret", "issuer", "audience")):
        raise IdentityFileError(f"{path} is not a development identity (secret, issuer and audience); remove it "
                                "and `tabletop run` makes a new one (tokens minted before stop working)")
    return DevIdentity(doc["secret"], doc["issuer"], doc["audience"], str(path),
                       doc.get("web_url") or DEFAULT_WEB_URL)


def _write(path: Path, identity: DevIdentity) -> None:
    doc = {"secret": identity.secret, "issuer": identity.issuer, "audience": identity.audience,
           "web_url": identity.web_url}
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        temporary = path.with_name(f".{path.name}.{os.getpid()}")
        fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)  # the secret: its owner's only
        with os.fdopen(fd, "w") as f:
            json.dump(doc, f, indent=1)
        os.replace(temporary, path)
    except OSError as exc:
        raise IdentityFileError(f"cannot write the development identity to {path}: {exc.strerror}") from None


def for_run(path: Path, environ: Mapping[str, str], web_url: str | None = None) -> DevIdentity:
    """The identity `tabletop run` configures: TABLETOP_JWT_SECRET's, else the one kept in `path` (made now if
    there is none), with `web_url` recorded there for `tabletop token`'s link."""
    from_env = from_environment(environ)
    if from_env is not None:
        return from_env
    kept = read(path) or DevIdentity(secrets.token_urlsafe(SECRET_BYTES), ISSUER, AUDIENCE, str(path))
    if web_url is not None:
        kept = DevIdentity(kept.secret, kept.issuer, kept.audience, kept.source, web_url)
    _write(path, kept)
    return kept

"""Signed player identities from a frontend: `authorization: Bearer <JWT>`, verified with PyJWT.

A site with its own sign-in vouches for its player with a JWT: minted by its backend with a shared secret
(TABLETOP_JWT_SECRET: HS256/384/512), or its identity provider's token checked against a public key set
(TABLETOP_JWT_JWKS_FILE: a JWKS document or a PEM public key, e.g. mounted from a Kubernetes Secret: RSA, EC or
Ed25519 keys). The algorithms a token may use are fixed by the key that checks it: HS* only with the secret, and
the public-key algorithms of its key type only with a public key, so neither `alg: none` nor an HS token "signed"
with a public key is ever accepted. Issuer (TABLETOP_JWT_ISSUER), audience (TABLETOP_JWT_AUDIENCE) and expiry
(`exp`, required) are checked. The player id is the token's `sub`; its display name may come from `name`.

A bearer value with two dots is a JWT (seat, creator and AI tokens never hold a dot). A bad one is UNAUTHENTICATED
with a reason (INVALID_IDENTITY_*), and so is a JWT sent to a service with no keys configured
(IDENTITY_NOT_CONFIGURED): it is never silently taken as anonymous. Tokens are never logged.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

import jwt
from cryptography.hazmat.primitives.asymmetric import ec, ed448, ed25519, rsa
from cryptography.hazmat.primitives.serialization import load_pem_public_key

from service import errors
from tabletop.settings import ConfigError

MAX_JWT_LENGTH = 8192
MAX_PLAYER_ID_LENGTH = 128
MIN_SECRET_BYTES = 32  # RFC 7518 3.2: an HS256 key at least as long as the hash
LEEWAY_SECONDS = 30  # clock skew between the frontend and us
HMAC_ALGORITHMS = ("HS256", "HS384", "HS512")
RSA_ALGORITHMS = ("RS256", "RS384", "RS512", "PS256", "PS384", "PS512")
EC_ALGORITHMS = {"secp256r1": ("ES256",), "secp384r1": ("ES384",), "secp521r1": ("ES512",),
                 "secp256k1": ("ES256K",)}
PLAYER_ID = re.compile(r"^[\x21-\x7e]+$")  # printable ASCII, no spaces


def looks_like_jwt(bearer: str) -> bool:
    return bearer.count(".") == 2


@dataclass(frozen=True)
class Player:
    """A verified identity: the player id (`sub`) and the display name the token gave ("" if none)."""

    player_id: str
    name: str = ""


@dataclass(frozen=True)
class _PublicKey:
    kid: str | None
    key: Any
    algorithms: tuple[str, ...]


def _algorithms_of(key: Any) -> tuple[str, ...]:
    if isinstance(key, rsa.RSAPublicKey):
        return RSA_ALGORITHMS
    if isinstance(key, ec.EllipticCurvePublicKey):
        found = EC_ALGORITHMS.get(key.curve.name)
        if found:
            return found
        raise ConfigError(f"TABLETOP_JWT_JWKS_FILE: the EC curve {key.curve.name} is not supported")
    if isinstance(key, ed25519.Ed25519PublicKey | ed448.Ed448PublicKey):
        return ("EdDSA",)
    raise ConfigError("TABLETOP_JWT_JWKS_FILE holds a key that is not an RSA, EC or Ed25519/Ed448 public key")


def load_public_keys(path: str) -> tuple[_PublicKey, ...]:
    """The public keys of a JWKS file (`{"keys": [...]}`, or one JWK) or of a PEM public key file; a ConfigError
    names the variable when the file cannot be used. Symmetric (`oct`) and private keys are refused."""
    try:
        with open(path, "rb") as f:
            raw = f.read()
    except OSError as exc:
        raise ConfigError(f"TABLETOP_JWT_JWKS_FILE={path!r} cannot be read: {exc.strerror}") from None
    if raw.lstrip().startswith(b"-----BEGIN"):
        try:
            key = load_pem_public_key(raw)
        except ValueError as exc:
            raise ConfigError(f"TABLETOP_JWT_JWKS_FILE={path!r} is not a PEM public key: {exc}") from None
        return (_PublicKey(None, key, _algorithms_of(key)),)
    try:
        doc = json.loads(raw)
    except ValueError:
        raise ConfigError(f"TABLETOP_JWT_JWKS_FILE={path!r} is neither a JWKS (JSON) nor a PEM public key") from None
    jwks = doc.get("keys") if isinstance(doc, dict) and "keys" in doc else [doc]
    if not isinstance(jwks, list) or not jwks:
        raise ConfigError(f"TABLETOP_JWT_JWKS_FILE={path!r} holds no keys")
    keys = []
    for jwk in jwks:
        if not isinstance(jwk, dict):
            raise ConfigError(f"TABLETOP_JWT_JWKS_FILE={path!r}: a key is not a JSON object")
        if jwk.get("kty") == "oct":
            raise ConfigError("TABLETOP_JWT_JWKS_FILE holds a symmetric (oct) key: give a shared secret as "
                              "TABLETOP_JWT_SECRET instead")
        if "d" in jwk:
            raise ConfigError("TABLETOP_JWT_JWKS_FILE holds a private key: give the public keys only")
        if jwk.get("use", "sig") != "sig":
            continue  # an encryption key
        try:
            key = jwt.PyJWK(jwk).key
        except jwt.PyJWKError as exc:
            raise ConfigError(f"TABLETOP_JWT_JWKS_FILE={path!r}: a key cannot be used: {exc}") from None
        algorithms = _algorithms_of(key)
        if jwk.get("alg"):
            if jwk["alg"] not in algorithms:
                raise ConfigError(f"TABLETOP_JWT_JWKS_FILE: key {jwk.get('kid')!r} names alg {jwk['alg']!r}, "
                                  "which its key type cannot use")
            algorithms = (jwk["alg"],)
        keys.append(_PublicKey(jwk.get("kid"), key, algorithms))
    if not keys:
        raise ConfigError(f"TABLETOP_JWT_JWKS_FILE={path!r} holds no signing keys")
    return tuple(keys)


def _refused(reason: str, message: str) -> errors.ServiceError:
    return errors.unauthenticated(reason, message)


class Verifier:
    """Checks the JWTs callers send against the configured keys (see the module's doc)."""

    def __init__(self, secret: str = "", jwks_file: str = "", issuer: str = "", audience: str = ""):
        self.secret = secret.encode()
        self.keys = load_public_keys(jwks_file) if jwks_file else ()
        self.issuer = issuer
        self.audience = audience
        if self.configured:
            if secret and len(self.secret) < MIN_SECRET_BYTES:
                raise ConfigError(f"TABLETOP_JWT_SECRET must be at least {MIN_SECRET_BYTES} bytes")
            if not issuer or not audience:
                raise ConfigError("TABLETOP_JWT_ISSUER and TABLETOP_JWT_AUDIENCE are needed with TABLETOP_JWT_SECRET "
                                  "or TABLETOP_JWT_JWKS_FILE: a token is checked for both")

    @classmethod
    def from_config(cls, config: Any) -> Verifier:
        return cls(config.jwt_secret, config.jwt_jwks_file, config.jwt_issuer, config.jwt_audience)

    @property
    def configured(self) -> bool:
        return bool(self.secret or self.keys)

    def _key(self, header: dict[str, Any]) -> tuple[Any, str]:
        alg = header.get("alg")
        if not isinstance(alg, str) or alg.lower() == "none":
            raise _refused("UNSIGNED_IDENTITY", "the identity token is not signed (alg none)")
        if alg in HMAC_ALGORITHMS:
            if not self.secret:
                raise _refused("IDENTITY_ALGORITHM_NOT_ALLOWED",
                               f"{alg} tokens are not accepted here: no shared secret is configured")
            return self.secret, alg
        kid = header.get("kid")
        candidates = [k for k in self.keys if alg in k.algorithms]
        if kid is not None:  # the key of that kid; else a key without one (a PEM file's)
            candidates = [k for k in candidates if k.kid == kid] or [k for k in candidates if k.kid is None]
        elif len(candidates) > 1:
            candidates = [k for k in candidates if k.kid is None] or candidates[:0]
        if not candidates:
            if not any(alg in k.algorithms for k in self.keys):
                raise _refused("IDENTITY_ALGORITHM_NOT_ALLOWED",
                               f"{alg[:16]} tokens are not accepted here (no configured key uses it)")
            raise _refused("IDENTITY_KEY_UNKNOWN", "no configured key matches the token's kid")
        return candidates[0].key, alg

    def verify(self, token: str) -> Player:
        """The player a JWT names, or UNAUTHENTICATED with the reason it is refused."""
        if not self.configured:
            raise _refused("IDENTITY_NOT_CONFIGURED",
                           "this service accepts no signed identities (no JWT keys configured); use a seat token")
        if len(token) > MAX_JWT_LENGTH:
            raise _refused("MALFORMED_IDENTITY", f"the identity token is longer than {MAX_JWT_LENGTH} characters")
        try:
            header = jwt.get_unverified_header(token)
        except jwt.InvalidTokenError:
            raise _refused("MALFORMED_IDENTITY", "the identity token is not a JWT") from None
        key, alg = self._key(header)
        try:
            claims = jwt.decode(
                token, key, algorithms=[alg], audience=self.audience, issuer=self.issuer, leeway=LEEWAY_SECONDS,
                options={"require": ["exp", "iss", "aud", "sub"]},
            )
        except jwt.ExpiredSignatureError:
            raise _refused("IDENTITY_EXPIRED", "the identity token has expired") from None
        except jwt.InvalidSignatureError:
            raise _refused("INVALID_IDENTITY_SIGNATURE", "the identity token's signature does not verify") from None
        except jwt.InvalidAudienceError:
            raise _refused("WRONG_IDENTITY_AUDIENCE", "the identity token is not meant for this service (aud)") \
                from None
        except jwt.InvalidIssuerError:
            raise _refused("WRONG_IDENTITY_ISSUER", "the identity token is from an issuer not trusted here (iss)") \
                from None
        except jwt.MissingRequiredClaimError as exc:
            raise _refused("IDENTITY_CLAIM_MISSING", f"the identity token has no {exc.claim!r} claim") from None
        except jwt.ImmatureSignatureError:
            raise _refused("IDENTITY_NOT_YET_VALID", "the identity token is not valid yet (nbf/iat)") from None
        except jwt.InvalidTokenError as exc:
            raise _refused("INVALID_IDENTITY", f"the identity token is not valid: {type(exc).__name__}") from None
        sub = claims.get("sub")
        if not isinstance(sub, str) or not 0 < len(sub) <= MAX_PLAYER_ID_LENGTH or not PLAYER_ID.match(sub):
            raise _refused("INVALID_IDENTITY_SUBJECT",
                           f"the token's sub must be 1 to {MAX_PLAYER_ID_LENGTH} printable characters, no spaces")
        name = claims.get("name")
        name = " ".join(name.split())[:64] if isinstance(name, str) and name.isprintable() else ""
        return Player(sub, name)

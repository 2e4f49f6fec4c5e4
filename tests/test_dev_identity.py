"""The local stack's sign-in (tabletop/stack/dev_identity.py): `tabletop run` gives its game service a development
secret, kept in a file only its owner reads and reused across runs (or TABLETOP_JWT_SECRET's), and `tabletop token`
mints a player's JWT with it that the service's verifier accepts, with a sign-in link to the web table."""

from __future__ import annotations

import argparse
import json
import stat

import pytest

from commands import cli
from commands.run import choose_identity
from service.identity import Verifier
from tabletop.stack import dev_identity


def run_args(tmp_path) -> argparse.Namespace:
    return argparse.Namespace(identity_file=tmp_path / "var" / "dev-identity.json", no_identity=False)


def test_the_first_run_makes_a_secret_only_its_owner_reads_and_later_runs_reuse_it(tmp_path):
    args = run_args(tmp_path)
    first = choose_identity(args, {}, "http://127.0.0.1:8080/")
    path = args.identity_file
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert len(first.secret.encode()) >= 32 and first.issuer and first.audience
    again = choose_identity(args, {}, "http://127.0.0.1:9090/")  # another port this time
    assert again.secret == first.secret
    assert json.loads(path.read_text())["web_url"] == "http://127.0.0.1:9090/"
    assert Verifier(**{k.removeprefix("TABLETOP_JWT_").lower(): v for k, v in again.env().items()}).configured


def test_the_environments_secret_wins_and_a_public_key_set_alone_is_left_as_it_is(tmp_path):
    args = run_args(tmp_path)
    env = {"TABLETOP_JWT_SECRET": "s" * 40, "TABLETOP_JWT_ISSUER": "https://site.example"}
    chosen = choose_identity(args, env, None)
    assert (chosen.secret, chosen.issuer, chosen.audience) == ("s" * 40, "https://site.example", dev_identity.AUDIENCE)
    assert not args.identity_file.exists()  # nothing written: the secret is the environment's
    assert choose_identity(args, {"TABLETOP_JWT_JWKS_FILE": "/keys.json"}, None) is None
    no_identity = argparse.Namespace(identity_file=args.identity_file, no_identity=True)
    assert choose_identity(no_identity, {}, None) is None


def test_tabletop_token_mints_an_identity_the_service_accepts_with_a_sign_in_link(tmp_path, capsys, monkeypatch):
    monkeypatch.delenv("TABLETOP_JWT_SECRET", raising=False)
    identity = dev_identity.for_run(tmp_path / "id.json", {}, "http://127.0.0.1:8123/")
    assert cli.main(["token", "alice", "--name", "Alice  Liddell", "--identity-file", str(tmp_path / "id.json"),
                     "--json"]) == 0
    minted = json.loads(capsys.readouterr().out)
    verifier = Verifier(identity.secret, issuer=identity.issuer, audience=identity.audience)
    player = verifier.verify(minted["token"])
    assert (player.player_id, player.name) == ("alice", "Alice Liddell")
    assert minted["link"] == f"http://127.0.0.1:8123/#token={minted['token']}"
    assert cli.main(["token", "bo", "--identity-file", str(tmp_path / "id.json"), "--url",
                     "http://table.example/play/"]) == 0
    out = capsys.readouterr().out
    assert "http://table.example/play/#token=" in out and "bo" in out


def test_tabletop_token_refuses_a_bad_player_id_and_says_when_there_is_no_secret(tmp_path, capsys, monkeypatch):
    monkeypatch.delenv("TABLETOP_JWT_SECRET", raising=False)
    with pytest.raises(SystemExit) as exited:
        cli.main(["token", "two words"])
    assert exited.value.code == 2 and "no spaces" in capsys.readouterr().err
    assert cli.main(["token", "alice", "--identity-file", str(tmp_path / "none.json")]) == 2
    err = capsys.readouterr().err
    assert "none.json does not exist" in err and "make run" in err
    (tmp_path / "broken.json").write_text("{}")
    assert cli.main(["token", "alice", "--identity-file", str(tmp_path / "broken.json")]) == 2
    assert "not a development identity" in capsys.readouterr().err

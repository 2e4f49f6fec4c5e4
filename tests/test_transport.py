"""TLS settings fail at startup with a message naming the variable and the file (tabletop/transport.py); the
loopback rule reads gRPC targets the way gRPC does (the client's, clients/python/tabletop/client/transport.py)."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from ai.worker_config import WorkerConfig
from service.config import Config, ConfigError
from tabletop.client import transport
from tests.support.certificates import self_signed


@pytest.fixture(scope="module")
def pair(tmp_path_factory):
    return self_signed(tmp_path_factory.mktemp("certs"))


@pytest.fixture(scope="module")
def other(tmp_path_factory):
    return self_signed(tmp_path_factory.mktemp("other"), name="other")


@pytest.mark.parametrize("load", [Config.from_env, WorkerConfig.from_env])
def test_a_good_certificate_and_key_are_accepted(load, pair):
    config = load({"TABLETOP_TLS_CERT_FILE": pair.cert_file, "TABLETOP_TLS_KEY_FILE": pair.key_file,
                   "TABLETOP_TLS_CA_FILE": pair.cert_file})
    assert (config.tls_cert_file, config.tls_key_file) == (pair.cert_file, pair.key_file)


@pytest.mark.parametrize("load", [Config.from_env, WorkerConfig.from_env])
def test_bad_tls_files_stop_the_process_at_startup_naming_them(load, pair, other, tmp_path):
    missing = str(tmp_path / "missing.crt")
    not_pem = tmp_path / "notes.txt"
    not_pem.write_text("hello")
    unreadable = tmp_path / "secret.key"
    unreadable.write_bytes(open(pair.key_file, "rb").read())
    unreadable.chmod(0)
    cases = [
        ({"TABLETOP_TLS_CERT_FILE": pair.cert_file}, "give both TABLETOP_TLS_CERT_FILE and TABLETOP_TLS_KEY_FILE"),
        ({"TABLETOP_TLS_KEY_FILE": pair.key_file}, "give both"),
        ({"TABLETOP_TLS_CERT_FILE": missing, "TABLETOP_TLS_KEY_FILE": pair.key_file},
         f"TABLETOP_TLS_CERT_FILE='{missing}' cannot be read: No such file or directory"),
        ({"TABLETOP_TLS_CERT_FILE": pair.cert_file, "TABLETOP_TLS_KEY_FILE": str(not_pem)},
         "TABLETOP_TLS_KEY_FILE=.* is not a PEM file"),
        ({"TABLETOP_TLS_CERT_FILE": pair.cert_file, "TABLETOP_TLS_KEY_FILE": other.key_file},
         "do not make a certificate and its private key"),
        ({"TABLETOP_TLS_CA_FILE": missing}, "TABLETOP_TLS_CA_FILE=.* cannot be read"),
    ]
    if os.geteuid() != 0:  # root reads any file
        cases.append(({"TABLETOP_TLS_CERT_FILE": pair.cert_file, "TABLETOP_TLS_KEY_FILE": str(unreadable)},
                      "TABLETOP_TLS_KEY_FILE=.* cannot be read: Permission denied"))
    for env, message in cases:
        with pytest.raises(ConfigError, match=message):
            load(env)


def test_yes_no_settings_refuse_other_words():
    with pytest.raises(ConfigError, match="TABLETOP_AI_TLS='maybe' is not true or false"):
        Config.from_env({"TABLETOP_AI_TLS": "maybe"})
    assert Config.from_env({"TABLETOP_AI_TLS": "TRUE"}).ai_tls
    assert not WorkerConfig.from_env({"TABLETOP_ALLOW_INSECURE": "no"}).allow_insecure


@pytest.mark.integration  # it starts processes
def test_tabletop_serve_with_a_missing_certificate_exits_with_the_reason(tmp_path):
    env = {**os.environ, "TABLETOP_TLS_CERT_FILE": str(tmp_path / "tls.crt"),
           "TABLETOP_TLS_KEY_FILE": str(tmp_path / "tls.key"), "TABLETOP_METRICS_PORT": "0"}
    done = subprocess.run([sys.executable, "-m", "commands.cli", "serve"], env=env, capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 2
    assert f"TABLETOP_TLS_CERT_FILE='{tmp_path / 'tls.crt'}' cannot be read" in done.stderr


@pytest.mark.parametrize("target, loopback", [
    ("127.0.0.1:50051", True), ("127.255.0.9:1", True), ("localhost:50051", True), ("LOCALHOST", True),
    ("[::1]:50051", True), ("::1", True), ("[::ffff:127.0.0.1]:1", True), ("dns:///localhost:50051", True),
    ("dns://8.8.8.8/127.0.0.1:1", True), ("ipv4:127.0.0.1:1,127.0.0.2:2", True), ("ipv6:[::1]:1", True),
    ("unix:/run/tabletop.sock", True), ("unix-abstract:tabletop", True),
    ("10.0.0.5:50051", False), ("tabletop-game-service:50051", False), ("localhost.example.com:1", False),
    ("dns:///play.example.com:443", False), ("dns://127.0.0.1/play.example.com:443", False),
    ("ipv4:127.0.0.1:1,10.0.0.1:2", False), ("[2001:db8::1]:50051", False), ("0.0.0.0:50051", False),
    ("", False),
])
def test_which_targets_are_this_machine(target, loopback):
    assert transport.is_loopback(target) is loopback

"""The `tabletop` command line (commands/cli.py and the entry points it dispatches to): every subcommand's parser
documents every argument, `--help` exits 0 everywhere, `--version` prints the package's version; a busy port, a
malformed address and an unknown game option are told as such, without a traceback."""

from __future__ import annotations

import argparse
import contextlib
import importlib.metadata
import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from commands import bench, cli

REPO = Path(__file__).resolve().parent.parent
COMMANDS = [(name,) for name in cli.COMMANDS] + [("bench", kind) for kind in bench.KINDS]


class Parsed(Exception):
    """Raised instead of parsing: carries the parser that was about to parse."""

    def __init__(self, parser: argparse.ArgumentParser):
        super().__init__(parser.prog)
        self.parser = parser


@contextlib.contextmanager
def parser_of(prog: str):
    """While inside, the parser named `prog` raises Parsed with itself instead of parsing (the others parse)."""
    original = argparse.ArgumentParser.parse_known_args

    def parse_known_args(self, args=None, namespace=None):
        if self.prog == prog:
            raise Parsed(self)
        return original(self, args, namespace)

    argparse.ArgumentParser.parse_known_args = parse_known_args
    try:
        yield
    finally:
        argparse.ArgumentParser.parse_known_args = original


def command_parser(words: tuple[str, ...]) -> argparse.ArgumentParser:
    """The argparse parser of `tabletop WORDS...`, as its entry point builds it."""
    with parser_of(" ".join(("tabletop", *words))), pytest.raises(Parsed) as parsed:
        cli.main(list(words))
    return parsed.value.parser


@pytest.mark.parametrize("words", COMMANDS, ids=" ".join)
def test_every_argument_of_every_command_has_help_text(words):
    parser = command_parser(words)
    assert parser.description, f"tabletop {' '.join(words)} has no description"
    undocumented = [action.option_strings[0] if action.option_strings else action.dest
                    for action in parser._actions
                    if not isinstance(action, argparse._HelpAction) and not (action.help or "").strip()]
    assert not undocumented, f"tabletop {' '.join(words)}: no help for {undocumented}"


@pytest.mark.parametrize("words", [(), *COMMANDS], ids=lambda words: " ".join(words) or "tabletop")
def test_help_exits_0_for_every_command(words, capsys):
    with pytest.raises(SystemExit) as exited:
        code = cli.main([*words, "--help"])
        raise SystemExit(code)
    assert exited.value.code in (0, None)
    out = capsys.readouterr().out
    assert "usage:" in out.lower(), out


def test_bench_help_names_every_benchmark(capsys):
    with pytest.raises(SystemExit) as exited:
        cli.main(["bench", "--help"])
    assert exited.value.code == 0
    out = capsys.readouterr().out
    assert all(kind in out for kind in bench.KINDS), out
    assert all(kind in cli.COMMANDS["bench"][1] for kind in bench.KINDS), "the command list names them all"


def test_version_prints_the_package_version(capsys):
    version = importlib.metadata.version("tabletop")
    for flag in ("--version", "-V"):
        assert cli.main([flag]) == 0
        assert capsys.readouterr().out.strip() == f"tabletop {version}"


def test_play_help_lists_the_games(capsys):
    from games import registry

    with pytest.raises(SystemExit):
        cli.main(["play", "--help"])
    out = " ".join(capsys.readouterr().out.split())
    assert registry.names() and all(name in out for name in registry.names()), out


@pytest.mark.parametrize("words", [("play", "naishi"), ("demo", "naishi"), ("watch", "g1"), ("history",),
                                   ("ratings", "alice"), ("leaderboard", "hinode")])
@pytest.mark.parametrize("target", ["nonsense", "127.0.0.1", "host:port", "10.0.0.1:99999", ":50051"])
def test_a_malformed_target_is_refused_as_an_address_not_as_a_tls_matter(words, target, capsys):
    assert cli.main([*words, "--target", target]) == 1
    err = capsys.readouterr().err
    assert f"not a game service address: {target!r}" in err and "HOST:PORT" in err, err
    assert "TLS" not in err, err


@pytest.mark.parametrize("target", ["127.0.0.1:50051", "localhost:1", "[::1]:50051", "my-host.example:443",
                                    "dns:///example.com:443", "dns://8.8.8.8/example.com:443", "unix:/tmp/t.sock",
                                    "ipv4:127.0.0.1:1,10.0.0.1:2", "ipv6:[::1]:5"])
def test_every_form_of_address_grpc_takes_is_accepted(target):
    from clients.connection import check_address

    check_address(target)  # raises BadAddress for a malformed one


def test_an_unknown_option_is_told_with_the_valid_ones():
    from games import registry
    from games.base import InvalidOptions

    with pytest.raises(InvalidOptions) as refused:
        registry.get("hinode").resolve_options({"advanced": True, "bogus": 1})
    message = str(refused.value)
    assert "bogus" in message and "advanced" in message, message
    with pytest.raises(InvalidOptions) as refused:
        registry.get("naishi").resolve_options({"bogus": 1})
    assert "bogus" in str(refused.value) and "has no options" in str(refused.value), str(refused.value)


@pytest.mark.integration  # it starts a process
def test_serve_on_a_busy_port_says_so_without_a_traceback():
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        done = subprocess.run(
            [sys.executable, "-m", "commands.cli", "serve", "--host", "127.0.0.1", "--port", str(port),
             "--metrics-port", "0", "--redis-url", "redis://127.0.0.1:1/0"],
            cwd=REPO, capture_output=True, text=True, timeout=120,
            env={**{k: v for k, v in os.environ.items() if not k.startswith("TABLETOP_")},
                 "TABLETOP_AI_SERVICE_TOKEN": "t" * 32})
    assert done.returncode != 0
    assert "Traceback" not in done.stderr + done.stdout, done.stderr
    assert f"127.0.0.1:{port}" in done.stderr and "in use" in done.stderr, done.stderr


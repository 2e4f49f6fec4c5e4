"""A real Redis Cluster for the tests: `redis-server --cluster-enabled yes` processes (three masters, and a replica
each if asked) on free ports of 127.0.0.1 in a temporary directory, joined as `redis-cli --cluster create` would
(slots split evenly over the masters, MEET, REPLICATE), over redis-py: no redis-cli needed, so it runs on the packaged
server too (tabletop/stack/embedded_redis.py)."""

from __future__ import annotations

import shutil
import subprocess
import tempfile
import time
from pathlib import Path

import redis

from tabletop.stack.embedded_redis import find_redis_server, free_port

SLOTS = 16384


class LocalCluster:
    def __init__(self, masters: int = 3, replicas: int = 0, options: tuple[str, ...] = ()):
        """`options`: more redis-server arguments for every node, e.g. ("--cluster-node-timeout", "1000")."""
        self.dir = Path(tempfile.mkdtemp(prefix="tabletop-cluster-"))
        self.ports = [free_port() for _ in range(masters * (1 + replicas))]
        self.bus_ports = [free_port() for _ in self.ports]  # the bus port: port + 10000 need not be free
        self.masters = masters
        self.replicas = replicas
        self.options = options
        self.procs: list[subprocess.Popen] = []

    @property
    def url(self) -> str:
        """Any one node: the cluster-aware client learns the others from it."""
        return f"redis://127.0.0.1:{self.ports[0]}/0"

    def start(self, timeout: float = 20.0) -> LocalCluster:
        try:
            for port, bus_port in zip(self.ports, self.bus_ports, strict=True):
                node_dir = self.dir / str(port)
                node_dir.mkdir()
                self.procs.append(subprocess.Popen(
                    [find_redis_server(), "--bind", "127.0.0.1", "--port", str(port),
                     "--cluster-enabled", "yes", "--cluster-config-file", "nodes.conf",
                     "--cluster-port", str(bus_port),
                     "--dir", str(node_dir), "--save", "", "--appendonly", "no", "--daemonize", "no",
                     "--logfile", str(node_dir / "redis.log"), *self.options],
                    stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True,
                ))
            deadline = time.monotonic() + timeout
            for port in self.ports:
                while self._cli(port, "ping") != "PONG":
                    self._check(deadline, f"node {port} does not answer")
            self._create(deadline)
            for port in self.ports:
                while "cluster_state:ok" not in self._cli(port, "cluster", "info"):
                    self._check(deadline, f"node {port} did not reach cluster_state:ok")
                # A replica that has not synced once cannot take over: wait for its link to the master.
                while "role:slave" in (info := self._cli(port, "info", "replication")) and \
                        "master_link_status:up" not in info:
                    self._check(deadline, f"replica {port} did not sync with its master")
        except BaseException:
            self.stop()
            raise
        return self

    def master_of_slot(self, slot: int, wait: float = 10.0) -> int:
        """The port of the master that owns `slot`. Right after a failover the node asked may not have heard of
        the new master yet (the cluster's gossip): ask again for up to `wait` seconds."""
        deadline = time.monotonic() + wait
        while True:
            alive = next(port for port, proc in zip(self.ports, self.procs, strict=True) if proc.poll() is None)
            for line in self._cli(alive, "cluster", "nodes").splitlines():
                fields = line.split()
                if "master" not in fields[2] or "fail" in fields[2]:
                    continue
                for span in fields[8:]:
                    low, _, high = span.partition("-")
                    if low.isdigit() and int(low) <= slot <= int(high or low):
                        return int(fields[1].split(":")[1].split("@")[0])
            if time.monotonic() > deadline:
                raise LookupError(f"no master owns slot {slot}")
            time.sleep(0.1)

    def replicated(self, port: int, timeout: float = 10.0) -> None:
        """Wait until each replica of the master at `port` holds every write the master has taken so far
        (replication is asynchronous): the replica's own offset reaches the master's."""
        info = self._fields(port, "replication")
        target = int(info["master_repl_offset"])
        replicas = [int(dict(pair.split("=", 1) for pair in value.split(","))["port"])
                    for name, value in info.items() if name.startswith("slave") and name[5:].isdigit()]
        assert replicas, f"the master {port} has no replica"
        deadline = time.monotonic() + timeout
        for replica in replicas:
            while int(self._fields(replica, "replication").get("slave_repl_offset", -1)) < target:
                self._check(deadline, f"replica {replica} did not catch up with its master {port}")

    def _fields(self, port: int, section: str) -> dict[str, str]:
        """A section of a node's INFO, as `name: value` text."""
        return dict(line.split(":", 1) for line in self._cli(port, "info", section).splitlines() if ":" in line)

    def kill(self, port: int) -> None:
        """SIGKILL one node, as a crashed host."""
        self.procs[self.ports.index(port)].kill()
        self.procs[self.ports.index(port)].wait()

    def stop(self) -> None:
        for proc in self.procs:
            if proc.poll() is None:
                proc.terminate()
        for proc in self.procs:
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
        shutil.rmtree(self.dir, ignore_errors=True)

    def _check(self, deadline: float, what: str) -> None:
        if any(p.poll() is not None for p in self.procs):
            logs = "".join(f.read_text(errors="replace")[-1000:] for f in self.dir.glob("*/redis.log"))
            raise RuntimeError(f"a cluster node exited: {logs}")
        if time.monotonic() > deadline:
            raise RuntimeError(what)
        time.sleep(0.05)

    def _create(self, deadline: float) -> None:
        """What `redis-cli --cluster create --cluster-replicas R` does: the first `masters` nodes get equal slot
        ranges and distinct config epochs, every node MEETs the first, then each replica REPLICATEs its master."""
        masters, replicas = self.ports[:self.masters], self.ports[self.masters:]
        for i, port in enumerate(masters):
            low, high = i * SLOTS // len(masters), (i + 1) * SLOTS // len(masters) - 1
            self._cli(port, "cluster", "addslotsrange", str(low), str(high), check=True)
            self._cli(port, "cluster", "set-config-epoch", str(i + 1), check=True)
        for port in self.ports[1:]:
            self._cli(port, "cluster", "meet", "127.0.0.1", str(self.ports[0]), str(self.bus_ports[0]), check=True)
        for port in self.ports:
            while sum(1 for line in self._cli(port, "cluster", "nodes").splitlines()
                      if "handshake" not in line and "noaddr" not in line) < len(self.ports):
                self._check(deadline, f"node {port} did not meet every other node")
        for i, port in enumerate(replicas):
            master_id = self._cli(masters[i % len(masters)], "cluster", "myid", check=True)
            while self._cli(port, "cluster", "replicate", master_id) != "OK":  # until it has heard of the master
                self._check(deadline, f"replica {port} could not replicate {master_id}")

    def _cli(self, port: int, *args: str, check: bool = False) -> str:
        """One command to one node, its reply as text ("" when the node cannot be reached or, unless `check`,
        answers an error), as `redis-cli` prints it."""
        conn = redis.Connection(host="127.0.0.1", port=port, socket_timeout=10, socket_connect_timeout=1)
        try:
            conn.send_command(*args)
            reply = conn.read_response()
        except (redis.ConnectionError, redis.TimeoutError, OSError):
            if check:
                raise
            return ""
        except redis.ResponseError:
            if check:
                raise
            return ""
        finally:
            conn.disconnect()
        return (reply.decode() if isinstance(reply, bytes) else str(reply)).strip()

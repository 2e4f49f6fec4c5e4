"""A TCP proxy in front of the game service whose open connections the test can cut, like a load balancer or a
network failure would: the client sees its calls fail and must reconnect through it."""

from __future__ import annotations

import socket
import threading


class CuttableProxy:
    def __init__(self, upstream_port: int):
        self.upstream_port = upstream_port
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.connections: list[socket.socket] = []
        self.lock = threading.Lock()
        self.cuts = 0
        self.accepted = 0
        threading.Thread(target=self._accept, daemon=True).start()

    @property
    def target(self) -> str:
        return f"127.0.0.1:{self.port}"

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            upstream = socket.create_connection(("127.0.0.1", self.upstream_port))
            with self.lock:
                self.connections += [client, upstream]
                self.accepted += 1
            threading.Thread(target=self._pipe, args=(client, upstream), daemon=True).start()
            threading.Thread(target=self._pipe, args=(upstream, client), daemon=True).start()

    @staticmethod
    def _pipe(source: socket.socket, sink: socket.socket) -> None:
        try:
            while data := source.recv(65536):
                sink.sendall(data)
        except OSError:
            pass
        for sock in (source, sink):
            try:
                sock.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass

    def cut(self) -> None:
        """Close every open connection at once (new ones are still accepted)."""
        with self.lock:
            connections, self.connections = self.connections, []
            self.cuts += 1
        for sock in connections:
            try:
                sock.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
            sock.close()

    def close(self) -> None:
        self.listener.close()
        self.cut()

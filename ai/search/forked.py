"""Run functions in forked processes and collect their JSON results: no pickle crosses the pipes.

Fork (not spawn) lets a child inherit the game objects and closures as they are; each child sends its result
back as JSON bytes on its own pipe.
"""

from __future__ import annotations

import json
import multiprocessing
import multiprocessing.connection
import os
from collections.abc import Callable, Iterator
from typing import Any


def run_forked(tasks: list[Callable[[], Any]], nice: int = 0) -> list[Any]:
    """Run each task in its own forked process at once, `nice` steps below this process's CPU priority; return
    their JSON-able results in order."""
    return [result for _, result in sorted(_run(tasks, None, nice))]


def run_forked_streaming(tasks: list[Callable[[Callable[[Any], None]], Any]]) -> Iterator[tuple[int, Any]]:
    """Run tasks that report progress: each gets an `emit(item)`; yields (task index, item) as items arrive.

    A task's return value is yielded last for that task, as (index, {"done": value}).
    """
    return _run(tasks, True)


def _run(tasks: list[Callable], streaming: bool | None, nice: int = 0) -> Iterator[tuple[int, Any]]:
    ctx = multiprocessing.get_context("fork")
    pipes = []
    procs = []
    for task in tasks:
        reader, writer = ctx.Pipe(duplex=False)
        proc = ctx.Process(target=_child, args=(task, writer, streaming, nice), daemon=True)
        proc.start()
        writer.close()
        pipes.append(reader)
        procs.append(proc)
    try:
        open_pipes = dict(enumerate(pipes))
        while open_pipes:
            for conn in multiprocessing.connection.wait(list(open_pipes.values())):
                index = next(i for i, p in open_pipes.items() if p is conn)
                try:
                    raw = conn.recv_bytes()
                except EOFError:
                    raise RuntimeError(f"forked task {index} died without a result") from None
                message = json.loads(raw)
                if "error" in message:
                    raise RuntimeError(f"forked task {index} failed: {message['error']}")
                if "done" in message:
                    del open_pipes[index]
                    yield index, (message if streaming else message["done"])
                else:
                    yield index, message["item"]
    finally:
        for proc in procs:
            proc.join(timeout=5)
            if proc.is_alive():
                proc.terminate()


def _child(task: Callable, writer: Any, streaming: bool | None, nice: int = 0) -> None:
    try:
        if nice:
            os.nice(nice)  # lower only: any process may, no privilege needed
        if streaming:
            result = task(lambda item: writer.send_bytes(json.dumps({"item": item}).encode()))
        else:
            result = task()
        writer.send_bytes(json.dumps({"done": result}).encode())
    except BaseException as exc:  # report every failure to the parent rather than die silently
        writer.send_bytes(json.dumps({"error": f"{type(exc).__name__}: {exc}"}).encode())
    finally:
        writer.close()

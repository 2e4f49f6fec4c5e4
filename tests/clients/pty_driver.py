"""Drive a command in a real pseudo-terminal, as a person at a keyboard would: read the screen, type lines."""

from __future__ import annotations

import fcntl
import os
import re
import select
import struct
import subprocess
import termios
import time

ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")


class Terminal:
    """A child process on a pty: `expect` waits for text on the screen, `type` sends a line."""

    def __init__(self, argv: list[str], env: dict[str, str], cwd: str | None = None, rows: int = 24,
                 columns: int = 80):
        self.master, slave = os.openpty()
        # the window size the program reads (TIOCGWINSZ, shutil.get_terminal_size): 80 x 24 unless told
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, 0, 0))
        self.rows, self.columns = rows, columns
        self.proc = subprocess.Popen(argv, stdin=slave, stdout=slave, stderr=slave, env=env, cwd=cwd,
                                     start_new_session=True, close_fds=True)
        os.close(slave)
        self.raw = ""  # everything the program wrote, ANSI codes included
        self.seen = 0  # how much of the plain screen `expect` has consumed

    @property
    def screen(self) -> str:
        """The output without ANSI codes and carriage returns."""
        return ANSI.sub("", self.raw).replace("\r", "")

    def _read(self, timeout: float) -> bool:
        ready, _, _ = select.select([self.master], [], [], timeout)
        if not ready:
            return False
        try:
            data = os.read(self.master, 65536)
        except OSError:  # the child closed the terminal
            return False
        if not data:
            return False
        self.raw += data.decode(errors="replace")
        return True

    def expect(self, *patterns: str, timeout: float = 30.0) -> tuple[int, str]:
        """Wait until one of the regex `patterns` shows after what was consumed; return (which, text up to it)."""
        deadline = time.monotonic() + timeout
        while True:
            screen = self.screen
            found = [(m.end(), i, m) for i, p in enumerate(patterns) if (m := re.compile(p).search(screen, self.seen))]
            if found:
                end, index, _ = min(found)
                text = screen[self.seen:end]
                self.seen = end
                return index, text
            if time.monotonic() > deadline:
                raise TimeoutError(f"none of {patterns} within {timeout}s; screen ends with:\n{screen[-3000:]}")
            if not self._read(0.2) and self.proc.poll() is not None:
                while self._read(0.05):
                    pass
                if not any(re.search(p, self.screen[self.seen:]) for p in patterns):
                    raise EOFError(f"exited with {self.proc.returncode} before {patterns}; "
                                   f"screen ends with:\n{self.screen[-3000:]}")

    def type(self, line: str) -> None:
        os.write(self.master, (line + "\n").encode())

    def wait(self, timeout: float = 30.0) -> int:
        deadline = time.monotonic() + timeout
        while self.proc.poll() is None and time.monotonic() < deadline:
            self._read(0.1)
        while self._read(0.05):
            pass
        return self.proc.wait(timeout=max(deadline - time.monotonic(), 1))

    def close(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        os.close(self.master)


def screen_rows(text: str, columns: int = 80) -> list[str]:
    """`text` as the rows of a screen `columns` wide: a longer line takes several rows (as a terminal wraps it)."""
    rows = []
    for line in text.split("\n"):
        rows += [line[i:i + columns] for i in range(0, max(len(line), 1), columns)]
    return rows

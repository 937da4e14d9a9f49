"""The live stream's test parts: the real gunicorn of deploy/ (gevent workers) in a subprocess, and a small
Server-Sent Events client over a raw socket (so that a test sees the bytes the browser would)."""

from __future__ import annotations

import json
import secrets
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from service.runtime.redis_server import free_port
from tests.helpers import PATIENCE_SECONDS, ROOT


class Gunicorn:
    """``gunicorn -c deploy/gunicorn.conf.py`` on a free port against ``redis_url``; a context manager."""

    def __init__(self, redis_url: str, workers: int = 1, env: dict[str, str] | None = None, args: tuple[str, ...] = ()) -> None:
        self.port = free_port()
        self.env = {"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT), "LUDOLOG_REDIS_URL": redis_url,
                    "LUDOLOG_PORT": str(self.port), "LUDOLOG_WEB_WORKERS": str(workers),
                    "LUDOLOG_SECRET_KEY": secrets.token_hex(32),
                    "LUDOLOG_LOG_LEVEL": "warning", "LUDOLOG_PURE": "1", **(env or {})}
        self.args = args
        self.process: subprocess.Popen[bytes] | None = None

    def __enter__(self) -> Gunicorn:
        self.process = subprocess.Popen([sys.executable, "-m", "gunicorn", "-c", str(ROOT / "deploy" / "gunicorn.conf.py"),
                                         "--access-logfile", "/dev/null", *self.args], cwd=ROOT, env=self.env,
                                        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        deadline = time.monotonic() + PATIENCE_SECONDS
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise AssertionError(f"gunicorn exited: {self.process.stderr.read().decode()[-3000:]}")  # type: ignore[union-attr]
            try:
                if self.get("/healthz")[0] in (200, 503):
                    return self
            except OSError:
                time.sleep(0.2)
        raise AssertionError(f"gunicorn did not answer within {PATIENCE_SECONDS:.0f} s")

    def workers(self) -> set[int]:
        """The process ids of gunicorn's workers now."""
        assert self.process is not None
        try:
            return {int(pid) for pid in Path(f"/proc/{self.process.pid}/task/{self.process.pid}/children").read_text().split()}
        except OSError:
            return set()

    def __exit__(self, *exc: object) -> None:
        assert self.process is not None
        self.process.terminate()
        try:
            self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()

    def errors(self) -> str:
        """What gunicorn wrote on its standard error (after it stopped)."""
        assert self.process is not None and self.process.stderr is not None
        return self.process.stderr.read().decode(errors="replace")

    def url(self, path: str) -> str:
        """The full URL of ``path``."""
        return f"http://127.0.0.1:{self.port}{path}"

    def get(self, path: str, token: str | None = None) -> tuple[int, Any]:
        """(status, parsed JSON) of a GET."""
        return self.send(path, None, token)

    def send(self, path: str, body: Any, token: str | None = None) -> tuple[int, Any]:
        """(status, parsed JSON) of a POST of ``body`` (a GET when None)."""
        headers = {"Content-Type": "application/json"} if body is not None else {}
        if token:
            headers["Authorization"] = f"Bearer {token}"
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.url(path), data=data, headers=headers)
        try:
            with urllib.request.urlopen(request, timeout=30) as answer:
                return answer.status, json.loads(answer.read() or b"null")
        except urllib.error.HTTPError as error:
            return error.code, json.loads(error.read() or b"null")


@dataclass
class Message:
    """One SSE message."""

    id: str | None
    event: str
    data: str

    def json(self) -> Any:
        """The data, parsed."""
        return json.loads(self.data)


@dataclass
class SseClient:
    """One open ``text/event-stream`` response read from a raw socket."""

    port: int
    path: str
    headers: dict[str, str] = field(default_factory=dict)
    timeout: float = 20.0
    status: int = 0
    response_headers: dict[str, str] = field(default_factory=dict)
    comments: list[str] = field(default_factory=list)
    retry: int | None = None
    ended: bool = False
    _sock: socket.socket | None = None
    _buffer: bytes = b""
    _text: bytes = b""

    def open(self) -> SseClient:
        """Send the request and read the status line and headers."""
        self._sock = socket.create_connection(("127.0.0.1", self.port), timeout=self.timeout)
        lines = [f"GET {self.path} HTTP/1.1", f"Host: 127.0.0.1:{self.port}", "Accept: text/event-stream",
                 *(f"{k}: {v}" for k, v in self.headers.items()), "", ""]
        self._sock.sendall("\r\n".join(lines).encode("latin-1"))  # a header's bytes as they are (HTTP is Latin-1)
        head = self._read_until(b"\r\n\r\n").decode()
        status_line, *header_lines = head.split("\r\n")
        self.status = int(status_line.split()[1])
        self.response_headers = {k.strip().lower(): v.strip() for k, _, v in (h.partition(":") for h in header_lines if h)}
        return self

    def close(self) -> None:
        """Drop the connection (as a browser closing the tab)."""
        if self._sock is not None:
            self._sock.close()
            self._sock = None

    def _fill(self) -> bool:
        assert self._sock is not None
        chunk = self._sock.recv(65536)
        if not chunk:
            self.ended = True
            return False
        self._buffer += chunk
        return True

    def _read_until(self, marker: bytes) -> bytes:
        while marker not in self._buffer:
            if not self._fill():
                raise EOFError("the stream ended")
        head, _, self._buffer = self._buffer.partition(marker)
        return head

    def _chunked_text(self) -> bytes:
        """The next chunk of a chunked body (the body's framing is HTTP/1.1 chunked)."""
        size = int(self._read_until(b"\r\n").split(b";")[0], 16)
        if size == 0:
            self.ended = True
            raise EOFError("the stream ended")
        while len(self._buffer) < size + 2:
            if not self._fill():
                raise EOFError("the stream ended mid-chunk")
        data, self._buffer = self._buffer[:size], self._buffer[size + 2:]
        return data

    def next_message(self, within: float | None = None) -> Message:
        """The next message with an event (comments and the retry hint are kept aside); EOFError when the stream ends,
        TimeoutError when ``within`` seconds pass without one (keep-alive comments alone keep the socket busy)."""
        deadline = None if within is None else time.monotonic() + within
        while True:
            if deadline is not None and time.monotonic() > deadline:
                raise TimeoutError(f"no message within {within} s (comments: {self.comments[-3:]})")
            while b"\n\n" not in self._text:
                chunked = self.response_headers.get("transfer-encoding") == "chunked"
                if chunked:
                    self._text += self._chunked_text()
                else:
                    if not self._buffer and not self._fill():
                        raise EOFError("the stream ended")
                    self._text, self._buffer = self._text + self._buffer, b""
            block, _, self._text = self._text.partition(b"\n\n")
            message = self._parse(block.decode())
            if message is not None:
                return message

    def _parse(self, block: str) -> Message | None:
        fields: dict[str, str] = {}
        for line in block.split("\n"):
            if line.startswith(":"):
                self.comments.append(line[1:].strip())
                continue
            name, _, value = line.partition(":")
            fields[name] = value.removeprefix(" ")
        if "retry" in fields:
            self.retry = int(fields["retry"])
        if "data" not in fields:
            return None
        return Message(fields.get("id"), fields.get("event", "message"), fields["data"])

    def body_text(self) -> str:
        """The whole body of an answer that is not a stream (an error), read up to its Content-Length."""
        length = int(self.response_headers.get("content-length", "0"))
        while len(self._buffer) < length and self._fill():
            pass
        return self._buffer[:length].decode(errors="replace")

    def messages(self, count: int) -> list[Message]:
        """The next ``count`` messages."""
        return [self.next_message() for _ in range(count)]

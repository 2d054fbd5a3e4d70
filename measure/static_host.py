"""A static host that serves precompressed files, as nginx's gzip_static and brotli_static do:
a folder under a path prefix (`/pub/kb/`), each file sent as its `.br` or `.gz` sibling when the
client takes that encoding and the sibling exists, else as it is; ETag and Last-Modified, 304s.
Only 127.0.0.1; for the tests and scripts/offline_wire.py (the standard library's http.server);
`plain_hosting` is `python -m http.server` itself, which compresses nothing.

    python -m measure.static_host FOLDER [--prefix /pub/kb/] [--port 8080]
"""
from __future__ import annotations

import argparse
import email.utils
import mimetypes
import subprocess
import sys
import threading
import time
import urllib.request
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Iterator
from urllib.parse import unquote, urlsplit

HOST = "127.0.0.1"
ENCODINGS = (("br", ".br"), ("gzip", ".gz"))  # the host's preference, as a client allows
TYPES = {".webmanifest": "application/manifest+json", ".js": "text/javascript", ".bin": "application/octet-stream",
         ".pack": "application/octet-stream", ".json": "application/json"}


class PrecompressedHandler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"  # keep-alive, as a real host
    folder: Path
    prefix: str

    def do_GET(self) -> None:  # noqa: N802 (http.server's name)
        file = self.file()
        if file is None:
            return self.answer(404, {"content-type": "text/plain"}, b"not found\n")
        encoding, sent = self.encoded(file)
        stat = sent.stat()
        tag = f'"{stat.st_mtime_ns:x}-{stat.st_size:x}"'
        headers = {"content-type": self.type_of(file), "etag": tag, "vary": "Accept-Encoding", "cache-control": "no-cache",
                   "last-modified": email.utils.formatdate(stat.st_mtime, usegmt=True)}
        if encoding:
            headers["content-encoding"] = encoding
        if tag in self.headers.get("if-none-match", ""):
            return self.answer(304, headers, b"")
        self.answer(200, headers, sent.read_bytes())

    def file(self) -> Path | None:
        path = unquote(urlsplit(self.path).path)
        if not path.startswith(self.prefix):
            return None
        rel = path[len(self.prefix):]
        file = (self.folder / rel).resolve()
        if file.is_dir():
            file = file / "index.html"
        inside = file == self.folder or self.folder in file.parents
        return file if inside and file.is_file() else None

    def encoded(self, file: Path) -> tuple[str | None, Path]:
        taken = {e.split(";")[0].strip() for e in self.headers.get("accept-encoding", "").split(",")}
        for encoding, suffix in ENCODINGS:
            sibling = file.with_name(file.name + suffix)
            if encoding in taken and sibling.is_file():
                return encoding, sibling
        return None, file

    @staticmethod
    def type_of(file: Path) -> str:
        kind = TYPES.get(file.suffix) or mimetypes.guess_type(file.name)[0] or "application/octet-stream"
        return kind + "; charset=utf-8" if kind.startswith("text/") else kind

    def answer(self, status: int, headers: dict[str, str], body: bytes) -> None:
        self.send_response(status)
        for name, value in headers.items():
            self.send_header(name, value)
        self.send_header("content-length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args) -> None:  # quiet
        pass


def server(folder: Path, prefix: str = "/", port: int = 0) -> ThreadingHTTPServer:
    handler = type("Handler", (PrecompressedHandler,), {"folder": Path(folder).resolve(), "prefix": prefix})
    return ThreadingHTTPServer((HOST, port), handler)


@contextmanager
def hosting(folder: Path, prefix: str = "/", port: int = 0) -> Iterator[str]:
    """The folder served under `prefix` in a thread: yields its address (`http://127.0.0.1:P/pub/kb/`)."""
    httpd = server(folder, prefix, port)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://{HOST}:{httpd.server_address[1]}{prefix}"
    finally:
        httpd.shutdown()
        httpd.server_close()


@contextmanager
def plain_hosting(folder: Path) -> Iterator[str]:
    """`python -m http.server` over a folder: a host that sends every file as it is (no
    compression, nothing of ours); yields its address once it answers."""
    from .loadgen import free_port
    port = free_port()
    proc = subprocess.Popen([sys.executable, "-m", "http.server", "-b", HOST, "-d", str(folder), str(port)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"http://{HOST}:{port}/"
    try:
        for _ in range(100):
            try:
                urllib.request.urlopen(url, timeout=1)
                break
            except OSError:
                time.sleep(0.05)
        yield url
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("folder", type=Path)
    ap.add_argument("--prefix", default="/")
    ap.add_argument("--port", type=int, default=8080)
    args = ap.parse_args()
    httpd = server(args.folder, args.prefix, args.port)
    print(f"serving {args.folder} at http://{HOST}:{httpd.server_address[1]}{args.prefix}")
    httpd.serve_forever()


if __name__ == "__main__":
    main()

"""Serve the built site on 127.0.0.1 the way GitHub Pages does, for the browser tests and `make audit`.

A static server on a free port of 127.0.0.1, in a thread of the calling process, that gzip-compresses
text files (HTML, scripts, styles, SVG) for a browser that accepts it, as GitHub Pages does: the
bytes a test counts and the transfer Lighthouse measures are then those of the published site.
"""

from __future__ import annotations

import functools
import gzip
import http.server
import io
import os
import threading
from pathlib import Path

COMPRESSED = {".html", ".js", ".css", ".svg", ".json", ".txt", ".map", ".ipynb", ".md"}


class _Handler(http.server.SimpleHTTPRequestHandler):
    cache: dict[tuple[str, float], bytes] = {}
    lock = threading.Lock()

    def log_message(self, format, *args):  # noqa: A002 - the base class's name
        pass

    def send_head(self):
        path = self.translate_path(self.path)
        if ("gzip" not in self.headers.get("Accept-Encoding", "") or Path(path).suffix not in COMPRESSED
                or not os.path.isfile(path)):
            return super().send_head()
        stat = os.stat(path)
        key = (path, stat.st_mtime)
        with self.lock:
            body = self.cache.get(key)
        if body is None:
            body = gzip.compress(Path(path).read_bytes(), compresslevel=6, mtime=0)
            with self.lock:
                self.cache[key] = body
        self.send_response(200)
        self.send_header("Content-Type", self.guess_type(path))
        self.send_header("Content-Encoding", "gzip")
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Last-Modified", self.date_time_string(int(stat.st_mtime)))
        self.send_header("Vary", "Accept-Encoding")
        self.end_headers()
        return io.BytesIO(body)


class SiteServer:
    """`SiteServer(root)` serves root at `.base` (http://127.0.0.1:PORT/) until `.close()`."""

    def __init__(self, root: Path):
        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_Handler, directory=str(root)))
        self.httpd.daemon_threads = True
        self.base = f"http://127.0.0.1:{self.httpd.server_port}/"
        self.thread = threading.Thread(target=self.httpd.serve_forever, name="site-server", daemon=True)
        self.thread.start()

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()
        self.thread.join(timeout=5)

    def __enter__(self) -> SiteServer:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

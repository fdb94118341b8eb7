"""Debian's chromium, as every tool and test here starts it (the PDF edition, the browser tests, the Lighthouse audit).

Without the background-networking flags, chromium looks up Google's hosts as it starts, and its connections are
refused by a machine with no network, many at a time; there the lookups wait: in make test from a fresh clone both
printing processes of the PDF sat idle for 15 s at the start."""

from pathlib import Path

PATH = Path("/usr/bin/chromium")
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--no-first-run"]

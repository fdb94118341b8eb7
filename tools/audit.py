"""Lighthouse on the built site: a report, not a gate of `make test`.

    python -m tools.audit          # (make audit) the landing page and every chapter page of both languages
    python -m tools.audit ko/06_multi_head_attention.html en/07_cost.html    # only these pages
    make audit PAGES="ko/06_multi_head_attention.html"

Serves _build/html on 127.0.0.1 (a free port, gzip like GitHub Pages: tools/serve.py), runs Lighthouse 12 (node_modules, pinned by
package-lock.json) with Debian's chromium on each page (mobile, Lighthouse's default), and prints the four
category scores. Targets (for a quiet machine): performance at least 0.97 on every chapter page and
1.00 on the landing page; accessibility, best practices and SEO 1.00 on every page. Below a target the failing
audits are listed and the command exits with status 1 (with `make test` sharing the CPU, chapter pages scored
0.95-1.00 on 2026-11-25: the scores vary by a few hundredths from run to run). Reports: _build/lighthouse/<page>.json.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from tools import chromium
from tools.serve import SiteServer
from tools.source import ROOT

SITE = ROOT / "_build" / "html"
OUT = ROOT / "_build" / "lighthouse"
LIGHTHOUSE = ROOT / "node_modules" / ".bin" / "lighthouse"
CHROMIUM = str(chromium.PATH)
CATEGORIES = ["performance", "accessibility", "best-practices", "seo"]
TARGETS = {"performance": 1.0, "accessibility": 1.0, "best-practices": 1.0, "seo": 1.0}  # the landing page
CHAPTER_TARGETS = {"performance": 0.97, "accessibility": 1.0, "best-practices": 1.0, "seo": 1.0}
CHROME_FLAGS = ["--headless", *chromium.ARGS]


def chapters() -> list[str]:
    return [f"{lang}/{Path(p).with_suffix('.html').name}" for lang in ("ko", "en")
            for p in sorted(p.name for p in (SITE / lang / "_sources").glob("[0-9]*.ipynb"))]


def pages() -> list[str]:
    return ["index.html", *chapters()]


def audit(url: str, out: Path) -> dict:
    cmd = [str(LIGHTHOUSE), url, "--output=json", f"--output-path={out}", "--quiet",
           f"--only-categories={','.join(CATEGORIES)}", f"--chrome-flags={' '.join(CHROME_FLAGS)}"]
    proc = subprocess.run(cmd, env={**os.environ, "CHROME_PATH": CHROMIUM}, capture_output=True, text=True)
    if proc.returncode != 0 or not out.is_file():
        raise RuntimeError(f"lighthouse failed on {url}:\n{proc.stderr[-2000:]}")
    return json.loads(out.read_text(encoding="utf-8"))


def main(argv: list[str] | None = None) -> int:
    chosen = sys.argv[1:] if argv is None else argv
    unknown = [p for p in chosen if p not in pages()]
    if unknown:
        print(f"error: no such page of the site: {', '.join(unknown)}; the pages are {', '.join(pages())}",
              file=sys.stderr)
        return 2
    if not (SITE / "index.html").is_file():
        print("error: no site in _build/html; run 'make book' first (make audit audits the site as built)", file=sys.stderr)
        return 2
    if not LIGHTHOUSE.is_file():
        print("error: node_modules/.bin/lighthouse is missing; run 'npm ci' (make audit does)", file=sys.stderr)
        return 2
    if not Path(CHROMIUM).is_file():
        print("error: /usr/bin/chromium is missing; install Debian's chromium and fonts-noto-cjk: "
              "apt-get install chromium fonts-noto-cjk", file=sys.stderr)
        return 2
    OUT.mkdir(parents=True, exist_ok=True)
    below = []
    with SiteServer(SITE) as server:
        base = server.base
        print(f"{'page':<40}" + "".join(f"{c:>16}" for c in CATEGORIES))
        for rel in chosen or pages():
            report = audit(base + rel, OUT / (rel.replace("/", "-").removesuffix(".html") + ".json"))
            scores = {c: report["categories"][c]["score"] for c in CATEGORIES}
            print(f"{rel:<40}" + "".join(f"{scores[c]:>16.2f}" for c in CATEGORIES))
            for category, target in (CHAPTER_TARGETS if rel in chapters() else TARGETS).items():
                if scores[category] < target:
                    failing = [report["audits"][ref["id"]]["title"] for ref in report["categories"][category]["auditRefs"]
                               if ref["weight"] and (report["audits"][ref["id"]]["score"] or 0) < 1]
                    below.append(f"{rel}: {category} {scores[category]:.2f} < {target}: {'; '.join(failing)}")
    print(f"reports: {OUT.relative_to(ROOT)}/")
    for line in below:
        print(f"below target: {line}", file=sys.stderr)
    return 1 if below else 0


if __name__ == "__main__":
    sys.exit(main())

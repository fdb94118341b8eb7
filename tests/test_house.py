"""The repository's own code reads one way and explains itself: no import circle among the tools, and no
comment, docstring or guide that explains something by an issue number (a newcomer cannot look those up)."""

from __future__ import annotations

import ast
import re

from conftest import ROOT

PACKAGES = {"tools": ROOT / "tools", "book._ext": ROOT / "book" / "_ext"}


def import_graph() -> dict[str, set[str]]:
    """module -> the project modules it imports, anywhere in the file (inside functions too: an import
    delayed into a function still makes a circle, it only hides it from the first import)."""
    modules = {}
    for package, folder in PACKAGES.items():
        for path in folder.glob("*.py"):
            modules[f"{package}.{path.stem}"] = path
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        package = name.rsplit(".", 1)[0]
        found = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                found |= {a.name for a in node.names}
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:  # relative: from . import x, from .x import y
                    base = package + ("." + base if base else "")
                found.add(base)
                found |= {f"{base}.{a.name}" for a in node.names}
        graph[name] = {m for m in found if m in modules and m != name}
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    found, state = [], {}

    def visit(node, path):
        state[node] = "open"
        for nxt in sorted(graph[node]):
            if state.get(nxt) == "open":
                found.append(path[path.index(nxt):] + [nxt])
            elif nxt not in state:
                visit(nxt, path + [nxt])
        state[node] = "done"

    for node in sorted(graph):
        if node not in state:
            visit(node, [node])
    return found


def test_graph_sees_imports():
    graph = import_graph()
    # the reader must see the imports it is meant to see, or the circle test below proves nothing
    assert "tools.source" in graph["tools.notebooks"]
    assert "tools.landing" in graph["tools.site"]
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == [["a", "b", "c", "a"]]


def test_no_import_circle():
    found = cycles(import_graph())
    assert not found, "the tools import each other in a circle (move what both need into a module both import): " + \
        "; ".join(" -> ".join(c) for c in found)


OWN_TEXT = ["tools/*.py", "tests/*.py", "book/_ext/*.py", "book/chapters/*.py", "conftest.py", "Makefile",
            "README.md", "CONTRIBUTING.md", "requirements*.txt", ".ci/run", "pytest.ini", "ruff.toml",
            "book/*/*.md", "book/*.yml", "book/_static/*.css", "book/_static/*.js"]


def test_no_issue_numbers():
    bad = []
    for pattern in OWN_TEXT:
        for path in sorted(ROOT.glob(pattern)):
            for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
                if re.search(r"\bissues?\s*#?\d+", line, re.IGNORECASE):
                    bad.append(f"{path.relative_to(ROOT)}:{n}: {line.strip()[:100]}")
    assert not bad, ("say what the code does and why, not which issue asked for it (an issue number means "
                     "nothing to a newcomer):\n" + "\n".join(bad))

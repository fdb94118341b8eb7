"""The book's settings: the root _config.yml, read in one place.

Both the notebook generator (tools/source.py: the links under each notebook's title) and the site
builder (tools/site.py: the notebook menu, the per-language Jupyter Book configurations) need what it
says about the repository and Colab. They read it here, so that the tools import one way, as the data
flows: config -> source -> notebooks -> site.
"""

from __future__ import annotations

from pathlib import Path
from urllib.parse import urlsplit

import yaml

ROOT = Path(__file__).resolve().parent.parent
CONFIG = ROOT / "_config.yml"


class ConfigError(ValueError):
    """_config.yml is missing, unreadable or says something the tools cannot use; the message says what to fix."""


def load_yaml(path: Path) -> object:
    if not path.is_file():
        raise ConfigError(f"{path.relative_to(ROOT)} is missing; it is part of the repository, restore it with git")
    try:
        return yaml.safe_load(path.read_text(encoding="utf-8"))
    except yaml.YAMLError as e:
        raise ConfigError(f"{path.relative_to(ROOT)} is not valid YAML: {e}") from None


def load() -> dict:
    """The root _config.yml as a dict (a fresh copy each call: callers may change it)."""
    root = load_yaml(CONFIG)
    if not isinstance(root, dict):
        raise ConfigError("_config.yml must be a mapping of settings (see the comments in the committed file)")
    return root


def colab_base(root: dict) -> str | None:
    """Where Colab opens a file of the repository, as the theme's Colab launch button builds it
    (launch_buttons.colab_url + /github/<owner>/<repo>/blob/<branch>/), from repository.url and
    repository.branch of the root _config.yml; None when Colab is not configured."""
    colab = ((root.get("launch_buttons") or {}).get("colab_url") or "").strip("/")
    if not colab:
        return None
    repository = root.get("repository") or {}
    url, branch = str(repository.get("url") or "").strip("/"), repository.get("branch")
    parts = urlsplit(url)
    owner_repo = parts.path.strip("/").split("/")
    if parts.netloc != "github.com" or len(owner_repo) != 2 or not all(owner_repo) or not branch:
        raise ConfigError("_config.yml: Colab opens notebooks from GitHub: `repository.url` must be "
                          "https://github.com/<owner>/<repo> and `repository.branch` a branch name "
                          f"(got {url!r} and {branch!r})")
    return f"{colab}/github/{owner_repo[0]}/{owner_repo[1]}/blob/{branch}/"

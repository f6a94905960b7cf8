"""Sphinx configuration of cruiselib's documentation site.

Build it with ``python -m sphinx -W --keep-going -b html docs docs/_build/html`` (the
``docs`` extra installs Sphinx, furo and MyST). The pages are the Markdown files of this
folder; nothing is fetched from the network at build time.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent


def _project_urls() -> dict[str, str]:
    """``[project.urls]`` of pyproject.toml (a small reader, so Python 3.10 needs no tomli)."""
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    section = re.search(r"^\[project\.urls\]\s*$(.*?)(?=^\[|\Z)", text, re.M | re.S)
    if section is None:
        return {}
    return dict(re.findall(r'^\s*([A-Za-z][\w-]*)\s*=\s*"([^"]+)"', section.group(1), re.M))


def _version() -> str:
    init = (ROOT / "src" / "cruiselib" / "__init__.py").read_text(encoding="utf-8")
    found = re.search(r'^__version__ = "([^"]+)"', init, re.M)
    return found.group(1) if found else "unknown"


URLS = _project_urls()
# Links in the pages to files of the repository outside docs/ (sources, tests, the
# README) point at the repository's browsable source instead: the site holds only docs/.
REPOSITORY = (URLS.get("Source") or URLS.get("Repository") or URLS.get("Homepage") or "").rstrip("/")
SOURCE_BRANCH = "main"

project = "cruiselib"
author = "The cruiselib authors"
copyright = "2026, The cruiselib authors"  # as in LICENSE
release = _version()
version = release

extensions = [
    "myst_parser",
    "sphinx.ext.autodoc",
]

source_suffix = {".md": "markdown"}
root_doc = "index"
# Not pages: the JSON Schemas (linked as files), build output, editor leftovers.
exclude_patterns = ["_build", "schemas", "Thumbs.db", ".DS_Store", "**/.ipynb_checkpoints"]

# MyST: `[text](#a-heading)` anchors for headings down to ###, `:::` fences, and
# `$...$`-free text (no dollarmath: the pages quote prices in plain text).
myst_enable_extensions = ["colon_fence", "deflist"]
myst_heading_anchors = 3

# autodoc: members in source order, signatures with their annotations, no network needed.
autodoc_default_options = {"members": True, "member-order": "bysource", "show-inheritance": True}
autodoc_typehints = "signature"
autodoc_preserve_defaults = True
autodoc_mock_imports: list[str] = []
try:  # the OpenSpiel adapter needs pyspiel (the open_spiel extra); mock it where absent
    import pyspiel  # noqa: F401
except ImportError:
    autodoc_mock_imports.append("pyspiel")

html_theme = "furo"
html_title = f"cruiselib {release}"
html_static_path: list[str] = []
html_show_sourcelink = False
html_theme_options: dict[str, Any] = {}
if REPOSITORY:
    html_theme_options["source_repository"] = REPOSITORY + "/"
    html_theme_options["source_branch"] = SOURCE_BRANCH
    html_theme_options["source_directory"] = "docs/"

pygments_style = "friendly"
pygments_dark_style = "monokai"


def _elision_json_lexer() -> Any:
    """Pygments' JSON lexer that reads "…" as an elision: the protocol page shows real
    exchanges with long parts cut to "…", which strict JSON highlighting rejects."""
    from pygments.lexers.data import JsonLexer
    from pygments.token import Comment, Error

    class ElisionJsonLexer(JsonLexer):  # type: ignore[misc]
        name = "JSON with elisions"

        def get_tokens_unprocessed(self, text: str) -> Any:
            for index, token, value in super().get_tokens_unprocessed(text):
                if token is Error and value == "…":
                    token = Comment
                yield index, token, value

    return ElisionJsonLexer


def _repository_url(base: Path, target: str) -> str | None:
    """The repository URL of `target`, a relative link in a file of folder `base`, when it
    names a file or folder of the repository outside docs/; None otherwise."""
    if not REPOSITORY or "://" in target or target.startswith(("#", "mailto:", "/")):
        return None
    path, _, anchor = target.partition("#")
    if not path:
        return None
    resolved = base.joinpath(path).resolve()
    try:
        relative = resolved.relative_to(ROOT)
    except ValueError:
        return None  # outside the repository: left to Sphinx (and its warning)
    if resolved.is_relative_to(HERE) or not resolved.exists():
        return None
    kind = "tree" if resolved.is_dir() else "blob"
    url = f"{REPOSITORY}/{kind}/{SOURCE_BRANCH}/{relative.as_posix()}"
    return url + (f"#{anchor}" if anchor else "")


_LINK = re.compile(r"(\]\()(<?)([^)\s>]+)(>?)(?=[)\s])")
_FENCE = re.compile(r"^\s*(```|~~~)")


def _rewrite_links(text: str, base: Path, page_dir: Path) -> str:
    """Markdown links ``[text](path)`` outside fenced code, in a file of folder `base`
    shown on a page in folder `page_dir`: those to repository files outside docs/ go to the
    repository; those to pages, when `base` is not `page_dir` (an included file such as
    ../CHANGELOG.md), are made relative to the page."""

    def repl(m: re.Match[str]) -> str:
        target = m.group(3)
        url = _repository_url(base, target)
        if url is None and base != page_dir and not re.match(r"^[a-z][a-z0-9+.-]*:|#|/", target):
            path, sep, anchor = target.partition("#")
            resolved = base.joinpath(path).resolve()
            if resolved.is_relative_to(HERE) and resolved.exists():
                url = Path(os.path.relpath(resolved, page_dir)).as_posix() + sep + anchor
        return m.group(0) if url is None else f"{m.group(1)}{m.group(2)}{url}{m.group(4)}"

    out, fenced = [], False
    for line in text.splitlines(keepends=True):
        if _FENCE.match(line):
            fenced = not fenced
        elif not fenced and "](" in line:
            line = _LINK.sub(repl, line)
        out.append(line)
    return "".join(out)


def _source_read(app: Any, docname: str, source: list[str]) -> None:
    page_dir = (Path(app.srcdir) / docname).parent
    source[0] = _rewrite_links(source[0], page_dir, page_dir)


def _include_read(app: Any, relative_path: Path, parent_docname: str, content: list[str]) -> None:
    # Links in an included file (../CHANGELOG.md, ../README.md) are relative to that file.
    included = (Path(app.srcdir) / relative_path).resolve()
    page_dir = (Path(app.srcdir) / parent_docname).parent
    content[0] = _rewrite_links(content[0], included.parent, page_dir)


def setup(app: Any) -> dict[str, Any]:
    app.add_lexer("json", _elision_json_lexer())
    app.connect("source-read", _source_read)
    if "include-read" in app.events.events:  # Sphinx 7.2+
        app.connect("include-read", _include_read)
    return {"parallel_read_safe": True, "parallel_write_safe": True}

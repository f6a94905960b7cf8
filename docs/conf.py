"""Sphinx configuration of cruiselib's documentation site.

Build it with ``python -m sphinx -W --keep-going -b html docs docs/_build/html`` (the
``docs`` extra installs Sphinx, furo and MyST). The pages are the Markdown files of this
folder; nothing is fetched from the network at build time.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from docutils import nodes

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


def _repository_url(srcdir: Path, docname: str, target: str) -> str | None:
    """The repository URL of `target`, a relative link in page `docname`, when it names a
    file or folder of the repository outside docs/; None otherwise."""
    if not REPOSITORY or "://" in target or target.startswith(("#", "mailto:")):
        return None
    path, _, anchor = target.partition("#")
    if not path:
        return None
    resolved = (srcdir / docname).parent.joinpath(path).resolve()
    try:
        relative = resolved.relative_to(ROOT)
    except ValueError:
        return None  # outside the repository: leave it to Sphinx (and its warning)
    if resolved.is_relative_to(srcdir) or not resolved.exists():
        return None
    kind = "tree" if resolved.is_dir() else "blob"
    url = f"{REPOSITORY}/{kind}/{SOURCE_BRANCH}/{relative.as_posix()}"
    return url + (f"#{anchor}" if anchor else "")


def _link_repository_files(app: Any, doctree: nodes.document) -> None:
    """Turn MyST's download links to repository files outside docs/ into links to the
    repository (a download would copy e.g. a Python source into the site)."""
    from sphinx import addnodes

    srcdir = Path(app.srcdir)
    docname = app.env.docname
    for node in list(doctree.findall(addnodes.download_reference)):
        url = _repository_url(srcdir, docname, node.get("reftarget", ""))
        if url is None:
            continue
        link = nodes.reference("", "", *node.children, refuri=url, internal=False)
        node.replace_self(link)


def _missing_reference(app: Any, env: Any, node: Any, contnode: nodes.Node) -> nodes.Node | None:
    """Resolve MyST links to Markdown files outside docs/ (``../README.md``) to the
    repository, instead of a missing-reference warning."""
    target = node.get("reftarget", "")
    if node.get("refdomain") not in (None, "", "myst") and node.get("reftype") != "myst":
        return None
    url = _repository_url(Path(app.srcdir), node.get("refdoc", env.docname), target)
    if url is None:
        return None
    return nodes.reference("", "", contnode, refuri=url, internal=False)


def setup(app: Any) -> dict[str, Any]:
    app.add_lexer("json", _elision_json_lexer())
    app.connect("doctree-read", _link_repository_files)
    app.connect("missing-reference", _missing_reference)
    return {"parallel_read_safe": True, "parallel_write_safe": True}

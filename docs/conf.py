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
try:  # the OpenSpiel adapter needs pyspiel (the openspiel extra); mock it where absent
    import pyspiel  # noqa: F401
except ImportError:
    autodoc_mock_imports.append("pyspiel")
try:  # cruiselib.envs.sb3 subclasses Stable-Baselines3's VecEnv: mocked where SB3 is absent
    import stable_baselines3  # noqa: F401
except ImportError:
    autodoc_mock_imports.append("stable_baselines3")

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
    from pygments.lexers.data import JsonLexer  # type: ignore[import-untyped,unused-ignore]  # stubs are optional
    from pygments.token import Comment, Error  # type: ignore[import-untyped,unused-ignore]  # stubs are optional

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


# --- the API reference: the public surface, not the internals -------------------------

#: Members of the game and state classes that are internals: the snapshot machinery, the
#: core's tables and batch entry point, the argument checks, and the compiled cores' helpers
#: that only their own game package calls. Hidden from every class that has them.
INTERNAL_MEMBERS = frozenset(
    {
        # Game: snapshot machinery, the core's module and tables, argument checks
        "schema_version",
        "schema_migrations",
        "state_data_type",
        "view_type",
        "move_type",
        "move_classes",
        "option_types",
        "playouts_type",
        "core_module",
        "rules",
        "check_action",
        "check_player",
        # the compiled state classes: the batch entry point, the core's tables, helpers
        "c_playouts",
        "core_rules",
        "best_voyage_code",
        "value_of",
        "voyage_detail",
        "placement_count",
        "mission_mask",
        "count_moves",
    }
)

#: Public properties of the compiled core that carry no docstring of their own there; the
#: core's own docstring, once it has one, replaces these.
CORE_PROPERTY_DOCS = {
    "is_over": "Whether the game has ended (then ``current_player`` is -1 and ``winners()`` is final).",
    "phase_name": "The name of the game's current phase (each game's page lists them), as the views show it.",
}


def _skip_member(app: Any, what: str, name: str, obj: Any, skip: bool, options: Any) -> bool | None:
    """Hide the internals of classes; show the core's public properties that lack a docstring."""
    if what != "class":
        return None
    if name in INTERNAL_MEMBERS:
        return True
    if name in CORE_PROPERTY_DOCS:
        return False
    return None


def _process_docstring(app: Any, what: str, name: str, obj: Any, options: Any, lines: list[str]) -> None:
    short = name.rpartition(".")[2]
    if not any(line.strip() for line in lines) and short in CORE_PROPERTY_DOCS and what in ("attribute", "property"):
        lines[:] = [CORE_PROPERTY_DOCS[short], ""]


_C_PARAMETER = re.compile(r"(?:\b(?:unsigned|long|short|signed|char|int|double|bint|bool|CoreState)\s+)+(?=\w)")


def _process_signature(
    app: Any, what: str, name: str, obj: Any, options: Any, signature: str | None, annotation: str | None
) -> tuple[str | None, str | None] | None:
    """The compiled core's methods in Python terms: no ``self``, no C types
    (``random_action(self, unsigned long long r)`` reads ``random_action(r)``)."""
    if signature is None or not str(getattr(obj, "__module__", "")).startswith("cruiselib._core"):
        return None
    signature = re.sub(r"^\(self(, )?", "(", signature)
    return _C_PARAMETER.sub("", signature), annotation


def _state_stubs() -> dict[str, Any]:
    """What ``State`` declares, for type checkers, of the members the compiled core gives
    every state (its ``if TYPE_CHECKING:`` block), by name: the function definitions."""
    import ast

    tree = ast.parse((ROOT / "src" / "cruiselib" / "_state.py").read_text(encoding="utf-8"))
    stubs: dict[str, Any] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef) and node.name == "State":
            for block in node.body:
                if isinstance(block, ast.If) and ast.unparse(block.test) == "TYPE_CHECKING":
                    stubs.update((f.name, f) for f in block.body if isinstance(f, ast.FunctionDef))
    return stubs


def _core_members() -> list[str]:
    """The public members every game's state class takes from its compiled core (the part of
    the State interface the core implements), in the core's order."""
    import cruiselib

    shared: list[str] | None = None
    for name in cruiselib.games():
        state_class = type(cruiselib.make(name).new_state(0))
        found = [
            member
            for cls in reversed(state_class.__mro__)
            if cls.__module__.startswith("cruiselib._core")
            for member in vars(cls)
            if not member.startswith("_") and member not in INTERNAL_MEMBERS
        ]
        shared = found if shared is None else [member for member in shared if member in found]
    return shared or []


def _core_members_rst() -> list[str]:
    """``py:property`` and ``py:method`` entries for :func:`_core_members`, nested in the
    ``State`` class: signatures and texts from State's declarations for type checkers, else
    from the core (whose docstrings start with the signature)."""
    import ast
    import inspect

    import cruiselib
    from cruiselib import State

    stubs = _state_stubs()
    instance = cruiselib.make(cruiselib.games()[0]).new_state(0)
    example = type(instance)
    lines: list[str] = []
    core = _core_members()
    declared = [name for name in stubs if not name.startswith("_") and name not in core]
    for member in core + declared:
        if member in vars(State) or member in State.__annotations__:
            continue  # the mixin documents it itself (``game``)
        stub = stubs.get(member)
        core_doc = inspect.getdoc(getattr(example, member, None)) or ""
        doc = ast.get_docstring(stub) if stub is not None else None
        is_property = stub is not None and any(ast.unparse(d) == "property" for d in stub.decorator_list)
        if stub is None and inspect.isdatadescriptor(getattr(example, member, None)):
            is_property = True
        if is_property:
            returns = stub.returns if stub is not None else None
            value = getattr(instance, member, None) if returns is None else None
            lines.append(f".. py:property:: {member}")
            if returns is not None or isinstance(value, str):
                lines.append(f"   :type: {ast.unparse(returns) if returns is not None else 'str'}")
        elif stub is not None:
            arguments = ast.unparse(stub.args).removeprefix("self").removeprefix(", ")
            returns_text = f" -> {ast.unparse(stub.returns)}" if stub.returns is not None else ""
            lines.append(f".. py:method:: {member}({arguments}){returns_text}")
        else:
            signature, _, core_doc = core_doc.partition("\n")
            signature = signature.split(".", 1)[-1].replace("(self, ", "(").replace("(self)", "()")
            lines.append(f".. py:method:: {signature}")
        if not doc:
            # The core's docstring: for a method its first line is the signature, shown above.
            doc = core_doc.partition("\n\n")[2] if "(" in core_doc.partition("\n")[0] else core_doc
        text = doc.strip() or CORE_PROPERTY_DOCS.get(member, "")
        lines += ["", *(f"   {line}" if line else "" for line in text.splitlines()), ""]
    return lines


def _core_members_directive() -> Any:
    from docutils.statemachine import StringList  # type: ignore[import-untyped,unused-ignore]  # stubs are optional
    from sphinx.util.docutils import SphinxDirective
    from sphinx.util.nodes import nested_parse_with_titles

    class CoreMembers(SphinxDirective):
        """``.. cruiselib-core-members::`` inside ``autoclass:: cruiselib.State``: the members
        every state takes from the compiled core, which the State mixin itself does not hold."""

        def run(self) -> list[Any]:
            from docutils import nodes  # type: ignore[import-untyped,unused-ignore]  # stubs are optional

            container = nodes.container()
            nested_parse_with_titles(self.state, StringList(_core_members_rst(), "<cruiselib core>"), container)
            return list(container.children)

    return CoreMembers


def setup(app: Any) -> dict[str, Any]:
    app.add_lexer("json", _elision_json_lexer())
    app.connect("source-read", _source_read)
    app.connect("autodoc-skip-member", _skip_member)
    app.connect("autodoc-process-docstring", _process_docstring)
    app.connect("autodoc-process-signature", _process_signature)
    app.add_directive("cruiselib-core-members", _core_members_directive())
    if "include-read" in app.events.events:  # Sphinx 7.2+
        app.connect("include-read", _include_read)
    return {"parallel_read_safe": True, "parallel_write_safe": True}

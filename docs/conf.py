"""Sphinx's settings for kradan's documentation site (issue 43).

Build it from the repository's root, warnings as errors (``-W``; Sphinx reports them all
before it fails)::

    pip install -e '.[docs]'
    sphinx-build -W -b html docs build/docs

The pages are the Markdown files beside this one (read by myst-parser), the API reference from
the docstrings (autodoc) and the command-line reference, written at build time from kradan's
argparse parsers by ``_ext/cli_reference.py``.
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE / "_ext"))  # the CLI reference's extension
sys.path.insert(0, str(HERE.parent / "src"))  # this tree's kradan, installed or not

import kradan  # noqa: E402

project = "kradan"
author = "the kradan developers"
copyright = "the kradan developers, GPL-3.0-or-later"
release = version = kradan.__version__

extensions = ["myst_parser", "sphinx.ext.autodoc", "cli_reference"]

source_suffix = {".rst": "restructuredtext", ".md": "markdown"}
root_doc = "index"
exclude_patterns = ["_build", "_ext"]

# Markdown: GitHub's heading anchors, so that links such as rules.md#decisions work here too
myst_heading_anchors = 4
myst_enable_extensions = ["colon_fence"]

# the API reference: members in source order, the signature's types kept in the signature
autodoc_member_order = "bysource"
autodoc_default_options = {"members": True, "show-inheritance": True}
autodoc_typehints = "signature"
# kradan.notation.san names the protocol of the boards it reads for type checking only; with
# the alias its signatures resolve, and their ``Move`` links to kradan.Move, not to Alquerque's
autodoc_type_aliases = {"ChessPosition": "kradan.position.ChessPosition"}

html_theme = "furo"
html_title = f"kradan {release}"

"""Sphinx configuration of the speckit documentation.

Build: ``sphinx-build -W -b html docs docs/_build/html`` and
``sphinx-build -W -b doctest docs docs/_build/doctest``. The type pages are
generated into ``docs/types/`` from the specification data when the build starts.
"""

import sys
from pathlib import Path

DOCS = Path(__file__).resolve().parent
sys.path[:0] = [str(DOCS.parent), str(DOCS / "_ext")]

import speckit

project = "speckit"
author = "the speckit authors"
copyright = "the speckit authors"
release = version = speckit.__version__

extensions = [
    "specdoc",
    "sphinx.ext.autodoc",
    "sphinx.ext.doctest",
    "sphinx.ext.graphviz",
]

specdoc_spec = "connect4"
exclude_patterns = ["_build"]
default_role = "literal"
nitpicky = False

html_theme = "furo"
html_title = "speckit"
html_static_path = ["_static"]
html_show_sourcelink = False

graphviz_output_format = "svg"

autodoc_member_order = "bysource"
autodoc_typehints = "signature"

doctest_global_setup = """
import importlib.util

def have(module):
    '''Whether a module imports (examples of modules being written are skipped until they do).'''
    try:
        return importlib.util.find_spec(module) is not None
    except ModuleNotFoundError:
        return False
"""


def setup(app):
    # Added here rather than in html_css_files, which furo extends (so the saved
    # configuration would always look changed and every page be read again).
    app.add_css_file("specdoc.css")

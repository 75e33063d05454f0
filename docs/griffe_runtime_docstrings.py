"""A griffe extension for the API pages: docstrings that gammonlab completes when it is
imported are read from the imported object.

The plot helpers share their common paragraphs (``ax``, ``**kwargs``, the return
value, the examples' figure) through
:func:`gammonlab.plot._common._plot_docs`, which fills ``{name}`` lines at
import; read statically, those lines would show as written.
"""

from __future__ import annotations

import inspect
import re
from typing import Any

import griffe

_PLACEHOLDER = re.compile(r"^\s*\{\w+\}\s*$", re.MULTILINE)


class RuntimeDocstrings(griffe.Extension):
    def on_function_instance(
        self, *, node: Any, func: griffe.Function, agent: Any, **kwargs: Any
    ) -> None:
        docstring = func.docstring
        if docstring is None or not _PLACEHOLDER.search(docstring.value):
            return
        filled = griffe.dynamic_import(func.path).__doc__
        if filled:
            docstring.value = inspect.cleandoc(filled)

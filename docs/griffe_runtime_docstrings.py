"""A griffe extension for the API pages: docstrings as the reader of the site needs them.

- Docstrings that gammonlab completes when it is imported are read from the imported
  object. The plot helpers share their common paragraphs (``ax``, ``**kwargs``, the
  return value, the examples' figure) through
  :func:`gammonlab.plot._common._plot_docs`, which fills ``{name}`` lines at import;
  read statically, those lines would show as written.
- Cross-references written the way Python's own docs write them (``:class:`Match```,
  ``:func:`~gammonlab.read_match```, ``:meth:`.play```) become links to the object's
  entry on the API pages: the name is resolved in the scope of the docstring's
  object, as Python would resolve it there; a name with no page of its own is shown
  as code.
- Interactive examples (``>>>`` lines and what they print) are shown as code wherever
  they stand: in a section of their own when they follow a list of parameters or
  return values, in a code block in running text (a module's docstring, notes).
"""

from __future__ import annotations

import inspect
import re
from typing import Any

import griffe

_PLACEHOLDER = re.compile(r"^\s*\{\w+\}\s*$", re.MULTILINE)
_ROLE = re.compile(r":(?:py:)?(?:class|func|meth|mod|attr|data|exc|obj|const):`(?P<target>[^`]+)`")
_TITLED = re.compile(r"^(?P<title>[^<]+)<(?P<target>[^>]+)>$")
_SECTION_RULE = re.compile(r"^\s*-{3,}\s*$")
_LISTS = {
    "parameters",
    "other parameters",
    "returns",
    "yields",
    "receives",
    "raises",
    "warns",
    "attributes",
}
"""numpydoc sections whose lines are read as items: examples there go in a section."""
_CODE_SECTIONS = {"examples"}
"""numpydoc sections that show ``>>>`` lines as code already."""


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

    def on_package(self, *, pkg: griffe.Module, **kwargs: Any) -> None:
        for obj in _objects(pkg):
            if obj.docstring is not None:
                text = _link_roles(obj.docstring.value, obj, pkg)
                obj.docstring.value = _show_examples(text)


def _objects(obj: griffe.Object) -> list[griffe.Object]:
    """``obj`` and every object defined in it (not the names it imports)."""
    found = [obj]
    for member in obj.members.values():
        if not member.is_alias:
            found.extend(_objects(member))  # type: ignore[arg-type]
    return found


def _resolve(name: str, scope: griffe.Object) -> str | None:
    """The full path of ``name`` as written in ``scope``'s docstring, or None."""
    if name.startswith("."):  # relative: a member of the object or of its class
        name = name.lstrip(".")
        owner: griffe.Object | None = scope if scope.is_class else scope.parent
        while owner is not None:
            if name.split(".")[0] in owner.members:
                return f"{owner.path}.{name}"
            owner = owner.parent
        return None
    if name.startswith("gammonlab"):
        return name
    head, _, rest = name.partition(".")
    try:
        path = scope.resolve(head)
    except (griffe.NameResolutionError, KeyError, AttributeError):
        return None
    if not path.startswith("gammonlab"):
        return None
    return f"{path}.{rest}" if rest else path


def _canonical(path: str, pkg: griffe.Module) -> str:
    """Where the object ``path`` names is defined (``gammonlab.Match`` is
    ``gammonlab.match.model.Match``): the path its entry on the API pages has."""
    if path == pkg.path:
        return path
    try:
        return pkg[path.removeprefix(pkg.path + ".")].canonical_path
    except (KeyError, griffe.AliasResolutionError, griffe.CyclicAliasError):
        return path


def _link_roles(text: str, scope: griffe.Object, pkg: griffe.Module) -> str:
    def link(match: re.Match[str]) -> str:
        target = match["target"].strip()
        titled = _TITLED.match(target)
        if titled:  # :attr:`title <target>`
            shown, target = titled["title"].strip(), titled["target"]
        else:
            shown = target.lstrip("~")
            if target.startswith("~"):
                shown = shown.rsplit(".", 1)[-1]
            shown = shown.lstrip(".")
        path = _resolve(target.lstrip("~"), scope)
        if path is None:
            return f"`{shown}`"
        path = _canonical(path, pkg)
        # an optional reference: a link where the object has an entry, code elsewhere
        return f'<autoref identifier="{path}" optional><code>{shown}</code></autoref>'

    return _ROLE.sub(link, text)


def _show_examples(text: str) -> str:
    lines = text.splitlines()
    out: list[str] = []
    section = ""
    index = 0
    while index < len(lines):
        line = lines[index]
        if index + 1 < len(lines) and line.strip() and _SECTION_RULE.match(lines[index + 1]):
            section = line.strip().lower()
            out.extend((line, lines[index + 1]))
            index += 2
            continue
        if not line.lstrip().startswith(">>>") or section in _CODE_SECTIONS:
            out.append(line)
            index += 1
            continue
        block = []
        while index < len(lines) and lines[index].strip():
            block.append(lines[index])
            index += 1
        indent = min(len(item) - len(item.lstrip()) for item in block)
        block = [item[indent:] for item in block]
        if section in _LISTS:
            if out and out[-1].strip():
                out.append("")
            out.extend(["Examples", "--------", *block])
            section = "examples"
        else:
            out.extend(["```python", *block, "```"])
    return "\n".join(out)

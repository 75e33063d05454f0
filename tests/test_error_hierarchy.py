"""One error hierarchy: every exception gammonlab raises is a class of gammonlab/errors.py.

The checks read the syntax tree of every module, so a new ``raise ValueError(...)`` or an
exception class defined elsewhere fails here, naming the file and line.
"""

from __future__ import annotations

import ast
import builtins
import re
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

import gammonlab as gl
from gammonlab import errors

PACKAGE = Path(gl.__file__).resolve().parent
ERRORS = PACKAGE / "errors.py"

PROTOCOL = {
    # (module, function, raised name): why a builtin exception is the right one there
    (
        "evaluators/base.py",
        "evaluate_positions",
        "NotImplementedError",
    ): "the abstract method every Evaluator subclass implements (Python's protocol)",
    (
        "cli/output.py",
        "parse_dice",
        "argparse.ArgumentTypeError",
    ): "argparse shows the message of a type= converter only for ArgumentTypeError",
}
"""Builtin exceptions raised on purpose, besides ``AttributeError`` in a module's
``__getattr__`` (PEP 562); each names the one function allowed to raise it."""


def _modules() -> Iterator[tuple[str, ast.Module]]:
    for path in sorted(PACKAGE.rglob("*.py")):
        yield path.relative_to(PACKAGE).as_posix(), ast.parse(path.read_text(), str(path))


def _error_classes() -> set[str]:
    tree = ast.parse(ERRORS.read_text())
    return {node.name for node in tree.body if isinstance(node, ast.ClassDef)}


def _annotation_name(node: ast.expr | None) -> str | None:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value.rsplit(".", 1)[-1]
    return None


def _factories(classes: set[str]) -> set[str]:
    """Functions and methods that return a gammonlab error for the caller to raise
    (``raise loc.error(...)``), known by their return annotation."""
    return {
        node.name
        for _, tree in _modules()
        for node in ast.walk(tree)
        if isinstance(node, ast.FunctionDef) and _annotation_name(node.returns) in classes
    }


def _dotted(node: ast.expr) -> str:
    return ast.unparse(node)


class _Raises(ast.NodeVisitor):
    """Every ``raise`` of a module with the functions around it, innermost last."""

    def __init__(self) -> None:
        self.found: list[tuple[ast.Raise, list[ast.FunctionDef | ast.AsyncFunctionDef]]] = []
        self.stack: list[ast.FunctionDef | ast.AsyncFunctionDef] = []

    def visit_FunctionDef(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        self.stack.append(node)
        self.generic_visit(node)
        self.stack.pop()

    visit_AsyncFunctionDef = visit_FunctionDef

    def visit_Raise(self, node: ast.Raise) -> None:
        self.found.append((node, list(self.stack)))
        self.generic_visit(node)


class _Resolver:
    def __init__(self, classes: set[str], factories: set[str]) -> None:
        self.classes = classes
        self.factories = factories

    def call(self, node: ast.Call) -> bool:
        func = node.func
        if isinstance(func, ast.Name):
            return func.id in self.classes or func.id in self.factories
        if isinstance(func, ast.Attribute):
            if func.attr in self.factories:
                return True  # a method returning an error: Location.error(...)
            return (
                func.attr in self.classes
                and isinstance(func.value, ast.Name)
                and func.value.id == "errors"
            )
        return False

    def value(self, node: ast.expr, scope: ast.AST, depth: int = 0) -> bool:
        """Whether ``node`` (raised, or assigned to a name that is) is a gammonlab error."""
        if isinstance(node, ast.Call):
            return self.call(node)
        if isinstance(node, ast.Constant) and node.value is None:
            return True  # ``failure = None`` before ``failure = error``
        if isinstance(node, ast.Attribute):
            return (
                node.attr in self.classes
                and isinstance(node.value, ast.Name)
                and node.value.id == "errors"
            )
        if isinstance(node, ast.Name):
            return node.id in self.classes or (depth < 4 and self.name(node.id, scope, depth))
        return False

    def name(self, name: str, scope: ast.AST, depth: int) -> bool:
        """A local name raised: caught by ``except ... as name`` (re-raised), a parameter
        annotated as a gammonlab error, or only ever assigned gammonlab errors."""
        bindings = 0
        if isinstance(scope, ast.FunctionDef | ast.AsyncFunctionDef):
            every = scope.args.posonlyargs + scope.args.args + scope.args.kwonlyargs
            for arg in every:
                if arg.arg == name:
                    if _annotation_name(arg.annotation) not in self.classes:
                        return False
                    bindings += 1
        for node in ast.walk(scope):
            if isinstance(node, ast.ExceptHandler) and node.name == name:
                bindings += 1
            elif isinstance(node, ast.AnnAssign) and _is(node.target, name):
                if _annotation_name(node.annotation) not in self.classes:
                    return False
                bindings += 1
            elif isinstance(node, ast.Assign) and any(_is(t, name) for t in node.targets):
                if not self.value(node.value, scope, depth + 1):
                    return False
                bindings += 1
        return bindings > 0


def _is(target: ast.expr, name: str) -> bool:
    return isinstance(target, ast.Name) and target.id == name


def _allowed_builtin(
    module: str, functions: list[ast.FunctionDef | ast.AsyncFunctionDef], raised: str
) -> bool:
    if not functions:
        return False
    function = functions[-1].name
    if raised == "AttributeError" and function == "__getattr__" and len(functions) == 1:
        return True  # a module's __getattr__ (PEP 562); methods raise ImmutableError
    return (module, function, raised) in PROTOCOL


def _bad_raises() -> list[str]:
    classes = _error_classes()
    resolver = _Resolver(classes, _factories(classes))
    bad = []
    for module, tree in _modules():
        visitor = _Raises()
        visitor.visit(tree)
        for node, functions in visitor.found:
            if node.exc is None:
                continue  # a bare re-raise
            scope: ast.AST = functions[-1] if functions else tree
            if resolver.value(node.exc, scope):
                continue
            target = node.exc.func if isinstance(node.exc, ast.Call) else node.exc
            if _allowed_builtin(module, functions, _dotted(target)):
                continue
            bad.append(f"gammonlab/{module}:{node.lineno}: raise {_dotted(node.exc)[:70]}")
    return bad


def test_every_raise_is_a_gammonlab_error() -> None:
    bad = _bad_raises()
    assert not bad, (
        "raise a class of gammonlab/errors.py (or list a protocol exception "
        "in PROTOCOL with its reason):\n" + "\n".join(bad)
    )


def test_the_checker_sees_builtin_raises() -> None:
    tree = ast.parse(
        "def f(x):\n"
        "    if x:\n"
        "        raise ValueError('x')\n"
        "    try:\n"
        "        pass\n"
        "    except KeyError as exc:\n"
        "        raise exc\n"
        "    problem = InvalidPositionError('p')\n"
        "    raise problem\n"
        "    raise argparse.ArgumentTypeError('d')\n"
    )
    classes = _error_classes()
    resolver = _Resolver(classes, _factories(classes))
    visitor = _Raises()
    visitor.visit(tree)
    verdicts = [resolver.value(node.exc, functions[-1]) for node, functions in visitor.found]
    assert verdicts == [False, True, True, False]


def _bases(node: ast.ClassDef) -> Iterator[str]:
    for base in node.bases:
        name = _annotation_name(base)
        if name is not None:
            yield name


def _is_exception_base(name: str, classes: set[str]) -> bool:
    builtin = getattr(builtins, name, None)
    return (
        name in classes
        or name.endswith(("Error", "Exception", "Warning"))
        or (isinstance(builtin, type) and issubclass(builtin, BaseException))
    )


def test_exception_classes_live_in_errors() -> None:
    classes = _error_classes()
    elsewhere = [
        f"gammonlab/{module}:{node.lineno}: class {node.name}"
        for module, tree in _modules()
        if module != "errors.py"
        for node in ast.walk(tree)
        if isinstance(node, ast.ClassDef)
        and any(_is_exception_base(base, classes) for base in _bases(node))
    ]
    assert not elsewhere, (
        "define exception classes in gammonlab/errors.py and import them "
        "where they were:\n" + "\n".join(elsewhere)
    )


def test_every_error_is_exported_and_a_gammonlab_error() -> None:
    public = {name for name in _error_classes() if not name.startswith("_")}
    assert set(errors.__all__) == public
    for name in errors.__all__:
        cls = getattr(errors, name)
        assert issubclass(cls, errors.GammonlabError), name
        assert cls.__doc__, f"{name} needs a docstring"
        assert getattr(gl, name) is cls, f"gammonlab.{name} is not exported"
        assert name in gl.__all__, f"{name} is missing from gammonlab.__all__"
        assert re.search(rf"\b{name}\b", errors.__doc__ or ""), f"{name} is not in the tree"


def test_old_import_paths_still_work() -> None:
    from gammonlab.cube import InvalidProbabilitiesError
    from gammonlab.cube.theory import InvalidProbabilitiesError as theory_error
    from gammonlab.evaluators.base import EvaluatorError
    from gammonlab.plot import PlotDataError
    from gammonlab.train import TrainingError

    assert InvalidProbabilitiesError is theory_error is gl.InvalidProbabilitiesError
    assert EvaluatorError is gl.EvaluatorError
    assert PlotDataError is gl.PlotDataError
    assert TrainingError is gl.TrainingError


@pytest.mark.parametrize(
    ("cls", "builtin"),
    [
        (gl.ArgumentError, ValueError),
        (gl.ArgumentTypeError, TypeError),
        (gl.OptionError, ValueError),
        (gl.OptionTypeError, TypeError),
        (gl.InvalidDiceError, ValueError),
        (gl.ParseError, ValueError),
        (gl.PlayIndexError, IndexError),
        (gl.UnknownNameError, KeyError),
        (gl.ImmutableError, AttributeError),
        (gl.SourceNotFoundError, FileNotFoundError),
        (gl.InternalError, RuntimeError),
        (gl.MissingDependencyError, ImportError),
    ],
)
def test_builtin_bases_are_kept(cls: type, builtin: type) -> None:
    # code that catches the builtin keeps working where gammonlab once raised it
    assert issubclass(cls, builtin)
    assert issubclass(cls, gl.GammonlabError)


def test_dice_and_options_are_not_positions() -> None:
    start = gl.Position.initial()
    with pytest.raises(gl.InvalidDiceError, match=r"dice must be two numbers from 1 to 6") as bad:
        start.legal_plays((0, 7))
    assert not isinstance(bad.value, gl.InvalidPositionError)
    with pytest.raises(gl.InvalidDiceError, match="no dice rolled yet") as unrolled:
        gl.GameState(position=start).legal_plays()
    assert not isinstance(unrolled.value, gl.InvalidPositionError)
    board = start.board.copy()
    board[1] = 0
    board[1, 0] = 15  # the opponent has borne off: the game is over
    with pytest.raises(gl.OptionError, match="unknown scoring") as scoring:
        gl.Position.from_board(board).result(scoring="nonsense")
    assert not isinstance(scoring.value, gl.InvalidPositionError)
    assert scoring.value.option == "scoring"
    with pytest.raises(gl.ArgumentError, match="bottom must be player 0 or 1") as bottom:
        gl.GameState(position=start, bottom=2)
    assert not isinstance(bottom.value, gl.InvalidPositionError)


def test_builtins_replaced_by_their_gammonlab_class() -> None:
    legal = gl.Position.initial().legal_plays((3, 1))
    with pytest.raises(gl.PlayIndexError, match=rf"play index 99 out of range: {len(legal)}"):
        legal[99]
    assert list(legal) == [legal[i] for i in range(len(legal))]  # iteration still stops
    with pytest.raises(gl.ImmutableError, match="immutable"):
        gl.Position.initial().variant = None  # type: ignore[misc]
    with pytest.raises(gl.ArgumentTypeError, match=r"Position\.initial\(\)"):
        gl.Position()
    with pytest.raises(gl.UnknownNameError, match="unknown board colour 'fur'") as colour:
        from gammonlab.draw.style import board_colors

        board_colors({"fur": "#000000"})
    assert str(colour.value).startswith("unknown board colour")  # not quoted like a KeyError


def test_a_numba_kernel_raises_the_gammonlab_class() -> None:
    from gammonlab._kernels.acey import _waiting

    board = np.zeros((2, 26), dtype=np.int8)
    board[0, 6] = 16
    with pytest.raises(gl.InvalidPositionError, match="more checkers on the board"):
        _waiting(board, 15)

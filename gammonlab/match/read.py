"""Reading transcripts: the format detected from the content, one or many files.

>>> from gammonlab import read_match
>>> read_match(" 1 point match\\n\\n Game 1\\n A : 0     B : 0\\n  1) 31: 8/5 6/5\\n").players
('A', 'B')
"""

from __future__ import annotations

import numbers
import os
import traceback
import warnings
from collections.abc import Callable, Iterable
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..errors import GammonlabError, OptionError, OptionTypeError, ParseError, SourceNotFoundError
from ..io.mat import parse_mat
from ..io.sgf import parse_sgf
from ..io.text import Errors, Source, collects, load_transcript
from ..rules import Rules
from .building import cycle_collection_paused
from .model import Match
from .replay import replay_match

if TYPE_CHECKING:
    import pandas as pd

__all__ = [
    "detect_format",
    "format_problems",
    "gather_frames",
    "map_files",
    "problem_lines",
    "read_match",
    "read_matches",
    "transcript_files",
    "warn_problems",
]


def detect_format(text: str) -> str:
    """``'sgf'`` for SGF game records, ``'mat'`` for match transcripts.

    >>> detect_format("(;FF[4]GM[6]")
    'sgf'
    """
    stripped = text.lstrip("\ufeff \t\r\n")
    return "sgf" if stripped.startswith("(") and ";" in stripped[:20] else "mat"


def read_match(
    source: Source | os.PathLike[str],
    *,
    errors: Errors = "raise",
    format: str | None = None,
    rules: Rules | None = None,
) -> Match:
    """Read a transcript (``.mat`` or ``.sgf``) into a :class:`~gammonlab.match.Match`.

    Parameters
    ----------
    source : path, str, bytes or file
        A path, the transcript's text, its bytes or an open file. A string is
        text when it holds more than one line or its one line starts as a
        transcript does, and a path otherwise (see
        :func:`~gammonlab.io.text.load_source`).
    errors : {'raise', 'collect'}, default 'raise'
        ``raise`` stops at the first problem with a :class:`~gammonlab.errors.ParseError`
        naming file, line and column; ``collect`` never raises on a string or
        bytes: it keeps every good game and lists what it skipped, and why, in
        ``match.problems``, each with its line and column.
    format : {'mat', 'sgf'}, optional
        Detected from the content when not given.
    rules : Rules, optional
        Replay under these rules instead of those the transcript's headers
        (``Variation``, ``Jacoby``, ``Crawford``, ``CubeLimit``, ...; SGF ``RU``)
        describe; see :func:`~gammonlab.match.replay_match`. The match length
        must agree with the transcript's (collecting, a disagreement is listed
        and the rules given win).

    Raises
    ------
    ParseError
        The transcript cannot be read (``errors="raise"``).
    SourceNotFoundError
        A path that does not exist (with ``errors="collect"``, a one-line string
        that names no file is read as text instead, and the first problem says so).
    SourceError
        A path that names a folder or a file that cannot be read.
    OptionError
        ``errors``, ``format`` or ``rules`` of an unknown kind.

    Examples
    --------
    >>> from gammonlab import Rules
    >>> text = (" 3 point match\\n\\n Game 1\\n A : 0     B : 0\\n"
    ...         "  1) 31: 8/5 6/5     13: 24/23 13/10\\n")
    >>> read_match(text).games[0].cube_value
    1
    >>> read_match(text, rules=Rules(match_length=3, auto_doubles="seed-000")).games[0].cube_value
    2
    """
    collect = collects(errors)
    if format not in (None, "mat", "sgf"):
        raise OptionError(f"unknown transcript format {format!r}: 'mat' or 'sgf'", option="format")
    if rules is not None and not isinstance(rules, Rules):
        raise OptionTypeError(f"rules must be a Rules, got {type(rules).__name__}", option="rules")
    loaded, note = load_transcript(source, collect=collect)
    kind = format or detect_format(loaded.text)
    parse = parse_sgf if kind == "sgf" else parse_mat
    with cycle_collection_paused():
        raw: Any = parse(loaded, errors=errors)
        if note is not None:
            raw = replace(raw, problems=(note, *raw.problems))
        match = replay_match(raw, errors=errors, rules=rules)
        # the raw record goes before the collector wakes, so that it is not walked
        del raw
        _drop_tracebacks(match)
    return match


def _drop_tracebacks(match: Match) -> None:
    """Let the problems a match lists, and the errors they were raised from, hold no
    traceback, and the frames the tracebacks held no locals.

    A problem raised and caught keeps the frames it was raised through, and with them
    the raw record, for as long as the match; a frame that holds the problem in a
    local makes a reference cycle with it, which, in the oldest generation, only a
    full collection would free.
    """
    errors: list[BaseException | None] = [*match.problems]
    errors.extend(problem for game in match.games for problem in game.problems)
    seen: set[int] = set()
    while errors:
        error = errors.pop()
        if error is not None and id(error) not in seen:
            seen.add(id(error))
            if error.__traceback__ is not None:
                traceback.clear_frames(error.__traceback__)
                error.__traceback__ = None
            errors += (error.__cause__, error.__context__)


def _read_one(
    path: str, errors: Errors, frame: str, rules: Rules | None = None
) -> tuple[Any, list[tuple[Any, ...]]]:
    """Read one file for :func:`read_matches`: its frame and its problems."""
    try:
        match = read_match(Path(path), errors=errors, rules=rules)
    except GammonlabError as error:
        if errors == "raise":
            raise
        message = error.detail if isinstance(error, ParseError) else str(error).splitlines()[0]
        return None, [
            (
                path,
                getattr(error, "line", None),
                getattr(error, "column", None),
                "file skipped",
                message.removeprefix(f"{path}: "),
            )
        ]
    if not match.games:
        first = match.problems[0] if match.problems else None
        why = first.detail if first is not None else "no game in the file"
        return None, [
            (
                path,
                getattr(first, "line", None),
                getattr(first, "column", None),
                "file skipped",
                f"no game could be read: {why}",
            )
        ]
    table = match.to_frame() if frame == "actions" else match.games_frame()
    problems = [
        (path, p.line, p.column, "game skipped" if "skipped" in p.detail else "flagged", p.detail)
        for p in match.problems
    ]
    return table, problems


TRANSCRIPT_SUFFIXES = (".mat", ".txt", ".sgf")
"""File endings :func:`read_matches` takes from a folder by default."""


def transcript_files(source: Any, pattern: str | None = None) -> tuple[list[str], Path | None]:
    """The transcripts of a folder (recursively, sorted) and the folder, or the paths given.

    By default a folder's ``.mat``, ``.txt`` and ``.sgf`` files; ``pattern`` is a glob.
    A single path that does not exist raises :class:`~gammonlab.errors.SourceNotFoundError`;
    an empty path (which ``Path`` would take for the current folder),
    :class:`~gammonlab.errors.OptionError`.
    """
    if pattern is not None and not isinstance(pattern, str):
        raise OptionTypeError(
            f"pattern must be a glob like '*.mat', got {type(pattern).__name__}", option="pattern"
        )
    if isinstance(source, (str, os.PathLike)) and os.fspath(source) == "":
        raise OptionError("an empty path names no file or folder", option="source")
    if isinstance(source, (str, os.PathLike)) and os.path.isdir(source):
        root = Path(source)
        if pattern is None:
            found = (p for p in root.rglob("*") if p.suffix.lower() in TRANSCRIPT_SUFFIXES)
        else:
            found = root.rglob(pattern)
        return sorted(str(p) for p in found if p.is_file()), root
    if isinstance(source, (str, os.PathLike)):
        if not os.path.exists(source):
            raise SourceNotFoundError(f"{os.fspath(source)}: no such file or folder")
        return [str(source)], None
    if isinstance(source, (bytes, bytearray)) or not hasattr(source, "__iter__"):
        raise OptionTypeError(
            f"expected a folder, a path or a list of paths, got {type(source).__name__}",
            option="source",
        )
    paths = []
    for path in source:
        if not isinstance(path, (str, os.PathLike)):
            raise OptionTypeError(
                f"expected a list of paths, got {path!r} ({type(path).__name__}) in it",
                option="source",
            )
        if os.fspath(path) == "":
            raise OptionError("an empty path names no file or folder", option="source")
        paths.append(os.fspath(path))
    return paths, None


def map_files(
    task: Callable[..., Any],
    paths: list[str],
    *args: Any,
    n_jobs: int | None,
    progress: bool,
    desc: str,
) -> list[Any]:
    """``task(path, *args)`` for every path, in path order, with a progress bar.

    ``n_jobs`` worker processes (``None``: every core; 1: in this process).
    """
    from tqdm.auto import tqdm

    if n_jobs is not None and (
        isinstance(n_jobs, bool) or not isinstance(n_jobs, numbers.Integral)
    ):
        raise OptionTypeError(
            f"n_jobs must be a number of worker processes or None (every core), got {n_jobs!r}",
            option="n_jobs",
        )
    if n_jobs is not None and n_jobs < 1:
        raise OptionError(
            f"n_jobs must be 1 or more worker processes (None: every core), got {n_jobs}",
            option="n_jobs",
        )

    workers = n_jobs if n_jobs is not None else (os.cpu_count() or 1)
    workers = max(1, min(workers, len(paths)))
    results: list[Any] = [None] * len(paths)
    bar = tqdm(total=len(paths), unit="file", disable=not progress, desc=desc)
    try:
        if workers == 1:
            for i, path in enumerate(paths):
                results[i] = task(path, *args)
                bar.update()
        else:
            from concurrent.futures import ProcessPoolExecutor, as_completed

            with ProcessPoolExecutor(max_workers=workers) as pool:
                futures = {pool.submit(task, path, *args): i for i, path in enumerate(paths)}
                try:
                    for future in as_completed(futures):
                        results[futures[future]] = future.result()
                        bar.update()
                except BaseException:
                    for future in futures:
                        future.cancel()
                    raise
    finally:
        bar.close()
    return results


def gather_frames(
    paths: list[str], root: Path | None, results: list[Any]
) -> tuple[pd.DataFrame, list[dict[str, Any]]]:
    """One frame from per-file ``(frame or None, problems)`` results, with a ``match``
    column first, and the problems as records (file, line, column, what, message)."""
    import pandas as pd

    tables = []
    problems: list[tuple[Any, ...]] = []
    for path, (table, found) in zip(paths, results):
        name = str(Path(path).relative_to(root)) if root is not None else path
        problems.extend((name, *rest) for _, *rest in found)
        if table is not None:
            table.attrs = {}
            table.insert(0, "match", name)
            tables.append(table)
    if tables:
        out = pd.concat(tables, ignore_index=True)
        out["match"] = out["match"].astype("category")
        if "player_name" in out:
            out["player_name"] = out["player_name"].astype("category")
    else:
        out = pd.DataFrame()
    fields = ("file", "line", "column", "what", "message")
    return out, [dict(zip(fields, row)) for row in problems]


def warn_problems(out: pd.DataFrame, files: int, report: list[dict[str, Any]], done: str) -> None:
    """One warning for the files and games a batch skipped and the problems it flagged.

    ``done`` says what was done with the files (``'read'``, ``'analysed'``); the
    warning points at the caller of the function that read them.
    """
    if not report:
        return
    skipped = sum(r["what"] == "file skipped" for r in report)
    games = sum(r["what"] == "game skipped" for r in report)
    warnings.warn(
        f"{done} {out['match'].nunique() if len(out) else 0} of {files} "
        f"files; skipped {skipped} files and "
        f"{games} games, flagged {len(report) - skipped - games} problems: "
        f"see pandas.DataFrame(frame.attrs['problems'])",
        stacklevel=3,
    )


def format_problems(problems: list[dict[str, Any]]) -> str:
    """The problem records of :func:`read_matches`, one line each with file, line and column."""
    if not problems:
        return ""
    lines = [f"{len(problems)} problem{'s' if len(problems) != 1 else ''}:"]
    lines.extend(f"  {line}" for line in problem_lines(problems))
    return "\n".join(lines)


def problem_lines(problems: list[dict[str, Any]]) -> list[str]:
    """The problem records of :func:`read_matches`, one line each that starts with its
    place: ``file:line:column: what: message``."""
    lines = []
    for row in problems:
        where = ":".join(str(x) for x in (row["line"], row["column"]) if x)
        lines.append(
            f"{row['file']}{':' + where if where else ''}: {row['what']}: {row['message']}"
        )
    return lines


def read_matches(
    source: str | os.PathLike[str] | Iterable[str | os.PathLike[str]],
    *,
    errors: Errors = "raise",
    frame: str = "actions",
    pattern: str | None = None,
    progress: bool = True,
    n_jobs: int | None = None,
    rules: Rules | None = None,
) -> pd.DataFrame:
    """Read many transcripts, in parallel, into one frame with a ``match`` column.

    Parameters
    ----------
    source : folder or paths
        A folder, read recursively, or a list of paths; one path that does not
        exist raises :class:`~gammonlab.errors.SourceNotFoundError` (in a list,
        collecting, it is a file skipped).
    errors : {'raise', 'collect'}, default 'raise'
        ``raise`` stops at the first problem; ``collect`` keeps every good game,
        skips the rest and reports them in ``frame.attrs["problems"]`` (records
        with file, line, column, what and message: ``pd.DataFrame(frame.attrs["problems"])``),
        with a warning that counts them.
    frame : {'actions', 'games'}
        One row per action (:meth:`Match.to_frame`) or per game
        (:meth:`Match.games_frame`).
    pattern : str, optional
        A glob for the files of a folder; by default every ``.mat``, ``.txt``
        and ``.sgf`` file.
    progress : bool
        Show a progress bar (tqdm: notebooks and terminals).
    n_jobs : int, optional
        Worker processes; ``None`` uses every core, 1 reads in this process.
    rules : Rules, optional
        Replay every file under these rules (see :func:`read_match`); the
        files' match lengths must agree with it.

    Returns
    -------
    pandas.DataFrame
        The frames of all files in order, ``match`` (the file's path relative to
        the folder) first.
    """
    if frame not in ("actions", "games"):
        raise OptionError(f"frame must be 'actions' or 'games', got {frame!r}", option="frame")
    collects(errors)
    paths, root = transcript_files(source, pattern)
    results = map_files(
        _read_one, paths, errors, frame, rules, n_jobs=n_jobs, progress=progress, desc="reading"
    )
    out, report = gather_frames(paths, root, results)
    # plain records, so that the frame still writes to parquet with its attrs
    out.attrs["problems"] = report
    warn_problems(out, len(paths), report, "read")
    return out

"""Call ``gnubg_nn`` in a child process, tolerating its crashes.

``gnubg_nn`` 1.1.0a11 can crash the interpreter on some inputs. ``call_all``
runs one function over many argument tuples in a worker that prints one JSON
line per call; when the worker dies, that call's result is ``"crash"`` and a
new worker carries on with the next one.
"""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any

_WORKER = r"""
import json, sys
import gnubg_nn
func = getattr(gnubg_nn, sys.argv[1])
for line in sys.stdin:
    args = json.loads(line)
    try:
        result = func(*args)
    except Exception as error:
        result = {"error": type(error).__name__}
    print(json.dumps(result), flush=True)
"""


def call_all(function: str, calls: list[tuple[Any, ...]], timeout: float = 600) -> list[Any]:
    results: list[Any] = []
    while len(results) < len(calls):
        pending = calls[len(results) :]
        stdin = "".join(json.dumps(list(args)) + "\n" for args in pending)
        done = subprocess.run(
            [sys.executable, "-c", _WORKER, function],
            input=stdin,
            capture_output=True,
            text=True,
            timeout=timeout,
        )
        lines = [json.loads(line) for line in done.stdout.splitlines() if line.strip()]
        results.extend(lines)
        if done.returncode != 0 and len(results) < len(calls):
            results.append("crash")
    return results

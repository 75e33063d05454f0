"""The demo's report opens in a real browser (headless Chromium) without errors.

Chromium comes from the Debian package ``chromium`` (``apt-get install -y chromium``);
without ``/usr/bin/chromium`` the test is skipped. The page has no scripts and a
Content-Security-Policy that lets it load nothing but inline images, so any message
on the browser's console -- a script error, something blocked -- is a failure.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
from pathlib import Path

import pytest
from conftest import needs_if

from gammonlab.cli import demo
from gammonlab.cli.report import _SECURITY

CHROMIUM = Path("/usr/bin/chromium")
TIMEOUT = 120  # seconds; the page loads in about one
FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--enable-logging=stderr",
    "--v=0",
]
CONSOLE = re.compile(r":CONSOLE[:(\]]|Uncaught|Refused to", re.IGNORECASE)
"""How Chromium's log shows a console message, a script error or a blocked load."""


def _dump_dom(page: Path, profile: Path) -> tuple[str, str]:
    """The page's DOM after loading it, and Chromium's log."""
    command = [
        str(CHROMIUM),
        *FLAGS,
        f"--user-data-dir={profile}",
        "--dump-dom",
        page.resolve().as_uri(),
    ]
    # its own process group: on a timeout, end Chromium's helper processes too
    process = subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True
    )
    try:
        out, err = process.communicate(timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.communicate()
        pytest.fail(f"Chromium did not load {page} within {TIMEOUT} s")
    assert process.returncode == 0, err
    return out, err


needs_chromium = needs_if(
    not CHROMIUM.exists(), f"headless Chromium at {CHROMIUM}", "Debian: apt-get install -y chromium"
)


@needs_chromium
def test_the_report_opens_in_chromium_without_errors(tmp_path):
    report = demo.run_demo(tmp_path / "demo", trials=72, log=lambda line: None)
    dom, log = _dump_dom(report.files["report.html"], tmp_path / "profile")
    problems = [line for line in log.splitlines() if CONSOLE.search(line)]
    assert not problems, "\n".join(problems)
    title = "gammonlab demo: Kévin Unger vs Maxence Job"
    assert f"<title>{title}</title>" in dom and f"<h1>{title}</h1>" in dom
    assert dom.count("<svg") == 2
    images = dom.count("<img")
    assert images >= 4 and dom.count('src="data:image/png;base64,') == images
    assert "</html>" in dom


@needs_chromium
def test_the_check_sees_console_errors(tmp_path):
    page = tmp_path / "broken.html"
    page.write_text(
        '<!DOCTYPE html><html><head><meta charset="utf-8">'
        f'<meta http-equiv="Content-Security-Policy" content="{_SECURITY}">'
        "<title>broken</title></head><body><h1>broken</h1>"
        '<img src="https://example.invalid/x.png" alt="x">'
        "<script>undefinedFunction()</script></body></html>",
        encoding="utf-8",
    )
    _, log = _dump_dom(page, tmp_path / "profile")
    assert len([line for line in log.splitlines() if CONSOLE.search(line)]) >= 2, log

"""The clickable teaching board in a real browser: Voila serves a notebook that shows
``gl.teach()``, headless Chromium (through Playwright) plays on it by clicks.

Chromium comes from the Debian package ``chromium`` (``apt-get install -y chromium``);
without ``/usr/bin/chromium`` the tests are skipped, and so they are without Playwright,
Voila or anywidget (the ``test`` extra). Voila runs on a free port in its own process
group, ended when the tests are done. Any error on the browser's console fails.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
from conftest import needs_if, needs_module

CHROMIUM = Path("/usr/bin/chromium")
ROOT = Path(__file__).resolve().parents[1]
SCREENSHOT = ROOT / "docs" / "images" / "teaching_board.png"
START_TIMEOUT = 90  # seconds for Voila to answer
STEP_TIMEOUT = 30_000  # milliseconds for the page to answer one click

pytestmark = needs_if(
    not CHROMIUM.exists(), f"headless Chromium at {CHROMIUM}", "Debian: apt-get install -y chromium"
)

NOTEBOOK_CODE = """\
import gammonlab as gl

widget = gl.teach(lesson="R6.3", seed=1, delay=0)
widget
"""


def _notebook(folder: Path) -> Path:
    path = folder / "board.ipynb"
    cell = {
        "cell_type": "code",
        "id": "board",
        "metadata": {},
        "execution_count": None,
        "outputs": [],
        "source": NOTEBOOK_CODE,
    }
    notebook = {
        "cells": [cell],
        "metadata": {"kernelspec": {"name": "python3", "display_name": "Python 3"}},
        "nbformat": 4,
        "nbformat_minor": 5,
    }
    path.write_text(json.dumps(notebook), encoding="utf-8")
    return path


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture(scope="module")
def voila(tmp_path_factory):
    needs_module("voila")
    needs_module("anywidget")
    folder = tmp_path_factory.mktemp("voila")
    notebook = _notebook(folder)
    port = _free_port()
    env = dict(
        os.environ, PYTHONPATH=os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])
    )
    command = [
        sys.executable,
        "-m",
        "voila",
        notebook.name,
        "--no-browser",
        f"--port={port}",
        "--Voila.ip=127.0.0.1",
        "--ServerApp.token=",
        # Jupyter Notebook's own front-end extension needs a JupyterLab that Voila's page
        # is not: it stays out, as it does in a Voila installed alone
        "--VoilaConfiguration.extension_denylist=@jupyter-notebook/lab-extension",
    ]
    log = (folder / "voila.log").open("w")
    # its own process group: the kernel it starts ends with it
    process = subprocess.Popen(
        command, cwd=folder, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True
    )
    url = f"http://127.0.0.1:{port}/"
    try:
        deadline = time.monotonic() + START_TIMEOUT
        while True:
            try:
                with urllib.request.urlopen(url, timeout=5):
                    break
            except OSError:
                if process.poll() is not None or time.monotonic() > deadline:
                    pytest.fail(f"Voila did not start: {(folder / 'voila.log').read_text()}")
                time.sleep(0.5)
        yield url
    finally:
        try:
            os.killpg(process.pid, signal.SIGTERM)
            process.wait(timeout=10)
        except (ProcessLookupError, subprocess.TimeoutExpired):
            os.killpg(process.pid, signal.SIGKILL)
        log.close()


@pytest.fixture(scope="module")
def browser():
    sync_api = needs_module("playwright.sync_api", "playwright")
    with sync_api.sync_playwright() as playwright:
        chromium = playwright.chromium.launch(
            executable_path=str(CHROMIUM), args=["--no-sandbox", "--disable-gpu"]
        )
        try:
            yield chromium
        finally:
            chromium.close()


def _open(browser, url: str, width: int):
    page = browser.new_page(viewport={"width": width, "height": 900})
    page.set_default_timeout(STEP_TIMEOUT)
    errors: list[str] = []
    page.on(
        "console",
        lambda m: errors.append(f"{m.text} {m.location}") if m.type == "error" else None,
    )
    page.on("requestfailed", lambda r: errors.append(f"failed: {r.url}"))
    page.on("pageerror", lambda e: errors.append(str(e)))
    # the icon font Voila asks a CDN for: the tests need no network, so it is empty
    page.route(
        "https://cdn.jsdelivr.net/**",
        lambda route: route.fulfill(status=200, content_type="text/css", body=""),
    )
    page.goto(url)
    page.wait_for_selector(".gl-board svg .hit-area", timeout=120_000)
    return page, errors


def _wait_message(page, text: str) -> None:
    page.wait_for_function(
        "t => [...document.querySelectorAll('.widget-html-content')]"
        ".some(e => e.innerText.includes(t))",
        arg=text,
    )


def _click_point(page, point: int) -> None:
    page.locator(f'.gl-board .hit-area[data-point="{point}"]').first.click()


def _fits(page) -> None:
    overflow = page.evaluate(
        "() => document.documentElement.scrollWidth - document.documentElement.clientWidth"
    )
    assert overflow <= 0, f"the page scrolls sideways by {overflow} px"
    box = page.locator(".gl-board svg").bounding_box()
    width = page.evaluate("() => document.documentElement.clientWidth")
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width + 0.5


def test_the_board_is_played_by_clicks_in_a_browser(voila, browser, tmp_path):
    expect = needs_module("playwright.sync_api", "playwright").expect
    page, errors = _open(browser, voila, 1100)
    try:
        _fits(page)
        _click_point(page, 25)  # the picture of the README: a checker chosen, its points lit
        page.wait_for_selector('.gl-board .highlight[data-point="20"]')
        shot = tmp_path / "teaching_board.png"
        page.locator(".gl-board").screenshot(path=str(shot))
        if os.environ.get("GAMMONLAB_SCREENSHOTS"):
            SCREENSHOT.write_bytes(shot.read_bytes())
        _click_point(page, 25)  # let it go again
        # R6.3: a checker moved while another waits on the bar is refused, citing the rule
        _click_point(page, 13)
        _wait_message(page, "Illegal (R6.3)")
        # a legal play by clicks: the bar, then the lit entry point, then 13 and 7
        _click_point(page, 25)
        page.wait_for_selector('.gl-board .hit-area.gl-selected[data-point="25"]')
        page.wait_for_selector('.gl-board .highlight[data-point="20"]')
        _click_point(page, 20)
        _wait_message(page, "bar/20")
        page.get_by_role("button", name="Undo").click()  # takes the move back
        page.wait_for_selector('.gl-board .hit-area.gl-movable[data-point="25"]')
        _click_point(page, 25)
        _click_point(page, 20)
        _wait_message(page, "to play: 6")
        _click_point(page, 13)
        _click_point(page, 7)
        _wait_message(page, "played")  # the opponent's reply is shown
        page.wait_for_function(
            "() => document.querySelector('.gl-log').innerText.includes('2. pubeval')"
        )
        page.get_by_role("button", name="Undo").click()  # the play and the reply
        _wait_message(page, "took back")
        # a whole game: roll, then the first legal play in the list, to the end
        page.get_by_role("button", name="New game").click()
        _wait_message(page, "Opening roll")
        roll = page.get_by_role("button", name="Roll")
        play = page.get_by_role("button", name="Play selected")
        listed = page.locator(".widget-dropdown", has_text="Legal").locator("select")
        for _ in range(300):
            if page.locator(".widget-html-content", has_text="game over").count():
                break
            if roll.is_enabled():
                roll.click()
                expect(roll).to_be_disabled()
            elif play.is_enabled() and listed.locator("option").count():
                listed.select_option(index=0)
                play.click()
                expect(play).to_be_disabled()
            else:
                page.wait_for_timeout(100)
        else:
            pytest.fail("the game did not end in 300 turns")
        _wait_message(page, "wins")
        log = page.locator(".gl-log")
        hidden = log.evaluate("e => e.scrollHeight - e.scrollTop - e.clientHeight")
        assert hidden <= 2, "the moves log does not show the newest turn"
        assert log.evaluate("e => e.scrollHeight > e.clientHeight")  # a long game scrolls
        _fits(page)
    finally:
        page.close()
    assert errors == [], "\n".join(errors)


def test_the_board_fits_a_phone(voila, browser, tmp_path):
    page, errors = _open(browser, voila, 390)
    try:
        _fits(page)
        box = page.locator(".gl-board svg").bounding_box()
        assert box is not None and box["width"] < 390
        _click_point(page, 25)
        page.wait_for_selector('.gl-board .highlight[data-point="20"]')
        shot = tmp_path / "phone.png"
        page.screenshot(path=str(shot), full_page=True)
        assert shot.stat().st_size > 0
    finally:
        page.close()
    assert errors == [], "\n".join(errors)

"""``gammonlab demo``: the sample matches analysed, a rollout, and a self-contained report."""

from __future__ import annotations

import base64
import io
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path

import matplotlib.image
import pandas as pd
import pytest

from gammonlab.cli import demo
from gammonlab.errors import GammonlabError
from gammonlab.io.samples import sample_folder, sample_matches
from gammonlab.match.read import read_match

FILES = [
    "report.html",
    "actions.csv",
    "actions.parquet",
    "games.csv",
    "analysis.csv",
    "analysis.parquet",
    "summary.csv",
]
PLOTS_WITH_EQUITY = 6  # pips, equity, errors, luck, gammon rates, rollout


class _Page(HTMLParser):
    """The tags, text and inline images of a page."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.text: list[str] = []
        self.open: list[str] = []

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))
        self.open.append(tag)

    def handle_endtag(self, tag):
        if tag in self.open:
            while self.open.pop() != tag:
                pass

    def handle_data(self, data):
        if self.open and self.open[-1] in ("title", "h1", "h2"):
            self.text.append(f"{self.open[-1]}:{data.strip()}")
        self.text.append(data)

    def all(self, tag: str) -> list[dict[str, str | None]]:
        return [attrs for name, attrs in self.tags if name == tag]


def _parse(path: Path) -> _Page:
    page = _Page()
    page.feed(path.read_text(encoding="utf-8"))
    page.close()
    return page


@pytest.fixture(scope="module")
def with_defaults(tmp_path_factory):
    """The demo as ``gammonlab demo`` runs it: gammonlab's own net."""
    out = tmp_path_factory.mktemp("demo")
    lines: list[str] = []
    report = demo.run_demo(out, log=lines.append)
    return report, lines


@pytest.fixture(scope="module")
def without_gnubg(tmp_path_factory):
    """The demo in a process where ``gnubg_nn`` cannot be imported, as without the extra."""
    out = tmp_path_factory.mktemp("demo-without-gnubg")
    code = (
        "import sys; sys.modules['gnubg_nn'] = None; "
        "from gammonlab.cli.demo import main; sys.exit(main(sys.argv[1:]))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code, str(out), "--trials", "144"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return out, done.stdout


def test_every_file_is_written_and_not_empty(with_defaults):
    report, _ = with_defaults
    for name in FILES:
        path = report.outdir / name
        assert path.is_file() and path.stat().st_size > 0, name
        assert report.files[name] == path


def test_the_frames_read_back(with_defaults):
    report, _ = with_defaults
    out = report.outdir
    actions = pd.read_parquet(out / "actions.parquet")
    assert actions["match"].nunique() == len(sample_matches())
    assert pd.read_csv(out / "actions.csv").shape == actions.shape
    games = pd.read_csv(out / "games.csv")
    assert {"match", "winner_name", "points", "ending"} <= set(games.columns)
    assert len(games) == actions.groupby("match", observed=True)["game"].nunique().sum()
    analysis = pd.read_parquet(out / "analysis.parquet")
    assert len(analysis) == len(read_match(sample_folder() / demo.DEFAULT_MATCH).to_frame())
    assert {"best_play", "equity_loss", "error_class", "luck", "play_rank"} <= set(analysis.columns)
    assert pd.read_csv(out / "analysis.csv").shape == analysis.shape
    summary = pd.read_csv(out / "summary.csv")
    assert summary["player_name"].tolist() == ["Kévin Unger", "Maxence Job"]


def test_the_page_is_self_contained_with_boards_and_plots(with_defaults):
    report, _ = with_defaults
    path = report.files["report.html"]
    text = path.read_text(encoding="utf-8")
    page = _parse(path)
    assert "title:gammonlab demo: Kévin Unger vs Maxence Job" in page.text
    assert "h1:gammonlab demo: Kévin Unger vs Maxence Job" in page.text
    assert {"h2:The sample matches", "h2:The biggest errors", "h2:Rollout"} <= set(page.text)
    assert len(page.all("svg")) == 2  # the play made and the best play
    assert len(page.all("table")) >= 4
    assert not page.all("script") and "javascript:" not in text.lower()
    policy = [m for m in page.all("meta") if m.get("http-equiv") == "Content-Security-Policy"]
    assert policy and "default-src 'none'" in (policy[0]["content"] or "")
    images = page.all("img")
    assert report.evaluator == "net" and len(images) == PLOTS_WITH_EQUITY
    for image in images:
        source = image["src"] or ""
        assert source.startswith("data:image/png;base64,") and image.get("alt")
        picture = matplotlib.image.imread(
            io.BytesIO(base64.b64decode(source.split(",")[1])), format="png"
        )
        assert picture.shape[0] > 100 and picture.shape[1] > 100
    for link in page.all("a"):  # links only to the files next to the page
        assert (path.parent / (link["href"] or "")).is_file(), link


def test_it_prints_each_step_and_what_it_found(with_defaults):
    report, lines = with_defaults
    text = "\n".join(lines)
    for step in ("[1/5]", "[2/5]", "[3/5]", "[4/5]", "[5/5]"):
        assert step in text
    assert f"reading {len(sample_matches())} sample matches from {sample_folder()}" in text
    assert "Kévin Unger won 7-4" in text
    for name in ("Kévin Unger", "Maxence Job"):
        line = next(line for line in lines if line.strip().startswith(f"{name}:"))
        assert "unforced moves" in line and "PR" in line
    assert any(line.strip().startswith("play made") and "±" in line for line in lines)
    for name in FILES:
        assert str(report.outdir / name) in text
    assert lines[-1].startswith("done in ")


def test_the_biggest_error_is_rolled_out(with_defaults):
    report, _ = with_defaults
    assert report.decision is not None
    labels = [found.label for found in report.rollouts]
    assert labels == ["play made", "best play"]
    for found in report.rollouts:
        assert found.result.trials == demo.DEFAULT_TRIALS
        assert found.result.settings["seed"] == demo.DEFAULT_SEED
        assert found.equity == pytest.approx(-found.result.equity)
        assert 0 < found.half_interval < 0.5
    loss = pd.to_numeric(report.summary["checker_equity_loss"])
    assert loss.notna().all() and report.decision["equity_loss"] > 0.1


def test_without_gnubg_the_net_judges(without_gnubg):
    out, printed = without_gnubg
    assert "net playing both sides" in printed
    assert "PR" in printed and "biggest checker error" in printed
    page = _parse(out / "report.html")
    assert len(page.all("svg")) == 2 and len(page.all("img")) == PLOTS_WITH_EQUITY
    analysis = pd.read_parquet(out / "analysis.parquet")
    moves = analysis[(analysis["action"] == "move") & (analysis["forced"] == False)]  # noqa: E712
    assert moves["equity_loss"].notna().all() and moves["luck"].notna().all()
    assert set(moves["error_class"].dropna()) <= {"none", "doubtful", "bad", "very bad"}


def test_a_match_without_analysis_through_python_m(tmp_path):
    # pubeval on a transcript with no stored analysis: the play pubeval ranks lowest
    code = demo.main(
        [str(tmp_path), "--match", "match10146940.txt", "--evaluator", "pubeval", "--trials", "72"]
    )
    assert code == 0
    page = _parse(tmp_path / "report.html")
    assert len(page.all("svg")) == 2
    assert "h1:gammonlab demo: lasse vs popa66" in page.text
    text = (tmp_path / "report.html").read_text(encoding="utf-8")
    assert "the play pubeval ranks lowest" in text.lower()


def test_the_command_line(tmp_path, capsys):
    from gammonlab.cli import commands as cli

    parser = cli.build_parser()
    commands = next(a for a in parser._actions if a.dest == "command")
    assert "demo" in commands.choices
    assert cli.main(["demo", str(tmp_path), "--match", "match1574521.txt", "--trials", "72"]) == 0
    printed = capsys.readouterr().out
    assert "[5/5]" in printed and "[3/5] rollout\n" in printed and "rolling out" in printed
    long = [line for line in printed.splitlines() if len(line) > 100 and " " in line.strip()]
    assert not long, long  # only a path longer than a line may be wider
    assert all((tmp_path / name).stat().st_size > 0 for name in FILES)


def test_bad_arguments_say_what_is_wrong(tmp_path, capsys):
    with pytest.raises(GammonlabError, match=r"no sample match 'nope\.mat'.*match1495872\.txt"):
        demo.run_demo(tmp_path, match="nope.mat", log=lambda line: None)
    assert demo.main([str(tmp_path), "--match", "nope.mat"]) == 1
    assert "gammonlab demo: no sample match" in capsys.readouterr().err
    assert demo.main([str(tmp_path), "--trials", "10"]) == 2
    assert not (tmp_path / "report.html").exists()

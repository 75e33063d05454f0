"""The transcript corpus in ../shared/data, read once per test session."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from conftest import SHARED_DATA

import gammonlab as gl
from gammonlab.errors import GammonlabError

# What may fail strict reading, and why (see ../shared/data/SOURCES.md).
DAMAGED = {
    "mat/truncated_derived/LasVegas2014_Final_cut_mid_line_at_60pct.txt": "got '20/'",
    "mat/gammonview_anonymized/5nqfGw9bWG3deTaU.mat": "illegal play",
    "mat/backgammonstudio_bglab/MrPurple - Lasse 3pt Backgammon Studio 2024_05_11 20_10_33.txt": "4016 points",
    "mat/backgammonstudio_bglab/Minchy - Llabba 13pt Backgammon Studio 2023_02_24 19_44_27.txt": "4016 points",
    "mat/bgchallenge/michy - Snua 11pt Backgammon Studio 2021_09_05 09_04_50_1630882598.txt": "1004 points",
}

# .sgf files GNU Backgammon wrote from corpus .mat files (SOURCES.md)
DERIVED_SGF = {
    "galaxy_match1278964": "mat/backgammongalaxy_bglab/match1278964.txt",
    "galaxy_match1495872_1pt": "mat/backgammongalaxy_bglab/match1495872.txt",
    "galaxy_match7968492_16pt_single_game": "mat/backgammongalaxy_bglab/match7968492.txt",
    "bgstudio_kris-Llabba_7pt": "mat/backgammonstudio_bglab/kris - Llabba 7pt Backgammon Studio 2023_06_18 16_27_48.txt",
    "bgstudio_kris-Llabba_7pt_analysed_0ply": "mat/backgammonstudio_bglab/kris - Llabba 7pt Backgammon Studio 2023_06_18 16_27_48.txt",
    "xg_LasVegas2014_Final_Woolsey-Yazawa_17pt": "mat/bgchallenge/LasVegas.2014Finals.Akiko.Kit.17pt_1417623219.txt",
    "xg_LasVegas2014_Final_Woolsey-Yazawa_17pt_analysed_0ply": "mat/bgchallenge/LasVegas.2014Finals.Akiko.Kit.17pt_1417623219.txt",
    "playok_bg176365983_INBC29_final": "mat/bgchallenge/bg176365983_1648962042.txt",
    "bgstudio_Aref91777-sahlen_latin1_header": "mat/bgchallenge/Aref91777 - sahlen 13pt Backgammon Studio "
    "2022_04_12 19_15_15_1649883001.txt",
    "xg_Aachen2024_doubles_consultation_7pt": "mat/xg_export_kevung/lazyBG_match1.txt",
    "gammonview_money_session": "mat/gammonview_anonymized/B4_SrGcsKAQmoTyHlgJCbM_money.mat",
}


def transcript_files() -> list[Path]:
    found = [p for p in (SHARED_DATA / "mat").rglob("*") if p.is_file()]
    found += [p for p in (SHARED_DATA / "sgf").rglob("*.sgf") if p.is_file()]
    return sorted(found)


def name(path: Path) -> str:
    return path.relative_to(SHARED_DATA).as_posix()


@lru_cache(maxsize=1)
def corpus() -> dict[str, tuple[gl.Match, GammonlabError | None]]:
    """Every transcript read in collect mode, with the strict-mode error if any."""
    out = {}
    for path in transcript_files():
        try:
            gl.read_match(path)
            strict_error = None
        except GammonlabError as error:
            strict_error = error
        out[name(path)] = (gl.read_match(path, errors="collect"), strict_error)
    return out

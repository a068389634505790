"""`symcert lemmas [FILTER] [--format md|text]` prints the lemma map of docs/lemmas.md."""

from __future__ import annotations

from pathlib import Path

from symcert.cli import main as cli
from symcert.cli.commands import lemmas

DOC = (Path(__file__).resolve().parents[2] / "docs" / "lemmas.md").read_text()
MAP = lemmas.parse_map(DOC)


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = cli.main(["lemmas", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_whole_map_round_trips(capsys):
    code, out, _ = run(capsys, "--format", "md")
    assert code == 0
    assert lemmas.parse_map(out) == MAP
    assert len(MAP.rows) >= 50 and MAP.header[0] == "ID" and MAP.header[-1] == "status"


def test_filter_keeps_rows_whose_id_starts_with_it(capsys):
    code, out, _ = run(capsys, "w-l2", "--format", "md")
    ids = [row[0] for row in lemmas.parse_map(out).rows]
    assert code == 0
    assert ids == ["W-L2.1", "W-L2.2", "W-L2.3", "W-L2.4", "W-L2.5", "W-L2.6"]
    assert any("W-L2" in row[-1] for row in MAP.rows if not row[0].startswith("W-L2"))


def test_filter_on_status_when_no_id_matches(capsys):
    code, out, _ = run(capsys, "NOT COVERED", "--format", "md")
    rows = lemmas.parse_map(out).rows
    assert code == 0 and rows
    assert all("not covered" in row[-1].lower() for row in rows)
    assert len(rows) == sum("not covered" in row[-1].lower() for row in MAP.rows)


def test_text_format_one_block_per_lemma_without_empty_cells(capsys):
    code, out, _ = run(capsys, "W-L3.1", "--format", "text")
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == "W-L3.1"
    assert any(l.split()[0] == "predicate" and "bfs_successor_bound" in l for l in lines[1:])
    assert "—" not in out and "proof obligation" not in out
    assert "i + |queue| + 2" in out  # the escaped bar is unescaped


def test_text_is_the_default(capsys):
    code, out, _ = run(capsys, "W-L3.1")
    assert code == 0 and out == run(capsys, "W-L3.1", "--format", "text")[1]
    assert not out.startswith("|")


def test_escaped_bar_stays_inside_its_cell():
    row = lemmas.split_row(r"| A-1 | `x \| y` | b |")
    assert row == ("A-1", "`x | y`", "b")
    assert lemmas.split_row(lemmas.as_markdown(("ID", "s", "t"), (row,)).splitlines()[2]) == row


def test_no_match_is_a_usage_error(capsys):
    code, out, err = run(capsys, "Z-9.9")
    assert code == 2 and out == ""
    assert "no lemma ID starts with 'Z-9.9' and no status contains it" in err


def test_missing_packaged_map_is_an_internal_error(capsys, monkeypatch):
    monkeypatch.setattr(lemmas, "MAP", "no_such_map.md")
    code, out, err = run(capsys)
    assert code == 70 and out == ""
    assert "lemma map is unreadable" in err and "Traceback" not in err

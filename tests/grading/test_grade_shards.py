"""Grading a class in shards and merging them gives the bytes of one run (issue 31, item 3)."""

from __future__ import annotations

import io
import json
import zipfile

import pytest

from speckit.cli import main
from speckit.grading import GradeError, Shard, grade, merge
from speckit.grading.intake import discover

from .conftest import INCREMENT, INDEX_RUBRIC, grade_files, patched_reference, reference_copy


@pytest.fixture(scope="module")
def sharded(tmp_path_factory):
    base = tmp_path_factory.mktemp("shards")
    submissions = base / "submissions"
    reference_copy(submissions / "alice" / "connect4")
    faulty = patched_reference(base / "bob" / "connect4", "index", INCREMENT, INCREMENT + "    index.number += 1\n")
    with zipfile.ZipFile(submissions / "bob.zip", "w") as z:
        for path in sorted(faulty.rglob("*.py")):
            z.write(path, path.relative_to(faulty.parent).as_posix())
    reference_copy(submissions / "carol d" / "connect4", index="def newIndexType(:\n")
    (submissions / "dave.zip").write_bytes(b"not a zip")
    rubric = base / "rubric.toml"
    rubric.write_text(INDEX_RUBRIC)
    grade(submissions, base / "whole", jobs=2, rubric=rubric, stream=io.StringIO())
    for k in (1, 2):
        code = main(
            [
                "grade",
                str(submissions),
                "--out",
                str(base / f"shard{k}"),
                "--rubric",
                str(rubric),
                "--shard",
                f"{k}/2",
                "--jobs",
                "1",
            ]
        )
        assert code == 0
    assert main(["grade", "merge", str(base / "shard2"), str(base / "shard1"), "--out", str(base / "merged")]) == 0
    return base


@pytest.mark.slow
def test_the_merged_shards_are_the_bytes_of_one_run(sharded):
    whole, merged = grade_files(sharded / "whole"), grade_files(sharded / "merged")
    assert "grades.csv" in whole and "feedback/carol_d.md" in whole and "results/bob/results.json" in whole
    assert sorted(merged) == sorted(whole)
    for name, data in whole.items():
        assert merged[name] == data, f"{name} differs between the merged shards and one run"
    log = (sharded / "merged" / "grading.log").read_text()
    assert "merge of 2 shards: 4 submissions" in log and log.count("graded ") == 4


@pytest.mark.slow
def test_each_shard_grades_its_own_slice(sharded):
    graded = [
        [g["name"] for g in json.loads((sharded / f"shard{k}" / "shard.json").read_text())["grades"]] for k in (1, 2)
    ]
    assert graded == [["alice", "carol_d"], ["bob", "dave"]]


@pytest.mark.slow
def test_a_missing_or_repeated_shard_is_refused(sharded, tmp_path):
    with pytest.raises(GradeError, match="shard 2/2 missing"):
        merge([sharded / "shard1"], tmp_path / "out", stream=io.StringIO())
    with pytest.raises(GradeError, match="given twice"):
        merge([sharded / "shard1", sharded / "shard1"], tmp_path / "out", stream=io.StringIO())
    with pytest.raises(GradeError, match="holds no shard.json"):
        merge([sharded / "whole"], tmp_path / "out", stream=io.StringIO())
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("text", ["3/2", "0/2", "1", "a/b", "1/0", "-1/2"])
def test_a_wrong_shard_is_named(text):
    with pytest.raises(GradeError, match="--shard"):
        Shard.parse(text)


def test_shards_cover_every_submission_once_by_sorted_name(tmp_path):
    for name in ("e", "b", "a c", "d", "a_c"):
        (tmp_path / name).mkdir()
    found, _ = discover(tmp_path)
    slices = [Shard(k, 3).select(found) for k in (1, 2, 3)]
    names = [s.name for part in slices for s in part]
    assert sorted(names) == sorted(s.name for s in found) and len(names) == len(set(names))
    ordered = sorted(s.name for s in found)
    assert [[s.name for s in part] for part in slices] == [ordered[0::3], ordered[1::3], ordered[2::3]]


@pytest.mark.parametrize(
    "arguments, message",
    [
        (["merge", "{tmp}/none1", "{tmp}/none2"], "holds no shard.json"),
        (["{tmp}/a", "{tmp}/b"], "give one SUBMISSIONS folder (got 2)"),
        (["merge", "{tmp}/a", "{tmp}/b", "--rubric", "r.toml"], "the rubric comes from the shards"),
        (["{tmp}/a", "--shard", "3/2"], "K must be between 1 and N"),
    ],
)
def test_cli_names_what_is_wrong_with_a_shard_or_a_merge(tmp_path, capsys, arguments, message):
    code = main(["grade", *(a.format(tmp=tmp_path) for a in arguments), "--out", str(tmp_path / "out")])
    error = capsys.readouterr().err
    assert code == 2 and message in error and "Traceback" not in error and len(error.strip().splitlines()) == 1
    assert not (tmp_path / "out").exists()

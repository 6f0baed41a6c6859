"""`recount-bot check FILE --format json` on real NIST files, through the real command in a subprocess.

Exit status (bot/commands/check.py): 0 every contest decided, 3 some undecided (listed), 2 unreadable.
"""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "tests" / "fixtures" / "returns"


def check(path: Path, *args: str) -> tuple[int, dict]:
    proc = subprocess.run([sys.executable, "-m", "bot.cli", "check", str(path), "--format", "json", *args],
                          capture_output=True, text=True, cwd=ROOT, timeout=120)
    return proc.returncode, json.loads(proc.stdout)


def test_cambridge_primary_is_decided_with_one_recount() -> None:
    status, out = check(FIXTURES / "nist_cambridge_2022_primary_small.json")
    assert status == 0 and out["undecided"] == [] and out["source_format"] == "nist"
    recounts = [c for c in out["contests"] if c["automatic_recount"]]
    assert [(c["contest"], c["highest"]["votes"], c["next_highest"]["votes"], c["margin"]) for c in recounts] == [
        ("SECRETARY OF STATE (DEMOCRAT)", 7684, 7666, 18)]
    assert len(out["contests"]) == 6


def test_gen_01_as_the_general_election_it_says_it_is() -> None:
    status, out = check(FIXTURES / "nist_err_gen_01.json", "--election-kind", "general")
    assert status == 3  # County Assessor: more write-in votes than a named winner (rules.verdicts)
    assert [u["contest"] for u in out["undecided"]] == ["County Assessor"]
    assert len(out["contests"]) == 17
    assert sum(c["automatic_recount"] for c in out["contests"]) == 11
    assert {s["kind"]: s["count"] for s in out["set_aside"]} == {"subtotal": 55, "over or under votes": 54}


def test_a_damaged_count_leaves_one_contest_undecided(tmp_path: Path) -> None:
    text = (FIXTURES / "nist_err_gen_01.json").read_text(encoding="utf-8")
    document = json.loads(text)
    document["Election"][0]["Contest"][18]["ContestSelection"][1]["VoteCounts"][2]["Count"] = -3
    damaged = tmp_path / "damaged.json"
    damaged.write_text(json.dumps(document), encoding="utf-8")
    status, out = check(damaged, "--election-kind", "general")
    assert status == 3
    assert [(u["contest"], u["rows"]) for u in out["undecided"]] == [(
        "Dog Catcher", ["$.Election[0].Contest[18].ContestSelection[1].VoteCounts[2].Count: must not be negative (got -3)"]),
        ("County Assessor", [])]
    assert len(out["contests"]) == 16


def test_a_pre_election_file_is_all_undecided() -> None:
    status, out = check(FIXTURES / "nist_pe_err_prim_02.json")
    assert status == 3
    assert out["contests"] == []
    assert len(out["undecided"]) == 13
    assert all(u["reason"].startswith("no votes counted") for u in out["undecided"])


def test_a_broken_gpunit_tree_is_unreadable(tmp_path: Path) -> None:
    document = json.loads((FIXTURES / "nist_err_gen_01.json").read_text(encoding="utf-8"))
    document["GpUnit"].append(dict(document["GpUnit"][3]))  # Precinct 1 again, same @id
    broken = tmp_path / "broken.json"
    broken.write_text(json.dumps(document), encoding="utf-8")
    status, out = check(broken)
    assert status == 2
    assert out["problems"] == [{"location": "$.GpUnit[14].@id", "message": "@id 'prec-1' is used twice (first at $.GpUnit[3])"}]

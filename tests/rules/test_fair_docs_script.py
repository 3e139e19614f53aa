"""The script of docs/fair-deals.md recomputes a record's deals with the standard library."""

import json
import pathlib
import re
import subprocess
import sys

from tests.rules.test_fair import SEED_A, SEEDS_A, fair_record

ROOT = pathlib.Path(__file__).resolve().parents[2]


def test_the_docs_script_checks_a_fair_record(tmp_path):
    text = (ROOT / "docs" / "fair-deals.md").read_text()
    script = tmp_path / "check_deals.py"
    script.write_text(re.search(r"```python\n(.*?)```", text, re.S).group(1))
    record = fair_record(seed=SEED_A, seeds=SEEDS_A)  # round 1 of SEED_A needs a redeal
    record["players"] = ["a", "b", "c", "d"]
    good, bad = tmp_path / "good.json", tmp_path / "bad.json"
    good.write_text(json.dumps(record))
    record["rounds"][0]["hands"].reverse()
    bad.write_text(json.dumps(record))
    run = [subprocess.run([sys.executable, "-I", str(script), str(p)], capture_output=True, text=True)
           for p in (good, bad)]
    assert run[0].returncode == 0 and "round 1: as the seeds give" in run[0].stdout
    assert run[1].returncode == 1 and "round 1: DOES NOT FOLLOW" in run[1].stdout

"""Writes a tuning database from a strategy report (gpu-tuning-db.test):
candidate INDEX for DISPATCH, and a stale entry (a strategy that does not
take the kernel) for STALE."""
import json
import sys

report_path, dispatch, index, stale, out = sys.argv[1:]
with open(report_path) as f:
    report = json.load(f)
by_name = {d["name"]: d for d in report["dispatches"]}
entries = [
    {"target": report["target"], "key": by_name[dispatch]["key"],
     "strategy": by_name[dispatch]["candidates"][int(index)]},
    {"target": report["target"], "key": by_name[stale]["key"],
     "strategy": "#tessel.strategy<simt_matmul, tile = [64, 64, 8]>"},
    {"target": "#tessel.cuda_target<another>", "key": by_name[dispatch]["key"],
     "strategy": "not even parsed: another target"},
]
with open(out, "w") as f:
    json.dump({"tessel_tuning_db": 1, "entries": entries}, f)

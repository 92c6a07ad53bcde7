"""Keep a random sample of each module's mutants in a cosmic-ray session; skip the rest.

A module with thousands of mutants (a kernel, the UCI session) takes a day to run whole on
two cores. A seeded random sample of N mutants per module estimates the share of mutants the
suite kills, with a confidence interval, in an hour, and every survivor of the sample is
examined like the survivors of a whole run. The sample is reproducible: the same session,
seed and N pick the same mutants. Run after ``cosmic-ray init`` and ``skip_annotations.py``:

    python mutation/sample.py SESSION.sqlite --per-module 100 [--seed 2026]

Mutants already run keep their results and count towards N; only pending mutants are skipped,
with the reason "outside the sample". Run it again with a smaller N to shrink a sample that is
under way (the mutants left are still a random sample).
"""

from __future__ import annotations

import argparse
import random
import sys
from collections import defaultdict
from pathlib import Path

from cosmic_ray.work_db import use_db
from cosmic_ray.work_item import WorkerOutcome
from skipping import skipped

OUTSIDE = "outside the sample (mutation/sample.py)"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("session", help="a cosmic-ray session (.sqlite) after init")
    parser.add_argument("--per-module", type=int, required=True, metavar="N")
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args(argv)
    if args.per_module < 1:
        parser.error(f"--per-module must be at least 1, not {args.per_module}")

    with use_db(args.session) as db:
        results = dict(db.results)
        pending: dict[str, list[str]] = defaultdict(list)
        run: dict[str, int] = defaultdict(int)
        for item in db.work_items:
            module = Path(item.mutations[0].module_path).name
            result = results.get(item.job_id)
            if result is None:
                pending[module].append(item.job_id)
            elif result.worker_outcome is not WorkerOutcome.SKIPPED:
                run[module] += 1
        rng = random.Random(args.seed)
        for module in sorted(pending):
            jobs = sorted(pending[module])
            wanted = max(0, min(args.per_module - run[module], len(jobs)))
            kept = set(rng.sample(jobs, wanted))
            for job_id in jobs:
                if job_id not in kept:
                    db.set_result(job_id, skipped(OUTSIDE))
            print(f"{module}: {run[module]} run, {len(kept)} of {len(jobs)} pending mutants kept")
    return 0


if __name__ == "__main__":
    sys.exit(main())

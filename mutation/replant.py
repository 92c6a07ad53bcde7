"""Plant every survivor of a cosmic-ray session again, on the tests as they are now.

A run takes hours; the tests written for its survivors arrive while it runs. This script
clones the repository (its committed state) into a scratch directory, applies each surviving
mutant there in turn with ``cosmic-ray apply``, runs the configuration's test command, and
prints which survivors the suite now kills. It assumes the mutated modules have not changed
since ``cosmic-ray init`` (the mutants are found again by their operator's occurrence); one
that no longer applies is reported as such. When they have changed, ``--source-rev REV`` takes
the source (``src/``) from the commit the session was initialised on and the tests from now.

    python mutation/replant.py SESSION.sqlite mutation/san.toml [--scratch DIR] [--source-rev REV]
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

from cosmic_ray.work_db import use_db
from cosmic_ray.work_item import TestOutcome

REPOSITORY = Path(__file__).resolve().parents[1]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("session", help="the cosmic-ray session (.sqlite)")
    parser.add_argument("config", help="its configuration, relative to the repository")
    parser.add_argument(
        "--scratch", default="/tmp/kradan-replant", help="a directory to clone into"
    )
    parser.add_argument(
        "--source-rev", help="take src/ from this commit (the session's), the tests from now"
    )
    args = parser.parse_args(argv)
    scratch = Path(args.scratch)
    shutil.rmtree(scratch, ignore_errors=True)
    subprocess.run(["git", "clone", "-q", str(REPOSITORY), str(scratch)], check=True)
    if args.source_rev:  # staged, so that restoring src/ from the index keeps this version
        subprocess.run(["git", "checkout", "-q", args.source_rev, "--", "src/"], cwd=scratch,
                       check=True)  # fmt: skip
    with open(scratch / args.config, "rb") as handle:
        command = tomllib.load(handle)["cosmic-ray"]["test-command"]
    env = dict(os.environ, PYTHONPATH=str(scratch / "src"),
               NUMBA_CACHE_DIR=str(scratch / ".numba"))  # fmt: skip
    with use_db(args.session) as db:
        items = {item.job_id: item for item in db.work_items}
        survivors = [items[job] for job, result in db.results
                     if result.test_outcome == TestOutcome.SURVIVED]  # fmt: skip
    killed = 0
    for item in survivors:
        mutation = item.mutations[0]
        apply = ["cosmic-ray", "apply", str(mutation.module_path), mutation.operator_name,
                 str(mutation.occurrence)]  # fmt: skip
        subprocess.run(apply, cwd=scratch, check=True, capture_output=True)
        diff = subprocess.run(["git", "diff", "-U0"], cwd=scratch, capture_output=True,
                              text=True, check=True).stdout  # fmt: skip
        changed = [line for line in diff.splitlines()
                   if line[:1] in "+-" and not line.startswith(("+++", "---"))]  # fmt: skip
        name = Path(str(mutation.module_path)).name
        if not changed:
            print(f"not applied (the source moved): {name} {mutation.operator_name}", flush=True)
            continue
        run = subprocess.run(command, shell=True, cwd=scratch, env=env, capture_output=True,
                             check=False)  # fmt: skip
        subprocess.run(["git", "checkout", "-q", "src/"], cwd=scratch, check=True)
        killed += run.returncode != 0
        status = "killed" if run.returncode else "SURVIVED"
        print(f"{status} {name} {' | '.join(changed)}", flush=True)
    print(f"{killed} of {len(survivors)} survivors killed now")
    return 0


if __name__ == "__main__":
    sys.exit(main())

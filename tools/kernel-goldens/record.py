"""Records the dequantization golden of crates/inference's kernels.

Random blocks of every weight type the crate runs (deterministic seed, sane
f16 scales), dequantized by the `gguf` Python package's numpy code
(gguf-py/gguf/quants.py), written as

    b"PSKD" u32 version=1  u32 count
    per type: u32 ggml type id, u32 n_bytes, bytes, u32 n_values, f32 values

to crates/inference/tests/golden/kernels/dequantize.bin.gz. See README.md.
"""

import gzip
import struct
import sys
from pathlib import Path

import numpy as np
from gguf import GGMLQuantizationType as T
from gguf.constants import GGML_QUANT_SIZES
from gguf.quants import dequantize

# type -> byte offsets of f16 scale fields inside a block
F16_FIELDS = {
    T.Q4_0: [0],
    T.Q4_1: [0, 2],
    T.Q5_0: [0],
    T.Q5_1: [0, 2],
    T.Q8_0: [0],
    T.Q4_K: [0, 2],
    T.Q5_K: [0, 2],
    T.Q6_K: [208],
}
BLOCKS = 40


def blocks(rng: np.random.Generator, qtype: T) -> bytes:
    block_size, type_size = GGML_QUANT_SIZES[qtype]
    if qtype == T.F32:
        return (rng.standard_normal(BLOCKS * 8) * 0.1).astype("<f4").tobytes()
    if qtype == T.F16:
        return (rng.standard_normal(BLOCKS * 8) * 0.1).astype("<f2").tobytes()
    if qtype == T.BF16:
        f = (rng.standard_normal(BLOCKS * 8) * 0.1).astype("<f4")
        return (f.view("<u4") >> 16).astype("<u2").tobytes()
    raw = rng.integers(0, 256, size=(BLOCKS, type_size), dtype=np.uint8)
    for i in range(BLOCKS):
        for off in F16_FIELDS[qtype]:
            # mostly positive scales of a realistic size, some negative mins
            v = np.float16(rng.uniform(1e-4, 2e-2) * (1 if off == 0 or rng.random() < 0.7 else -1))
            raw[i, off:off + 2] = np.frombuffer(v.tobytes(), dtype=np.uint8)
    return raw.tobytes()


def main() -> None:
    out = Path(sys.argv[1]) if len(sys.argv) > 1 else (
        Path(__file__).resolve().parents[2] / "crates/inference/tests/golden/kernels/dequantize.bin.gz")
    rng = np.random.default_rng(20261202)
    types = [T.F32, T.F16, T.Q4_0, T.Q4_1, T.Q5_0, T.Q5_1, T.Q8_0, T.Q4_K, T.Q5_K, T.Q6_K, T.BF16]
    body = bytearray(b"PSKD" + struct.pack("<II", 1, len(types)))
    for qtype in types:
        data = blocks(rng, qtype)
        values = dequantize(np.frombuffer(data, dtype=np.uint8), qtype).astype("<f4").reshape(-1)
        body += struct.pack("<II", int(qtype), len(data)) + data
        body += struct.pack("<I", values.size) + values.tobytes()
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_bytes(gzip.compress(bytes(body), compresslevel=9, mtime=0))
    print(f"{out}: {len(types)} types, {out.stat().st_size} bytes")


if __name__ == "__main__":
    main()

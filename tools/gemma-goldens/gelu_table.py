#!/usr/bin/env python3
"""Print the FNV-1a 64 digest of ggml-cpu's GELU table (ggml_table_gelu_f16).

ggml's CPU GELU and GeGLU (GGML_GELU_FP16, always defined in vec.h) look
the value up in a 65536-entry f16 table filled by ggml_cpu_init():
table[h] = f16(ggml_gelu_f32(f32(h))). attention.rs builds the same table;
its unit test compares the table's digest (the 131072 little-endian bytes,
FNV-1a 64) with the one this script reads from the reference build's
libggml-cpu.so (tools/llama-cpp/build.sh).

Usage:
    gelu_table.py [--out table.bin]
"""
import argparse
import ctypes
import os

CACHE = os.environ.get("PROMPTSCOPE_HOME", os.path.expanduser("~/.cache/promptscope"))
LIB = os.path.join(CACHE, "sdist/llama_cpp_python-0.3.36/vendor/llama.cpp/build/bin")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out")
    a = ap.parse_args()
    ctypes.CDLL(os.path.join(LIB, "libggml-base.so"), mode=ctypes.RTLD_GLOBAL)
    cpu = ctypes.CDLL(os.path.join(LIB, "libggml-cpu.so"))
    cpu.ggml_cpu_init()
    table = (ctypes.c_uint16 * 65536).in_dll(cpu, "ggml_table_gelu_f16")
    data = bytes(table)
    if a.out:
        with open(a.out, "wb") as f:
            f.write(data)
    h = 0xCBF29CE484222325
    for b in data:
        h = ((h ^ b) * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    print(f"0x{h:016x}")


if __name__ == "__main__":
    main()

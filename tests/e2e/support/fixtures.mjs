// The files the specs read: the repository's test corpus (tests/corpus), the
// models that scripts/fetch-models.sh puts into the model cache, and the
// `promptscope` binary. A missing one fails the test that needs it with a
// message saying how to get it; nothing is skipped.
import { createHash } from 'node:crypto';
import { existsSync, realpathSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { ROOT } from './harness.mjs';

/** The model cache: $PROMPTSCOPE_CACHE, else ~/.cache/promptscope/models (as crates/testkit). */
export const MODEL_CACHE = process.env.PROMPTSCOPE_CACHE ?? path.join(os.homedir(), '.cache/promptscope/models');

function must(file, how) {
  if (!existsSync(file)) throw new Error(`missing test fixture ${file}: ${how}`);
  return file;
}

/** `tests/corpus/<rel>`. */
export function corpus(rel) {
  return must(
    path.join(ROOT, 'tests/corpus', rel),
    'it is part of the repository (tests/corpus/README.md); restore it with `git checkout -- tests/corpus`',
  );
}

/** The upstream cache: $PROMPTSCOPE_UPSTREAM, else ~/.cache/promptscope/upstream (as crates/testkit). */
export const UPSTREAM_CACHE =
  process.env.PROMPTSCOPE_UPSTREAM ?? path.join(os.homedir(), '.cache/promptscope/upstream');

/** `<rel>` of llama.cpp's tree at b11312 (llama-cpp-python 0.3.36's sdist), e.g. `models/ggml-vocab-bert-bge.gguf`. */
export function llamaCpp(rel) {
  return must(
    path.join(UPSTREAM_CACHE, 'llama.cpp-b11312', rel),
    'run `bash scripts/fetch-upstream.sh` (scripts/test.sh runs it first)',
  );
}

/** The corpus's Llama 3 vocabulary GGUF (128,256 tokens, metadata only). */
export const llama3 = () => corpus('tokenizer/llama3.gguf');

/** SmolLM2-135M-Instruct Q4_1: $PROMPTSCOPE_SMOLLM2, else the model cache. */
export function smollm2() {
  return must(
    process.env.PROMPTSCOPE_SMOLLM2 ?? path.join(MODEL_CACHE, 'SmolLM2-135M-Instruct.Q4_1.gguf'),
    'run `bash scripts/fetch-models.sh` (scripts/test.sh runs it first)',
  );
}

/** A GGUF for the GGUF-pane specs: $PROMPTSCOPE_GGUF, else SmolLM2. */
export const anyGguf = () => process.env.PROMPTSCOPE_GGUF ?? smollm2();

/**
 * The `promptscope` binary: $PROMPTSCOPE_CLI, else the newest release or
 * debug build under $CARGO_TARGET_DIR (scripts/test.sh builds it first).
 */
export function cli() {
  if (process.env.PROMPTSCOPE_CLI) return must(process.env.PROMPTSCOPE_CLI, 'PROMPTSCOPE_CLI names no file');
  // scripts/setup.sh's default: one folder per checkout, its name and a hash of its path
  const root = realpathSync(ROOT);
  const key = `${path.basename(root)}-${createHash('sha256').update(root).digest('hex').slice(0, 10)}`;
  const target = process.env.CARGO_TARGET_DIR ?? path.join(os.homedir(), '.cache/promptscope/target', key);
  const found = ['release', 'debug']
    .map((p) => path.join(target, p, 'promptscope'))
    .filter((p) => existsSync(p))
    .sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs);
  return must(found[0] ?? path.join(target, 'debug', 'promptscope'), 'build it with `cargo build -p promptscope-cli`');
}

// Time to list a 100-model Ollama store and to load one model from it in
// headless Chromium, against issue 14's browser target (list under 300
// ms), printed as ratios. The native side is
// `cargo bench -p promptscope-store --bench store` (target 50 ms), on the
// same store.
//
//   trunk build --release && node tests/bench/store-browser.mjs
//
// The store is the fixture store (crates/store/tests/fixture/models,
// written by Ollama's own create code) with its manifests copied under 100
// names, blobs shared. It is written once into the page's origin-private
// file system, and the app opens it as a folder handle
// (showDirectoryPicker answers with that folder), so each run reads it as
// it reads a real folder: manifests, configs, template blobs and each
// model blob's first 256 KiB. "Load" is the click on a model until its
// prompt is rendered with prompt_eval_count (the model blob's metadata
// read in slices, the vocabulary built in the engine worker).
import { mkdtemp, mkdir, copyFile, readdir, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

import { AppPage } from '../e2e/support/app-page.mjs';
import { openBrowser } from '../e2e/support/browser.mjs';
import { DIST, ROOT } from '../e2e/support/harness.mjs';
import { startStaticServer } from '../e2e/support/static-server.mjs';

const MODELS = 100;
const RUNS = 7;
const LIST_TARGET_MS = 300;
const FIXTURE = path.join(ROOT, 'crates/store/tests/fixture/models');

async function manifests(dir, out = []) {
  for (const e of await readdir(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) await manifests(p, out);
    else out.push(p);
  }
  return out;
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function main() {
  const site = await mkdtemp(path.join(os.tmpdir(), 'promptscope-bench-store-'));
  try {
    for (const e of await readdir(DIST)) await symlink(path.join(DIST, e), path.join(site, e));
    const models = path.join(site, 'bench-store/models');
    const files = [];
    await mkdir(path.join(models, 'blobs'), { recursive: true });
    for (const b of await readdir(path.join(FIXTURE, 'blobs'))) {
      await symlink(path.join(FIXTURE, 'blobs', b), path.join(models, 'blobs', b));
      files.push(`blobs/${b}`);
    }
    const found = (await manifests(path.join(FIXTURE, 'manifests'))).sort();
    for (let i = 0; i < MODELS; i++) {
      const rel = `manifests/registry.ollama.ai/bench/model${String(i).padStart(3, '0')}/latest`;
      await mkdir(path.dirname(path.join(models, rel)), { recursive: true });
      await copyFile(found[i % found.length], path.join(models, rel));
      files.push(rel);
    }
    await writeFile(path.join(site, 'bench-store/files.json'), JSON.stringify(files));

    const server = await startStaticServer(site);
    const browser = await openBrowser();
    try {
      await browser.context.addInitScript(() => {
        window.showDirectoryPicker = async () => (await navigator.storage.getDirectory()).getDirectoryHandle('.ollama');
      });
      const app = new AppPage(browser.page);
      await app.open(server.url);
      // the store, written once into the origin-private file system
      const bytes = await app.page.evaluate(async () => {
        const list = await (await fetch('bench-store/files.json')).json();
        const root = await (await navigator.storage.getDirectory()).getDirectoryHandle('.ollama', { create: true });
        let total = 0;
        for (const rel of list) {
          const body = new Uint8Array(await (await fetch(`bench-store/models/${rel}`)).arrayBuffer());
          const parts = ['models', ...rel.split('/')];
          let d = root;
          for (const p of parts.slice(0, -1)) d = await d.getDirectoryHandle(p, { create: true });
          const w = await (await d.getFileHandle(parts.at(-1), { create: true })).createWritable();
          await w.write(body);
          await w.close();
          total += body.length;
        }
        return total;
      });
      const list = [];
      const load = [];
      let read = 0;
      for (let r = 0; r < RUNS; r++) {
        await app.page.reload();
        await app.ready();
        const started = await app.page.evaluate(() => {
          const t = performance.now();
          document.querySelector('[data-testid="store-open"]').click();
          return t;
        });
        const listed = await app.page.waitForFunction(
          (n) => document.querySelectorAll('[data-testid="store-model"]').length === n && performance.now(),
          MODELS,
          { polling: 'raf', timeout: 60_000 },
        );
        list.push((await listed.jsonValue()) - started);
        read = Number(await app.page.getByTestId('store-status').getAttribute('data-bytes-read'));
        const name = `bench/model${String((r * 7) % MODELS).padStart(3, '0')}:latest`;
        const clicked = await app.page.evaluate((label) => {
          const b = [...document.querySelectorAll('button')].find((x) => x.getAttribute('aria-label') === label || x.textContent === label);
          const t = performance.now();
          b.click();
          return t;
        }, `Load ${name} into the model fields`);
        const loaded = await app.page.waitForFunction(
          () => {
            const s = document.querySelector('[data-testid="store-status"]')?.textContent ?? '';
            const count = document.querySelector('[data-testid="token-count"]')?.textContent ?? '';
            return /loaded/.test(s) && /^\d+ tokens/.test(count) && performance.now();
          },
          null,
          { polling: 'raf', timeout: 60_000 },
        );
        load.push((await loaded.jsonValue()) - clicked);
      }
      const l = median(list);
      console.log(`store: ${MODELS} models (the fixture's ${found.length} manifests under ${MODELS} names, ${(bytes / 1e6).toFixed(1)} MB in the origin-private file system), median of ${RUNS} runs`);
      console.log(`list ${MODELS} models:   ${l.toFixed(1).padStart(7)} ms   target ${LIST_TARGET_MS} ms   ratio to target ${(l / LIST_TARGET_MS).toFixed(3)}   (${read} bytes read from the folder)`);
      console.log(`load one model: ${median(load).toFixed(1).padStart(7)} ms   (until its prompt and prompt_eval_count show; vocabulary built in the engine worker)`);
      console.log(`runs: list ${list.map((x) => x.toFixed(0)).join(' ')} ms; load ${load.map((x) => x.toFixed(0)).join(' ')} ms`);
    } finally {
      await browser.close();
      await server.close();
    }
  } finally {
    await rm(site, { recursive: true, force: true });
  }
}

await main();

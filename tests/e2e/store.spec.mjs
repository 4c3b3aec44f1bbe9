// "Open my Ollama models folder": the folder chosen (here through
// <input webkitdirectory>; a stubbed showDirectoryPicker for the handle
// path), its models listed as `promptscope list` lists them, each loaded
// into the model fields with its model blob as the GGUF, the prompt and
// prompt_eval_count equal to `promptscope render --json` with
// `model.store`; no request leaves the page, the model blob is read only
// in metadata slices, and the handle is reopened after a reload.
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, test } from 'node:test';

import { AppPage, eventually } from './support/app-page.mjs';
import { openBrowser } from './support/browser.mjs';
import { cli, corpus, llamaCpp } from './support/fixtures.mjs';
import { assertClean, ROOT, useAppServer } from './support/harness.mjs';

const server = useAppServer();
const LONG = 300_000;
const DATE = '2025-06-15';

/** The store written for the store crate's tests ($PROMPTSCOPE_STORE overrides), when it is there. */
const FIXTURE = process.env.PROMPTSCOPE_STORE ?? path.join(ROOT, 'crates/store/tests/fixture/models');

const temp = mkdtempSync(path.join(os.tmpdir(), 'promptscope-store-'));
after(() => rmSync(temp, { recursive: true, force: true }));

const escape = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const sha = (bytes) => createHash('sha256').update(bytes).digest('hex');

/**
 * Writes a small Ollama store under `dir` as `ollama create` would: two
 * models on the corpus's Llama 2 vocabulary (`tiny` with a template,
 * system, params and messages layer; `tiny-plain` with the model layer
 * only) and a manifest that does not decode. `padding` bytes of tensor
 * data follow the GGUF's metadata in the model blob. Returns the blob's
 * path and size.
 */
function writeStore(dir, { padding = 0, renderers = [] } = {}) {
  mkdirSync(path.join(dir, 'blobs'), { recursive: true });
  const blob = (mediaType, bytes) => {
    const hex = sha(bytes);
    writeFileSync(path.join(dir, 'blobs', `sha256-${hex}`), bytes);
    return { mediaType, digest: `sha256:${hex}`, size: bytes.length };
  };
  const gguf = Buffer.concat([readFileSync(llamaCpp('models/ggml-vocab-llama-spm.gguf')), Buffer.alloc(padding)]);
  const model = blob('application/vnd.ollama.image.model', gguf);
  const text = (s) => Buffer.from(s, 'utf8');
  const template = blob(
    'application/vnd.ollama.image.template',
    text(
      '{{- if .System }}<<SYS>>{{ .System }}<</SYS>>\n{{ end }}' +
        '{{- range .Messages }}{{ if eq .Role "user" }}[INST] {{ .Content }} [/INST]' +
        '{{ else if eq .Role "assistant" }} {{ .Content }}</s>{{ end }}{{ end }}',
    ),
  );
  const system = blob('application/vnd.ollama.image.system', text('You are terse.'));
  const params = blob(
    'application/vnd.ollama.image.params',
    text(JSON.stringify({ num_ctx: 48, stop: ['[INST]'], temperature: 0.2 })),
  );
  const messages = blob(
    'application/vnd.ollama.image.messages',
    text(JSON.stringify([
      { role: 'user', content: 'Hi' },
      { role: 'assistant', content: 'Hello! How can I help?' },
    ])),
  );
  const manifest = (name, layers, extra = {}) => {
    const config = blob(
      'application/vnd.docker.container.image.v1+json',
      text(JSON.stringify({
        model_format: 'gguf',
        model_family: 'llama',
        model_families: ['llama'],
        model_type: '7B',
        file_type: 'Q4_0',
        architecture: 'amd64',
        os: 'linux',
        rootfs: { type: 'layers', diff_ids: layers.map((l) => l.digest) },
        ...extra,
      })),
    );
    const m = {
      schemaVersion: 2,
      mediaType: 'application/vnd.docker.distribution.manifest.v2+json',
      config,
      layers,
    };
    const file = path.join(dir, 'manifests/registry.ollama.ai/library', name);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, JSON.stringify(m));
  };
  manifest('tiny/latest', [model, template, system, params, messages]);
  manifest('tiny-plain/latest', [model]);
  // models a built-in renderer and parser render (`RENDERER x`, `PARSER x`)
  for (const r of renderers) manifest(`${r}/latest`, [model], { renderer: r, parser: r });
  mkdirSync(path.join(dir, 'manifests/registry.ollama.ai/library/broken'), { recursive: true });
  writeFileSync(path.join(dir, 'manifests/registry.ollama.ai/library/broken/latest'), '{"schemaVersion": 2,');
  return { blobPath: path.join(dir, 'blobs', `sha256-${sha(gguf)}`), blobSize: gguf.length };
}

/**
 * `promptscope render --json` on one case: the answer (exit 1: Ollama's
 * error), or `{unusable}` when the CLI refuses the input (exit 2: a GGUF
 * whose vocabulary does not load), with its message past the file name.
 */
function cliRender(c) {
  const r = spawnSync(cli(), ['render', '--json', '-'], { input: JSON.stringify(c) });
  if (r.status === 2) {
    return { unusable: r.stderr.toString('utf8').trim().replace(/^promptscope: (\S+: )?/, '') };
  }
  const out = r.stdout.toString('utf8').trim();
  if (r.status !== 0 && r.status !== 1) throw new Error(`promptscope render exited ${r.status}: ${r.stderr}`);
  return JSON.parse(out.split('\n').pop());
}

/** `promptscope list --models DIR --json` and the SIZE column of its table. */
function cliList(dir) {
  const json = JSON.parse(execFileSync(cli(), ['list', '--models', dir, '--json'], { stdio: ['ignore', 'pipe', 'pipe'] }));
  const table = execFileSync(cli(), ['list', '--models', dir], { stdio: ['ignore', 'pipe', 'pipe'] }).toString('utf8');
  const sizes = new Map(
    table
      .trim()
      .split('\n')
      .slice(1)
      .map((l) => l.split(/\s{3,}/))
      .map((cols) => [cols[0], cols[2]]),
  );
  const skipped = spawnSync(cli(), ['list', '--models', dir]).stderr.toString('utf8').split('\n').filter((l) => l.includes('skipped'));
  return { models: json.models, sizes, skipped: skipped.length };
}

/** Opens the app in a fresh browser; `prepare(browser)` runs before the page loads. */
async function withStoreApp(body, prepare = async () => {}) {
  const browser = await openBrowser();
  try {
    await prepare(browser);
    const app = new AppPage(browser.page);
    await app.open(server().url);
    await app.openMore();
    await app.page.locator('#model-date').fill(DATE);
    await app.goTemplateEnv.selectOption('unset');
    await body(app, browser);
    assertClean(browser, [server().origin]);
  } finally {
    await browser.close();
  }
}

async function openFolder(app, dir) {
  await app.page.getByTestId('store-input').setInputFiles(dir);
  await eventually(async () => assert.ok((await app.page.getByTestId('store-list').count()) === 1), { timeout: 60_000 });
}

async function listedRows(app) {
  return app.page.getByTestId('store-model').evaluateAll((rows) =>
    rows.map((r) => [...r.querySelectorAll('td')].map((td) => td.textContent)),
  );
}

/** The shown prompt_eval_count, or null while there is none. */
async function shownCount(app) {
  const m = /^(\d+) tokens/.exec((await app.tokenCount.textContent()) ?? '');
  return m ? Number(m[1]) : null;
}

/** Loads `name` from the list and waits until the app shows what the CLI gives for `request`. */
async function loadAndCompare(app, dir, name, request) {
  await app.setRequest({ model: name, ...request });
  await app.page.getByRole('button', { name: `Load ${name} into the model fields`, exact: true }).click();
  const want = cliRender({ endpoint: 'chat', model: { store: dir, name }, request: { model: name, ...request }, date: DATE });
  if (want.unusable !== undefined) {
    // the GGUF's vocabulary does not load: the app says why, as the CLI
    await eventually(
      async () => assert.match(await app.page.getByTestId('vocab-status').textContent(), new RegExp(escape(want.unusable))),
      { timeout: 60_000 },
    );
    return want;
  }
  if (want.error !== undefined && want.prompt === undefined) {
    // refused at load (a cloud model, a name the handlers reject) or by the render
    await eventually(
      async () => {
        const errors = [
          ...(await app.page.getByTestId('store-error').allTextContents()),
          ...(await app.errorOutput.allTextContents()),
        ];
        assert.ok(errors.some((e) => e.includes(want.error)), `${name}: ${JSON.stringify(errors)} lacks ${want.error}`);
      },
      { timeout: 60_000 },
    );
    return want;
  }
  await eventually(
    async () => {
      assert.match(await app.page.getByTestId('store-status').textContent(), new RegExp(`^${escape(name)} loaded`));
      assert.equal(await app.promptText(), want.prompt ?? '', `${name}: prompt`);
      if (want.prompt_eval_count !== undefined) assert.equal(await shownCount(app), want.prompt_eval_count, `${name}: prompt_eval_count`);
    },
    { timeout: 60_000 },
  );
  return want;
}

describe('models folder', () => {
  test('lists the models as promptscope list, and each renders as promptscope render with model.store', { timeout: LONG }, async () => {
    // the store crate's fixture where it is there; else ours, chosen as the
    // .ollama folder above the models folder
    let dir = FIXTURE;
    let chosen = FIXTURE;
    if (!existsSync(path.join(FIXTURE, 'manifests'))) {
      chosen = path.join(temp, 'home/.ollama');
      dir = path.join(chosen, 'models');
      writeStore(dir);
      writeFileSync(path.join(chosen, 'id_ed25519.pub'), 'ssh-ed25519 AAAA\n');
    }
    const listed = cliList(dir);
    await withStoreApp(async (app) => {
      await openFolder(app, chosen);
      const rows = await listedRows(app);
      assert.deepEqual(
        rows.map((r) => r[0]),
        listed.models.map((m) => m.name),
        'names, in the order of promptscope list',
      );
      for (const [i, m] of listed.models.entries()) {
        const [name, size, family, parameters, quantization, caps] = rows[i];
        assert.equal(size, listed.sizes.get(m.name), `${name}: size`);
        assert.equal(family, m.details.family, `${name}: family`);
        assert.equal(parameters, m.details.parameter_size, `${name}: parameter size`);
        assert.equal(quantization, m.details.quantization_level, `${name}: quantization`);
        assert.equal(caps, (m.capabilities ?? []).join(', '), `${name}: capabilities`);
      }
      const skipped = app.page.getByTestId('store-skipped');
      if (listed.skipped > 0) {
        assert.match(await skipped.locator('summary').textContent(), new RegExp(`\\(${listed.skipped}\\)`));
      } else {
        assert.equal(await skipped.count(), 0);
      }
      assert.match(await app.page.getByTestId('store-status').textContent(), /model\(s\) in .* read .* from the folder; nothing uploaded/);
      console.log(`# ${rows.length} models listed from ${dir}; ${listed.skipped} skipped`);

      const request = { messages: [{ role: 'user', content: 'Why is the sky blue? Answer in one long sentence, please.' }] };
      let compared = 0;
      for (const m of listed.models) {
        const want = await loadAndCompare(app, dir, m.name, request);
        if (want.prompt !== undefined && want.unusable === undefined) {
          compared++;
          // Explain names where each input came from, as the CLI does
          const origins = (want.origins ?? []).map((o) => `${o.what}: ${o.from}`);
          const shown = await app.page.getByTestId('explain-origins').locator('li').allTextContents();
          assert.deepEqual(shown, origins, `${m.name}: origins`);
        }
        const said = want.unusable ?? (want.prompt !== undefined ? `prompt_eval_count ${want.prompt_eval_count ?? '(no GGUF)'}` : want.error);
        console.log(`# ${m.name}: ${said}`);
      }
      assert.ok(compared > 0, 'at least one model renders');
    });
  });

  test('the upgrade check: every model under two releases, line for line as promptscope diff --models', { timeout: LONG }, async () => {
    const dir = path.join(temp, 'upgrade/models');
    writeStore(dir, { renderers: ['nemotron-3-nano', 'nemotron-3.5-nano', 'glimmer'] });
    const [a, b] = ['0.32.8', '0.33.0-rc2'];
    // the CLI's lines, without the token (the page reads each GGUF's metadata only)
    const out = spawnSync(cli(), ['diff', '--as', `ollama@${a}`, '--as', `ollama@${b}`, '--models', dir]);
    assert.equal(out.status, 0, out.stderr.toString());
    const want = out.stdout
      .toString('utf8')
      .trim()
      .split('\n')
      .filter((l) => !/^[ab]: /.test(l))
      .map((l) => l.replace(/ \(token \d+\)/, ''));
    await withStoreApp(async (app) => {
      await openFolder(app, dir);
      await app.page.getByTestId('upgrade-check').locator('summary').click();
      await app.page.getByTestId('upgrade-from').selectOption(a);
      await app.page.getByTestId('upgrade-to').selectOption(b);
      await app.page.getByTestId('upgrade-run').click();
      await eventually(async () => assert.equal(await app.page.getByTestId('upgrade-summary').count(), 1), { timeout: 120_000 });
      const lines = await app.page.getByTestId('upgrade-result').allTextContents();
      assert.deepEqual(lines, want);
      const verdicts = await app.page
        .getByTestId('upgrade-result')
        .evaluateAll((els) => Object.fromEntries(els.map((e) => [e.dataset.model, e.dataset.result])));
      // 0.32.8 has no nemotron-3.5-nano renderer; nemotron-3-nano's template changed at 0.32.9
      assert.equal(verdicts['nemotron-3.5-nano:latest'], 'error');
      assert.equal(verdicts['nemotron-3-nano:latest'], 'differs');
      assert.match(lines.find((l) => l.startsWith('nemotron-3-nano:latest')), /nemotron3nano_template_sync/);
      assert.equal(verdicts['tiny:latest'], 'same');
      console.log(`# upgrade ${a} -> ${b}:\n${lines.map((l) => `#   ${l}`).join('\n')}`);
    });
  });

  test('nothing leaves the page, and the model blob is read only in metadata slices', { timeout: LONG }, async () => {
    // chosen as the .ollama folder above the models folder
    const chosen = path.join(temp, 'padded/.ollama');
    const dir = path.join(chosen, 'models');
    const { blobSize } = writeStore(dir, { padding: 48 << 20 });
    writeFileSync(path.join(chosen, 'id_ed25519.pub'), 'ssh-ed25519 AAAA\n');
    const routed = [];
    const workers = [];
    const instrument = (size) => {
      const log = { slices: [], whole: [] };
      globalThis.__modelBlobReads = log;
      const slice = Blob.prototype.slice;
      Blob.prototype.slice = function (start = 0, end = this.size, ...rest) {
        if (this.size === size) {
          const s = Math.max(0, start < 0 ? this.size + start : start);
          const e = Math.min(this.size, end < 0 ? this.size + end : end);
          log.slices.push([s, e]);
        }
        return slice.call(this, start, end, ...rest);
      };
      for (const m of ['arrayBuffer', 'text', 'stream', 'bytes']) {
        const orig = Blob.prototype[m];
        if (!orig) continue;
        Blob.prototype[m] = function (...a) {
          if (this.size === size) log.whole.push(`Blob.${m}`);
          return orig.apply(this, a);
        };
      }
      for (const R of [globalThis.FileReader, globalThis.FileReaderSync]) {
        if (!R) continue;
        for (const m of ['readAsArrayBuffer', 'readAsText', 'readAsDataURL', 'readAsBinaryString']) {
          const orig = R.prototype[m];
          if (!orig) continue;
          R.prototype[m] = function (b, ...a) {
            if (b && b.size === size) log.whole.push(`${R.name}.${m}`);
            return orig.call(this, b, ...a);
          };
        }
      }
    };
    await withStoreApp(
      async (app, browser) => {
        await openFolder(app, chosen);
        assert.deepEqual(
          (await listedRows(app)).map((r) => r[0]),
          cliList(dir).models.map((m) => m.name),
        );
        // the broken manifest is listed as skipped, with why
        await app.page.getByTestId('store-skipped').locator('summary').click();
        assert.match(await app.page.getByTestId('store-skipped').textContent(), /broken\/latest: .*invalid manifest/);
        await loadAndCompare(app, dir, 'tiny:latest', { messages: [{ role: 'user', content: 'Hello there' }] });

        const page = await app.page.evaluate(() => globalThis.__modelBlobReads);
        const inWorkers = await Promise.all(workers.map((w) => w.evaluate(() => globalThis.__modelBlobReads).catch(() => null)));
        const logs = [page, ...inWorkers.filter(Boolean)];
        const whole = logs.flatMap((l) => l.whole);
        assert.deepEqual(whole, [], 'no read of the whole model blob');
        const sum = (l) => l.slices.reduce((n, [s, e]) => n + (e - s), 0);
        const pageBytes = sum(page);
        const workerBytes = inWorkers.filter(Boolean).reduce((n, l) => n + sum(l), 0);
        assert.ok(pageBytes > 0 && workerBytes > 0, `slices seen: page ${pageBytes}, workers ${workerBytes}`);
        assert.ok(logs.every((l) => l.slices.every(([s, e]) => e - s < blobSize)), 'no slice is the whole blob');
        assert.ok(pageBytes + workerBytes < blobSize / 10, `${pageBytes + workerBytes} of ${blobSize} bytes read`);
        const readFromFolder = Number(await app.page.getByTestId('store-status').getAttribute('data-bytes-read'));
        assert.ok(readFromFolder < 1 << 20, `the reader read ${readFromFolder} bytes`);
        console.log(`# model blob of ${blobSize} bytes: ${pageBytes} read in slices on the page, ${workerBytes} in the engine worker; ${readFromFolder} bytes read by the store reader`);

        // the params layer is the options' defaults: the request's own win
        const long = { messages: [{ role: 'user', content: Array.from({ length: 80 }, (_, i) => `w${i}`).join(' ') }] };
        const cut = await loadAndCompare(app, dir, 'tiny:latest', long);
        assert.equal(cut.runner.num_ctx, 48);
        assert.match(await app.page.getByTestId('explain-runner').textContent(), /^num_ctx 48,/);
        await loadAndCompare(app, dir, 'tiny:latest', { ...long, options: { num_ctx: 4096 } });
        assert.match(await app.page.getByTestId('explain-runner').textContent(), /^num_ctx 4096,/);
        const origins = await app.page.getByTestId('explain-origins').textContent();
        assert.match(origins, /TEMPLATE: template layer sha256:[0-9a-f]{12}/);
        assert.match(origins, /num_ctx 48: params layer sha256:[0-9a-f]{12}/);
        assert.equal(JSON.parse(await app.page.getByTestId('model-options-input').inputValue()).num_ctx, 48);

        assert.deepEqual(routed, [], 'requests to other origins');
        const foreign = browser.requests.filter((u) => !u.startsWith(server().origin + '/') && !u.startsWith('blob:') && !u.startsWith('data:'));
        assert.deepEqual(foreign, [], 'only the static server was asked');
      },
      async (browser) => {
        await browser.context.route('**/*', (route) => {
          const url = route.request().url();
          if (url.startsWith(server().origin + '/')) return route.continue();
          routed.push(url);
          return route.abort();
        });
        await browser.context.addInitScript(instrument, blobSize);
        browser.page.on('worker', (w) => {
          workers.push(w);
          w.evaluate(instrument, blobSize).catch(() => {});
        });
      },
    );
  });

  test('a folder without manifests/ says so', { timeout: LONG }, async () => {
    const dir = path.join(temp, 'not-models');
    mkdirSync(path.join(dir, 'blobs'), { recursive: true });
    writeFileSync(path.join(dir, 'blobs/readme.txt'), 'nothing here\n');
    await withStoreApp(async (app) => {
      await app.page.getByTestId('store-input').setInputFiles(dir);
      await eventually(async () =>
        assert.match(await app.page.getByTestId('store-error').textContent(), /^not-models has no manifests\/ folder/),
      );
      assert.equal(await app.page.getByTestId('store-list').count(), 0);
    });
  });

  test('showDirectoryPicker: the .ollama folder opens, and is reopened with one click after a reload', { timeout: LONG }, async () => {
    const dir = path.join(temp, 'opfs/.ollama/models');
    writeStore(dir);
    await withStoreApp(
      async (app) => {
        // the store goes into the origin's private file system, whose
        // handles are real FileSystemDirectoryHandles; the picker is
        // stubbed to answer its .ollama folder
        const files = [];
        const walk = (d, rel) => {
          for (const e of readdirSync(d, { withFileTypes: true })) {
            const p = path.join(d, e.name);
            const r = rel ? `${rel}/${e.name}` : e.name;
            if (e.isDirectory()) walk(p, r);
            else files.push([r, readFileSync(p).toString('base64')]);
          }
        };
        walk(path.dirname(dir), '.ollama');
        await app.page.evaluate(async (files) => {
          const root = await navigator.storage.getDirectory();
          for (const [rel, b64] of files) {
            const parts = rel.split('/');
            let d = root;
            for (const p of parts.slice(0, -1)) d = await d.getDirectoryHandle(p, { create: true });
            const f = await d.getFileHandle(parts.at(-1), { create: true });
            const w = await f.createWritable();
            await w.write(Uint8Array.from(atob(b64), (c) => c.charCodeAt(0)));
            await w.close();
          }
        }, files);
        assert.equal(await app.page.getByTestId('store-reopen').count(), 0);
        await app.page.getByTestId('store-open').click();
        await eventually(async () => assert.equal(await app.page.getByTestId('store-model').count(), 2), { timeout: 60_000 });
        assert.match(await app.page.getByTestId('store-status').textContent(), /^2 model\(s\) in \.ollama/);

        await app.page.reload();
        await app.ready();
        const reopen = app.page.getByTestId('store-reopen');
        await eventually(async () => assert.equal(await reopen.textContent(), 'Reopen .ollama'));
        assert.equal(await app.page.getByTestId('store-list').count(), 0);
        await reopen.click();
        await eventually(async () => assert.equal(await app.page.getByTestId('store-model').count(), 2), { timeout: 60_000 });
        await loadAndCompare(app, dir, 'tiny:latest', { messages: [{ role: 'user', content: 'Hello' }] });
      },
      async (browser) => {
        await browser.context.addInitScript(() => {
          window.showDirectoryPicker = async () => (await navigator.storage.getDirectory()).getDirectoryHandle('.ollama');
        });
      },
    );
  });

  test('a pasted ollama show --modelfile or /api/show body, with its GGUF, renders as the stored model', { timeout: LONG }, async () => {
    const golden = readFileSync(path.join(ROOT, 'crates/store/tests/golden/show.jsonl'), 'utf8')
      .split('\n')
      .filter((l) => l.trim())
      .map((l) => JSON.parse(l));
    const shown = golden.find((r) => r.kind === 'show' && r.request?.model === 'llama3-msgs:8b');
    const body = JSON.parse(shown.body);
    const name = 'llama3-msgs:8b';
    const request = { model: name, messages: [{ role: 'user', content: 'Why is the sky blue?' }] };
    const want = cliRender({ endpoint: 'chat', model: { store: FIXTURE, name }, request, date: DATE });
    assert.ok(want.prompt, JSON.stringify(want));
    for (const pasted of [shown.cli.modelfile, shown.body]) {
      await withStoreApp(async (app) => {
        await app.setRequest(request);
        await app.page.getByTestId('import-model-pane').locator('summary').click();
        await app.page.getByTestId('import-model-text').fill(pasted);
        await app.page.getByTestId('import-model').click();
        await eventually(async () =>
          assert.match(await app.page.getByTestId('import-model-status').textContent(), /^Model fields taken from the (Modelfile|\/api\/show)/),
        );
        // its FROM is the model blob: attach the same bytes
        await app.page.getByTestId('gguf-input').setInputFiles(corpus('tokenizer/llama3.gguf'));
        await eventually(
          async () => {
            assert.equal(await app.promptText(), want.prompt);
            assert.equal(await shownCount(app), want.prompt_eval_count);
          },
          { timeout: 60_000 },
        );
      });
    }
    assert.equal(body.details.family, 'llama');
    // a Modelfile error is Ollama's, with its line
    await withStoreApp(async (app) => {
      await app.page.getByTestId('import-model-pane').locator('summary').click();
      await app.page.getByTestId('import-model-text').fill('FROM x\nMESSAGE bot hi');
      await app.page.getByTestId('import-model').click();
      await eventually(async () =>
        assert.equal(
          await app.page.getByTestId('import-model-status').textContent(),
          'Not imported: (line 2): message role must be one of "system", "user", or "assistant"',
        ),
      );
    });
  });
});

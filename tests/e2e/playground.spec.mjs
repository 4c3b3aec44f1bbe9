// Browser end-to-end tests of the Go template playground.
//
// Serves the release build (dist/, or $PROMPTSCOPE_DIST) on a free localhost
// port and drives Debian's Chromium with playwright-core. Run through
// scripts/test.sh, or: node --test tests/e2e/*.spec.mjs after `trunk build --release`.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';

import { openBrowser } from './support/browser.mjs';
import { PlaygroundPage, eventually } from './support/playground-page.mjs';
import { startStaticServer } from './support/static-server.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const DIST = process.env.PROMPTSCOPE_DIST ?? path.join(ROOT, 'dist');
const TEST_TIMEOUT = 120_000;

// The example loaded on first visit, rendered.
const CHATML_EXAMPLE_OUTPUT = [
  '<|im_start|>system',
  'You are a concise, helpful assistant.<|im_end|>',
  '<|im_start|>user',
  'Why is the sky blue?<|im_end|>',
  '<|im_start|>assistant',
  'Rayleigh scattering: air scatters blue light more than red.<|im_end|>',
  '<|im_start|>user',
  'And why are sunsets red?<|im_end|>',
  '<|im_start|>assistant',
  '',
].join('\n');

let server;

before(async () => {
  assert.ok(
    existsSync(path.join(DIST, 'index.html')),
    `${DIST}/index.html is missing: run \`trunk build --release\` first`,
  );
  server = await startStaticServer(DIST);
});

after(async () => {
  await server?.close();
});

/**
 * Opens the app in a fresh browser profile, runs `body`, then checks that the
 * page only talked to its own origin and logged no errors (CSP violations included).
 */
async function withPlayground(body) {
  const browser = await openBrowser();
  try {
    const playground = new PlaygroundPage(browser.page);
    await playground.open(server.url);
    await body(playground);
    const foreign = browser.requests.filter((url) => new URL(url).origin !== server.origin);
    assert.deepEqual(foreign, [], 'requests to other origins');
    assert.deepEqual(browser.problems, [], 'console errors or uncaught exceptions');
  } finally {
    await browser.close();
  }
}

describe('Go template playground', () => {
  test('loads the ChatML example on first visit', { timeout: TEST_TIMEOUT }, async () => {
    await withPlayground(async (playground) => {
      assert.match(await playground.templateText(), /range \.Messages/);
      assert.match(await playground.dataText(), /"Messages"/);
      await eventually(async () => {
        assert.equal(await playground.outputText(), CHATML_EXAMPLE_OUTPUT);
      });
      assert.equal(await playground.errorText(), null);
      // The inputs are labelled for assistive technology.
      const page = playground.page;
      assert.equal(await page.getByLabel('Template', { exact: true }).getAttribute('data-testid'), 'template-input');
      assert.equal(await page.getByLabel('Data (JSON)').getAttribute('data-testid'), 'data-input');
    });
  });

  test('renders typed template and data, whitespace preserved', { timeout: TEST_TIMEOUT }, async () => {
    await withPlayground(async (playground) => {
      await playground.typeData('{"name": "Ada", "items": [1, 2]}');
      await playground.typeTemplate('  Hello, {{ .name }}!\n{{ range .items }}\t[{{ . }}]\n{{ end }}');
      await eventually(async () => {
        assert.equal(await playground.outputText(), '  Hello, Ada!\n\t[1]\n\t[2]\n');
      });
      assert.equal(await playground.errorText(), null);
    });
  });

  test('re-renders as the data changes', { timeout: TEST_TIMEOUT }, async () => {
    await withPlayground(async (playground) => {
      await playground.setTemplate('{{ .Who }} says hi');
      await playground.setData('{"Who": "Go"}');
      await eventually(async () => assert.equal(await playground.outputText(), 'Go says hi'));
      await playground.setData('{"Who": "Rust"}');
      await eventually(async () => assert.equal(await playground.outputText(), 'Rust says hi'));
    });
  });

  test("shows Go's exact parse error", { timeout: TEST_TIMEOUT }, async () => {
    await withPlayground(async (playground) => {
      await playground.setData('{"Foo": 1}');
      await playground.typeTemplate('{{ .Foo ');
      await eventually(async () => {
        assert.equal(await playground.errorText(), 'template: t:1: unclosed action');
      });
      assert.equal(await playground.outputText(), '');
    });
  });

  test("shows Go's exact execution error and the partial output", { timeout: TEST_TIMEOUT }, async () => {
    await withPlayground(async (playground) => {
      // Expected texts are Go 1.27's own output for these templates. The column
      // is the byte offset of the failing command, so the spaced variant says 1:4.
      await playground.setData('{"l":[1]}');
      await playground.setTemplate('a{{index .l 9}}');
      await eventually(async () => {
        assert.equal(
          await playground.errorText(),
          'template: t:1:3: executing "t" at <index .l 9>: error calling index: index out of range: 9',
        );
      });
      assert.equal(await playground.outputText(), 'a');
      await playground.setTemplate('a{{ index .l 9 }}');
      await eventually(async () => {
        assert.equal(
          await playground.errorText(),
          'template: t:1:4: executing "t" at <index .l 9>: error calling index: index out of range: 9',
        );
      });
      assert.equal(await playground.outputText(), 'a');
      // Fixing the template clears the error.
      await playground.setTemplate('a{{ index .l 0 }}');
      await eventually(async () => assert.equal(await playground.errorText(), null));
      assert.equal(await playground.outputText(), 'a1');
    });
  });

  test('shows the line and column of a JSON error', { timeout: TEST_TIMEOUT }, async () => {
    await withPlayground(async (playground) => {
      await playground.setTemplate('{{ . }}');
      await playground.setData('{\n  "a": 1,\n  "b": ]\n}');
      await eventually(async () => {
        assert.match((await playground.errorText()) ?? '', /line 3 column \d+/);
      });
    });
  });

  test('stops a runaway template with an error instead of freezing', { timeout: TEST_TIMEOUT }, async () => {
    await withPlayground(async (playground) => {
      await playground.setData('{}');
      const started = Date.now();
      await playground.setTemplate('{{ range 100000000000 }}x{{ end }}');
      await eventually(
        async () => {
          assert.match((await playground.errorText()) ?? '', /limit/i);
        },
        { timeout: 15_000 },
      );
      const elapsed = Date.now() - started;
      assert.ok(elapsed < 15_000, `took ${elapsed} ms`);
      // Megabytes of partial output are cut for display, not put on the page whole.
      assert.ok((await playground.outputText()).length <= 256 * 1024);
      // The page is still responsive afterwards.
      await playground.setTemplate('ok');
      await eventually(async () => assert.equal(await playground.outputText(), 'ok'));
    });
  });
});

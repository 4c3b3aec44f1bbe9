// Takes the screenshots of docs/screenshots/ (each pane, light and dark).
// Not a test: run it after `trunk build --release` when the UI changes:
//
//   node tests/e2e/screenshots.mjs
import { mkdir } from 'node:fs/promises';
import path from 'node:path';

import { AppPage, eventually } from './support/app-page.mjs';
import { openBrowser } from './support/browser.mjs';
import { smollm2 } from './support/fixtures.mjs';
import { DIST, ROOT } from './support/harness.mjs';
import { startStaticServer } from './support/static-server.mjs';

const OUT = path.join(ROOT, 'docs', 'screenshots');
// SmolLM2 (scripts/fetch-models.sh) for the GGUF, tokens, Compare and Generate shots.
const SMOL = smollm2();

const PANES = [
  { name: 'model', selector: '#model-pane' },
  { name: 'request', selector: '#request-pane' },
  { name: 'prompt', selector: '#prompt-pane' },
  { name: 'explain', selector: '#explain-pane' },
];

// With SmolLM2: the metadata pane, the token view, Compare with token
// counts, and a generated answer.
async function shootModel(page, app, theme) {
  const shot = (locator, name) => locator.screenshot({ path: path.join(OUT, `${name}-${theme}.png`) });
  await app.loadExample('gguf-wins');
  await app.setTemplate(`[go] ${await app.templateText()}`);
  await page.getByTestId('gguf-input').setInputFiles(SMOL);
  await eventually(async () => /^\d+ tokens/.test(await app.tokenCount.textContent()), { timeout: 60_000 });
  const meta = page.getByTestId('gguf-metadata');
  await meta.locator('summary').first().click();
  await page.getByTestId('gguf-search').fill('general.');
  await shot(meta, 'gguf');
  await page.getByTestId('gguf-search').fill('');
  await meta.locator('summary').first().click();

  await page.getByTestId('token-view-toggle').check();
  await eventually(async () => (await page.locator('#prompt-pane .tk').count()) > 0);
  await shot(page.locator('#prompt-pane'), 'tokens');
  await page.getByTestId('token-view-toggle').uncheck();

  await page.getByTestId('compare-toggle').click();
  await eventually(async () => (await page.getByTestId('compare-token-counts').count()) > 0, { timeout: 30_000 });
  await shot(page.locator('#compare-pane'), 'compare');
  await page.getByTestId('compare-toggle').click();

  await app.loadExample('chatml');
  await app.hasTemplate.uncheck();
  await app.setRequest({
    model: 'smollm2',
    messages: [
      { role: 'system', content: 'You are a helpful assistant.' },
      { role: 'user', content: 'What is the capital of Japan?' },
    ],
    options: { temperature: 0, num_predict: 64 },
  });
  await page.getByTestId('generate-run').click();
  const status = page.getByTestId('generate-status');
  await eventually(async () => (await status.getAttribute('data-state')) === 'done', { timeout: 240_000 });
  await shot(page.locator('#generate-pane'), 'generate');
}

async function shoot(server, theme) {
  const browser = await openBrowser({ colorScheme: theme, viewport: { width: 1400, height: 1000 } });
  try {
    const app = new AppPage(browser.page);
    await app.open(server.url);
    await app.loadExample('qwen-tools');
    await eventually(async () => (await app.promptText()).includes('<tool_call>'));
    await browser.page.screenshot({ path: path.join(OUT, `app-${theme}.png`) });
    for (const pane of PANES) {
      await browser.page.locator(pane.selector).screenshot({ path: path.join(OUT, `${pane.name}-${theme}.png`) });
    }
    // An error with its position, and visible whitespace.
    await app.setTemplate('{{- range .Messages }}\n<|{{ .Role }}|>\n{{ .Content }}\n{{- end }\n');
    await eventually(async () => (await app.errorText()) !== null);
    await browser.page
      .locator('.editor', { has: app.templateInput })
      .screenshot({ path: path.join(OUT, `template-error-${theme}.png`) });
    await app.loadExample('chatml');
    await app.whitespaceToggle.check();
    await eventually(async () => (await app.promptText()).includes('↵'));
    await browser.page.locator('#prompt-pane').screenshot({ path: path.join(OUT, `whitespace-${theme}.png`) });
    await app.whitespaceToggle.uncheck();
    await shootModel(browser.page, app, theme);
  } finally {
    await browser.close();
  }
  // The embedded layout.
  const embed = await openBrowser({ colorScheme: theme, viewport: { width: 760, height: 480 } });
  try {
    const app = new AppPage(embed.page);
    await app.open(`${server.url}?embed=1`);
    await eventually(async () => (await app.promptText()).length > 0);
    await embed.page.screenshot({ path: path.join(OUT, `embed-${theme}.png`) });
  } finally {
    await embed.close();
  }
}

await mkdir(OUT, { recursive: true });
const server = await startStaticServer(DIST);
try {
  for (const theme of ['light', 'dark']) await shoot(server, theme);
  console.log(`screenshots written to ${path.relative(ROOT, OUT)}/`);
} finally {
  await server.close();
}

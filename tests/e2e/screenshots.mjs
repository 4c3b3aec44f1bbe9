// Takes the screenshots of docs/screenshots/, light and dark: the first
// screen at 1400×900 (the conversation, the prompt and Explain in view),
// each flow on a whole screen (paste a TEMPLATE, open an Ollama folder,
// drop a GGUF, compare, generate, answer), and each pane.
// Not a test: run it after `trunk build --release` when the UI changes:
//
//   node tests/e2e/screenshots.mjs
import { mkdir } from 'node:fs/promises';
import path from 'node:path';

import { AppPage, eventually } from './support/app-page.mjs';
import { openBrowser } from './support/browser.mjs';
import { smollm2 } from './support/fixtures.mjs';
import { DIST, ROOT } from './support/harness.mjs';

const SCREEN = { width: 1400, height: 900 };
const STORE = process.env.PROMPTSCOPE_STORE ?? path.join(ROOT, 'crates/store/tests/fixture/models');
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

// The first screen and the flows, each as the whole 1400×900 window shows it.
async function shootFlows(server, theme) {
  const browser = await openBrowser({ colorScheme: theme, viewport: SCREEN });
  const page = browser.page;
  // the window back at its top (filling a field scrolls it), the columns where the flow left them
  const screen = async (name) => {
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: path.join(OUT, `${name}-${theme}.png`) });
  };
  try {
    const app = new AppPage(page);
    await app.open(server.url);
    await eventually(async () => (await app.promptText()).length > 0);
    await screen('first-screen');

    // paste a TEMPLATE of one's own
    await page.getByTestId('source-template').click();
    await app.setTemplate('{{ if .System }}<|system|>\n{{ .System }}\n{{ end }}{{ range .Messages }}<|{{ .Role }}|>\n{{ .Content }}\n{{ end }}<|assistant|>\n');
    await eventually(async () => (await app.promptText()).startsWith('<|user|>'));
    await screen('flow-paste-template');

    // open an Ollama models folder and pick a model from it
    await app.loadExample('chatml');
    await page.getByTestId('store-input').setInputFiles(STORE);
    await eventually(async () => (await page.getByTestId('store-list').count()) === 1, { timeout: 60_000 });
    await page.getByTestId('store-load').first().click();
    await eventually(async () => (await app.promptText()).length > 0);
    await page.getByTestId('store-pane').scrollIntoViewIfNeeded();
    await screen('flow-open-folder');

    // drop a GGUF: its template, the exact token count, the metadata
    await app.loadExample('chatml');
    await page.getByTestId('gguf-input').setInputFiles(SMOL);
    await eventually(async () => /^\d+ tokens/.test(await app.tokenCount.textContent()), { timeout: 60_000 });
    await page.getByTestId('nav-gguf').click();
    await screen('flow-gguf');

    // compare two runtimes or versions of the template
    await app.loadExample('gguf-wins');
    await app.setTemplate(`[go] ${await app.templateText()}`);
    await page.getByTestId('nav-compare').click();
    await page.getByTestId('compare-toggle').click();
    await eventually(async () => (await page.getByTestId('compare-token-counts').count()) > 0, { timeout: 30_000 });
    await screen('flow-compare');
    await page.getByTestId('compare-toggle').click();

    // two runtimes: a tokenizer_config.json, then Ollama against transformers' apply_chat_template
    await app.loadExample('chatml');
    await page.getByTestId('source-modelfile').click();
    await page.getByTestId('import-model-text').fill(JSON.stringify({
      tokenizer_class: 'PreTrainedTokenizerFast', bos_token: '<s>', eos_token: '</s>',
      chat_template: "{{ bos_token }}{% for m in messages %}{{ '<|' + m.role + '|>'|safe + m.content }}\n{% endfor %}" +
        '{% if add_generation_prompt %}<|assistant|>{% endif %}',
    }));
    await page.getByTestId('import-model').click();
    await app.setRequest({ model: 'demo', messages: [{ role: 'user', content: 'Say "hi" & <wave>' }] });
    await page.getByTestId('nav-compare').click();
    await page.getByTestId('compare-toggle').click();
    await page.getByTestId('compare-mode').selectOption('runtimes');
    await eventually(async () => (await page.getByTestId('compare-first').count()) > 0);
    await screen('flow-runtimes');
    await page.getByTestId('compare-mode').selectOption('engines');
    await page.getByTestId('compare-toggle').click();

    // the Ollama release, picked in the top bar
    await app.loadExample('chatml');
    await page.getByTestId('release-select').selectOption('0.32.15');
    await eventually(async () => (await page.getByTestId('release-select').inputValue()) === '0.32.15');
    await screen('flow-release');
    await page.getByTestId('release-select').selectOption('0.33.0-rc2');

    // answer: what Ollama makes of the model's output (a qwen3-coder tool call)
    await app.loadExample('chatml');
    await app.setTemplate('{{ range .Messages }}<|im_start|>{{ .Role }}\n{{ .Content }}<|im_end|>\n{{ end }}<|im_start|>assistant\n');
    await app.openMore();
    await app.parserSelect.selectOption('qwen3-coder');
    await app.setRequest({
      model: 'demo',
      messages: [{ role: 'user', content: 'What is the weather in Paris?' }],
      tools: [{ type: 'function', function: { name: 'get_weather', description: 'Current weather in a city',
        parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } } }],
    });
    await page.getByTestId('nav-answer').click();
    await page
      .getByTestId('answer-input')
      .fill('<tool_call>\n<function=get_weather>\n<parameter=city>\nParis\n</parameter>\n</function>\n</tool_call>');
    await eventually(async () => (await page.getByTestId('answer-tool-call').count()) > 0);
    await page.getByTestId('answer-tool-call').first().evaluate((el) => el.scrollIntoView({ block: 'center' }));
    await screen('flow-answer');

    // generate with the GGUF chosen above
    await app.loadExample('chatml');
    await app.hasTemplate.uncheck();
    await app.setRequest({
      model: 'smollm2',
      messages: [{ role: 'user', content: 'What is the capital of Japan?' }],
      options: { temperature: 0, num_predict: 32 },
    });
    await page.getByTestId('nav-generate').click();
    await page.getByTestId('generate-run').click();
    const status = page.getByTestId('generate-status');
    await eventually(async () => (await status.getAttribute('data-state')) === 'done', { timeout: 240_000 });
    await page.getByTestId('generate-output').evaluate((el) => el.scrollIntoView({ block: 'center' }));
    await screen('flow-generate');
  } finally {
    await browser.close();
  }
}

async function shoot(server, theme) {
  await shootFlows(server, theme);
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

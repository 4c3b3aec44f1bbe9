// Takes the screenshots of docs/screenshots/ (each pane, light and dark).
// Not a test: run it after `trunk build --release` when the UI changes:
//
//   node tests/e2e/screenshots.mjs
import { mkdir } from 'node:fs/promises';
import path from 'node:path';

import { AppPage, eventually } from './support/app-page.mjs';
import { openBrowser } from './support/browser.mjs';
import { DIST, ROOT } from './support/harness.mjs';
import { startStaticServer } from './support/static-server.mjs';

const OUT = path.join(ROOT, 'docs', 'screenshots');

const PANES = [
  { name: 'model', selector: '#model-pane' },
  { name: 'request', selector: '#request-pane' },
  { name: 'prompt', selector: '#prompt-pane' },
  { name: 'explain', selector: '#explain-pane' },
];

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

// Accessibility: axe-core's WCAG 2.1 A and AA rules (contrast, labels,
// names, ARIA, landmarks) pass on the whole app in the light and the dark
// theme, with every pane open, an error shown, and a compatibility route's
// conversion and error body shown; and the keyboard reaches
// the editors and the prompt in order, starting with the skip link.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';

import { eventually } from './support/app-page.mjs';
import { anyGguf } from './support/fixtures.mjs';
import { ROOT, TEST_TIMEOUT, useAppServer, withApp } from './support/harness.mjs';

const server = useAppServer();
const AXE = readFileSync(path.join(ROOT, 'node_modules/axe-core/axe.min.js'), 'utf8');

/** Runs axe-core in the page (evaluated through the DevTools protocol, so the page's CSP is untouched). */
async function axe(page) {
  await page.evaluate(AXE);
  return page.evaluate(async () => {
    const result = await window.axe.run(document, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] },
      resultTypes: ['violations'],
    });
    return result.violations.map((v) => ({
      id: v.id,
      help: v.help,
      nodes: v.nodes.slice(0, 5).map((n) => `${n.target.join(' ')}: ${n.failureSummary.split('\n').slice(1).join(' ')}`),
    }));
  });
}

async function openEverything(app) {
  const page = app.page;
  await app.loadExample('qwen-tools');
  for (const d of await page.locator('details').all()) {
    if (await d.isVisible()) await d.evaluate((el) => (el.open = true));
  }
  await page.getByTestId('compare-toggle').click();
  await page.getByTestId('whitespace-toggle').check();
  await eventually(async () => (await app.promptText()).includes('↵'));
}

describe('accessibility', () => {
  for (const theme of ['light', 'dark']) {
    test(`axe: no WCAG 2.1 AA violation, ${theme} theme`, { timeout: TEST_TIMEOUT }, async () => {
      await withApp(
        server(),
        async (app) => {
          await openEverything(app);
          let violations = await axe(app.page);
          assert.deepEqual(violations, [], JSON.stringify(violations, null, 1));
          // and with a Go error and a rejection on screen
          await app.setTemplate('{{ range .Messages }}{{ .Content }');
          await eventually(async () => (await app.errorText()) !== null);
          violations = await axe(app.page);
          assert.deepEqual(violations, [], JSON.stringify(violations, null, 1));
          // a compatibility route: the converted request, the field table,
          // and the route's own error body
          await app.loadExample('claude-code');
          await eventually(async () => (await app.page.getByTestId('route-fields').count()) === 1);
          violations = await axe(app.page);
          assert.deepEqual(violations, [], JSON.stringify(violations, null, 1));
          await app.setRequest({ model: 'm', max_tokens: 5, messages: [] });
          await eventually(async () => (await app.page.getByTestId('error-body').count()) === 1);
          violations = await axe(app.page);
          assert.deepEqual(violations, [], JSON.stringify(violations, null, 1));
        },
        { colorScheme: theme },
      );
    });
  }

  // Each view a user reaches at 1400×900, as they reach it: the first
  // screen, the Examples menu, "More", the Modelfile paste box, a GGUF with
  // its metadata, Compare, Generate and Answer in view.
  for (const theme of ['light', 'dark']) {
    test(`axe: every view of the first five minutes, ${theme} theme`, { timeout: TEST_TIMEOUT }, async () => {
      await withApp(
        server(),
        async (app) => {
          const page = app.page;
          const views = [];
          const check = async (view) => {
            const violations = await axe(page);
            if (violations.length) views.push({ view, violations });
          };
          await check('first screen');
          await page.getByTestId('examples-menu').locator('summary').click();
          await check('examples menu');
          await app.loadExample('chatml');
          await app.openMore();
          await check('more');
          await page.getByTestId('source-modelfile').click();
          await check('modelfile paste');
          await page.getByTestId('gguf-input').setInputFiles(anyGguf());
          await eventually(async () => /read .* of /.test(await page.getByTestId('gguf-status').textContent()), { timeout: 60_000 });
          await page.getByTestId('nav-gguf').click();
          await page.getByTestId('gguf-metadata').locator('summary').first().click();
          await check('gguf metadata');
          for (const nav of ['nav-compare', 'nav-generate', 'nav-answer']) {
            await page.getByTestId(nav).click();
            if (nav === 'nav-compare') await page.getByTestId('compare-toggle').click();
            await check(nav);
          }
          assert.deepEqual(views, [], JSON.stringify(views, null, 1));
        },
        { colorScheme: theme, viewport: { width: 1400, height: 900 } },
      );
    });
  }

  test('the keyboard reaches the skip link, the editors and the prompt', { timeout: TEST_TIMEOUT }, async () => {
    await withApp(server(), async (app) => {
      const page = app.page;
      await app.loadExample('chatml');
      // a fresh page: Tab starts at the top
      await page.reload();
      await app.ready();
      const seen = [];
      for (let i = 0; i < 200; i++) {
        await page.keyboard.press('Tab');
        const id = await page.evaluate(() => {
          const el = document.activeElement;
          if (!el || el === document.body) return null;
          // the focused element is visibly marked (outline or box-shadow),
          // or, for the code editors, their frame is
          const mark = (e) => {
            const style = getComputedStyle(e);
            return style.outlineStyle !== 'none' || style.boxShadow !== 'none';
          };
          const frame = el.closest('.code');
          const marked = mark(el) || (frame !== null && mark(frame));
          return `${el.dataset.testid ?? el.className ?? el.tagName}${marked ? '' : ' (no focus mark)'}`;
        });
        if (id) seen.push(id);
        if (id?.startsWith('prompt-output')) break;
      }
      assert.equal(seen[0], 'skip-link');
      const order = ['template-input', 'request-input', 'prompt-output'].map((t) => seen.indexOf(t));
      assert.ok(order.every((i) => i >= 0), `not reached by Tab: ${JSON.stringify(seen)}`);
      assert.deepEqual([...order].sort((a, b) => a - b), order, 'in reading order');
      const unmarked = seen.filter((s) => s.endsWith('(no focus mark)'));
      assert.deepEqual(unmarked, [], 'focused without a visible mark');

      // the skip link jumps to the prompt
      await page.reload();
      await app.ready();
      await page.keyboard.press('Tab');
      await page.keyboard.press('Enter');
      await eventually(async () => assert.equal(await page.evaluate(() => location.hash), '#prompt-pane'));
    });
  });
});

// The first five minutes (issue 40): a first screen that leads, and each
// defect a new user hit, shown fixed on screen.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { eventually } from './support/app-page.mjs';
import { anyGguf } from './support/fixtures.mjs';
import { TEST_TIMEOUT, useAppServer, withApp } from './support/harness.mjs';

const server = useAppServer();
const SCREEN = { width: 1400, height: 900 };

/** The element's box in the viewport, or null when it has none. */
const box = (locator) => locator.evaluate((el) => {
  const r = el.getBoundingClientRect();
  return { top: r.top, bottom: r.bottom, left: r.left, right: r.right, width: r.width, height: r.height };
});

/** Whether the element's top part (its first 40 px) is on the screen. */
async function inView(locator, screen = SCREEN) {
  const b = await box(locator);
  return b.height > 0 && b.top >= -1 && b.top + Math.min(40, b.height) <= screen.height && b.left >= 0 && b.right <= screen.width;
}

describe('the first five minutes', () => {
  test('1400×900: the sources, the conversation, the prompt and Explain are on the first screen', { timeout: TEST_TIMEOUT }, async () => {
    await withApp(
      server(),
      async (app) => {
        const page = app.page;
        assert.equal(await page.evaluate(() => window.scrollY), 0);
        // where the model comes from, in the top bar
        const sources = page.getByTestId('sources');
        assert.equal(
          (await sources.textContent()).replace(/\s+/g, ' ').trim(),
          'Model from:Ollama folderGGUF fileModelfile or /api/showtokenizer_config.jsonYour TEMPLATE',
        );
        assert.ok((await box(sources)).bottom < 120, 'the source picker is in the top bar');
        // the model, the conversation, the prompt and Explain, side by side, without scrolling
        for (const [what, locator] of [
          ['the TEMPLATE', app.templateInput],
          ['the request', app.requestInput],
          ['the prompt', app.promptOutput],
          ['Explain', page.locator('#explain-heading')],
        ]) {
          assert.ok(await inView(locator), `${what} is on the first screen: ${JSON.stringify(await box(locator))}`);
        }
        const [model, request, output] = await Promise.all(
          ['col-model', 'col-request', 'col-output'].map((id) => box(page.getByTestId(id))),
        );
        assert.ok(model.right <= request.left && request.right <= output.left, 'three columns, left to right');
        // the rarely used fields are folded behind "More"
        assert.equal(await page.getByTestId('model-more').evaluate((d) => d.open), false);
        assert.equal(await page.locator('#model-date').isVisible(), false);
        // and the page itself does not scroll to show them: each column scrolls on its own
        assert.ok(await page.evaluate(() => document.documentElement.scrollHeight) < 1.25 * SCREEN.height);

        // secondary work is one click away
        for (const [link, target] of [
          ['nav-generate', '#generate-pane'],
          ['nav-answer', '#answer-pane'],
          ['nav-compare', '#compare-pane'],
          ['nav-explain', '#explain-pane'],
        ]) {
          await page.getByTestId(link).click();
          await eventually(async () => assert.ok(await inView(page.locator(target)), `${link} shows ${target}`));
          assert.equal(await page.evaluate(() => document.activeElement?.id), target.slice(1));
        }
        // the sources: a pasted TEMPLATE, a Modelfile, a GGUF file, each one click
        await page.getByTestId('source-template').click();
        assert.equal(await page.evaluate(() => document.activeElement?.dataset.testid), 'template-input');
        await page.getByTestId('source-modelfile').click();
        assert.equal(await page.evaluate(() => document.activeElement?.dataset.testid), 'import-model-text');
        assert.equal(await page.getByTestId('import-model-pane').evaluate((d) => d.open), true);
        const [chooser] = await Promise.all([page.waitForEvent('filechooser'), page.getByTestId('source-gguf').click()]);
        await chooser.setFiles(anyGguf());
        await eventually(async () => assert.match(await page.getByTestId('gguf-status').textContent(), /read .* of /), {
          timeout: 60_000,
        });
        await page.getByTestId('nav-gguf').click();
        await eventually(async () => assert.ok(await inView(page.getByTestId('gguf-metadata')), JSON.stringify([await box(page.getByTestId('gguf-metadata')), await page.evaluate(() => window.scrollY)])));
      },
      { viewport: SCREEN },
    );
  });

  test('a pasted TEMPLATE does not keep the example\'s SYSTEM; an edit does', { timeout: TEST_TIMEOUT }, async () => {
    await withApp(server(), async (app) => {
      const page = app.page;
      assert.equal(await app.systemInput.inputValue(), 'You are a concise, helpful assistant.');
      // typing into the example's template is an edit: its SYSTEM stays
      await app.templateInput.press('End');
      await app.templateInput.pressSequentially(' ');
      await eventually(async () => assert.match(await app.promptText(), /concise/));
      assert.equal(await app.systemInput.inputValue(), 'You are a concise, helpful assistant.');
      // pasting one's own over it replaces it: the SYSTEM goes, and the notice says why
      await app.loadExample('chatml');
      await app.setTemplate('{{ if .System }}S: {{ .System }}\n{{ end }}{{ range .Messages }}{{ .Role }}: {{ .Content }}\n{{ end }}');
      await app.expectPrompt('user: Why is the sky blue?\nassistant: Rayleigh scattering: air scatters blue light more than red.\nuser: And why are sunsets red?\n');
      assert.equal(await app.systemInput.inputValue(), '');
      assert.equal(
        await page.getByTestId('notice').textContent(),
        "The example's SYSTEM went with its TEMPLATE: your template gets no system prompt you did not write.",
      );
      // nor is it written into the Modelfile that Explain gives to check in Ollama
      const modelfile = await page.getByTestId('modelfile').textContent();
      assert.match(modelfile, /^FROM \.\/model\.gguf/);
      assert.doesNotMatch(modelfile, /SYSTEM|concise/);
    });
  });

  test('the GGUF metadata table: whole keys and types, inset search box, a scroll box that shows it scrolls', { timeout: TEST_TIMEOUT }, async () => {
    await withApp(
      server(),
      async (app) => {
        const page = app.page;
        await page.getByTestId('gguf-input').setInputFiles(anyGguf());
        await eventually(async () => assert.match(await page.getByTestId('gguf-status').textContent(), /read .* of /), {
          timeout: 60_000,
        });
        const meta = page.getByTestId('gguf-metadata');
        await meta.locator('summary').first().click();
        // no key or type broken inside a word ("general. / architec / ture", "strin / g")
        const broken = await page.getByTestId('gguf-keys').evaluate((tbody) =>
          [...tbody.querySelectorAll('tr')].flatMap((tr) => {
            const [key, type] = tr.querySelectorAll('td');
            const lines = (el) => {
              const range = document.createRange();
              range.selectNodeContents(el);
              return new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size;
            };
            return [key, type].filter((td) => lines(td) > 1).map((td) => td.textContent);
          }),
        );
        assert.deepEqual(broken, []);
        // the search box and the tables sit inside the box, not flush with its edge
        const [pane, search, scroll] = await Promise.all([
          box(meta),
          box(page.getByTestId('gguf-search')),
          box(meta.locator('.table-scroll').first()),
        ]);
        assert.ok(search.left - pane.left >= 6 && pane.right - search.right >= 6, JSON.stringify({ pane, search }));
        assert.ok(scroll.left - pane.left >= 6 && pane.right - scroll.right >= 6, JSON.stringify({ pane, scroll }));
        // the scroll box is a bordered box whose scrollbar is always drawn, and the keyboard can scroll it
        const style = await meta.locator('.table-scroll').first().evaluate((el) => {
          const s = getComputedStyle(el);
          return { gutter: s.scrollbarGutter, border: s.borderTopWidth, tabindex: el.tabIndex, scrolls: el.scrollHeight > el.clientHeight };
        });
        assert.deepEqual(style, { gutter: 'stable', border: '1px', tabindex: 0, scrolls: true });
      },
      { viewport: SCREEN },
    );
  });

  test('labels share one face size and line; the special-token chip stays on one line', { timeout: TEST_TIMEOUT }, async () => {
    await withApp(
      server(),
      async (app) => {
        const page = app.page;
        await app.openMore();
        // every field label in the Model pane: one line height; labels in a row line up
        const rows = await page.locator('#model-pane .row').evaluateAll((rows) =>
          rows.map((row) =>
            [...row.querySelectorAll(':scope > .field > label')].map((l) => {
              const r = l.getBoundingClientRect();
              return { text: l.textContent, top: Math.round(r.top), height: Math.round(r.height), lh: getComputedStyle(l).lineHeight };
            }),
          ),
        );
        const all = rows.flat();
        assert.ok(all.length >= 6, JSON.stringify(all));
        assert.equal(new Set(all.map((l) => l.lh)).size, 1, JSON.stringify(all));
        // one line each, the same height whether the label is a word or a `key`
        assert.equal(new Set(all.map((l) => l.height)).size, 1, JSON.stringify(all));

        // the special-token legend is one line, even in a narrow column
        await page.setViewportSize({ width: 700, height: 900 });
        const chip = page.locator('#prompt-pane .tok-legend');
        await eventually(async () => assert.equal(await chip.count(), 1));
        assert.equal(await chip.evaluate((el) => el.getClientRects().length), 1);
      },
      { viewport: SCREEN },
    );
  });

  test('Explain speaks in sentences, not debug output', { timeout: TEST_TIMEOUT }, async () => {
    await withApp(server(), async (app) => {
      const page = app.page;
      await app.loadExample('chatml');
      const explain = page.locator('#explain-pane');
      await eventually(async () => assert.match(await explain.textContent(), /think/));
      const text = (await explain.textContent()).replace(/\s+/g, ' ');
      assert.doesNotMatch(text, /\[\]/, 'no empty Go lists');
      assert.doesNotMatch(text, /unset unset/);
      assert.doesNotMatch(text, /— GGUF has no pooling_type/);
      assert.match(
        await page.getByTestId('explain-think').textContent(),
        /the request does not set it and the model cannot think, so the template is told nothing about thinking/,
      );
    });
  });
});

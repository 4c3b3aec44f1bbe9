// Go's exact error text, with the line (and column) it names highlighted
// in the template editor; JSON errors with their line and column.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { eventually } from './support/app-page.mjs';
import { TEST_TIMEOUT, useAppServer, withApp } from './support/harness.mjs';

const server = useAppServer();

describe('errors and their positions', () => {
  test('a parse error highlights its line', { timeout: TEST_TIMEOUT }, async () => {
    await withApp(server(), async (app) => {
      await app.typeTemplate('{{ range .Messages }}\n{{ .Content }}\n{{ .Foo ');
      await eventually(async () => assert.equal(await app.errorText(), 'template: :3: unclosed action'));
      assert.equal(await app.promptText(), '');
      const editor = app.page.locator('.editor', { has: app.templateInput });
      assert.equal(await editor.locator('.gutter mark').textContent(), '3');
      assert.equal(await editor.locator('.backdrop .err-line').textContent(), '{{ .Foo ');
      assert.equal(await app.templateInput.getAttribute('aria-invalid'), 'true');
      // The path is not decided when the model's template does not load.
      assert.equal(await app.selectedPath.textContent(), '—');
    });
  });

  test('an execution error highlights its line and column', { timeout: TEST_TIMEOUT }, async () => {
    await withApp(server(), async (app) => {
      await app.setTemplate('ok\n{{ range .Messages }}\n  {{ index .Images 3 }}{{ end }}');
      await eventually(async () =>
        assert.equal(
          await app.errorText(),
          'template: :3:5: executing "" at <index .Images 3>: error calling index: index out of range: 3',
        ),
      );
      const editor = app.page.locator('.editor', { has: app.templateInput });
      assert.equal(await editor.locator('.backdrop .err-col').textContent(), 'i');
      assert.equal(await editor.locator('.gutter mark').textContent(), '3');
      // "Go to the error" selects the character in the textarea.
      await editor.getByRole('button', { name: /line 3/ }).click();
      const selection = await app.templateInput.evaluate((ta) => [ta.selectionStart, ta.selectionEnd]);
      assert.deepEqual(selection, [30, 31]);
      // Fixing the template clears everything.
      await app.setTemplate('ok');
      await eventually(async () => assert.equal(await app.errorText(), null));
      assert.equal(await editor.locator('.backdrop mark').count(), 0);
    });
  });

  test('a JSON error in the request names its line and column', { timeout: TEST_TIMEOUT }, async () => {
    await withApp(server(), async (app) => {
      await app.setRequest('{\n  "model": "demo",\n  "messages": ]\n}');
      await eventually(async () => assert.match(await app.requestError.textContent(), /line 3 column 15/));
      const editor = app.page.locator('.editor', { has: app.requestInput });
      assert.equal(await editor.locator('.backdrop .err-col').textContent(), ']');
      await eventually(async () => assert.match(await app.inputError.textContent(), /Request body:.*line 3 column 15/));
      // Not an Ollama error.
      assert.equal(await app.errorText(), null);
    });
  });

  test('a JSON error in the messages editor stays as typed', { timeout: TEST_TIMEOUT }, async () => {
    await withApp(server(), async (app) => {
      await app.tab('messages').click();
      const messages = app.page.getByTestId('messages-json');
      await messages.fill('[\n  {"role": "user", "content": "x"},\n  oops\n]');
      await eventually(async () =>
        assert.match(await app.page.getByTestId('messages-json-error').textContent(), /line 3 column 3/),
      );
      assert.equal(await messages.inputValue(), '[\n  {"role": "user", "content": "x"},\n  oops\n]');
      await messages.fill('[{"role": "user", "content": "fixed"}]');
      await eventually(async () => assert.match(await app.promptText(), /fixed/));
      await app.tab('body').click();
      assert.deepEqual((await app.requestJson()).messages, [{ role: 'user', content: 'fixed' }]);
    });
  });
});

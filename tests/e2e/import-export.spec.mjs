// Export the whole state as JSON (a render case for `promptscope render`)
// and import it back.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { describe, test } from 'node:test';

import { eventually } from './support/app-page.mjs';
import { TEST_TIMEOUT, useAppServer, withApp } from './support/harness.mjs';

const server = useAppServer();

describe('import and export', () => {
  test('exports a render case and imports it back', { timeout: TEST_TIMEOUT }, async () => {
    await withApp(server(), async (app) => {
      await app.loadExample('mistral');
      await eventually(async () => assert.match(await app.promptText(), /\[INST\] Reply in French\./));
      const prompt = await app.promptText();
      const [download] = await Promise.all([
        app.page.waitForEvent('download'),
        app.page.getByTestId('export-button').click(),
      ]);
      assert.equal(download.suggestedFilename(), 'promptscope-state.json');
      const file = await download.path();
      const exported = JSON.parse(await readFile(file, 'utf8'));
      assert.equal(exported.endpoint, 'chat');
      assert.equal(exported.model.system, 'Reply in French.');
      // JSON values, not strings: the file is a render case (shared/spec/cli.md).
      assert.equal(exported.request.messages[1].content, 'Comté.');

      await app.loadExample('phi');
      await eventually(async () => assert.match(await app.promptText(), /<\|user\|>/));
      await app.page.getByTestId('import-input').setInputFiles(file);
      await app.expectPrompt(prompt);
      assert.match(await app.notice.textContent(), /State imported/);
      assert.equal(await app.systemInput.inputValue(), 'Reply in French.');

      // A file that is not a state is refused with the reason.
      await app.page.getByTestId('import-input').setInputFiles({
        name: 'bad.json',
        mimeType: 'application/json',
        buffer: Buffer.from('{"endpoint": "pull"}'),
      });
      await eventually(async () => assert.match(await app.notice.textContent(), /Could not import: endpoint must be/));
      await app.expectPrompt(prompt);
    });
  });
});

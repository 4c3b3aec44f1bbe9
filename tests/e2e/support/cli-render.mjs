// The CLI's view of the app's state: the state exported as a render case
// and run through `promptscope render --json` with the test GGUF.
import { execFileSync } from 'node:child_process';
import { readFile } from 'node:fs/promises';

import { anyGguf, cli } from './fixtures.mjs';

/** Exports the app's state (a render case) and runs it through the CLI with the GGUF. */
export async function cliRender(app) {
  const [download] = await Promise.all([
    app.page.waitForEvent('download'),
    app.page.getByTestId('export-button').click(),
  ]);
  const exported = JSON.parse(await readFile(await download.path(), 'utf8'));
  exported.model.gguf = anyGguf();
  const out = execFileSync(cli(), ['render', '--json', '-'], { input: JSON.stringify(exported) });
  return JSON.parse(out.toString('utf8'));
}

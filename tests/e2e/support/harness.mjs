// Shared set-up for the specs: the release build served on a free port, a
// fresh Chromium per test, and the checks every test ends with (no request
// to another origin, no console error or uncaught exception).
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { after, before } from 'node:test';
import { fileURLToPath } from 'node:url';

import { AppPage } from './app-page.mjs';
import { openBrowser } from './browser.mjs';
import { startStaticServer } from './static-server.mjs';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
export const DIST = process.env.PROMPTSCOPE_DIST ?? path.join(ROOT, 'dist');
export const TEST_TIMEOUT = 120_000;

/** Serves dist/ for the specs of this file; returns a getter for the server. */
export function useAppServer() {
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
  return () => server;
}

/** Fails when the page talked to an origin outside `origins` or logged errors. */
export function assertClean(browser, origins) {
  const allowed = new Set(origins);
  const foreign = browser.requests.filter((url) => {
    const u = new URL(url);
    return !(u.protocol === 'blob:' || u.protocol === 'data:' || allowed.has(u.origin));
  });
  assert.deepEqual(foreign, [], 'requests to other origins');
  assert.deepEqual(browser.problems, [], 'console errors or uncaught exceptions');
}

/**
 * Opens the app (at `options.path`, default `/`) in a fresh browser profile,
 * runs `body(app, browser)`, then checks that the page only talked to its own
 * origin and logged no errors (CSP violations included).
 */
export async function withApp(server, body, options = {}) {
  const browser = await openBrowser(options);
  try {
    const app = new AppPage(browser.page);
    await app.open(server.url.replace(/\/$/, '') + (options.path ?? '/'));
    await body(app, browser);
    assertClean(browser, [server.origin]);
  } finally {
    await browser.close();
  }
}

// Launches Debian's Chromium through playwright-core. Nothing is ever downloaded:
// the executable is the system one, and a fresh temporary profile is used.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';

export const CHROMIUM_PATH = process.env.PROMPTSCOPE_CHROMIUM ?? '/usr/bin/chromium';

const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-quic',
  '--no-first-run',
  '--disable-component-update',
  '--disable-sync',
];

/**
 * The flags that give the page WebGPU: SwiftShader's software adapter by
 * default (what CI has), or the machine's own GPU where
 * PROMPTSCOPE_WEBGPU_ADAPTER=default (a GPU machine's benchmark).
 */
export function webgpuArgs() {
  const adapter = process.env.PROMPTSCOPE_WEBGPU_ADAPTER ?? 'swiftshader';
  const args = ['--enable-unsafe-webgpu', '--enable-features=Vulkan'];
  if (adapter !== 'default') args.push(`--use-webgpu-adapter=${adapter}`);
  return args;
}

/**
 * Starts Chromium with a fresh profile and opens one page. The page's requests,
 * console errors and uncaught exceptions are recorded for later checks.
 * `options.locale` sets navigator.language, `options.colorScheme` the
 * prefers-color-scheme media feature, `options.viewport` the window size,
 * `options.webgpu` gives the page WebGPU (see webgpuArgs).
 *
 * The app reloads itself once when its service worker first takes control,
 * to become cross-origin isolated (assets/boot.js). A reload in the middle
 * of a spec would lose what the spec was doing, so every tab starts as if it
 * had reloaded already (the flag boot.js sets), unless
 * `options.isolationReload` (isolation.spec.mjs tests the reload itself).
 */
export async function openBrowser(options = {}) {
  const userDataDir = await mkdtemp(path.join(os.tmpdir(), 'promptscope-e2e-'));
  const args = options.webgpu
    ? [...CHROMIUM_ARGS.filter((a) => a !== '--disable-gpu'), ...webgpuArgs()]
    : CHROMIUM_ARGS;
  let context;
  try {
    context = await chromium.launchPersistentContext(userDataDir, {
      executablePath: CHROMIUM_PATH,
      headless: true,
      args,
      viewport: options.viewport ?? { width: 1280, height: 900 },
      locale: options.locale ?? 'en-US',
      colorScheme: options.colorScheme ?? 'light',
      timeout: 60_000,
    });
  } catch (err) {
    await rm(userDataDir, { recursive: true, force: true });
    throw err;
  }
  if (!options.isolationReload) {
    await context.addInitScript(() => {
      try {
        sessionStorage.setItem('promptscope.isolation-reload', 'tests');
      } catch {
        // no storage (a sandboxed frame): nothing to reload there either
      }
    });
  }
  const requests = [];
  const problems = [];
  context.on('request', (request) => requests.push(request.url()));
  const page = context.pages()[0] ?? (await context.newPage());
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console error: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  return {
    context,
    page,
    requests,
    problems,
    async close() {
      await context.close();
      await rm(userDataDir, { recursive: true, force: true });
    },
  };
}

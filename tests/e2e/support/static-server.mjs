// A tiny static file server for the built app (dist/), on a free localhost port.
import { createServer } from 'node:http';
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';

const CONTENT_TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.wasm': 'application/wasm',
  '.json': 'application/json; charset=utf-8',
  '.webmanifest': 'application/manifest+json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.txt': 'text/plain; charset=utf-8',
};

/**
 * The headers that make a page cross-origin isolated (`crossOriginIsolated`,
 * hence SharedArrayBuffer and wasm threads), as a host configured for it
 * sends them; the app's service worker adds the same ones (assets/sw.js).
 */
export const ISOLATION_HEADERS = {
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-embedder-policy': 'require-corp',
};

/**
 * Serves the files under `root` on 127.0.0.1 at a free port. `setDown(true)`
 * makes it drop every connection unanswered, as an unreachable network
 * would, and `answered` counts the requests it answered. With
 * `options.isolated` every answer carries ISOLATION_HEADERS.
 * @param {string} root directory to serve
 * @param {{isolated?: boolean}} [options]
 * @returns {Promise<{origin: string, url: string, answered: () => number,
 *   setDown: (down: boolean) => void, close: () => Promise<void>}>}
 */
export async function startStaticServer(root, options = {}) {
  const base = path.resolve(root);
  let down = false;
  let answered = 0;
  const server = createServer(async (req, res) => {
    if (down) {
      req.socket.destroy();
      return;
    }
    answered++;
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { allow: 'GET, HEAD' }).end();
      return;
    }
    let file;
    try {
      let pathname = decodeURIComponent(new URL(req.url ?? '/', 'http://localhost').pathname);
      if (pathname.endsWith('/')) pathname += 'index.html';
      file = path.resolve(base, `.${pathname}`);
      if (file !== base && !file.startsWith(base + path.sep)) throw new Error('outside root');
      if (!(await stat(file)).isFile()) throw new Error('not a file');
    } catch {
      res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('not found\n');
      return;
    }
    const body = await readFile(file);
    res.writeHead(200, {
      'content-type': CONTENT_TYPES[path.extname(file)] ?? 'application/octet-stream',
      'content-length': body.length,
      'cache-control': 'no-store',
      'x-content-type-options': 'nosniff',
      // Lets a sandboxed iframe (opaque origin) load the app's module script
      // and wasm, as GitHub Pages and most static hosts allow.
      'access-control-allow-origin': '*',
      ...(options.isolated ? ISOLATION_HEADERS : {}),
    });
    res.end(req.method === 'HEAD' ? undefined : body);
  });
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.address();
  const origin = `http://127.0.0.1:${port}`;
  return {
    origin,
    url: `${origin}/`,
    answered: () => answered,
    setDown: (value) => {
      down = value;
      if (down) server.closeAllConnections();
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

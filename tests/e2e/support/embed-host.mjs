// A page on another origin that embeds the app in a sandboxed iframe and
// records the messages the frame posts back (for embed.spec.mjs).
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

import { startStaticServer } from './static-server.mjs';

/**
 * Serves `host.html` embedding `frameUrl` (`sandbox="allow-scripts"`, or
 * `options.sandbox`; null: not sandboxed) on a new localhost port.
 * `frameUrl` may be a function of the host's origin.
 */
export async function startEmbedHost(frameUrl, { sandbox = 'allow-scripts' } = {}) {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'promptscope-host-'));
  const server = await startStaticServer(dir);
  const src = typeof frameUrl === 'function' ? frameUrl(server.origin) : frameUrl;
  const html = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><link rel="icon" href="data:,"><title>Docs page embedding Promptscope</title></head>
<body>
<h1>Docs</h1>
<iframe id="frame" title="Promptscope"${sandbox === null ? '' : ` sandbox="${sandbox}"`} src="${src}" width="900" height="600"></iframe>
<script>
  window.received = [];
  window.addEventListener('message', (event) => {
    if (event.source !== document.getElementById('frame').contentWindow) return;
    window.received.push({ origin: event.origin, data: event.data });
  });
  window.send = (message) => document.getElementById('frame').contentWindow.postMessage(message, '*');
</script>
</body>
</html>
`;
  await writeFile(path.join(dir, 'host.html'), html);
  return {
    origin: server.origin,
    url: `${server.origin}/host.html`,
    async close() {
      await server.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

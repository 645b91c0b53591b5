import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { extname, join, normalize } from 'node:path';

/** A running loopback server and its base URL (ends with '/'). */
export interface StaticServer {
  readonly url: string;
  close(): Promise<void>;
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.wasm': 'application/wasm',
  '.txt': 'text/plain; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
};

/** The headers that make a page cross-origin isolated, so it gets SharedArrayBuffer (threads). */
export const ISOLATION_HEADERS = {
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Embedder-Policy': 'require-corp',
} as const;

/**
 * Serves `files` (path → contents, in memory) or a folder on 127.0.0.1 at a free port, with the
 * cross-origin isolation headers unless `isolated: false`. `/` serves `index.html`.
 */
export async function serveStatic(
  source: string | ReadonlyMap<string, string | Uint8Array>,
  options: { isolated?: boolean } = {},
): Promise<StaticServer> {
  const headers = options.isolated === false ? {} : ISOLATION_HEADERS;
  const server = createServer((req, res) => {
    const path =
      normalize(decodeURIComponent(new URL(req.url ?? '/', 'http://127.0.0.1').pathname)).replace(
        /^\/+/,
        '',
      ) || 'index.html';
    const body =
      typeof source === 'string'
        ? path.includes('..')
          ? Promise.reject(new Error('outside'))
          : readFile(join(source, path))
        : Promise.resolve(source.get(path));
    body
      .then((data) => {
        if (data === undefined) throw new Error('missing');
        res.writeHead(200, {
          'Content-Type': TYPES[extname(path)] ?? 'application/octet-stream',
          ...headers,
        });
        res.end(data);
      })
      .catch(() => {
        res.writeHead(404, headers);
        res.end('not found');
      });
  });
  await new Promise<void>((resolve, reject) =>
    server.once('error', reject).listen(0, '127.0.0.1', resolve),
  );
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  return {
    url: `http://127.0.0.1:${address.port}/`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

// The one origin the browser talks to in the client benchmarks. Peers are served from /peers/<name>/ and
// everything else is passed to the `ninefold serve` process, so that our client, the peers and the API
// share an origin and an API process. Both sides pay for this hop: our client's files and the API calls
// of both go through it.
//
// /ra-api/* speaks ra-data-simple-rest (range=[0,24], Content-Range) on top of our /api, so that the
// react-admin peer renders real rows. It is only what that peer needs, and it is not timed.
import { readFile } from 'node:fs/promises';
import { Agent, createServer, type IncomingMessage, request, type ServerResponse } from 'node:http';
import { extname, join, normalize, sep } from 'node:path';

export interface FrontServer {
  url: string;
  close(): Promise<void>;
}

export interface FrontOptions {
  /** The `ninefold serve` process, e.g. `http://127.0.0.1:41234`. */
  backend: string;
  /** Built peers by URL prefix, e.g. `{ '/peers/minimal-list/': dir }`. */
  peers: Record<string, string>;
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
};

// Keep-alive to the backend: otherwise every proxied request would pay a new TCP connection.
const agent = new Agent({ keepAlive: true, maxSockets: 16 });

export async function startFront(options: FrontOptions): Promise<FrontServer> {
  const backend = new URL(options.backend);
  const server = createServer((req, res) => {
    handle(req, res, options, backend).catch((error: Error) => {
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' });
      res.end(`bench server: ${error.message}`);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('the bench server has no port');
  return {
    url: `http://127.0.0.1:${address.port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function handle(
  req: IncomingMessage,
  res: ServerResponse,
  options: FrontOptions,
  backend: URL,
): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://bench');
  for (const [prefix, dir] of Object.entries(options.peers)) {
    if (url.pathname.startsWith(prefix)) return serveStatic(res, dir, url.pathname.slice(prefix.length));
  }
  if (url.pathname.startsWith('/ra-api/')) return simpleRest(req, res, url, backend);
  return proxy(req, res, backend, `${url.pathname}${url.search}`);
}

/** A file of `dir`, or its index.html for paths without an extension (deep links of a single-page app). */
async function serveStatic(res: ServerResponse, dir: string, relative: string): Promise<void> {
  const path = normalize(join(dir, decodeURIComponent(relative)));
  if (path !== dir && !path.startsWith(dir.endsWith(sep) ? dir : dir + sep)) {
    res.writeHead(403).end();
    return;
  }
  const extension = extname(path);
  const file = extension && relative !== '' ? path : join(dir, 'index.html');
  let body: Buffer;
  try {
    body = await readFile(file);
  } catch {
    res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
    return;
  }
  res.writeHead(200, {
    'content-type': TYPES[extname(file)] ?? 'application/octet-stream',
    'content-length': body.length,
    'cache-control': 'no-cache',
  });
  res.end(body);
}

function proxy(req: IncomingMessage, res: ServerResponse, backend: URL, path: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const outgoing = request(
      {
        host: backend.hostname,
        port: backend.port,
        method: req.method,
        path,
        headers: { ...req.headers, host: backend.host },
        agent,
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
        answer.once('end', resolve);
        answer.once('error', reject);
      },
    );
    outgoing.once('error', reject);
    req.pipe(outgoing);
  });
}

/**
 * GET /ra-api/orders?range=[0,24]&sort=["placedOn","DESC"] -> GET /api/orders?page=1&limit=25&sort=-placedOn,
 * answered as a simple-REST list. react-admin's default sort by id is left to our API's default order.
 */
async function simpleRest(req: IncomingMessage, res: ServerResponse, url: URL, backend: URL): Promise<void> {
  const path = url.pathname.slice('/ra-api'.length);
  const target = new URL(`/api${path}`, backend);
  const isList = path.split('/').filter(Boolean).length === 1;
  let first = 0;
  if (isList) {
    const range = JSON.parse(url.searchParams.get('range') ?? '[0,24]') as [number, number];
    first = range[0];
    const size = range[1] - range[0] + 1;
    target.searchParams.set('limit', String(size));
    target.searchParams.set('page', String(Math.floor(first / size) + 1));
    // sort=["placedOn","DESC"] -> sort=-placedOn: the list benchmark's react-admin asks for our list's order.
    const [field, order] = JSON.parse(url.searchParams.get('sort') ?? '[]') as [string?, string?];
    if (field !== undefined && field !== 'id')
      target.searchParams.set('sort', `${order === 'DESC' ? '-' : ''}${field}`);
  }
  const answer = await fetch(target, { method: req.method, headers: { accept: 'application/json' } });
  const body = (await answer.json()) as { items?: unknown[]; total?: number };
  if (!isList || !answer.ok) {
    res.writeHead(answer.status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    return;
  }
  const items = body.items ?? [];
  const resource = path.slice(1);
  res.writeHead(200, {
    'content-type': 'application/json',
    'content-range': `${resource} ${first}-${first + items.length - 1}/${body.total ?? items.length}`,
    'access-control-expose-headers': 'Content-Range',
  });
  res.end(JSON.stringify(items));
}

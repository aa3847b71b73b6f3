/**
 * Mounts a web-standard handler (`(Request) => Promise<Response>`, like the forms' doors) on Node's
 * http server, as Vite's dev and preview servers need: the same handler the Worker and the
 * Netlify Function run, with no Node-specific copy.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';

import { clientAddress, trustedProxies } from '#src/server/client-limits.ts';

export type WebHandler = (request: Request, client?: { address?: string }) => Promise<Response>;

/** The request as a web Request, its body streamed (the handler bounds how much it reads). */
export function toWebRequest(req: IncomingMessage, origin: string): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (Array.isArray(value)) for (const item of value) headers.append(name, item);
    else if (value !== undefined) headers.set(name, value);
  }
  const method = req.method ?? 'GET';
  const hasBody = method !== 'GET' && method !== 'HEAD';
  return new Request(new URL(req.originalUrl ?? req.url ?? '/', origin), {
    method,
    headers,
    body: hasBody ? (Readable.toWeb(req) as ReadableStream<Uint8Array>) : undefined,
    // Required by Node's fetch for a streamed body.
    ...(hasBody ? { duplex: 'half' } : {}),
  } as RequestInit);
}

/** Writes a web Response to Node's response. */
export async function sendWebResponse(response: Response, res: ServerResponse): Promise<void> {
  res.statusCode = response.status;
  response.headers.forEach((value, name) => res.setHeader(name, value));
  if (!response.body) {
    res.end();
    return;
  }
  await new Promise<void>((resolve, reject) => {
    Readable.fromWeb(response.body as NodeReadableStream<Uint8Array>)
      .on('error', reject)
      .pipe(res)
      .on('finish', resolve)
      .on('error', reject);
  });
}

declare module 'node:http' {
  interface IncomingMessage {
    /** Set by Connect when a middleware is mounted under a path. */
    originalUrl?: string;
  }
}

/**
 * A Connect middleware running `handler` for every request it is given, with the client's socket
 * address (a forwarded-for header counts only from a proxy named in TRUSTED_PROXIES).
 */
export function webMiddleware(handler: WebHandler) {
  const proxies = trustedProxies(process.env.TRUSTED_PROXIES);
  return (req: IncomingMessage, res: ServerResponse, next: (error?: unknown) => void): void => {
    const origin = `http://${req.headers.host ?? '127.0.0.1'}`;
    const forwarded = req.headers['x-forwarded-for'];
    const address = clientAddress(
      req.socket.remoteAddress,
      Array.isArray(forwarded) ? forwarded.join(',') : (forwarded ?? null),
      proxies,
    );
    handler(toWebRequest(req, origin), { address })
      .then((response) => sendWebResponse(response, res))
      .catch(next);
  };
}

/** Reading a request's body within bounds: every door's read (forms, links) and the Worker's last. */

/** Largest body the check reads (a submission is under 4 KB), and longest it may take to arrive. */
export const REQUEST_MAX_BODY_BYTES = 16 * 1024;
export const REQUEST_BODY_TIMEOUT_MS = 8_000;

export type BodyRead = { text: string } | { problem: 'too-large' | 'too-slow' };

/**
 * How much of a body is read to its end, whatever is kept: workerd keeps a connection whose upload was
 * left unread or cancelled open for the next request, which then fails (workerd issue 1741); under `vite`,
 * `vite preview` and `wrangler dev` every visitor's request shares it, so one refused post would turn
 * another visitor's next request into a 500. Only a larger body (no form sends one) is cut off unread.
 */
export const BODY_READ_TO_END_BYTES = 64 * 1024;

/** A body over `limit` is still read to its end (BODY_READ_TO_END_BYTES), discarded. */
export async function readBody(request: Request, limit: number, timeoutMs: number): Promise<BodyRead> {
  const declared = Number(request.headers.get('content-length') ?? '0');
  if (declared > BODY_READ_TO_END_BYTES) return { problem: 'too-large' };
  if (!request.body) return { text: '' };
  const reader = request.body.getReader();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timedOut = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), timeoutMs);
  });
  const chunks: Uint8Array<ArrayBuffer>[] = [];
  let size = 0;
  try {
    for (;;) {
      const next = await Promise.race([reader.read(), timedOut]);
      if (next === 'timeout') {
        void reader.cancel().catch(() => undefined);
        return { problem: 'too-slow' };
      }
      if (next.done) break;
      size += next.value.byteLength;
      if (size > BODY_READ_TO_END_BYTES) {
        void reader.cancel().catch(() => undefined);
        return { problem: 'too-large' };
      }
      if (size <= limit) chunks.push(next.value);
    }
  } finally {
    clearTimeout(timer);
  }
  return size > limit ? { problem: 'too-large' } : { text: await new Blob(chunks).text() };
}

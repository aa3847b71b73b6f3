/** A failed Airtable call, in Airtable's vocabulary; `status` 0 when no answer came. */
export class AirtableError extends Error {
  constructor(
    readonly status: number,
    readonly type: string,
    message: string,
  ) {
    super(message);
    this.name = 'AirtableError';
  }

  /** Worth another try later: rate limit, server error, timeout or a dropped connection. */
  get transient(): boolean {
    return this.status === 0 || this.status === 429 || this.status >= 500;
  }
}

type ErrorBody = {
  error?: string | { type?: string; message?: string };
  errors?: { error?: string; message?: string }[];
};

/** Airtable answers most errors as { error }, and rate limits as { errors: [{ error }] }. */
export async function errorFrom(response: Response): Promise<AirtableError> {
  // Not JSON (a proxy's HTML page): keep the status.
  const body = (await response.json().catch(() => undefined)) as ErrorBody | undefined;
  const first = body?.errors?.[0];
  const error = body?.error ?? (first ? { type: first.error, message: first.message } : undefined);
  const type = (typeof error === 'string' ? error : error?.type) || `HTTP_${response.status}`;
  const message =
    (typeof error === 'object' ? error.message : undefined) ||
    response.statusText ||
    'Airtable answered with an error';
  return new AirtableError(response.status, type, message.slice(0, 300));
}

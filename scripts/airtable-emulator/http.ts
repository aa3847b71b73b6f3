/** The emulator's HTTP plumbing: Airtable's error bodies, JSON answers, bodies up to its size limit. */
import type http from 'node:http';

const MAX_BODY_BYTES = 1_000_000;

/** An error that becomes an Airtable-style JSON error answer. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly type: string,
    message: string,
  ) {
    super(message);
  }
}

const DEFAULT_ERRORS: Readonly<Record<number, readonly [string, string]>> = {
  400: ['INVALID_REQUEST_UNKNOWN', 'Invalid request: parameter validation failed.'],
  401: ['AUTHENTICATION_REQUIRED', 'Authentication required'],
  403: [
    'INVALID_PERMISSIONS_OR_MODEL_NOT_FOUND',
    'Invalid permissions, or the requested model was not found. Check that both your user and your token have the required permissions, and that the model names and/or ids are correct.',
  ],
  404: ['NOT_FOUND', 'Could not find what you are looking for'],
  413: ['REQUEST_TOO_LARGE', 'Request body is too large'],
  422: ['INVALID_REQUEST_UNKNOWN', 'Invalid request: parameter validation failed.'],
  429: ['RATE_LIMIT_REACHED', 'Rate limit exceeded. Please try again later'],
  500: ['SERVER_ERROR', 'Try again. If the problem persists, contact support.'],
  503: ['SERVICE_UNAVAILABLE', 'The service is temporarily unavailable. Please retry shortly.'],
};

const UNEXPECTED_ERROR = ['UNEXPECTED_ERROR', 'An unexpected error occurred'] as const;

/** An ApiError, with Airtable's usual type and message for the status unless given. */
export function apiError(status: number, type?: string, message?: string): ApiError {
  const [defaultType, defaultMessage] = DEFAULT_ERRORS[status] ?? UNEXPECTED_ERROR;
  return new ApiError(status, type ?? defaultType, message ?? defaultMessage);
}

/** Answers JSON, unless the answer is already over (a hung or dropped request). */
export function sendJson(res: http.ServerResponse, status: number, body: unknown): void {
  if (res.writableEnded || res.destroyed) return;
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
  res.end(JSON.stringify(body));
}

/** Answers an Airtable-style error; Airtable's 429 body uses the older `errors` array shape. */
export function sendError(res: http.ServerResponse, { status, type, message }: ApiError): void {
  const body = status === 429 ? { errors: [{ error: type, message }] } : { error: { type, message } };
  sendJson(res, status, body);
}

/** The parsed JSON body, or undefined when empty; 413 above 1 MB, 422 when not JSON. */
export async function readBody(req: http.IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size <= MAX_BODY_BYTES) chunks.push(chunk);
  }
  if (size > MAX_BODY_BYTES) throw apiError(413);
  const text = Buffer.concat(chunks).toString('utf8');
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    throw apiError(422, 'INVALID_REQUEST_UNKNOWN', 'Invalid request: the request body is not valid JSON.');
  }
}

/** True for a plain JSON object (not null, not an array). */
export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

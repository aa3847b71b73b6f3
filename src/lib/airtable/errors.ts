import { STORAGE_ERRORS } from '#src/config/messages.ts';
import type { FormContract } from '#src/lib/forms/contract.ts';
import { AirtableConfigError } from './client.ts';

/** Which spec message a storage failure shows. */
export type StorageErrorKind = 'invalid-email' | 'invalid-api-key' | 'not-authorized' | 'failed';

/** The only error the storage layer throws: `message` is the spec's text, `cause` the original. */
export class StorageError extends Error {
  constructor(
    readonly kind: StorageErrorKind,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'StorageError';
  }
}

/** Raised when the storage layer's own answer bound runs out before Airtable answers. */
export class StorageTimeoutError extends Error {
  constructor(readonly boundMs: number) {
    super(`No answer from Airtable within ${boundMs} ms`);
    this.name = 'StorageTimeoutError';
  }
}

/** The parts of an airtable.js error (AirtableError, or fetch's own) the mapping reads. */
interface ErrorLike {
  error?: unknown;
  statusCode?: unknown;
  message?: unknown;
  type?: unknown;
}

function read(error: unknown): ErrorLike {
  return typeof error === 'object' && error !== null ? (error as ErrorLike) : {};
}

const INVALID_KEY_TYPES = new Set(['AUTHENTICATION_REQUIRED', 'INVALID_API_KEY', 'UNAUTHORIZED']);
const NOT_AUTHORIZED_TYPES = new Set([
  'NOT_AUTHORIZED',
  'INVALID_PERMISSIONS',
  'INVALID_PERMISSIONS_OR_MODEL_NOT_FOUND',
  'PERMISSION_DENIED',
]);

/** The airtable.js error code ('NOT_FOUND', 'TOO_MANY_REQUESTS', …) or undefined. */
function airtableErrorType(error: unknown): string | undefined {
  const { error: type } = read(error);
  return typeof type === 'string' ? type.toUpperCase() : undefined;
}

/** The HTTP status an airtable.js error carries; undefined for connection failures and timeouts. */
function airtableStatusCode(error: unknown): number | undefined {
  const { statusCode } = read(error);
  return typeof statusCode === 'number' ? statusCode : undefined;
}

/** True for Airtable's rate-limit answer, the one failure that is safe and useful to retry. */
export function isRateLimited(error: unknown): boolean {
  return airtableStatusCode(error) === 429 || airtableErrorType(error) === 'TOO_MANY_REQUESTS';
}

/**
 * Which spec message an error deserves. airtable.js reports 401/403/404/413/422/429/500/503 as
 * AirtableError { error, message, statusCode }; network failures and aborts arrive as plain
 * errors without a status (or as CONNECTION_ERROR) and, like every other case, are 'failed'.
 */
export function classifyStorageError(error: unknown): StorageErrorKind {
  if (error instanceof StorageError) return error.kind;
  if (error instanceof AirtableConfigError)
    return error.missing === 'apiKey' ? 'invalid-api-key' : 'not-authorized';
  const status = airtableStatusCode(error);
  const type = airtableErrorType(error);
  if (status === 401 || (type !== undefined && INVALID_KEY_TYPES.has(type))) return 'invalid-api-key';
  if (status === 403 || (type !== undefined && NOT_AUTHORIZED_TYPES.has(type))) return 'not-authorized';
  const { message } = read(error);
  if (typeof message === 'string' && /permission denied/i.test(message)) return 'not-authorized';
  return 'failed';
}

/** Maps any failure of a storage call to a StorageError carrying the spec's message. */
export function toStorageError(error: unknown, form: Pick<FormContract, 'words'>): StorageError {
  if (error instanceof StorageError) return error;
  const kind = classifyStorageError(error);
  const message = {
    'invalid-api-key': STORAGE_ERRORS.invalidApiKey,
    'not-authorized': STORAGE_ERRORS.notAuthorized,
    'invalid-email': STORAGE_ERRORS.invalidEmailFormat,
    failed: form.words.failed,
  }[kind];
  return new StorageError(kind, message, { cause: error });
}

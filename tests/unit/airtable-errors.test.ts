import { describe, expect, it } from 'vitest';
import { STORAGE_ERRORS } from '#src/config/messages.ts';
import { AirtableConfigError } from '#src/lib/airtable/client.ts';
import {
  StorageError,
  classifyStorageError,
  isRateLimited,
  toStorageError,
} from '#src/lib/airtable/errors.ts';
import { QUOTE_FORM, WAITLIST_FORM } from '#src/lib/forms/forms.ts';

/** The shape airtable.js's AirtableError has. */
function airtableError(error: string, statusCode: number | null, message = 'from airtable.js') {
  return { error, message, statusCode };
}

describe('toStorageError', () => {
  it.each([
    [airtableError('AUTHENTICATION_REQUIRED', 401), STORAGE_ERRORS.invalidApiKey],
    [airtableError('INVALID_API_KEY', 422), STORAGE_ERRORS.invalidApiKey],
    [airtableError('NOT_AUTHORIZED', 403), STORAGE_ERRORS.notAuthorized],
    [airtableError('INVALID_PERMISSIONS_OR_MODEL_NOT_FOUND', 422), STORAGE_ERRORS.notAuthorized],
    [
      airtableError('UNEXPECTED_ERROR', 400, 'Permission denied for this table'),
      STORAGE_ERRORS.notAuthorized,
    ],
    [airtableError('NOT_FOUND', 404), STORAGE_ERRORS.quoteFailed],
    [airtableError('REQUEST_TOO_LARGE', 413), STORAGE_ERRORS.quoteFailed],
    [airtableError('INVALID_MULTIPLE_CHOICE_OPTIONS', 422), STORAGE_ERRORS.quoteFailed],
    [airtableError('TOO_MANY_REQUESTS', 429), STORAGE_ERRORS.quoteFailed],
    [airtableError('SERVER_ERROR', 500), STORAGE_ERRORS.quoteFailed],
    [airtableError('SERVICE_UNAVAILABLE', 503), STORAGE_ERRORS.quoteFailed],
    [airtableError('CONNECTION_ERROR', null), STORAGE_ERRORS.quoteFailed],
    [new TypeError('Failed to fetch'), STORAGE_ERRORS.quoteFailed],
    [
      Object.assign(new Error('The operation was aborted.'), { name: 'AbortError' }),
      STORAGE_ERRORS.quoteFailed,
    ],
    ['a string', STORAGE_ERRORS.quoteFailed],
    [undefined, STORAGE_ERRORS.quoteFailed],
    [new AirtableConfigError('apiKey'), STORAGE_ERRORS.invalidApiKey],
    [new AirtableConfigError('baseId'), STORAGE_ERRORS.notAuthorized],
  ])('maps %o to its spec message', (error, message) => {
    const mapped = toStorageError(error, QUOTE_FORM);
    expect(mapped).toBeInstanceOf(StorageError);
    expect(mapped.message).toBe(message);
    expect(mapped.cause).toBe(error);
  });

  it('uses the waitlist generic message for the waitlist', () => {
    expect(toStorageError(airtableError('SERVER_ERROR', 500), WAITLIST_FORM).message).toBe(
      STORAGE_ERRORS.waitlistFailed,
    );
    expect(toStorageError(airtableError('AUTHENTICATION_REQUIRED', 401), WAITLIST_FORM).message).toBe(
      STORAGE_ERRORS.invalidApiKey,
    );
  });

  it('passes a StorageError through unchanged', () => {
    const original = new StorageError('invalid-email', STORAGE_ERRORS.invalidEmailFormat);
    expect(toStorageError(original, WAITLIST_FORM)).toBe(original);
    expect(classifyStorageError(original)).toBe('invalid-email');
  });
});

describe('isRateLimited', () => {
  it('recognises only 429', () => {
    expect(isRateLimited(airtableError('TOO_MANY_REQUESTS', 429))).toBe(true);
    expect(isRateLimited(airtableError('SERVER_ERROR', 500))).toBe(false);
    expect(isRateLimited(new Error('x'))).toBe(false);
  });
});

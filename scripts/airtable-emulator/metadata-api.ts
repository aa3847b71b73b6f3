/**
 * The subset of Airtable's Metadata API the owner's setup and check commands use:
 *
 *   GET  /v0/meta/bases/{baseId}/tables                              list tables with fields
 *   POST /v0/meta/bases/{baseId}/tables                              create a table with fields
 *   POST /v0/meta/bases/{baseId}/tables/{tableIdOrName}/fields       create a field
 *
 * Answers and errors in Airtable's shapes; scopes are checked by the caller (rest-api.ts).
 */
import { ApiError, apiError } from './http.ts';
import type { Scope } from './model.ts';
import type { BaseStore } from './store.ts';

/** The scope a Metadata API request needs: reading or changing the base's schema. */
export function metadataScope(method: string): Scope {
  return method === 'GET' ? 'schema.bases:read' : 'schema.bases:write';
}

/**
 * Serves one Metadata API request: its answer's JSON body (status 200). `segments` are the path's parts after /v0/meta, decoded:
 * ['bases', baseId, 'tables', …].
 */
export function handleMetadata(
  store: BaseStore,
  method: string,
  segments: readonly string[],
  body: unknown,
): unknown {
  const [bases, baseId, tables, tableIdOrName, fields, ...rest] = segments;
  if (bases !== 'bases' || tables !== 'tables' || rest.length > 0) throw apiError(404);
  // Airtable does not say whether a base exists to a token that cannot see it.
  if (baseId !== store.baseId) throw apiError(403);
  if (!tableIdOrName) {
    if (method === 'GET') return { tables: store.describeTables() };
    if (method === 'POST') return store.createTable(body);
  } else if (fields === 'fields' && method === 'POST') {
    try {
      return store.createField(tableIdOrName, body);
    } catch (error) {
      if (error instanceof ApiError && error.type === 'TABLE_NOT_FOUND') throw apiError(403);
      throw error;
    }
  }
  throw apiError(404);
}

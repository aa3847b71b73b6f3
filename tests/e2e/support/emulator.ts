import type { APIRequestContext } from '@playwright/test';
import type { Fault, LoggedRequest } from '#scripts/airtable-emulator/emulator.ts';
import { EMULATOR_URL } from './config.mjs';
import { expect } from './fixtures.ts';

/**
 * The local Airtable emulator's admin API (scripts/airtable-emulator/,  under /__emulator/).
 * The emulator is shared by every worker of the run: records, faults and the request log too.
 */

export type { Fault, LoggedRequest };

/** The waitlist form's table. */
export const WAITLIST_TABLE = 'Waitlist';
/** The schools quote form's table. */
export const QUOTES_TABLE = 'School Quotes';

/** A record as the admin API returns it. */
export type StoredRecord = { id: string; createdTime: string; fields: Record<string, unknown> };

/** The admin API's address for a table's records (of the shared emulator, or the one given). */
const adminRecordsUrl = (table: string, emulator = EMULATOR_URL) =>
  `${emulator}/__emulator/records/${encodeURIComponent(table)}`;

/** The email as the store keeps it: trimmed and lower-cased. */
export const storedEmail = (email: string) => email.trim().toLowerCase();

/** Every record of a table (the admin API must answer). */
export async function allRecords(
  request: APIRequestContext,
  table: string,
  emulator = EMULATOR_URL,
): Promise<StoredRecord[]> {
  const response = await request.get(adminRecordsUrl(table, emulator));
  expect(response.ok()).toBe(true);
  return ((await response.json()) as { records: StoredRecord[] }).records;
}

/** The records of a table whose Email is this address as stored (trimmed, lower-cased). */
export async function recordsFor(
  request: APIRequestContext,
  table: string,
  email: string,
  emulator = EMULATOR_URL,
): Promise<StoredRecord[]> {
  const records = await allRecords(request, table, emulator);
  return records.filter((record) => record.fields.Email === storedEmail(email));
}

/**
 * The records stored for `email`, once there is one: the site's server queues a submission and
 * its one paced writer stores it a moment after the visitor's answer.
 */
export async function storedRecordsFor(
  request: APIRequestContext,
  table: string,
  email: string,
  emulator = EMULATOR_URL,
): Promise<StoredRecord[]> {
  let records: StoredRecord[] = [];
  await expect
    .poll(async () => (records = await recordsFor(request, table, email, emulator)).length, {
      message: `a ${table} record for ${email}`,
      timeout: 15_000,
    })
    .toBeGreaterThan(0);
  return records;
}

/** Stores a record straight into a table, bypassing the site, and returns it. */
export async function seedRecord(
  request: APIRequestContext,
  table: string,
  fields: Record<string, unknown>,
  emulator = EMULATOR_URL,
): Promise<StoredRecord> {
  const response = await request.post(adminRecordsUrl(table, emulator), { data: { fields } });
  expect(response.ok()).toBe(true);
  return (await response.json()) as StoredRecord;
}

/** Arms one fault for the next matching API requests (faults are global to the emulator). */
export async function addFault(
  request: APIRequestContext,
  fault: Fault,
  emulator = EMULATOR_URL,
): Promise<void> {
  const response = await request.post(`${emulator}/__emulator/faults`, { data: fault });
  expect(response.ok(), `could not inject ${JSON.stringify(fault)}`).toBe(true);
}

/** The faults the emulator still holds, from every worker. */
export async function pendingFaults(request: APIRequestContext): Promise<Fault[]> {
  const response = await request.get(`${EMULATOR_URL}/__emulator/faults`);
  expect(response.ok()).toBe(true);
  return ((await response.json()) as { faults: Fault[] }).faults;
}

/** API requests the emulator logged at or after `since` (its log is shared by every worker). */
export async function emulatorRequestsSince(
  request: APIRequestContext,
  since: number,
  emulator = EMULATOR_URL,
): Promise<LoggedRequest[]> {
  const response = await request.get(`${emulator}/__emulator/requests`);
  expect(response.ok()).toBe(true);
  const { requests } = (await response.json()) as { requests: LoggedRequest[] };
  return requests.filter((entry) => Date.parse(entry.at) >= since);
}

/**
 * After a refused address was fixed and the fixed one stored: requests were sent, none named the
 * refused address, and the table holds the fixed address once and the refused one never.
 */
export async function expectOnlyTheFixedAddressSent(
  request: APIRequestContext,
  table: string,
  sent: string[],
  { refused, fixed }: { refused: string; fixed: string },
): Promise<void> {
  expect(sent.length, 'requests to the storage service').toBeGreaterThan(0);
  expect(
    sent.filter((body) => body.toLowerCase().includes(storedEmail(refused))),
    'requests naming the refused address',
  ).toEqual([]);
  expect(await recordsFor(request, table, fixed)).toHaveLength(1);
  expect(await recordsFor(request, table, refused)).toEqual([]);
}

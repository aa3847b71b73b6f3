// @vitest-environment node
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AIRTABLE_SCHEMA } from '#src/lib/airtable/schema.ts';
import {
  siteBaseSchema,
  startEmulator,
  type InitialSchema,
  type RunningEmulator,
  type TableInput,
} from '#scripts/airtable-emulator/emulator.ts';
import { checkBase, main, PROBE_EMAIL, setupBase } from '#scripts/launch-kit/airtable.ts';

// The owner's two Airtable commands against the emulator's Metadata API: a schema token (all
// schema scopes), the site's token (records only), and tokens lacking one scope each.
const SCHEMA_TOKEN = 'patOwnerSchema.test';
const SCHEMA_READER = 'patSchemaReader.test';
const SITE_TOKEN = 'patSiteRelay.test';
const SITE_READ_ONLY = 'patSiteReadOnly.test';

let emulator: RunningEmulator | undefined;
afterEach(async () => {
  await emulator?.close();
  emulator = undefined;
});

async function base(schema: InitialSchema) {
  emulator = await startEmulator({
    port: 0,
    rateLimitPerSecond: 0,
    schema,
    tokens: [
      { token: SCHEMA_TOKEN, scopes: ['schema.bases:read', 'schema.bases:write'] },
      { token: SCHEMA_READER, scopes: ['schema.bases:read'] },
      { token: SITE_TOKEN, scopes: ['data.records:read', 'data.records:write'] },
      { token: SITE_READ_ONLY, scopes: ['data.records:read'] },
    ],
  });
  const access = (token: string) => ({ endpointUrl: emulator!.url, baseId: emulator!.baseId, token });
  const check = (siteToken = SITE_TOKEN) =>
    checkBase({
      endpointUrl: emulator!.url,
      baseId: emulator!.baseId,
      schemaToken: SCHEMA_READER,
      siteToken,
    });
  return { emulator, access, check };
}

/** The site's schema with one table's fields changed. */
function siteSchemaWith(
  table: string,
  change: (fields: TableInput['fields']) => TableInput['fields'],
): TableInput[] {
  return siteBaseSchema().map((t) => (t.name === table ? { ...t, fields: change(t.fields) } : t));
}

const Q = AIRTABLE_SCHEMA.quote;
const W = AIRTABLE_SCHEMA.waitlist;

describe('npm run airtable:setup', () => {
  it('creates both tables on an empty base, and a second run changes nothing', async () => {
    const { access, check } = await base('empty');
    const first = await setupBase(access(SCHEMA_TOKEN));
    expect(first).toMatchObject({ ok: true, changed: true });
    expect(first.lines).toEqual([
      expect.stringContaining(`Created table '${W.name}'`),
      expect.stringContaining(`Created table '${Q.name}'`),
    ]);
    const second = await setupBase(access(SCHEMA_TOKEN));
    expect(second).toEqual({ ok: true, changed: false, lines: [expect.stringContaining('Nothing to do')] });
    const report = await check();
    expect(report.ok, report.lines.join('\n')).toBe(true);
  });

  it('adds only the missing fields to a half-built base, keeping what is there', async () => {
    const halfBuilt: TableInput[] = [
      {
        name: W.name,
        fields: [
          { name: W.fields.email.name, type: 'email' },
          { name: 'Notes', type: 'multilineText' },
        ],
      },
    ];
    const { access, check } = await base(halfBuilt);
    const report = await setupBase(access(SCHEMA_TOKEN));
    expect(report.ok).toBe(true);
    expect(report.lines).toContain(
      `Created table '${Q.name}' with ${Object.values(Q.fields)
        .map((f) => `'${f.name}'`)
        .join(', ')}.`,
    );
    const added = report.lines.filter((line) => line.startsWith(`Added field '${W.name}'`));
    expect(added).toHaveLength(Object.keys(W.fields).length - 1);
    expect(report.lines.join('\n')).not.toContain(`'${W.fields.email.name}' (`);
    const result = await check();
    expect(result.ok, result.lines.join('\n')).toBe(true);
  });

  it('never retypes a wrongly typed field, and says so', async () => {
    const { access } = await base(
      siteSchemaWith(Q.name, (fields) =>
        fields.map((f) => (f.name === Q.fields.useCases.name ? { name: f.name, type: 'singleLineText' } : f)),
      ),
    );
    const report = await setupBase(access(SCHEMA_TOKEN));
    expect(report.ok).toBe(false);
    expect(report.changed).toBe(false);
    expect(report.lines).toEqual([
      expect.stringMatching(/^Left as is: 'School Quotes' › 'Use Cases' is singleLineText/),
    ]);
  });

  it('stops with the scope it needs when the token may only read the schema', async () => {
    const { access, emulator: running } = await base('empty');
    const report = await setupBase(access(SCHEMA_READER));
    expect(report.ok).toBe(false);
    expect(report.lines.join('\n')).toContain('lacks schema.bases:write');
    expect(
      running
        .requests()
        .filter((r) => r.method === 'POST')
        .every((r) => r.status === 403),
    ).toBe(true);
  });

  it('runs as a command from environment variables and exits 0, or 2 without a base id', async () => {
    const { emulator: running } = await base('empty');
    const log = vi.spyOn(console, 'log').mockImplementation(() => undefined);
    const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const env = {
      AIRTABLE_BASE_ID: running.baseId,
      AIRTABLE_SCHEMA_TOKEN: SCHEMA_TOKEN,
      AIRTABLE_ENDPOINT_URL: running.url,
    };
    expect(await main(['setup'], env)).toBe(0);
    expect(log).toHaveBeenCalledWith(expect.stringContaining('Created table'));
    expect(await main(['setup'], { AIRTABLE_SCHEMA_TOKEN: SCHEMA_TOKEN })).toBe(2);
    expect(error).toHaveBeenCalledWith(expect.stringContaining('AIRTABLE_BASE_ID'));
    expect(
      await main(['check', '--site-token', SITE_TOKEN], { ...env, AIRTABLE_SCHEMA_TOKEN: SCHEMA_READER }),
    ).toBe(0);
  });
});

describe('npm run airtable:check', () => {
  it('passes on the site schema: every field present, the probe record created, updated and deleted', async () => {
    const { check, emulator: running } = await base('site');
    const report = await check();
    expect(report.ok).toBe(true);
    expect(report.lines).toContain(`${W.name}: present`);
    expect(report.lines).toContain(`  ${W.fields.interests.name}: present (multipleSelects)`);
    expect(
      report.lines.filter(
        (line) => line === '  site token: lookup ok, create ok, update ok, test record deleted',
      ),
    ).toHaveLength(2);
    expect(running.records(W.name)).toEqual([]);
  });

  it('lists every address stored twice (however spelled), for the owner to merge, and fails', async () => {
    const { check, emulator: running } = await base('site');
    expect((await check()).lines.filter((line) => line === '  stored twice: none')).toHaveLength(2);
    const first = running.seed(W.name, { [W.fields.email.name]: 'twice@example.com' });
    const second = running.seed(W.name, { [W.fields.email.name]: ' Twice@Example.com' });
    running.seed(W.name, { [W.fields.email.name]: 'once@example.com' });
    const report = await check();
    expect(report.ok).toBe(false);
    expect(report.lines).toContain(
      `  STORED TWICE: twice@example.com in 2 records (${first.id}, ${second.id}): merge them into one`,
    );
    expect(report.lines.join('\n')).not.toContain('once@example.com');
  });

  it('verifies the Email Key the writes merge on', async () => {
    const { check } = await base('site');
    expect((await check()).lines).toContain('  Email Key: present (singleLineText)');
  });

  it('fails naming a wrongly typed field', async () => {
    const { check } = await base(
      siteSchemaWith(W.name, (fields) =>
        fields.map((f) =>
          f.name === W.fields.interests.name ? { name: f.name, type: 'singleLineText' } : f,
        ),
      ),
    );
    const report = await check();
    expect(report.ok).toBe(false);
    expect(report.lines).toContain('  Interests: WRONG TYPE singleLineText, needs multipleSelects');
  });

  it('fails naming a missing field, and a missing table', async () => {
    const { check } = await base(
      siteSchemaWith(Q.name, (fields) => fields.filter((f) => f.name !== Q.fields.role.name)).filter(
        (t) => t.name !== W.name,
      ),
    );
    const report = await check();
    expect(report.ok).toBe(false);
    expect(report.lines).toContain('  Role: MISSING (needs singleLineText)');
    expect(report.lines).toContain(`${W.name}: MISSING table`);
  });

  it("fails when the site's token cannot create, and leaves no test record behind", async () => {
    const { check, emulator: running } = await base('site');
    const report = await check(SITE_READ_ONLY);
    expect(report.ok).toBe(false);
    expect(report.lines).toContain(
      '  site token: lookup ok, create REFUSED (403 INVALID_PERMISSIONS_OR_MODEL_NOT_FOUND: the token lacks data.records:write, or cannot see this base), update not tried',
    );
    expect(running.records(Q.name)).toEqual([]);
  });

  it('says so, without failing, when the token may not delete the test record', async () => {
    const { check, emulator: running } = await base('site');
    running.addFaults({ method: 'DELETE', table: Q.name, status: 403 });
    const report = await check();
    expect(report.ok).toBe(true);
    expect(report.lines.join('\n')).toContain(`may not delete: remove the record`);
    expect(running.records(Q.name).map((record) => record.fields.Email)).toEqual([PROBE_EMAIL]);
  });

  it('fails when the schema token cannot read the schema', async () => {
    const { emulator: running } = await base('site');
    const report = await checkBase({
      endpointUrl: running.url,
      baseId: running.baseId,
      schemaToken: SITE_TOKEN,
      siteToken: SITE_TOKEN,
    });
    expect(report).toEqual({ ok: false, lines: [expect.stringContaining('lacks schema.bases:read')] });
  });
});

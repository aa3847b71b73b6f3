// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { faultsFrom, renderRecordsPage } from '#scripts/airtable-emulator/admin.ts';

describe('admin page and API helpers', () => {
  it('lists records newest first under their columns, escaping what visitors typed', () => {
    const page = renderRecordsPage(
      {
        Waitlist: [
          { id: 'rec1', createdTime: '', fields: { Email: 'first@x.co' } },
          { id: 'rec2', createdTime: '', fields: { Email: '<b>@x.co', Interests: ['a', 'b'] } },
        ],
      },
      { Waitlist: ['Email', 'Interests'] },
      'appX',
    );
    expect(page).toContain('<h2>Waitlist (2)</h2>');
    expect(page).toContain('<th scope="col">Interests</th>');
    expect(page).not.toContain('<b>@x.co');
    expect(page.indexOf('&#60;b&#62;@x.co')).toBeLessThan(page.indexOf('first@x.co'));
    expect(page).toContain('<td>a, b</td>');
  });

  it('takes one fault, a list, or { faults }, and ignores what is not an object', () => {
    expect(faultsFrom({ status: 500 })).toEqual([{ status: 500 }]);
    expect(faultsFrom([{ kind: 'hang' }, 3])).toEqual([{ kind: 'hang' }]);
    expect(faultsFrom({ faults: [{ kind: 'drop' }] })).toEqual([{ kind: 'drop' }]);
  });
});

/** The privacy page says what the system does: the retention period, and how to ask for erasure or a copy. */
import { describe, expect, it } from 'vitest';
import { DATA_RETENTION_MONTHS, PENDING_RETENTION_DAYS } from '#src/config/constants.ts';
import { CONTACT_EMAIL } from '#src/config/site.ts';
import { PRIVACY } from '#src/content/legal/privacy.ts';

const section = (heading: string) =>
  PRIVACY.sections
    .filter((candidate) => candidate.heading === heading)
    .flatMap((candidate) => [...(candidate.paragraphs ?? []), ...(candidate.list ?? [])])
    .join('\n');

describe('the privacy page keeps to what the retention job does', () => {
  it('states the retention period of waitlist and quote details, applied daily', () => {
    const text = section('How long we keep information');
    expect(text).toContain(`${DATA_RETENTION_MONTHS} months after your last contact with us`);
    expect(text).toMatch(/waitlist or ask for a school quote/);
    expect(text).toMatch(/every day and delete waitlist sign-ups and quote requests/);
  });

  it('says unconfirmed sign-ups are deleted after 30 days, and how unsubscribing keeps a suppression entry', () => {
    const text = section('How long we keep information');
    expect(PENDING_RETENTION_DAYS).toBe(30);
    expect(text).toContain(
      `If the sign-up is not confirmed within ${PENDING_RETENTION_DAYS} days, we delete it`,
    );
    expect(text).toMatch(/If you unsubscribe, we stop sending you news at once/);
    expect(text).toMatch(/keep your email address marked as unsubscribed, so that we remember your choice/);
    expect(text).toContain(
      `deleted ${DATA_RETENTION_MONTHS} months after your last contact with us, or sooner if you ask`,
    );
  });

  it('says how to ask for erasure or a copy: the contact address, answered within one month', () => {
    const text = section('How long we keep information');
    expect(text).toContain(`email ${CONTACT_EMAIL}`);
    expect(text).toMatch(/deleted sooner, or to get a copy of everything we hold about you/);
    expect(text).toContain('within one month');
    expect(section('Your rights')).toContain(CONTACT_EMAIL);
  });
});

import { WAITLIST_INTEREST_OPTIONS } from '#src/content/home.ts';
import { OTHER_USE_CASE_LABEL, USE_CASE_OPTIONS } from '#src/features/quote/use-cases.ts';
import { AIRTABLE_SCHEMA, choiceNames } from '#src/lib/airtable/schema.ts';
import { siteBaseSchema } from '#scripts/airtable-emulator/emulator.ts';

/**
 * What a form offers must be an option of the base field it is stored in: a card whose label is
 * not one would be added to the live base as a new option by typecast on its first sign-up (or
 * refused without it), and the owner's views and filters would miss it.
 */
const baseChoices = (table: string, field: string) =>
  choiceNames(
    siteBaseSchema()
      .find((candidate) => candidate.name === table)
      ?.fields.find((candidate) => candidate.name === field) as Parameters<typeof choiceNames>[0],
  );

describe('every option a form offers is an option of its base field', () => {
  it('the waitlist interest cards are options of Waitlist › Interests, in the schema and the emulator', () => {
    const offered = WAITLIST_INTEREST_OPTIONS.map((option) => option.value);
    expect(offered.length).toBeGreaterThan(0);
    const schema = choiceNames(AIRTABLE_SCHEMA.waitlist.fields.interests);
    for (const value of offered) expect(schema, value).toContain(value);
    const emulator = baseChoices(
      AIRTABLE_SCHEMA.waitlist.name,
      AIRTABLE_SCHEMA.waitlist.fields.interests.name,
    );
    for (const value of offered) expect(emulator, value).toContain(value);
  });

  it('the quote use-case cards (but Other, stored as its text) are options of School Quotes › Use Cases', () => {
    const offered = USE_CASE_OPTIONS.filter((option) => option.label !== OTHER_USE_CASE_LABEL).map(
      (option) => option.label,
    );
    expect(offered.length).toBe(USE_CASE_OPTIONS.length - 1);
    const schema = choiceNames(AIRTABLE_SCHEMA.quotes.fields.useCases);
    for (const label of offered) expect(schema, label).toContain(label);
    const emulator = baseChoices(AIRTABLE_SCHEMA.quotes.name, AIRTABLE_SCHEMA.quotes.fields.useCases.name);
    for (const label of offered) expect(emulator, label).toContain(label);
  });
});

import { WAITLIST_INTEREST_OPTIONS } from '#src/content/home.ts';
import { OTHER_USE_CASE_ID, USE_CASE_OPTIONS } from '#src/features/quote/use-cases.ts';
import { AIRTABLE_SCHEMA, choiceNames } from '#src/lib/airtable/schema.ts';
import { FORM_LIST } from '#src/lib/forms/forms.ts';
import { siteBaseSchema } from '#scripts/airtable-emulator/emulator.ts';

/**
 * What a form offers must be an option of the base field it is stored in: a card whose stored
 * value is not one would be added to the live base as a new option by typecast on its first
 * sign-up (or refused without it), and the owner's views and filters would miss it.
 */
const baseChoices = (table: string, field: string) =>
  choiceNames(
    siteBaseSchema()
      .find((candidate) => candidate.name === table)
      ?.fields.find((candidate) => candidate.name === field) as Parameters<typeof choiceNames>[0],
  );

describe('every option a form offers is an option of its base field', () => {
  it.each(FORM_LIST.map((form) => [form.name, form] as const))(
    '%s: each offered option (but Other, stored as its text) is a choice of the schema and the emulator',
    (_name, form) => {
      for (const [key, field] of Object.entries(form.fields)) {
        if (field.type !== 'multipleSelects') continue;
        const offered = field.options
          .filter((option) => !(form.other?.field === key && option.id === form.other.optionId))
          .map((option) => option.stored);
        expect(offered.length).toBeGreaterThan(0);
        const emulator = baseChoices(form.table, field.airtable);
        for (const value of offered) expect(emulator, value).toContain(value);
        if (form.defaultOnCreate?.field === key)
          for (const value of form.defaultOnCreate.value) expect(emulator, value).toContain(value);
      }
    },
  );

  it('the cards on the page are the contract options', () => {
    expect(WAITLIST_INTEREST_OPTIONS.map((option) => option.id)).toEqual(['use', 'invest', 'partner']);
    expect(choiceNames(AIRTABLE_SCHEMA.waitlist.fields.interests)).toEqual(
      expect.arrayContaining(WAITLIST_INTEREST_OPTIONS.map((option) => option.label)),
    );
    expect(USE_CASE_OPTIONS.map((option) => option.id)).toContain(OTHER_USE_CASE_ID);
    expect(choiceNames(AIRTABLE_SCHEMA.quote.fields.useCases)).not.toContain('Other');
  });
});

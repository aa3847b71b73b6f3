import { QUOTE_FORM, type UseCaseId } from '#src/lib/forms/forms.ts';

export type { UseCaseId } from '#src/lib/forms/forms.ts';

/** Each card's description, by option id (an option added to the contract needs one: tsc says so). */
const DESCRIPTIONS: Record<UseCaseId, string> = {
  'support-learners': 'Help pupils with SEND, EAL or writing barriers share what they know.',
  'practice-speaking': 'Build oracy and confidence with regular, low-pressure speaking practice.',
  'showcase-creativity': 'Publish class podcasts, book reviews and school news for families to hear.',
  other: 'Something else? Tell us in a few words.',
};

/** The id of the card that reveals the free-text box (the contract's 'Other' rule). */
export const OTHER_USE_CASE_ID: UseCaseId = QUOTE_FORM.other.optionId;

/** The selectable cards (a contract option and its description) in the order the contract offers them. */
export const USE_CASE_OPTIONS = QUOTE_FORM.fields.useCases.options.map((option) => ({
  id: option.id,
  label: option.label,
  description: DESCRIPTIONS[option.id],
}));

/** The ticked cards' ids in the shown order (not the order of clicks): what the form posts. */
export function postedUseCases(selected: ReadonlySet<UseCaseId>): UseCaseId[] {
  return USE_CASE_OPTIONS.filter((option) => selected.has(option.id)).map((option) => option.id);
}

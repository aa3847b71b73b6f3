import {
  OTHER_USE_CASE_LABEL,
  OTHER_USE_CASE_PREFIX,
  USE_CASE_LABELS,
  type UseCaseLabel,
} from '#src/lib/airtable/fields.ts';

/** One selectable card on the quote form. */
export type UseCaseOption = {
  readonly id: UseCaseId;
  readonly label: string;
  readonly description: string;
};

export type UseCaseId = 'support-learners' | 'practice-speaking' | 'showcase-creativity' | 'other';

/** Label of the card that reveals the free-text box (the server reads it from native posts). */
export { OTHER_USE_CASE_LABEL };

const SHORT_LABELS: Record<Exclude<UseCaseId, 'other'>, UseCaseLabel> = {
  'support-learners': USE_CASE_LABELS[0],
  'practice-speaking': USE_CASE_LABELS[1],
  'showcase-creativity': USE_CASE_LABELS[2],
};

/** The cards in the order they are shown; the first three carry the stored short labels. */
export const USE_CASE_OPTIONS: readonly UseCaseOption[] = [
  {
    id: 'support-learners',
    label: SHORT_LABELS['support-learners'],
    description: 'Help pupils with SEND, EAL or writing barriers share what they know.',
  },
  {
    id: 'practice-speaking',
    label: SHORT_LABELS['practice-speaking'],
    description: 'Build oracy and confidence with regular, low-pressure speaking practice.',
  },
  {
    id: 'showcase-creativity',
    label: SHORT_LABELS['showcase-creativity'],
    description: 'Publish class podcasts, book reviews and school news for families to hear.',
  },
  {
    id: 'other',
    label: OTHER_USE_CASE_LABEL,
    description: 'Something else? Tell us in a few words.',
  },
];

/** What the quote form sends for its use cases: the Use Cases list and the Other Use Case text. */
export type UseCaseSelection = {
  useCases: string[];
  otherUseCase?: string;
};

/**
 * Maps the ticked cards (shown order, not click order) to Use Cases. A ticked 'Other' with text
 * adds 'Other: text' and sets Other Use Case to the trimmed text; without text it adds nothing.
 */
export function toUseCaseSelection(selected: ReadonlySet<UseCaseId>, otherText: string): UseCaseSelection {
  const useCases: string[] = [];
  let otherUseCase: string | undefined;
  for (const option of USE_CASE_OPTIONS) {
    if (!selected.has(option.id)) continue;
    if (option.id === 'other') {
      const text = otherText.trim();
      if (!text) continue;
      useCases.push(`${OTHER_USE_CASE_PREFIX} ${text}`);
      otherUseCase = text;
    } else {
      useCases.push(SHORT_LABELS[option.id]);
    }
  }
  return otherUseCase === undefined ? { useCases } : { useCases, otherUseCase };
}

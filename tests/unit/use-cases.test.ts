import { describe, expect, it } from 'vitest';
import { USE_CASE_OPTIONS, type UseCaseId, toUseCaseSelection } from '#src/features/quote/use-cases.ts';
import { USE_CASE_LABELS, toOtherUseCase, toUseCaseValues } from '#src/lib/airtable/fields.ts';

const select = (...ids: UseCaseId[]) => new Set<UseCaseId>(ids);

describe('use-case options', () => {
  it('shows the three short labels from the spec, then Other', () => {
    expect(USE_CASE_OPTIONS.map((option) => option.label)).toEqual([
      'Support Learners',
      'Practice Speaking',
      'Showcase Creativity',
      'Other',
    ]);
  });

  it('has a description for every card', () => {
    for (const option of USE_CASE_OPTIONS) expect(option.description.length).toBeGreaterThan(10);
  });
});

describe('toUseCaseSelection', () => {
  it('sends an empty list when nothing is ticked', () => {
    expect(toUseCaseSelection(select(), '')).toEqual({ useCases: [] });
  });

  it('maps each card to its stored short label', () => {
    expect(toUseCaseSelection(select('support-learners'), '')).toEqual({ useCases: ['Support Learners'] });
    expect(toUseCaseSelection(select('practice-speaking'), '')).toEqual({ useCases: ['Practice Speaking'] });
    expect(toUseCaseSelection(select('showcase-creativity'), '')).toEqual({
      useCases: ['Showcase Creativity'],
    });
  });

  it('keeps the shown order whatever the order of clicks', () => {
    const clickedBackwards = new Set<UseCaseId>(['showcase-creativity', 'other', 'support-learners']);
    expect(toUseCaseSelection(clickedBackwards, 'Assemblies')).toEqual({
      useCases: ['Support Learners', 'Showcase Creativity', 'Other: Assemblies'],
      otherUseCase: 'Assemblies',
    });
  });

  it("adds 'Other: text' and the trimmed text as Other Use Case", () => {
    expect(toUseCaseSelection(select('other'), '  Radio club at lunchtime \n')).toEqual({
      useCases: ['Other: Radio club at lunchtime'],
      otherUseCase: 'Radio club at lunchtime',
    });
  });

  it('keeps inner spacing and punctuation of the text', () => {
    expect(toUseCaseSelection(select('other'), 'Year 6: transition  projects').useCases).toEqual([
      'Other: Year 6: transition  projects',
    ]);
  });

  it("adds nothing for a ticked 'Other' without text", () => {
    expect(toUseCaseSelection(select('practice-speaking', 'other'), '   ')).toEqual({
      useCases: ['Practice Speaking'],
    });
  });

  it("ignores the text when 'Other' is not ticked", () => {
    expect(toUseCaseSelection(select('support-learners'), 'typed then unticked')).toEqual({
      useCases: ['Support Learners'],
    });
  });

  it('sends every card when all are ticked', () => {
    const all = new Set(USE_CASE_OPTIONS.map((option) => option.id));
    expect(toUseCaseSelection(all, 'Parent workshops').useCases).toEqual([
      ...USE_CASE_LABELS,
      'Other: Parent workshops',
    ]);
  });

  it('produces values the storage layer stores unchanged', () => {
    const selection = toUseCaseSelection(
      select('support-learners', 'practice-speaking', 'other'),
      '  Support Learners with a twist ',
    );
    expect(toUseCaseValues(selection.useCases)).toEqual(selection.useCases);
    expect(toOtherUseCase(selection)).toBe('Support Learners with a twist');
    // An 'Other:' item is never mapped to a short label, even when its text is one.
    expect(toUseCaseValues(toUseCaseSelection(select('other'), 'Support Learners').useCases)).toEqual([
      'Other: Support Learners',
    ]);
  });
});

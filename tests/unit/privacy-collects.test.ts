import { describe, expect, it } from 'vitest';
import { PRIVACY } from '#src/content/legal/privacy.ts';
import { postedFields } from '#src/lib/forms/contract.ts';
import { FORM_LIST } from '#src/lib/forms/forms.ts';

/**
 * The privacy policy says what the forms collect. Each posted field of each contract has the
 * words the policy uses for it here: a field added to a contract fails this test by name until
 * the policy (src/content/legal/privacy.ts, which goes back to the legal review) names it too.
 */
const POLICY_WORDS: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  waitlist: { email: 'email address', interests: 'interests' },
  quote: {
    email: 'email address',
    contactName: 'name',
    schoolName: 'school name',
    role: 'role',
    useCases: '',
    otherUseCase: '',
  },
};

const policy = JSON.stringify(PRIVACY).toLowerCase();

describe('the privacy policy names what each form collects', () => {
  it.each(FORM_LIST.flatMap((form) => postedFields(form).map(([key]) => [form.name, key] as const)))(
    '%s › %s',
    (form, key) => {
      const words = POLICY_WORDS[form]?.[key];
      expect(words, `add ${form} › ${key} to the privacy policy and to POLICY_WORDS`).toBeDefined();
      if (words) expect(policy).toContain(words);
    },
  );
});

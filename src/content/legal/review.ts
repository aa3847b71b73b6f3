/**
 * Whether a qualified person has reviewed the legal texts (guidelines, privacy, terms).
 * The owner sets this once the review is done; `npm run launch-check` fails until then.
 * No imports: the launch check and the build's warning read it from Node.
 */
export interface LegalReview {
  readonly status: 'draft' | 'reviewed';
  /** Who reviewed them (name and role), once reviewed. */
  readonly reviewedBy: string;
  /** ISO date of the review, once reviewed. */
  readonly reviewedOn: string;
}

export const LEGAL_REVIEW: LegalReview = {
  status: 'draft',
  reviewedBy: '',
  reviewedOn: '',
};

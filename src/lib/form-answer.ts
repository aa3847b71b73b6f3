/**
 * The markers a form's answer template carries (see src/server/form-page.ts). The build renders
 * each form's page once in "answer" mode with these markers in it; the server fills a copy per
 * native post by plain string replacement, so the page's copy, markup and styles stay in the
 * React components and only the values a visitor posted are added on the server.
 */

/** What a native post can come to: each outcome keeps some regions of the template. */
export type FormAnswerOutcome = 'confirmed' | 'invalid-email' | 'failure';

/**
 * Parts of the template kept or cut per outcome:
 * - 'confirmed', 'invalid-email', 'failure': what only that outcome shows (confirmation, summaries);
 * - 'form': the form again, with the visitor's values (both error outcomes);
 * - 'email-error' / 'email-ok': the email field with or without its message;
 * - 'error': the 'Error: ' prefix of the page title (both error outcomes).
 */
export const FORM_ANSWER_REGIONS = [
  'confirmed',
  'invalid-email',
  'failure',
  'form',
  'email-error',
  'email-ok',
  'error',
] as const;
export type FormAnswerRegion = (typeof FORM_ANSWER_REGIONS)[number];

/** The regions each outcome keeps; every other region is cut out with its content. */
export const FORM_ANSWER_KEPT: Readonly<Record<FormAnswerOutcome, readonly FormAnswerRegion[]>> = {
  confirmed: ['confirmed'],
  'invalid-email': ['invalid-email', 'form', 'email-error', 'error'],
  failure: ['failure', 'form', 'email-ok', 'error'],
};

/** The attribute of the empty elements that open and close a region in the rendered template. */
export const FORM_ANSWER_REGION_ATTRIBUTE = 'data-form-answer';

/** The empty element that opens a region (as React renders it). */
export const formAnswerRegionStart = (region: FormAnswerRegion) =>
  `<template ${FORM_ANSWER_REGION_ATTRIBUTE}="${region}"></template>`;
/** The empty element that closes a region (as React renders it). */
export const formAnswerRegionEnd = (region: FormAnswerRegion) =>
  `<template ${FORM_ANSWER_REGION_ATTRIBUTE}="/${region}"></template>`;

/** Stands in a text input's value attribute for the posted value of the field `name`. */
export const formAnswerValueToken = (name: string) => `%%form-answer:value:${name}%%`;

/**
 * Marks a checkbox of the field `name` in the template: the server replaces the attribute with
 * `checked=""` when the checkbox's value was posted, and drops it otherwise.
 */
export const FORM_ANSWER_CHECKBOX_ATTRIBUTE = 'data-form-answer-checkbox';

/** Escapes text for an HTML attribute value or element body (the app's head, the server's pages). */
export function escapeHtml(value: string): string {
  return value
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

/**
 * The forms' doors (each contract's `path`) and the emails' links' (EMAIL_LINK_PATHS, links/
 * actions.ts, loaded on a link's first request), one handler the Worker mounts. Enhanced and
 * native posts (before hydration or without JavaScript) send the same urlencoded fields;
 * request-check.ts decides and this answers in the form asked (form-answer.ts): POST only, a GET
 * (or HEAD) sent to the form's page (303), else 405. Enhanced (JSON): `{ success: true }` or
 * `{ success: false, error, field? }` with the check's status. Native, a full page: stored, queued
 * or trapped, the spec's confirmation (200); a refused email, the form again with the spec's
 * message at the field (422); anything else, the form with 'Something went wrong. Please try
 * again.' and the check's status; every value kept.
 */
import { formAtPath } from '#src/lib/forms/forms.ts';
import type { AirtableEnv } from '#src/server/settings.ts';
import { isEmailLinkPath } from '#src/server/links/tokens.ts';
import type { LinkDoorOptions } from '#src/server/links/actions.ts';
import { createRequestCheck, type RequestCheckOptions } from './request-check.ts';
import { answerEnhancedPost, answerNativePost } from './form-answer.ts';

/** The request check's options (its `siteOrigin` is also where links lead; null: they answer 'unavailable'). */
export interface DoorsOptions extends RequestCheckOptions, LinkDoorOptions {}

/** `client.address`: the connecting address, as the host knows it (CF-Connecting-IP). */
export type DoorsHandler = (request: Request, client?: { address?: string }) => Promise<Response>;

const TEXT_HEADERS = { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' };
const NOT_ALLOWED = { status: 405, headers: { allow: 'GET, HEAD, POST', ...TEXT_HEADERS } };

export function createDoors(env: AirtableEnv, options: DoorsOptions): DoorsHandler {
  const warn = options.warn ?? ((message: string) => console.warn(message));
  const requestCheck = createRequestCheck({ ...options, warn });
  // A link's modules load on its first request: a sign-up never needs them.
  let links: Promise<DoorsHandler> | undefined;

  return async (request, client = {}) => {
    const { pathname } = new URL(request.url);
    if (isEmailLinkPath(pathname)) {
      links ??= import('#src/server/links/actions.ts').then(({ createLinkDoor }) =>
        createLinkDoor(env, { ...options, warn }, requestCheck.clientLimiter),
      );
      return (await links)(request, client);
    }
    const form = formAtPath(pathname);
    if (!form) return new Response('Not found', { status: 404, headers: TEXT_HEADERS });
    if (request.method === 'GET' || request.method === 'HEAD')
      return new Response(null, { status: 303, headers: { location: form.page } });
    if (request.method !== 'POST') return new Response('Method not allowed', NOT_ALLOWED);
    const result = await requestCheck.submit(request, form, client.address ?? 'unknown');
    // The enhanced form's fetch asks for JSON.
    return (request.headers.get('accept') ?? '').toLowerCase().includes('application/json')
      ? answerEnhancedPost(result)
      : answerNativePost(form, result, options.templates);
  };
}

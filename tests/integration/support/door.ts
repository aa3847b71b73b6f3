import { toFormBody } from '#src/lib/forms/send-form.ts';

/**
 * The enhanced form's post, as a browser sends it from the site's page: the form's fields,
 * urlencoded, to its door, asking for JSON (a same-origin fetch: `Sec-Fetch-Site: same-origin`).
 */
export function enhancedPost(
  url: string,
  values: Readonly<Record<string, string | readonly string[]>>,
  headers: Record<string, string> = {},
): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: {
      accept: 'application/json',
      'content-type': 'application/x-www-form-urlencoded',
      'sec-fetch-site': 'same-origin',
      ...headers,
    },
    body: toFormBody(values),
  });
}

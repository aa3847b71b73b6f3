/**
 * The inbox an address delivers to, for the per-email limits only (the request check's and the
 * mail's): many spellings of one inbox count as one. What is stored stays what was typed.
 */

/**
 * Mail providers that deliver many spellings to one inbox: each provider's domains as one, and
 * the characters its user names ignore. Gmail ignores dots (and googlemail.com is gmail.com);
 * Proton ignores dots, hyphens and underscores on all its domains; iCloud's three domains are
 * one account. Fastmail's subdomain addressing ('anything@ana.fastmail.com') is read below.
 */
const ONE_INBOX: readonly { domains: readonly string[]; ignored: RegExp }[] = [
  { domains: ['gmail.com', 'googlemail.com'], ignored: /\./g },
  { domains: ['proton.me', 'protonmail.com', 'protonmail.ch', 'pm.me'], ignored: /[._-]/g },
  { domains: ['icloud.com', 'me.com', 'mac.com'], ignored: /(?!)/g },
];
const FASTMAIL_SUBDOMAIN = /^([^.]+)\.(fastmail\.(?:com|fm))$/;

/**
 * The inbox a stored address (canonicalEmail's form) delivers to, for the per-email limits only: a '+tag' is
 * dropped (Gmail, Outlook, iCloud, Fastmail, Proton and most others deliver 'ana+x@' to 'ana@'), and each
 * provider of ONE_INBOX is one domain with its ignored characters gone. So 'A.na+1@googlemail.com' counts as
 * 'ana@gmail.com', 'a_n-a@pm.me' as 'ana@proton.me', 'ana@me.com' as 'ana@icloud.com' and
 * 'x@ana.fastmail.com' as 'ana@fastmail.com'. What is stored stays what was typed.
 */
export function inboxKey(email: string): string {
  const at = email.lastIndexOf('@');
  if (at <= 0) return email;
  let local = email.slice(0, at);
  let domain = email.slice(at + 1);
  const fastmail = FASTMAIL_SUBDOMAIN.exec(domain);
  if (fastmail) [, local = local, domain = domain] = fastmail;
  const plus = local.indexOf('+');
  if (plus > 0) local = local.slice(0, plus);
  const provider = ONE_INBOX.find((candidate) => candidate.domains.includes(domain));
  if (provider) {
    domain = provider.domains[0] ?? domain;
    local = local.replace(provider.ignored, '') || local;
  }
  return `${local}@${domain}`;
}

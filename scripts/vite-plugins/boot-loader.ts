/**
 * How a prerendered page starts its JavaScript. No <script src> or modulepreload link: the browser
 * would fetch those while it parses the HTML, so the first paint would share the phone's connection
 * (and, in Lighthouse's model, wait) on code that only hydrates what is on screen. One inline script
 * waits for the first contentful paint, then preloads the page's whole boot list at once and imports
 * the entry; the same on every page, so the CSP allows it by one hash. `vite` (dev) keeps index.html's.
 */

/** id of the JSON list of modules the loader preloads right after first paint. */
export const BOOT_MODULES_ID = 'boot-modules';

/**
 * Longest wait for the first contentful paint where the browser reports paint timing (else: the
 * first frame): a slow first paint on a busy phone (over a second happens) never waits on code.
 */
export const FIRST_PAINT_WAIT_MS = 5000;

/** The entry's module script, as Vite writes it into the built index.html (crossorigin) or not. */
const ENTRY_SCRIPT_PATTERN = /\s*<script type="module"(?: crossorigin)? src="([^"]+)"><\/script>/;

/** The manifest link: Chrome fetches it as the page loads, for installing only; the loader adds it later. */
const MANIFEST_LINK_PATTERN = /\s*<link rel="manifest" href="([^"]+)" \/>/;

/**
 * The inline loader for an entry module: ES5 apart from import(), which every browser that runs the
 * site's modules supports. A failure to load is left to the console, as with a module script.
 */
export function bootLoaderScript(entryHref: string, manifestHref: string | null): string {
  const entry = JSON.stringify(entryHref);
  const listId = JSON.stringify(BOOT_MODULES_ID);
  const manifest = manifestHref
    ? `var m=d.createElement("link");m.rel="manifest";m.href=${JSON.stringify(manifestHref)};d.head.appendChild(m);`
    : '';
  return [
    '(function(d){',
    'var started=false;',
    'function boot(){',
    'if(started)return;started=true;',
    `var list=d.getElementById(${listId});`,
    'var hrefs=list?JSON.parse(list.textContent||"[]"):[];',
    'for(var i=0;i<hrefs.length;i++){var l=d.createElement("link");l.rel="modulepreload";l.href=hrefs[i];d.head.appendChild(l)}',
    `import(${entry});`,
    manifest,
    '}',
    // After the paint's task, not inside it.
    'function soon(){setTimeout(boot,0)}',
    'var P=window.PerformanceObserver;',
    'if(P&&P.supportedEntryTypes&&P.supportedEntryTypes.indexOf("paint")>=0){',
    `setTimeout(boot,${FIRST_PAINT_WAIT_MS});`,
    'new P(function(entries,observer){',
    'if(entries.getEntriesByName("first-contentful-paint").length){observer.disconnect();soon()}',
    '}).observe({type:"paint",buffered:true})',
    '}else requestAnimationFrame(soon);',
    '})(document)',
  ].join('');
}

/**
 * Replaces the built index.html's entry module script (and its manifest link) with the inline
 * loader at the end of <body>, after the content it hydrates.
 */
export function withBootLoader(html: string): string {
  const entry = ENTRY_SCRIPT_PATTERN.exec(html);
  if (!entry?.[1]) throw new Error('The built index.html has no entry module script to replace');
  const manifest = MANIFEST_LINK_PATTERN.exec(html);
  const script = bootLoaderScript(entry[1], manifest?.[1] ?? null);
  return html
    .replace(entry[0], '')
    .replace(manifest?.[0] ?? '', '')
    .replace('</body>', () => `  <script>${script}</script>\n  </body>`);
}

/** The built index.html that never boots (no entry script, manifest link or loader): the answer templates. */
export function withoutBoot(html: string): string {
  return html.replace(ENTRY_SCRIPT_PATTERN, '').replace(MANIFEST_LINK_PATTERN, '');
}

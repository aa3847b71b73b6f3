/**
 * How a prerendered page starts its JavaScript. No <script src> or modulepreload link: the browser
 * would fetch those while it parses the HTML, so the first paint would share the phone's connection
 * (and, in Lighthouse's model, wait) on code that only hydrates what is on screen. One inline script,
 * the same on every page, so the CSP allows it by one hash, waits for its visitor's first act, or
 * after the first contentful paint for a part that needs the app to near the viewport, then preloads
 * the page's whole boot list at once and imports the entry
 * (docs/decisions/0020-text-pages-wait-for-the-visitor.md).
 * `vite` (dev) keeps index.html's.
 */
import { minifySync } from 'vite';
import { HEADER_SCROLL_THRESHOLD_PX } from '#src/config/constants.ts';
import {
  CONSENT_CHOICE_ATTRIBUTE,
  CONSENT_OPEN_ATTRIBUTE,
  CONSENT_STORAGE_KEY,
  COOKIE_SETTINGS_ATTRIBUTE,
  CURRENT_YEAR_ATTRIBUTE,
  HEADER_SCROLLED,
  HYDRATED_ATTRIBUTE,
  WAITS_FOR_VISITOR_ATTRIBUTE,
  WAKES_APP_ATTRIBUTE,
} from '#src/lib/page-marks.ts';

/** id of the JSON list of modules the loader preloads when it boots the app. */
export const BOOT_MODULES_ID = 'boot-modules';

/**
 * Longest wait for the first contentful paint where the browser reports paint timing (else: the
 * first frame) before the manifest link and the watch on the parts that need the app: a slow first
 * paint on a busy phone (over a second happens) never waits on them.
 */
export const FIRST_PAINT_WAIT_MS = 5000;

/**
 * How near the viewport a part that needs the app (a form, the carousel) boots it: far enough ahead
 * that a visitor scrolling on a slow phone finds it taken over, short of the schools page's first
 * screen (Lighthouse's load stays free of the framework).
 */
export const WAKE_MARGIN = '600px 0px';

/** The entry's module script, as Vite writes it into the built index.html (crossorigin) or not. */
const ENTRY_SCRIPT_PATTERN = /\s*<script type="module"(?: crossorigin)? src="([^"]+)"><\/script>/;

/** The manifest link: Chrome fetches it as the page loads, for installing only; the loader adds it later. */
const MANIFEST_LINK_PATTERN = /\s*<link rel="manifest" href="([^"]+)" \/>/;

/** Keys that only scroll the page (Space, Page Up and Down, the arrows, Home, End) or are modifiers: reading, not acting. */
const READING_KEYS = /^( |Page|Arrow|Home|End|Shift|Control|Alt|Meta)/;

/** What the loader loads before the app: the analytics module (with consent) alone. */
export interface LoaderModules {
  analyticsHref: string;
}

const json = JSON.stringify;

/**
 * Before the app loads: the header's translucency past its
 * threshold, the footer's year, 'Cookie settings', the banner's choice stored, and with consent the
 * analytics module alone, counting this history entry's page view once (src/lib/analytics.ts);
 * Escape closes the phone menu at once. The first act (a click on a
 * control other than a link, the menu's toggle or these; a key other than a reading key; keyboard
 * focus on a control), or after the first paint a part that needs the app coming within
 * `WAKE_MARGIN` of the viewport (`wake`), boots the app, which then replays the act's clicks and
 * keys; if the app fails to load, a click it should have handled reloads the page.
 */
function waitingScript({ analyticsHref }: LoaderModules): string {
  const attribute = (name: string) => `"[${name}]"`;
  return [
    `var h=d.documentElement,H=${json(HYDRATED_ATTRIBUTE)},W=${json(WAITS_FOR_VISITOR_ATTRIBUTE)},O=${json(CONSENT_OPEN_ATTRIBUTE)},K=${json(CONSENT_STORAGE_KEY)},C=${json(CONSENT_CHOICE_ATTRIBUTE)},replays=[],clicked=false,analytics=null;`,
    'h.setAttribute(W,"");',
    'function app(){return h.getAttribute(H)==="true"}',
    `var header=d.querySelector(${attribute(HEADER_SCROLLED.attribute)});`,
    `function onScroll(){var s=scrollY>${HEADER_SCROLL_THRESHOLD_PX};header.classList.toggle(${json(HEADER_SCROLLED.className)},s);header.setAttribute(${json(HEADER_SCROLLED.attribute)},String(s))}`,
    'if(header){onScroll();addEventListener("scroll",function(){app()||onScroll()},{passive:true})}',
    `var year=d.querySelector(${attribute(CURRENT_YEAR_ATTRIBUTE)});`,
    'if(year)year.textContent=year.textContent.replace(/\\d{4}/,new Date().getFullYear());',
    'function count(){',
    `analytics=analytics||import(${json(analyticsHref)});`,
    'analytics.then(function(m){m.countPageView(history.state&&history.state.key||"default",location.pathname+location.search,d.title)})',
    '}',
    'try{localStorage.getItem(K)==="granted"&&count()}catch(e){}',
    'function act(replay){if(replay)replays.push(replay);boot()}',
    'd.addEventListener("click",function(e){',
    'var t=e.target;if(app())return;',
    'var choice=t.closest("["+C+"]");',
    'if(choice){var c=choice.getAttribute(C);try{localStorage.setItem(K,c)}catch(x){}h.removeAttribute(O);',
    'if(c==="granted")count();else if(analytics)analytics.then(function(m){m.disableAnalytics()});return}',
    `if(t.closest(${attribute(COOKIE_SETTINGS_ATTRIBUTE)})){h.setAttribute(O,"");return}`,
    'var b=t.closest("button,input,select,textarea,label");',
    'if(b){clicked=true;act(b.matches("button[type=button]")&&function(){b.click()})}',
    '},true);',
    'd.addEventListener("keydown",function(e){',
    `if(app()||${String(READING_KEYS)}.test(e.key))return;`,
    'var t=e.target,k=e.key,menu=d.querySelector("header details[open]");',
    'if(k==="Escape"&&menu){menu.open=false;menu.firstElementChild.focus()}',
    'act(function(){t.dispatchEvent(new KeyboardEvent("keydown",{key:k,bubbles:true}))})',
    '},true);',
    'd.addEventListener("focusin",function(e){app()||!e.target.matches(":focus-visible")||act()},true);',
    'new MutationObserver(function(r,o){if(!app())return;o.disconnect();h.removeAttribute(W);for(var i=0;i<replays.length;i++)replays[i]()}).observe(h,{attributes:true,attributeFilter:[H]});',
    `function wake(){var parts=d.querySelectorAll(${attribute(WAKES_APP_ATTRIBUTE)}),I=window.IntersectionObserver;if(!I)return;`,
    `var near=new I(function(entries){for(var i=0;i<entries.length;i++)if(entries[i].isIntersecting){near.disconnect();boot()}},{rootMargin:${json(WAKE_MARGIN)}});`,
    'for(var i=0;i<parts.length;i++)near.observe(parts[i])}',
  ].join('');
}

/**
 * The inline loader for an entry module: ES5 apart from import(), which every browser that runs the
 * site's modules supports. It boots the app at its visitor's first act; after the first paint (up to
 * `FIRST_PAINT_WAIT_MS`) it adds the manifest link and watches the parts that need the app.
 */
export function bootLoaderScript(
  entryHref: string,
  manifestHref: string | null,
  modules: LoaderModules,
): string {
  const listId = json(BOOT_MODULES_ID);
  const manifest = manifestHref
    ? `var m=d.createElement("link");m.rel="manifest";m.href=${json(manifestHref)};d.head.appendChild(m);`
    : '';
  const script = [
    '(function(d){',
    waitingScript(modules),
    'var started=false;',
    'function boot(){',
    // Called at each act until the app loads: it starts the load once, again after a failure.
    'if(started)return;started=true;',
    // The entry too: every module is a preload, fetched in parallel, so none is a critical request
    // chained from the document.
    `var hrefs=JSON.parse(d.getElementById(${listId}).textContent).concat(${json(entryHref)});`,
    `for(var i=0;i<hrefs.length;i++){var l=d.createElement("link");l.rel="modulepreload";l.href=hrefs[i];d.head.appendChild(l)}`,
    `import(${json(entryHref)}).catch(function(){started=false;clicked&&location.reload()});`,
    '}',
    'var done=false;',
    `function painted(){if(done)return;done=true;${manifest}wake()}`,
    // After the paint's task, not inside it.
    'function soon(){setTimeout(painted,0)}',
    'var P=window.PerformanceObserver;',
    'if(P&&P.supportedEntryTypes&&P.supportedEntryTypes.indexOf("paint")>=0){',
    `setTimeout(painted,${FIRST_PAINT_WAIT_MS});`,
    'new P(function(entries,observer){',
    'if(entries.getEntriesByName("first-contentful-paint").length){observer.disconnect();soon()}',
    '}).observe({type:"paint",buffered:true})',
    '}else requestAnimationFrame(soon);',
    '})(document)',
  ].join('');
  // Every byte is in each page's first window (a page's inline scripts are held to 1.5 KB gzip).
  const { code, errors } = minifySync('boot-loader.js', script, { compress: { target: 'es2020' } });
  if (errors.length > 0) throw new Error(`The boot loader does not minify: ${errors[0]?.message ?? ''}`);
  return code.trim().replace(/;$/, '');
}

/**
 * Replaces the built index.html's entry module script (and its manifest link) with the inline
 * loader at the end of <body>, after the content it hydrates.
 */
export function withBootLoader(html: string, modules: LoaderModules): string {
  const entry = ENTRY_SCRIPT_PATTERN.exec(html);
  if (!entry?.[1]) throw new Error('The built index.html has no entry module script to replace');
  const manifest = MANIFEST_LINK_PATTERN.exec(html);
  const script = bootLoaderScript(entry[1], manifest?.[1] ?? null, modules);
  return html
    .replace(entry[0], '')
    .replace(manifest?.[0] ?? '', '')
    .replace('</body>', () => `  <script>${script}</script>\n  </body>`);
}

/** The built index.html that never boots (no entry script, manifest link or loader): the answer templates. */
export function withoutBoot(html: string): string {
  return html.replace(ENTRY_SCRIPT_PATTERN, '').replace(MANIFEST_LINK_PATTERN, '');
}

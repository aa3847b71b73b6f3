// @ts-check
/** `npm run bench`'s floor page (bench.mjs): what every route's paint is measured against. */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** The floor's whole CSS (about 200 bytes): system fonts, the hero's column and its two links. */
const FLOOR_CSS =
  'body{margin:0;font:16px/1.5 system-ui,sans-serif;color:#1b1530}main{max-width:40rem;margin:0 auto;padding:5rem 1rem}h1{font-size:2rem;line-height:1.2}a{display:inline-block;margin-right:1rem;color:#5b2ee0}';

/**
 * The floor: a truly bare page with the home hero's heading and first paragraph, its mascot (an
 * inline SVG at 240 px) and two links, about 200 bytes of CSS and no JavaScript.
 * @param {string} siteDir @param {string} floorDir
 */
export async function writeFloorPage(siteDir, floorDir) {
  const html = await readFile(join(siteDir, 'index.html'), 'utf8');
  const hero = /<section class="home-hero"[\s\S]*?<\/section>/.exec(html)?.[0];
  if (!hero) throw new Error('The home hero section was not found in index.html');
  const heading = /<h1[^>]*>([\s\S]*?)<\/h1>/.exec(hero)?.[1] ?? '';
  const paragraph = /<p class="home-hero__lead">([\s\S]*?)<\/p>/.exec(hero)?.[1] ?? '';
  const svg = (/<svg class="home-hero__mascot"[\s\S]*?<\/svg>/.exec(hero)?.[0] ?? '').replace(
    /width="\d+" height="\d+"/,
    'width="240" height="270"',
  );
  const title = /<title>([^<]*)<\/title>/.exec(html)?.[1] ?? 'Home';
  const description = /<meta name="description" content="([^"]*)"/.exec(html)?.[1] ?? '';
  // The page's own icon link: without one, the browser asks for /favicon.ico during the load.
  const icon = /<link rel="icon"[^>]*>/.exec(html)?.[0] ?? '';
  await mkdir(floorDir, { recursive: true });
  await writeFile(
    join(floorDir, 'index.html'),
    `<!doctype html><html lang="en-GB"><head><meta charset="UTF-8" /><meta name="viewport" content="width=device-width, initial-scale=1.0" /><title>${title}</title><meta name="description" content="${description}" />${icon}<style>${FLOOR_CSS}</style></head><body><main><h1>${heading}</h1><p>${paragraph}</p>${svg}<p><a href="/">App Store</a><a href="/">Google Play</a></p></main></body></html>`,
  );
  await writeFile(join(floorDir, 'robots.txt'), 'User-agent: *\nAllow: /\n');
}

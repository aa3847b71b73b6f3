/**
 * Addresses that pass for another (UTS 39 skeletons): the part of the email rule that needs a
 * table, so the page loads it when a form is first focused (preload.ts) rather
 * than before first paint; the server reads it directly (acceptedEmail).
 */
import { canonicalEmail, isAllowedScriptMix } from './email.ts';

let table: Map<string, string> | undefined;

/** The ASCII `char` passes for, if any (built on first use). */
function lookAlikeOf(char: string): string | undefined {
  if (!table) {
    table = new Map();
    for (const [ascii, chars] of Object.entries(LOOK_ALIKES))
      for (const look of chars) table.set(look, ascii);
  }
  return table.get(char);
}

/** A letter of a script other than Latin (digits, punctuation and marks belong to none). */
const NOT_LATIN = /[^\p{Script=Latin}\p{Script=Common}\p{Script=Inherited}]/u;

/**
 * True when `part` (a local part or a domain label, lower case) shows the same as a different
 * one written in Latin alone: with every character that passes for ASCII replaced by that ASCII
 * (UTS 39's skeleton, restricted to what passes for ASCII), nothing but Latin is left. So 'jօhn'
 * (Armenian օ), 'joɦn', 'ɡrace', 'ɑlice', 'ꓲsla' (Lisu) and an all-Cyrillic 'сор' pass for 'john',
 * 'grace', 'alice', 'isla' and 'cop'; 'иван', 'مريم.w1' and '太郎' do not, since letters of their
 * own script remain. The cost, as in UTS 39: a Latin word spelled with a letter that passes for
 * another ('ıstanbul', dotless ı) passes for the other spelling.
 */
function passesForLatin(part: string): boolean {
  let twin = '';
  let changed = false;
  for (const char of part.normalize('NFD')) {
    const ascii = lookAlikeOf(char);
    changed ||= ascii !== undefined;
    twin += ascii ?? char;
  }
  return changed && !NOT_LATIN.test(twin);
}

const BASE = 36;
const T_MIN = 1;
const T_MAX = 26;

function adapt(delta: number, points: number, first: boolean): number {
  let scaled = first ? Math.floor(delta / 700) : delta >> 1;
  scaled += Math.floor(scaled / points);
  let k = 0;
  while (scaled > ((BASE - T_MIN) * T_MAX) >> 1) {
    scaled = Math.floor(scaled / (BASE - T_MIN));
    k += BASE;
  }
  return k + Math.floor(((BASE - T_MIN + 1) * scaled) / (scaled + 38));
}

function digitOf(code: number): number {
  if (code >= 0x30 && code <= 0x39) return code - 22;
  if (code >= 0x41 && code <= 0x5a) return code - 0x41;
  if (code >= 0x61 && code <= 0x7a) return code - 0x61;
  return BASE;
}

/** A Punycode label's Unicode (RFC 3492; 'xn--80ak6aa92e' → 'аррӏе'), or null when it is not one. */
export function decodePunycode(label: string): string | null {
  if (!label.startsWith('xn--')) return label;
  const input = label.slice(4);
  const delimiter = input.lastIndexOf('-');
  const output: number[] = [];
  for (let j = 0; j < Math.max(delimiter, 0); j += 1) output.push(input.charCodeAt(j));
  let n = 128;
  let i = 0;
  let bias = 72;
  for (let index = delimiter > 0 ? delimiter + 1 : 0; index < input.length;) {
    const before = i;
    let weight = 1;
    for (let k = BASE; ; k += BASE) {
      if (index >= input.length) return null;
      const digit = digitOf(input.charCodeAt(index++));
      if (digit >= BASE) return null;
      i += digit * weight;
      const t = k <= bias ? T_MIN : k >= bias + T_MAX ? T_MAX : k - bias;
      if (digit < t) break;
      weight *= BASE - t;
      if (i > 0x7fffffff) return null;
    }
    bias = adapt(i - before, output.length + 1, before === 0);
    n += Math.floor(i / (output.length + 1));
    i %= output.length + 1;
    if (n > 0x10ffff) return null;
    output.splice(i, 0, n);
    i += 1;
  }
  return String.fromCodePoint(...output);
}

/**
 * True when an address the base rule accepts (canonicalEmail) passes for a different one: its
 * local part or a domain label passes for Latin (passesForLatin), or a domain label typed as
 * Punycode ('xn--…') is, decoded, one the base rule would refuse (mixed scripts) or passes for Latin.
 */
export function passesForAnother(value: string): boolean {
  const email = value.trim().normalize('NFC').toLowerCase();
  const at = email.lastIndexOf('@');
  if (passesForLatin(email.slice(0, at))) return true;
  return email
    .slice(at + 1)
    .split('.')
    .some((label) => {
      const unicode = decodePunycode(label);
      if (unicode === null) return true;
      return passesForLatin(unicode) || (unicode !== label && !isAllowedScriptMix(unicode));
    });
}

/**
 * The server's whole email rule: the address in its one stored form (canonicalEmail), or null when
 * it must be refused, by the base rule or because it passes for another address.
 */
export function acceptedEmail(value: string): string | null {
  const email = canonicalEmail(value);
  return email === null || passesForAnother(value) ? null : email;
}

/**
 * Characters that pass for ASCII in an address, by the ASCII they pass for: UTS 39's confusables (Unicode
 * 17.0.0) that the rule above reads, written by scripts/tools/email-look-alikes.ts (do not edit by hand; see
 * that file for what is kept). Unicode data, © Unicode, Inc., https://www.unicode.org/terms_of_use.html.
 */
export const LOOK_ALIKES: Readonly<Record<string, string>> = {
  '!': 'ǃⵑ',
  '&': 'ꝸ',
  "'": 'ʹˈˊˋʻʽʼʾꞌיߴߵᑊᛌ𖽑𖽒',
  "''": 'ʺˮײ',
  '*': '𐌟',
  '+': '𐊛𞛩',
  '-': 'ⲻⲳ',
  '.': '𝅭٠۰ꓸ',
  '..': 'ꓺ',
  '/': '〳ⳇノ丿',
  '2': 'ᒿꛯƻ',
  '3': '३૩𖼻𑣊',
  '6': 'ⳓб𑣕',
  '7': '𑣆',
  '8': 'ଃ৪੪𞣋ȣ𐌚',
  '9': '੧୨৭൭ⳋ𑣌𑣖',
  '?': 'ʔॽꛫ',
  '^': 'ˆ',
  _: 'ߺ',
  a: 'ɑαаᗅꓮ𖽀𐊠',
  aa: 'ꜳ',
  ae: 'æӕ',
  ao: 'ꜵ',
  au: 'ꜷ',
  av: 'ꜹꜻ',
  ay: 'ꜽ',
  b: 'ᑲᖯᗷꓐ𐊂𐊡𐌁ᑳƃƀҍѣ',
  "b'": 'ᒈ',
  c: 'ᴄⲥсငၚꮯ𐐽𑣩𑣲ꓚ𐊢𐌂𐔜ȼ',
  d: 'ԁᑯꓒᗞᗪꓓƌ',
  "d'": 'ᒇ',
  dz: 'ʣ',
  e: 'ꬲеҽⴹꓰ𐊆ɇ',
  f: 'ꬵꞙƒẝքᖴꓝ𑣂𐊇𐊥𐔥ᵮ',
  fn: 'ʩ',
  g: 'ɡᶃƍցꓖɠǥ',
  h: 'һհᕼꓧ𐋏ɦꚕ',
  i: 'ıɪɩιⲓіꙇւꭵ𑣃ᵻᵼ',
  j: 'ϳјᒍꓙɉ',
  k: 'ᛕꓗ𐔘',
  l: '١۱𐌠𞣇ǀӏוןاߊⵏᛁꓲ𖼨𐊊𐌉𑷚𑷡ᒪꓡ𖼖𐔦ɭƚɫٳ',
  "l'": 'ױ',
  ll: 'ǁװ',
  ls: 'ʪ',
  lz: 'ʫ',
  m: 'ᗰᛖꓟ𐊰𐌑',
  n: 'ոռꓠ𐔓ɳƞᵰ',
  o: 'ంಂംං०০੦૦୦௦౦൦๐໐၀០𑓐٥۵ᴏᴑꬽοσⲟϭоჿօסهھہەഠဝ𐓪𑣈𑣗𐐬߀೦〇𑣠ⵔዐଠꓳ𐊒𐊫𐔖𑷠ꬾⵁɵꝋⲑѳꮎꮻⴱꭴ',
  oe: 'œ',
  oo: 'ꝏꚙ',
  p: 'þƿρϸⲣⳏрᑭꓑ𐊕ƥᵽ',
  "p'": 'ᒆ',
  q: 'ԛգզⵕʠ',
  r: 'ꭇꭈᴦⲅгꮁᖇꓣ𖼵ɽɼᵲ',
  "r'": 'ґ',
  rn: '𑣣𑜀ɱᵯ',
  s: 'ꜱƽѕടꮪ𑣁𐑈ꓢ𖼺𐊖ʂᵴ',
  t: 'ꓔ𖼊𐊗𐊱𐌕ƭᵵ',
  tf: 'ꝷ',
  ts: 'ʦ',
  u: 'ꞟᴜꭎꭒʋυս𐓶𑣘ሀᑌꓴ𖽂ᵾꮜ',
  "u'": 'ᑧ',
  ue: 'ᵫ',
  uo: 'ꭣ',
  v: 'ᴠνѵט𑜆ꮩ𑣀٧۷ⴸᐯꛟꓦ𖼈𐔝',
  w: 'ɯᴡⲽѡшԝա𑜊𑜎𑜏ꮃ𑣦𑣯ꓪѽ𑓅ꝡ',
  x: 'хᕁᕽ𐌢𑣬ⵝᚷꓫ𐊐𐊴𐌗𐔧',
  y: 'ɣᶌʏỿꭚγⲩуүყ𑣜ꓬ𖽃𐊲ɏ',
  z: 'ᴢꮓ𑣄𑣥𐋵ꓜʐƶȥᵶ',
};

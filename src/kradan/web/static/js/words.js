/* kradan serve: the words of the page in the reader's language.
 *
 * The server puts the catalog of the page's language in a data block,
 *   <script type="application/json" id="kradan-messages">{"language": "th", "plural": {...},
 *     "messages": {"English text": "translation", "{n} ply": ["form 0", ...]}}</script>
 * which the browser does not run (so the page keeps Content-Security-Policy: default-src 'self').
 * This module reads it and exports:
 *   t(text, params)                 the translation of text, {name} filled from params;
 *   tn(singular, plural, n, params) the plural form for n (params.n is n unless given);
 *   N_(text)                        text itself: marks a string for extraction, translated later;
 * and the few phrases the pages build from the game's state (colours, players, the count).
 * Numbers filled into a message, and those digits() writes (move numbers), are in the page's
 * digits: Khmer and Burmese pages write their own, the others 0-9.
 * English is the source language: a string without a translation is shown as written.
 * The plural forms are chosen with Intl.PluralRules: the catalog says which form each CLDR
 * category ("one", "other", ...) uses. Extraction: pybabel, keywords t and tn:1,2
 * (docs/translating.md). The same functions are window.kradanI18n, for the tests. */

function readCatalog() {
  const block = document.getElementById('kradan-messages');
  try {
    return JSON.parse(block ? block.textContent : '{}') || {};
  } catch (error) {
    return {};
  }
}

const catalog = readCatalog();
export const language = catalog.language || document.documentElement.lang || 'en';
const messages = catalog.messages || {};
const plural = catalog.plural || { one: 0, other: 1 };
let rules = null;
try {
  rules = new Intl.PluralRules(language);
} catch (error) {
  rules = null;
}

// --- the page's digits and the board's own coordinates ---------------------------------------

/** The digits of the languages whose readers write numbers in their own digits: Khmer and
 * Burmese. Thai pages keep 0-9, as Thai readers mostly do (docs/translating.md). */
const NATIVE_DIGITS = { km: '០១២៣៤៥៦៧៨៩', my: '၀၁၂၃၄၅၆၇၈၉' };
const ownDigits = NATIVE_DIGITS[language];

/** ``value`` (a number, or text with numbers in it) in the page's digits: ``12`` is ``១២`` on
 * a Khmer page, ``၁၂`` on a Burmese one, ``12`` elsewhere. */
export function digits(value) {
  const text = String(value);
  return ownDigits ? text.replace(/[0-9]/g, digit => ownDigits[digit]) : text;
}

/** The numbers filled into a message are written in the page's digits; text stays as it is. */
function fill(text, params) {
  return text.replace(/\{(\w+)\}/g, (whole, key) => {
    if (!params || params[key] === undefined) return whole;
    return typeof params[key] === 'number' ? digits(params[key]) : String(params[key]);
  });
}

function own(key) {
  return Object.prototype.hasOwnProperty.call(messages, key) ? messages[key] : undefined;
}

export function t(text, params) {
  const found = own(text);
  return fill(typeof found === 'string' ? found : text, params);
}

function pluralForm(n) {
  const category = rules ? rules.select(n) : (n === 1 ? 'one' : 'other');
  if (Object.prototype.hasOwnProperty.call(plural, category)) return plural[category];
  return Object.prototype.hasOwnProperty.call(plural, 'other') ? plural.other : 0;
}

export function tn(singular, pluralText, n, params) {
  const values = Object.assign({ n }, params || {});
  const found = own(singular);
  const index = pluralForm(n);
  if (Array.isArray(found) && typeof found[index] === 'string') return fill(found[index], values);
  return fill(n === 1 ? singular : pluralText, values);
}

export const N_ = text => text;

/** The board's coordinates in a script of the page's language, the switch's other choice beside
 * Latin: Khmer letters and digits on a Khmer page, Burmese ones on a Burmese page, and elsewhere
 * Thai ones (as Thai SAN writes them). board.js draws them. */
export const nativeLabels = { km: 'khmer', my: 'burmese' }[language] || 'thai';
const LABEL_NAMES = {
  latin: N_('Latin coordinates'),
  thai: N_('Thai coordinates'),
  khmer: N_('Khmer coordinates'),
  burmese: N_('Burmese coordinates'),
};

/** The coordinates the switch turns to: the native ones while the board shows Latin ones. */
export const otherLabels = labels => (labels === 'latin' ? nativeLabels : 'latin');
/** What the coordinates switch says: the name of the coordinates it turns to. */
export const labelsSwitchText = labels => t(LABEL_NAMES[otherLabels(labels)]);

window.kradanI18n = { language, t, tn, N_, digits, nativeLabels };

/** The words of the template marked data-t="...", in the page's language. */
export function translatePage() {
  for (const element of document.querySelectorAll('[data-t]')) {
    element.textContent = t(element.dataset.t);
  }
}

// --- phrases made of the game's state ---------------------------------------------------------

export const opposite = color => (color === 'white' ? 'black' : 'white');

const COLOR_NAMES = { white: N_('White'), black: N_('Black') };
export const colorName = color => t(COLOR_NAMES[color] || color);

/** A player as the API writes it: "human", "engine level 10". */
export function playerText(text) {
  const engine = /^engine level (\d+)$/.exec(String(text || ''));
  if (engine) return t('engine level {level}', { level: Number(engine[1]) });
  return text === 'human' ? t('human') : String(text || '');
}

const HONOURS = { "board's honour": N_("board's honour"), "pieces' honour": N_("pieces' honour") };

/** The running count: which honour, who counts, the count, the moves left to mate. */
export function countingText(counting) {
  return [
    t(HONOURS[counting.honour] || counting.honour) + ':',
    t('{color} counts {count} of {limit};', {
      color: colorName(counting.counting_side), count: counting.count, limit: counting.limit,
    }),
    tn('{color} has {n} move left to mate', '{color} has {n} moves left to mate',
      counting.moves_left, { color: colorName(opposite(counting.counting_side)) }),
  ].join(' ');
}

const TERMINATIONS = {
  checkmate: N_('checkmate'),
  stalemate: N_('stalemate'),
  resignation: N_('resignation'),
  resign: N_('resignation'),
  agreement: N_('agreement'),
  timeout: N_('time forfeit'),
  time_forfeit: N_('time forfeit'),
  repetition: N_('repetition'),
  counting: N_('the count ran out'),
  count_limit: N_('the count ran out'),
  insufficient_material: N_('insufficient material'),
  aborted: N_('aborted'),
  abandoned: N_('a player left the game'),
  adjudication: N_('adjudication'),
};

/** How a game ended, in words ('' while it goes on). */
export function terminationText(termination) {
  if (!termination) return '';
  return t(TERMINATIONS[termination] || termination.replace(/_/g, ' '));
}

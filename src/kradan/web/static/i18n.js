/* kradan serve: the words of the page in the reader's language.
 *
 * The server puts the catalog of the page's language in a data block,
 *   <script type="application/json" id="kradan-messages">{"language": "th", "plural": {...},
 *     "messages": {"English text": "translation", "{n} ply": ["form 0", ...]}}</script>
 * which the browser does not run (so the page keeps Content-Security-Policy: default-src 'self').
 * This file reads it and offers, as window.kradanI18n:
 *   t(text, params)                 the translation of text, {name} filled from params;
 *   tn(singular, plural, n, params) the plural form for n (params.n is n unless given);
 *   N_(text)                        text itself: marks a string for extraction, translated later.
 * English is the source language: a string without a translation is shown as written.
 * The plural forms are chosen with Intl.PluralRules: the catalog says which form each CLDR
 * category ("one", "other", ...) uses. Extraction: pybabel, keywords t and tn:1,2. */
(function () {
  'use strict';

  function readCatalog() {
    const block = document.getElementById('kradan-messages');
    try {
      return JSON.parse(block ? block.textContent : '{}') || {};
    } catch (error) {
      return {};
    }
  }

  const catalog = readCatalog();
  const language = catalog.language || document.documentElement.lang || 'en';
  const messages = catalog.messages || {};
  const plural = catalog.plural || { one: 0, other: 1 };
  let rules = null;
  try {
    rules = new Intl.PluralRules(language);
  } catch (error) {
    rules = null;
  }

  function fill(text, params) {
    return text.replace(/\{(\w+)\}/g, (whole, key) =>
      params && params[key] !== undefined ? String(params[key]) : whole);
  }

  function own(key) {
    return Object.prototype.hasOwnProperty.call(messages, key) ? messages[key] : undefined;
  }

  function t(text, params) {
    const found = own(text);
    return fill(typeof found === 'string' ? found : text, params);
  }

  function pluralForm(n) {
    const category = rules ? rules.select(n) : (n === 1 ? 'one' : 'other');
    if (Object.prototype.hasOwnProperty.call(plural, category)) return plural[category];
    return Object.prototype.hasOwnProperty.call(plural, 'other') ? plural.other : 0;
  }

  function tn(singular, pluralText, n, params) {
    const values = Object.assign({ n }, params || {});
    const found = own(singular);
    const index = pluralForm(n);
    if (Array.isArray(found) && typeof found[index] === 'string') return fill(found[index], values);
    return fill(n === 1 ? singular : pluralText, values);
  }

  const N_ = text => text;

  window.kradanI18n = { language, t, tn, N_ };
})();

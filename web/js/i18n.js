// i18n.js — the interface's words in English, Russian, Japanese and Vietnamese.
// t(key, vars) looks a key up in the catalogue of the language in use
// (web/i18n/en.js, ru.js, ja.js, vi.js), puts
// {name} placeholders in, and falls back to English; a key missing from both
// is shown as ⟦key⟧ and remembered in `missing` (the tests fail on it).
// The language: the reader's choice (localStorage 'parlour.lang', kept by
// setLang), else the first of the browser's languages (navigator.languages,
// in the reader's order) that Parlour has, else en.

import en from '../i18n/en.js';
import ru from '../i18n/ru.js';
import ja from '../i18n/ja.js';
import vi from '../i18n/vi.js';

export const catalogues = { en, ru, ja, vi };
export const languages = [
  { code: 'en', name: 'English' },
  { code: 'ru', name: 'Русский' },
  { code: 'ja', name: '日本語' },
  { code: 'vi', name: 'Tiếng Việt' },
];
export const missing = new Set();

/** The first of `tags` (BCP 47 language tags in the reader's order of
 * preference, e.g. ['fr-FR', 'vi-VN', 'en']) whose language Parlour has
 * ('vi'), else 'en'. */
export function preferred(tags) {
  for (const tag of tags || []) {
    const code = String(tag).toLowerCase().split('-')[0];
    if (catalogues[code]) return code;
  }
  return 'en';
}

function initial() {
  let stored = null;
  try {
    stored = localStorage.getItem('parlour.lang');
  } catch {}
  if (stored && catalogues[stored]) return stored;
  const n = typeof navigator === 'undefined' ? {} : navigator; // node (unit checks) has none
  return preferred(n.languages && n.languages.length ? n.languages : [n.language]);
}

export let lang = initial();

/** Switches the language (kept in localStorage); the caller redraws. */
export function setLang(code) {
  if (!catalogues[code]) return;
  lang = code;
  try {
    localStorage.setItem('parlour.lang', code);
  } catch {}
  if (typeof document !== 'undefined') document.documentElement.lang = code;
}

/** The text of `key` with {name} replaced by vars.name; when vars.n is 1 and
 * the catalogue has `key.one` ("{n} card" beside "{n} cards"), that one. */
export function t(key, vars) {
  if (vars && vars.n === 1 && (catalogues[lang][key + '.one'] !== undefined || en[key + '.one'] !== undefined)) key += '.one';
  let s = catalogues[lang][key];
  if (s === undefined) s = en[key];
  if (s === undefined) {
    if (!missing.has(key)) console.warn('parlour: missing i18n key ' + key); // the browser tests fail on it
    missing.add(key);
    return '⟦' + key + '⟧';
  }
  if (vars) s = s.replace(/\{(\w+)\}/g, (m, k) => (vars[k] === undefined ? m : String(vars[k])));
  return s;
}

/** Does the catalogue have `key` (so callers can offer a fallback text)? */
export function has(key) {
  return catalogues[lang][key] !== undefined || en[key] !== undefined;
}

/** A computer level's name as the interface says it (`level.NAME`: easy,
 * medium, hard, champion), else the server's name itself. */
export function levelName(name) {
  return name && has('level.' + name) ? t('level.' + name) : name || '';
}

/** A level's description (`level.GAME.NAME.about`), else the server's `about`. */
export function levelAbout(game, l) {
  return has('level.' + game + '.' + l.name + '.about') ? t('level.' + game + '.' + l.name + '.about') : l.about;
}

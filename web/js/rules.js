// rules.js — each game's rules as a player reads them (issue 31, §7): a
// "Rules" box in the room that opens a short summary in the page's language,
// written from the rule files (/work/shared/rules, restated for players:
// no rule numbers, short sections — goal, a turn, special cases, the end and
// scoring). The texts are data, web/rules/GAME.js (served with web/ like the
// tables), loaded when the box is first opened:
//
//   export default {
//     defaults: {KEY: VALUE},                      // the game's option defaults
//     en: [{title, items: [ITEM]}], ru: [...],     // sections
//   }
//   ITEM: 'a sentence' | {text: 'a sentence', when: {KEY: VALUE|[VALUE]}}
//         | {opt: KEY, text: '… {v} …'}             // an option's number
//         | {opt: KEY, v: {VALUE: 'a sentence'}}    // an option's choice (with
//           `text` too: the sentence for the values not in `v`; a value
//           "KIND:N" also finds v[KIND], with {n} the N)
//   A section may have `when` too (karuta's variants).
//
// An item that an option decides is marked (class rule-opt) and says "this
// room" when the room's value is not the default: the options a room uses
// are visible where they change a rule. Unknown options (a spectator who
// was never told them): the defaults, and every variant's sections.

import { t, lang } from './i18n.js';
import { h, clear } from './dom.js';

/** Whether `when` ({KEY: VALUE or [VALUE]}) holds for the options `opts`
 * (a key the page does not know holds: show it). */
function holds(when, opts) {
  if (!when) return true;
  return Object.entries(when).every(([k, v]) => !(k in opts) || (Array.isArray(v) ? v : [v]).includes(opts[k]));
}

/** The sections of `data` (a web/rules module's default) for options `known`
 * (the room's, may be partial) in language `lg`: [{title, items: [{text, opt, changed}]}]. */
export function rulesFor(data, known, lg) {
  const secs = data[lg] || data.en || [];
  const defaults = data.defaults || {};
  const opts = { ...defaults, ...(known || {}) };
  const out = [];
  for (const sec of secs) {
    if (!holds(sec.when, known || {})) continue;
    const items = [];
    for (const it of sec.items) {
      if (typeof it === 'string') {
        items.push({ text: it });
        continue;
      }
      if (!holds(it.when, known || {})) continue;
      if (!it.opt) {
        items.push({ text: it.text });
        continue;
      }
      const v = opts[it.opt];
      // an exact value's sentence, else one for its kind ("deals" of "deals:3", {n} the 3), else `text`
      const kind = String(v).split(':')[0], n = String(v).split(':')[1] ?? '';
      const pick = it.v && it.v[v] !== undefined ? it.v[v] : it.v && it.v[kind] !== undefined ? it.v[kind] : it.text;
      const text = pick ? String(pick).replaceAll('{v}', v).replaceAll('{n}', n) : null;
      if (text) items.push({ text, opt: it.opt, changed: known && it.opt in known && known[it.opt] !== defaults[it.opt] });
    }
    if (items.length) out.push({ title: sec.title, items });
  }
  return out;
}

/** The rules as elements (an h3 and a list per section). */
function rulesNodes(secs) {
  return secs.map((s) =>
    h('section', { class: 'rules-part' },
      h('h3', {}, s.title),
      h('ul', {}, s.items.map((it) =>
        h('li', { class: it.opt ? 'rule-opt' + (it.changed ? ' changed' : '') : null, dataset: it.opt ? { opt: it.opt } : {} },
          it.opt ? h('span', { class: 'rule-tag' }, t(it.changed ? 'rules.changed' : 'rules.option')) : null,
          it.opt ? ' ' : null,
          it.text)))));
}

/** A "Rules" box (a <details>, id rules-box): opened, it loads and shows the
 * rules of game `game()` with the options `options()` (both read at opening;
 * functions, as the room learns them after it is drawn). */
export function rulesBox(game, options) {
  const body = h('div', { class: 'rules-body' });
  const box = h('details', { class: 'rules-box', id: 'rules-box', ontoggle: () => box.open && fill() }, h('summary', {}, t('rules.title')), body);
  let shown = null;
  function fill() {
    const g = game();
    if (!g) return;
    const opts = options() || {};
    const key = g + JSON.stringify(opts);
    if (shown === key) return;
    shown = key;
    clear(body);
    body.append(h('p', { class: 'quiet' }, t('rules.loading')));
    import('/rules/' + g + '.js').then((m) => {
      if (shown !== key) return;
      clear(body);
      body.append(...rulesNodes(rulesFor(m.default, opts, lang)));
    }, () => {
      clear(body);
      body.append(h('p', { class: 'quiet' }, t('rules.none')));
    });
  }
  return box;
}

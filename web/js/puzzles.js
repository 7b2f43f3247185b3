// puzzles.js — "find the best move" (issue 34 §1; docs/review.md, "Puzzles"):
// the positions of /puzzles/ur.json (written by `parlour puzzles make` from
// the largest exact losses of computer games), one at a time on the game's
// own table (web/games/ur.js, mounted as in a room with the puzzle's legal
// moves). The player plays a move; the page says whether it was the best,
// with every move's exact chance to win, then offers the next position.
// Route: /#puzzles (app.js). Words: the `puzzles.` keys (block urreview).

import { t, lang, has } from './i18n.js';
import { h, clear } from './dom.js';
import { actionWords } from './events.js';

export function open(ctx) {
  const { root } = ctx;
  const P = { list: null, i: 0, answered: null, error: null, mod: null, table: null, score: 0, done: 0 };
  const els = {};

  fetch('/puzzles/ur.json').then((r) => (r.ok ? r.json() : Promise.reject(new Error(String(r.status))))).then(
    (doc) => {
      P.list = Array.isArray(doc.puzzles) ? doc.puzzles.filter((p) => p && p.view && Array.isArray(p.legal)) : [];
      return import('/games/ur.js');
    }).then((mod) => {
    P.mod = mod;
    show();
  }, () => {
    P.error = t('puzzles.none');
    show();
  });

  const side = (s) => t('ur.side.' + s);
  const words = (pz, action) => {
    const a = pz.legal.find((x) => x.action === action) || { action, fields: {} };
    return actionWords(P.mod, 'ur', a, { t, lang, has, seat: pz.seat });
  };
  const pc = (p) => (100 * p).toFixed(1);

  function state(pz, answered) {
    // answered: no moves to play, every move's chance as the analysis (a state naming no seats)
    return { type: 'state', room: '', seat: answered ? -1 : pz.seat, seq: 2 * P.i + (answered ? 1 : 0), view: pz.view,
      legal: answered ? pz.legal.map((a) => ({ ...a, chance: (pz.moves.find((m) => m.move === a.action) || {}).value })) : pz.legal,
      seats: answered ? [] : [{ kind: 'person', name: side(0) }, { kind: 'person', name: side(1) }],
      history: [], history_from: 0, clock: null, over: false, result: null, status: 'playing' };
  }

  function answer(pz, action) {
    if (P.answered) return;
    const best = action === pz.answer;
    const mine = pz.moves.find((m) => m.move === action);
    P.answered = { action, best, value: mine ? mine.value : null };
    P.done++;
    if (best) P.score++;
    show();
  }

  function show() {
    clear(root);
    els.table = h('div', { class: 'table', id: 'table' });
    const sec = h('section', { class: 'puzzles', id: 'puzzles' }, h('h1', {}, t('puzzles.title')));
    root.append(sec);
    if (P.error || (P.list && !P.list.length)) {
      sec.append(h('p', { class: 'note info' }, P.error || t('puzzles.none')));
      return;
    }
    if (!P.list || !P.mod) {
      sec.append(h('p', { class: 'quiet' }, t('puzzles.loading')));
      return;
    }
    const pz = P.list[P.i];
    sec.append(
      h('p', { id: 'puzzles-count' }, t('puzzles.count', { i: P.i + 1, n: P.list.length, right: P.score, done: P.done })),
      h('p', { class: 'quiet', id: 'puzzles-rules' }, t('opt.ur.rules') + ': ' + t('opt.ur.rules.v.' + ((pz.options && pz.options.rules) || 'skiryuk')) +
        ' · ' + t('opt.ur.pieces') + ': ' + ((pz.options && pz.options.pieces) || '7')),
      h('p', { id: 'puzzles-ask' }, t('puzzles.ask', { side: side(pz.seat), n: pz.view.roll })),
      els.table);
    if (P.answered) {
      const a = P.answered;
      sec.append(h('p', { class: 'note ' + (a.best ? 'info' : 'error'), id: 'puzzles-result', role: 'status' },
        a.best ? t('puzzles.right', { move: words(pz, a.action), p: pc(pz.answer_value) })
          : t('puzzles.wrong', { move: words(pz, a.action), p: a.value === null ? '?' : pc(a.value), best: words(pz, pz.answer), q: pc(pz.answer_value) })),
      h('p', { class: 'quiet' }, t('puzzles.played', { move: words(pz, pz.played), loss: pc(pz.loss) })),
      h('button', { type: 'button', id: 'puzzles-next', onclick: () => {
        P.i = (P.i + 1) % P.list.length;
        P.answered = null;
        show();
      } }, t('puzzles.next')));
    }
    sec.append(h('p', {}, h('a', { href: '/' }, t('room.toLobby'))));
    const box = h('div', { class: 'table-root', dataset: { game: 'ur' } });
    els.table.append(box);
    if (P.table) P.table.destroy();
    const api = { t, lang, seat: P.answered ? -1 : pz.seat, act: (action) => answer(pz, action), touch() {}, say() {}, announce() {} };
    P.table = P.mod.mount(box, api);
    P.table.update(state(pz, !!P.answered));
  }

  show();
  return {
    render: show,
    puzzles: P,
    close() {
      if (P.table) P.table.destroy();
    },
  };
}

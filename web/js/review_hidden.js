// review_hidden.js — the review of a finished Tam Cúc or City Behind Walls game
// (issue 34 §5; docs/hints.md "Reviews of hidden-card games") in the replay page:
// asked of the server with {type: "review", room} (the same request as Ur's,
// js/review.js), answered {type: "review", room, review: {kind: "hidden", …}} by a
// worker: each decision where the strongest computer player, from the deciding
// player's own view of the cards at that moment, would have chosen otherwise,
// with both estimates; per seat, how many of its decisions differ. The moves in
// the game's words (its actionWords from the moves' fields), never notation.
// Clicking a decision asks the page (`onPick`) to show that position.
// Words: the `reviewh.` keys (block hints of web/i18n/*.js).
//
// reviewHiddenPanel({net, code, send, seatName, words, onPick}) → { el, ask(), reset(), close() }
// (code null, send(): an uploaded record's review, asked as js/replay.js sends it)

import { t } from './i18n.js';
import { h, clear } from './dom.js';
import { reviewError } from './review.js';

const pc = (p) => (100 * p).toFixed(1);

export function reviewHiddenPanel({ net, code, send, seatName, words, onPick }) {
  const P = { review: null, error: null, asked: false, picked: -1 };
  const el = h('section', { class: 'review card', id: 'review-hidden', 'aria-live': 'polite' });
  const offs = [
    net.on('review', (m) => {
      if ((m.room || null) !== (code || null) || !m.review || m.review.kind !== 'hidden') return;
      P.review = m.review;
      P.error = null;
      render();
    }),
    net.on('error', (m) => {
      if (m.request !== 'review' || !P.asked) return;
      P.error = reviewError(m);
      render();
    }),
  ];

  function ask() {
    P.asked = true;
    P.error = null;
    if (send) send(); // an uploaded record (js/replay.js): sent again with review: true
    else net.send({ type: 'review', room: code });
    render();
  }

  function render() {
    clear(el);
    el.append(h('h2', {}, t('reviewh.title')));
    if (P.error) el.append(h('p', { class: 'note error', role: 'alert' }, P.error));
    const rv = P.review;
    if (!rv) {
      if (P.asked && !P.error) el.append(h('p', { class: 'quiet', id: 'reviewh-wait' }, t('review.waiting')));
      else el.append(h('button', { type: 'button', id: 'reviewh-ask', onclick: ask }, t('review.ask')));
      return;
    }
    el.append(h('p', { class: 'note info', id: 'reviewh-source' }, t('reviewh.source', { n: rv.iterations })));
    const differ = (rv.decisions || []).map(() => 0);
    for (const m of rv.moves) differ[m.seat] = (differ[m.seat] || 0) + 1;
    el.append(h('ul', { class: 'review-seats', id: 'reviewh-seats' },
      (rv.decisions || []).map((d, i) => h('li', {}, h('b', {}, seatName(i)), ': ', t('reviewh.seat', { k: differ[i], d })))));
    if (!rv.moves.length) el.append(h('p', {}, t('reviewh.none')));
    const list = h('ol', { class: 'review-moves', id: 'reviewh-moves' });
    rv.moves.forEach((m, k) => {
      const played = words({ action: m.played, fields: m.played_fields, seat: m.seat, index: m.index });
      const best = words({ action: m.best, fields: m.best_fields, seat: m.seat, index: m.index });
      const text = t('reviewh.move', { n: m.index + 1, who: seatName(m.seat), played, p: pc(m.played_value), best, q: pc(m.best_value) });
      list.append(h('li', { class: k === P.picked ? 'now' : '' },
        h('button', { type: 'button', class: 'linkish', onclick: () => {
          P.picked = k;
          [...list.children].forEach((li, j) => li.classList.toggle('now', j === k));
          onPick(m);
        } }, text)));
    });
    el.append(list);
  }

  render();
  return {
    el,
    ask,
    /** Forgets the review (another record was uploaded). */
    reset() {
      Object.assign(P, { review: null, error: null, asked: false, picked: -1 });
      render();
    },
    close() {
      for (const off of offs) off();
    },
  };
}

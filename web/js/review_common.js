// review_common.js — what the two review panels share (js/review.js for Ur,
// js/review_hidden.js for Tam Cúc and City Behind Walls): asking the server
// with {type: "review", room}, the waiting line, errors, and the list of
// decisions, each a button that shows its position (docs/review.md,
// docs/hints.md). The panels give what differs: which answers are theirs,
// the words of an error, and the review's own content.

import { t } from './i18n.js';
import { h, clear } from './dom.js';

/** 0.523 → "52.3". */
export const pc = (p) => (100 * p).toFixed(1);

/** A decision's moves in the game's words: {played, best}, words(entry) from the page. */
export function moveWords(words, m) {
  return {
    played: words({ action: m.played, fields: m.played_fields, seat: m.seat }),
    best: words({ action: m.best, fields: m.best_fields, seat: m.seat }),
  };
}

/**
 * A review panel for room `code`. `opts`: {net, code, id (the section's id), prefix (of the
 * ids inside: PREFIX-wait, PREFIX-ask, PREFIX-moves), title (a words key), mine(review) →
 * whether an answer is this panel's, error(m, asked) → the words of an error answer to a
 * `review` request (null: not this panel's), body(review, el, list) → appends the review's
 * content to el, list(moves, {cls, attrs, content, pick}) making its list of decisions}.
 * Returns {el, ask(), review (the last answer or null), close()}.
 */
export function reviewFrame({ net, code, id, prefix, title, mine, error, body }) {
  const P = { review: null, error: null, asked: false, picked: -1 };
  const el = h('section', { class: 'review card', id, 'aria-live': 'polite' });
  const offs = [
    net.on('review', (m) => {
      if (m.room !== code || !m.review || !mine(m.review)) return;
      P.review = m.review;
      P.error = null;
      render();
    }),
    net.on('error', (m) => {
      if (m.request !== 'review') return;
      const e = error(m, P.asked);
      if (e === null) return;
      P.error = e;
      render();
    }),
  ];

  function ask() {
    P.asked = true;
    P.error = null;
    net.send({ type: 'review', room: code });
    render();
  }

  /** The decisions: an item per move (class `cls(m)`, plus `now` on the one picked), its
   * button holding content(m); a click marks it and calls pick(m). */
  function list(moves, { cls = () => '', attrs = () => ({}), content, pick }) {
    const ol = h('ol', { class: 'review-moves', id: prefix + '-moves' });
    moves.forEach((m, k) => {
      const c = [cls(m), k === P.picked ? 'now' : ''].filter(Boolean).join(' ');
      ol.append(h('li', { class: c, ...attrs(m) },
        h('button', { type: 'button', class: 'linkish', onclick: () => {
          P.picked = k;
          [...ol.children].forEach((li, j) => li.classList.toggle('now', j === k));
          pick(m);
        } }, ...content(m))));
    });
    return ol;
  }

  function render() {
    clear(el);
    el.append(h('h2', {}, t(title)));
    if (P.error) el.append(h('p', { class: 'note error', role: 'alert' }, P.error));
    const rv = P.review;
    if (!rv) {
      if (P.asked && !P.error) el.append(h('p', { class: 'quiet', id: prefix + '-wait' }, t('review.waiting')));
      else el.append(h('button', { type: 'button', id: prefix + '-ask', onclick: ask }, t('review.ask')));
      return;
    }
    body(rv, el, list);
  }

  render();
  return {
    el,
    ask,
    get review() { return P.review; },
    close() { for (const off of offs) off(); },
  };
}

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
// reviewHiddenPanel({net, code, seatName, words, onPick}) → { el, ask(), review, close() }
// (the frame, the asking and the decisions' list: js/review_common.js)

import { t } from './i18n.js';
import { h } from './dom.js';
import { reviewFrame, moveWords, pc } from './review_common.js';

export function reviewHiddenPanel({ net, code, seatName, words, onPick }) {
  return reviewFrame({
    net, code, id: 'review-hidden', prefix: 'reviewh', title: 'reviewh.title',
    mine: (rv) => rv.kind === 'hidden',
    error: (m, asked) => (!asked ? null : m.error === 'rate' ? t('review.busy') : m.message),
    body(rv, el, list) {
      el.append(h('p', { class: 'note info', id: 'reviewh-source' }, t('reviewh.source', { n: rv.iterations })));
      const differ = (rv.decisions || []).map(() => 0);
      for (const m of rv.moves) differ[m.seat] = (differ[m.seat] || 0) + 1;
      el.append(h('ul', { class: 'review-seats', id: 'reviewh-seats' },
        (rv.decisions || []).map((d, i) => h('li', {}, h('b', {}, seatName(i)), ': ', t('reviewh.seat', { k: differ[i], d })))));
      if (!rv.moves.length) el.append(h('p', {}, t('reviewh.none')));
      el.append(list(rv.moves, {
        content(m) {
          const { played, best } = moveWords(words, m);
          return [t('reviewh.move', { n: m.index + 1, who: seatName(m.seat), played, p: pc(m.played_value), best, q: pc(m.best_value) })];
        },
        pick: onPick,
      }));
    },
  });
}

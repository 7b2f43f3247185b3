// review.js — the review of a finished Ur game (issue 34 §1; docs/review.md):
// asked of the server with {type: "review", room} (docs/web-protocol.md), it
// answers {type: "review", room, review} — computed by a worker from a solved
// table ("exact") or by the computer's search ("estimate", said so). Shown in
// the replay page (js/replay.js): where the values come from, each side's
// accuracy, its decisions by class, luck and skill; a chart (SVG) of the
// first side's chance to win through the game; and each decision with its
// class, the move played and the best move in the game's words (never
// notation). Clicking a decision asks the page (`onPick`) to show that
// position with the best and the played move marked on the board.
// Words: the `review.` keys (block urreview of web/i18n/*.js).

import { t } from './i18n.js';
import { h, svg } from './dom.js';
import { reviewFrame, moveWords, pc } from './review_common.js';

const CLASSES = ['best', 'good', 'inaccuracy', 'mistake', 'blunder'];
const COLOURS = { best: '#2e7d32', good: '#558b2f', inaccuracy: '#f9a825', mistake: '#ef6c00', blunder: '#c62828' };

/** A signed share: +0.12 → "+12.0". */
const signed = (p) => (p >= 0 ? '+' : '−') + Math.abs(100 * p).toFixed(1);

/** The chart: seat 0's chance to win before each action (the known values),
 * a line at one half, the decisions that lost most marked. */
function chart(rv, who) {
  const W = 600, H = 160, pad = 8;
  const n = rv.series.length - 1 || 1;
  const x = (i) => pad + (i * (W - 2 * pad)) / n;
  const y = (p) => H - pad - p * (H - 2 * pad);
  const pts = [];
  rv.series.forEach((p, i) => { if (typeof p === 'number') pts.push(`${x(i).toFixed(1)},${y(p).toFixed(1)}`); });
  const el = svg('svg', { viewBox: `0 0 ${W} ${H}`, class: 'review-chart', id: 'review-chart', role: 'img',
    'aria-label': t('review.chart', { who, start: pc(rv.start), end: pc(rv.end) }) });
  el.append(svg('rect', { x: 0, y: 0, width: W, height: H, fill: 'none', stroke: 'currentColor', 'stroke-opacity': 0.3 }));
  el.append(svg('line', { x1: pad, x2: W - pad, y1: y(0.5), y2: y(0.5), stroke: 'currentColor', 'stroke-opacity': 0.4, 'stroke-dasharray': '4 4' }));
  el.append(svg('polyline', { points: pts.join(' '), fill: 'none', stroke: 'currentColor', 'stroke-width': 2 }));
  for (const m of rv.moves) {
    if (m.class !== 'mistake' && m.class !== 'blunder') continue;
    const p = rv.series[m.index];
    if (typeof p !== 'number') continue;
    el.append(svg('circle', { cx: x(m.index), cy: y(p), r: 5, fill: COLOURS[m.class] }));
  }
  return el;
}

/**
 * The review panel for room `code`. `opts`: {net, code, seatName(i), words(entry) → a
 * move in the game's words, onPick(move, exact) — a decision clicked}. Returns {el, ask(),
 * review (the last answer or null), close()}.
 */
export function reviewPanel({ net, code, seatName, words, onPick }) {
  const panel = reviewFrame({
    net, code, id: 'review', prefix: 'review', title: 'review.title',
    mine: (rv) => rv.kind !== 'hidden', // js/review_hidden.js's
    error: (m) => (m.error === 'game' ? t('review.notUr') : m.error === 'rate' ? t('review.busy') : m.message),
    body(rv, el, list) {
      el.append(h('p', { class: 'note info', id: 'review-source' }, rv.exact ? t('review.exact') : t('review.estimate', { n: rv.iterations })));
      el.append(chart(rv, seatName(0)));
      const seats = h('ul', { class: 'review-seats', id: 'review-seats' });
      rv.seats.forEach((s, i) => {
        const classes = CLASSES.map((c) => t('review.count.' + c, { n: s.classes[c] || 0 })).join(', ');
        seats.append(h('li', {},
          h('b', {}, seatName(i)), ': ', t('review.accuracy', { p: s.accuracy.toFixed(1) }), ' · ', classes, '. ',
          t('review.luckSkill', { luck: signed(s.luck), skill: signed(s.skill), lost: pc(s.lost) })));
      });
      el.append(seats);
      el.append(h('h3', {}, t('review.decisions')));
      el.append(list(rv.moves, {
        cls: (m) => 'review-' + m.class,
        attrs: (m) => ({ dataset: { cls: m.class } }),
        content(m) {
          const { played, best } = moveWords(words, m);
          const text = m.class === 'best'
            ? t('review.move.best', { n: m.index + 1, who: seatName(m.seat), played, p: pc(m.played_value) })
            : t('review.move', { n: m.index + 1, who: seatName(m.seat), played, p: pc(m.played_value), best, q: pc(m.best_value), cls: t('review.class.' + m.class) });
          return [h('span', { class: 'review-mark', 'aria-hidden': 'true' }, '●'), ' ', text];
        },
        pick: (m) => onPick(m, panel.review.exact),
      }));
      el.append(h('p', {}, h('a', { href: '/#puzzles', id: 'review-puzzles' }, t('review.puzzles'))));
    },
  });
  return panel;
}

// player.js — a player's page (/player/NAME; issue 33 §4, first version):
// from GET /api/player/NAME (docs/server.md, "A player's page") the rating per
// game in words (the pool names of Play now's `playnow.pool.` keys), a small
// SVG chart of each pool's history, and the games with their results and
// replay links (/room/CODE#replay). An unknown name says so. Words: the
// `player.` keys.

import { t, lang } from './i18n.js';
import { h, clear } from './dom.js';

const SVG = 'http://www.w3.org/2000/svg';

function svg(tag, attrs) {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  return el;
}

/** A pool key ("ur/skiryuk") in words. */
function poolName(pool) {
  return t('playnow.pool.' + pool.replace('/', '.'));
}

/** The history of one pool as a small line chart (role img, its words in the label). */
function chart(pool, points) {
  const W = 300, H = 80, pad = 6;
  const rs = points.map((p) => p.rating);
  const lo = Math.min(...rs) - 10, hi = Math.max(...rs) + 10;
  const x = (i) => (points.length === 1 ? W / 2 : pad + (i * (W - 2 * pad)) / (points.length - 1));
  const y = (r) => H - pad - ((r - lo) * (H - 2 * pad)) / (hi - lo);
  const last = points[points.length - 1];
  const el = svg('svg', { viewBox: `0 0 ${W} ${H}`, class: 'player-chart', role: 'img',
    'aria-label': t('player.chart', { pool: poolName(pool), n: points.length, rating: Math.round(last.rating) }) });
  el.append(svg('polyline', { points: points.map((p, i) => `${x(i)},${y(p.rating)}`).join(' '),
    fill: 'none', stroke: 'currentColor', 'stroke-width': 2 }));
  points.forEach((p, i) => el.append(svg('circle', { cx: x(i), cy: y(p.rating), r: 3, fill: 'currentColor' })));
  return el;
}

function draw(box, name, data) {
  clear(box);
  if (!data) {
    box.append(h('h1', {}, t('player.title', { name })), h('p', { id: 'player-unknown' }, t('player.unknown')));
    return;
  }
  box.append(h('h1', { id: 'player-name' }, t('player.title', { name: data.name })));
  box.append(h('h2', {}, t('player.ratings')));
  if (!data.ratings.length) box.append(h('p', { class: 'quiet', id: 'player-no-ratings' }, t('player.noRatings')));
  const ul = h('ul', { id: 'player-ratings', class: 'player-ratings' });
  for (const r of data.ratings) {
    const hist = (data.history && data.history[r.pool]) || [];
    ul.append(h('li', { 'data-pool': r.pool },
      h('span', {}, t('player.rating', { pool: poolName(r.pool), rating: Math.round(r.rating),
        rd: Math.round(r.rd), n: r.games })),
      hist.length ? chart(r.pool, hist) : ''));
  }
  if (data.ratings.length) box.append(ul);
  box.append(h('h2', {}, t('player.games')));
  if (!data.games.length) box.append(h('p', { class: 'quiet', id: 'player-no-games' }, t('player.noGames')));
  const gl = h('ul', { id: 'player-games', class: 'player-games' });
  for (const g of data.games) {
    const when = g.finished_ms ? new Date(g.finished_ms).toLocaleDateString(lang) : '';
    const who = g.opponents.length ? g.opponents.join(', ') : t('player.computer');
    gl.append(h('li', { 'data-room': g.room },
      h('span', {}, t('player.game', { game: t('game.' + g.game + '.name'), result: t('player.result.' + g.result),
        who, when }) + (g.rated ? ' · ' + t('player.rated') : '')), ' ',
      h('a', { href: '/room/' + encodeURIComponent(g.room) + '#replay' }, t('player.replay'))));
  }
  if (data.games.length) box.append(gl);
}

/** Opens the page of player `name` in ctx.root. Returns {close, render}. */
export function open(ctx, name) {
  const box = h('section', { id: 'player', class: 'player' });
  ctx.root.append(box);
  let data;
  let closed = false;
  box.append(h('p', { class: 'quiet' }, t('player.loading')));
  fetch('/api/player/' + encodeURIComponent(name), { credentials: 'same-origin' })
    .then((res) => (res.status === 200 ? res.json() : null))
    .catch(() => null)
    .then((d) => {
      data = d;
      if (!closed) draw(box, name, data);
    });
  return {
    close: () => { closed = true; },
    render: () => { if (data !== undefined) draw(box, name, data); },
  };
}

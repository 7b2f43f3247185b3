// player.js — a player's page (/player/NAME; issue 33 §4, first version):
// from GET /api/player/NAME (docs/server.md, "A player's page") the rating per
// game in words (the pool names of Play now's `playnow.pool.` keys), a small
// SVG chart of each pool's history, and the games with their results and
// replay links (/room/CODE#replay), the older games a page at a time ("Older
// games": ?before=FINISHED_MS), the win rates against each computer level,
// karuta take times and fouls over the last matches (with a chart of each
// match's mean);
// on one's own page (the server's `own`) the switch that makes it private
// (POST /api/account/privacy) and, while it is, a note saying so, and the
// download of all one's games as records (/api/player/NAME/records.zip). An unknown
// name (or another's private page: the server answers the same) says so.
// Words: the `player.` keys.

import { t, lang, levelName } from './i18n.js';
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

/** The own page's privacy: the switch and, while private, the note. */
function privacy(box, data, redraw) {
  const note = h('p', { id: 'player-private-note', class: 'player-note', hidden: !data.private }, t('player.private.note'));
  const err = h('p', { id: 'player-private-failed', class: 'quiet', role: 'alert', hidden: true }, t('player.private.failed'));
  const input = h('input', { type: 'checkbox', id: 'player-private', checked: !!data.private });
  input.addEventListener('change', () => {
    const want = input.checked;
    input.disabled = true;
    fetch('/api/account/privacy', { method: 'POST', credentials: 'same-origin',
      headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ private: want }) })
      .then((res) => (res.status === 200 ? res.json() : null))
      .catch(() => null)
      .then((d) => {
        if (d && typeof d.private === 'boolean') data.private = d.private;
        else data.privateFailed = true;
        redraw();
        const again = document.getElementById('player-private'); // the page was drawn anew: the focus stays
        if (again) again.focus();
      });
  });
  err.hidden = !data.privateFailed;
  data.privateFailed = false;
  box.append(note, h('p', { class: 'player-switch' }, h('label', { for: 'player-private' }, input, ' ', t('player.private.switch'))), err);
}

/** The win rates against each computer level. */
function levels(box, data) {
  if (!data.levels || !data.levels.length) return;
  box.append(h('h2', {}, t('player.levels')));
  const ul = h('ul', { id: 'player-levels', class: 'player-levels' });
  for (const l of data.levels)
    ul.append(h('li', { 'data-game': l.game, 'data-level': l.level }, t('player.level', { game: t('game.' + l.game + '.name'),
      level: levelName(l.level), wins: l.wins, n: l.games, rate: Math.round(l.rate * 100) })));
  box.append(ul);
}

/** A time in ms as seconds in the page's language (0.34). */
function secs(ms) {
  return (ms / 1000).toLocaleString(lang, { minimumFractionDigits: 2, maximumFractionDigits: 2 });
}

/** Karuta: the take times and fouls over the last matches, and a chart of each match's mean. */
function karuta(box, data) {
  const k = data.karuta;
  if (!k || !k.matches) return;
  box.append(h('h2', {}, t('player.karuta')));
  const perMatch = k.fouls_per_match.toLocaleString(lang, { maximumFractionDigits: 1 });
  const vars = { n: k.matches, takes: k.takes, fouls: k.fouls, perMatch };
  const sec = h('div', { id: 'player-karuta', class: 'player-karuta' },
    h('p', {}, k.takes ? t('player.karuta.summary', { ...vars, mean: secs(k.mean_ms), median: secs(k.median_ms) })
      : t('player.karuta.none', vars)));
  const pts = k.recent.filter((m) => m.mean_ms !== null);
  if (pts.length) {
    const W = 300, H = 80, pad = 6;
    const hi = Math.max(...pts.map((m) => m.mean_ms)) * 1.1 || 1;
    const x = (i) => (pts.length === 1 ? W / 2 : pad + (i * (W - 2 * pad)) / (pts.length - 1));
    const y = (ms) => H - pad - (ms * (H - 2 * pad)) / hi;
    const el = svg('svg', { viewBox: `0 0 ${W} ${H}`, class: 'player-chart', role: 'img',
      'aria-label': t('player.karuta.chart', { mean: secs(pts[pts.length - 1].mean_ms) }) });
    el.append(svg('polyline', { points: pts.map((m, i) => `${x(i)},${y(m.mean_ms)}`).join(' '),
      fill: 'none', stroke: 'currentColor', 'stroke-width': 2 }));
    pts.forEach((m, i) => el.append(svg('circle', { cx: x(i), cy: y(m.mean_ms), r: 3, fill: 'currentColor' })));
    sec.append(el);
  }
  box.append(sec);
}

/** The next games after the last one listed, appended to data.games. */
function loadMore(name, data, redraw) {
  const last = data.games[data.games.length - 1];
  data.loading = true;
  redraw();
  fetch('/api/player/' + encodeURIComponent(name) + '?before=' + last.finished_ms, { credentials: 'same-origin' })
    .then((res) => (res.status === 200 ? res.json() : null))
    .catch(() => null)
    .then((d) => {
      data.loading = false;
      if (d && Array.isArray(d.games)) {
        data.games.push(...d.games);
        data.more = !!d.more;
        data.moreFailed = false;
      } else data.moreFailed = true;
      redraw();
      const again = document.getElementById('player-more') || document.querySelector('#player-games li:last-child a');
      if (again) again.focus(); // the page was drawn anew: the focus stays near where it was
    });
}

function draw(box, name, data, redraw) {
  clear(box);
  if (!data) {
    box.append(h('h1', {}, t('player.title', { name })), h('p', { id: 'player-unknown' }, t('player.unknown')));
    return;
  }
  box.append(h('h1', { id: 'player-name' }, t('player.title', { name: data.name })));
  if (data.own) privacy(box, data, redraw);
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
  levels(box, data);
  karuta(box, data);
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
  if (data.more && data.games.length) {
    box.append(h('p', {}, h('button', { type: 'button', id: 'player-more', disabled: !!data.loading,
      onclick: () => loadMore(data.name, data, redraw) }, t('player.more'))));
    if (data.moreFailed) box.append(h('p', { id: 'player-more-failed', class: 'quiet', role: 'alert' }, t('player.moreFailed')));
  }
  if (data.own && data.games.length)
    box.append(h('p', {}, h('a', { id: 'player-export', download: 'parlour-records.zip',
      href: '/api/player/' + encodeURIComponent(data.name) + '/records.zip' }, t('player.export'))));
}

/** Opens the page of player `name` in ctx.root. Returns {close, render}. */
export function open(ctx, name) {
  const box = h('section', { id: 'player', class: 'player' });
  ctx.root.append(box);
  let data;
  let closed = false;
  const redraw = () => { if (!closed) draw(box, name, data, redraw); };
  box.append(h('p', { class: 'quiet' }, t('player.loading')));
  fetch('/api/player/' + encodeURIComponent(name), { credentials: 'same-origin' })
    .then((res) => (res.status === 200 ? res.json() : null))
    .catch(() => null)
    .then((d) => {
      data = d;
      redraw();
    });
  return {
    close: () => { closed = true; },
    render: () => { if (data !== undefined) redraw(); },
  };
}

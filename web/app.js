// app.js — boot: the language, the connection, the router.
//   /            the lobby (js/lobby.js)
//   /room/CODE   a room (js/room.js)
//   /#puzzles    Ur puzzles: find the best move (js/puzzles.js)
//   /replay      a replay (js/replay.js); also /#replay and /room/CODE#replay,
//                which the server serves as the page itself
//   /#practice   karuta's solo practice (web/games/karuta.js practicePage)
//   /drill       karuta drills (js/drill.js, loaded when asked)
// Tests reach the page's inner parts through window.__parlour.

import { t, lang, setLang, languages, missing } from './js/i18n.js';
import { Net } from './js/net.js';
import { h, clear } from './js/dom.js';
import * as lobby from './js/lobby.js';
import * as room from './js/room.js';
import * as replay from './js/replay.js';
import * as puzzles from './js/puzzles.js';
import * as player from './js/player.js';

const net = new Net(showStatus);
let statusKind = 'connecting';
const app = document.getElementById('app');
const gamesWaiters = [];
let gamesList = null;
let serverOffset = 0; // server_ms - Date.now(), from welcome

net.on('welcome', (m) => {
  if (typeof m.server_ms === 'number') serverOffset = m.server_ms - Date.now();
  lobby.setInvite(m.invite); // the addresses other devices open (invitations)
});
net.on('games', (m) => {
  gamesList = m.games;
  for (const fn of gamesWaiters.splice(0)) fn(gamesList);
});
net.onOpen(() => {
  if (!gamesList) net.send({ type: 'games' });
});

/** What every page gets. */
const ctx = {
  net,
  root: app,
  /** fn(games) once the server's list of games is here (at once if it is). */
  games(fn) {
    if (gamesList) fn(gamesList);
    else gamesWaiters.push(fn);
  },
  gameName(id) {
    const g = gamesList && gamesList.find((x) => x.id === id);
    return g ? g.name : id;
  },
  serverNow: () => Date.now() + serverOffset,
  /** Shows or hides the banner under the header (plain text). */
  banner(text) {
    const b = document.getElementById('banner');
    b.textContent = text || '';
    b.hidden = !text;
  },
};

function showStatus(kind) {
  statusKind = kind;
  const el = document.getElementById('status');
  el.textContent = t('status.' + kind);
  el.dataset.kind = kind;
  const banner = document.getElementById('banner');
  banner.hidden = kind !== 'reconnecting';
  banner.textContent = kind === 'reconnecting' ? t('status.reconnecting.long') : '';
  banner.classList.toggle('down', kind === 'reconnecting');
}

function route() {
  const path = location.pathname;
  const m = path.match(/^\/room\/([0-9A-Za-z_-]+)\/?$/);
  if (path === '/replay' || location.hash.startsWith('#replay')) return replay.open(ctx, m ? m[1] : null);
  if (location.hash === '#puzzles') return puzzles.open(ctx); // find the best move (js/puzzles.js)
  if (m) return room.open(ctx, m[1]);
  const pm = path.match(/^\/player\/([^/]+)\/?$/);
  if (pm) {
    let name = null;
    try {
      name = decodeURIComponent(pm[1]);
    } catch {
      // a bad escape: the lobby
    }
    if (name) return player.open(ctx, name);
  }
  if (location.hash.startsWith('#practice')) return practice();
  if (/^\/drill\/?$/.test(path)) return drills();
  return lobby.open(ctx);
}

// karuta's drills (/drill): drawn by js/drill.js; page.drill holds its test hooks once loaded
function drills() {
  const box = h('div', { id: 'drill', class: 'drill' });
  app.append(box);
  const pg = {};
  import('./js/drill.js').then((d) => Object.assign(pg, d.open(ctx, box)));
  return { close: () => pg.close && pg.close(), render: () => pg.render && pg.render(), get drill() { return pg.drill; } };
}

// karuta's practice page (/#practice): drawn by web/games/karuta.js
function practice() {
  const box = h('div', { id: 'practice' });
  app.append(box);
  const pg = {};
  import('./games/karuta.js').then((k) => Object.assign(pg, k.practicePage(box, ctx, t)));
  return { close: () => pg.close && pg.close() };
}

function chrome() {
  document.documentElement.lang = lang;
  document.title = t('app.title');
  document.getElementById('brand').textContent = t('app.title');
  document.getElementById('brand').setAttribute('aria-label', t('app.home'));
  document.getElementById('lang-label').textContent = t('app.language');
  const sel = clear(document.getElementById('lang'));
  // each language named in itself, marked as such (a screen reader says it in that language)
  for (const l of languages) sel.append(h('option', { value: l.code, lang: l.code, selected: l.code === lang }, l.name));
  showStatus(statusKind);
}

let page = null;
document.getElementById('lang').addEventListener('change', (ev) => {
  setLang(ev.target.value);
  chrome();
  if (page && page.render) page.render();
});
window.addEventListener('hashchange', () => {
  if (page && page.close) page.close();
  clear(app);
  page = route();
});

chrome();
page = route();
net.connect();

window.__parlour = {
  net,
  missing,
  get page() {
    return page;
  },
  setLang(code) {
    const sel = document.getElementById('lang');
    sel.value = code;
    sel.dispatchEvent(new Event('change'));
  },
};

// lobby.js — the lobby (/): the four games (a small picture and two lines
// each), the open public rooms (refresh; a room of one person against the
// computer only when asked), and "new room": the game, its options built
// from the server's `games` (values as selects, ranges as number inputs, free
// text as text; labels, explanations and value words from the catalogue), the
// seats (person, or computer at one of the game's levels), grace, clock and
// public. Once created (one room a press): the invitation — a link other
// devices open (the server's welcome.invite), a copy button, "Open the room"
// and its QR code — brought into view. inviteBox is room.js's too.
// "Play now" on each game (playnow.js) and the `counts` of people online and
// waiting per game, pushed by the server while the lobby is open.

import { t, has, levelName, levelAbout } from './i18n.js';
import { h, svg, clear } from './dom.js';
import { playNow } from './playnow.js';

export const GAMES = ['ur', 'cbw', 'tamcuc', 'karuta'];

/** An option value as the select shows it: the catalogue's word
 * (`opt.GAME.KEY.v.VALUE`) or the value itself (numbers, notation, a value
 * the catalogue does not know). */
function optText(game, key, v) {
  const k = 'opt.' + game + '.' + key + '.v.' + v;
  return has(k) ? t(k) : v;
}

/** How many seats a room of `game` with `opts` (key → value text) has. */
export function seatCount(game, opts) {
  const n = (k, d) => (opts[k] === undefined || opts[k] === '' ? d : Number(opts[k]));
  if (game === 'cbw') {
    const p = n('players', 4);
    return p === 2 ? 4 : p;
  }
  if (game === 'tamcuc') return n('players', 4);
  if (game === 'karuta') {
    const p = n('players', 0);
    if (p > 0) return p;
    return { kyogi: 2, uta: 4, chirashi: 2 }[opts.variant || 'kyogi'] || 2;
  }
  return 2;
}

/** A small picture of each game (inline SVG, drawn here). */
export function picture(game) {
  const s = (...c) => svg('svg', { viewBox: '0 0 120 80', class: 'pic', 'aria-hidden': 'true', focusable: 'false' }, ...c);
  if (game === 'ur') {
    const cells = [];
    const on = (c, r) => !(r !== 1 && (c === 4 || c === 5));
    for (let r = 0; r < 3; r++)
      for (let c = 0; c < 8; c++)
        if (on(c, r)) cells.push(svg('rect', { x: 4 + c * 14, y: 19 + r * 14, width: 13, height: 13, rx: 1.5, fill: '#e9d7a8', stroke: '#7a5a2b' }));
    const ros = (c, r) => svg('path', { d: `M${10.5 + c * 14} ${22 + r * 14}l2 3.5 3.5 2-3.5 2-2 3.5-2-3.5-3.5-2 3.5-2z`, fill: '#2f5d8a' });
    return s(...cells, ros(0, 0), ros(0, 2), ros(3, 1), ros(6, 0), ros(6, 2),
      svg('circle', { cx: 38.5, cy: 25.5, r: 4.5, fill: '#fafafa', stroke: '#222' }),
      svg('circle', { cx: 66.5, cy: 53.5, r: 4.5, fill: '#222' }));
  }
  if (game === 'cbw') {
    const card = (x, y, txt, red) =>
      svg('g', {}, svg('rect', { x, y, width: 22, height: 30, rx: 3, fill: '#fff', stroke: '#555' }),
        svg('text', { x: x + 11, y: y + 20, 'text-anchor': 'middle', 'font-size': 13, fill: red ? '#b3261e' : '#222' }, txt));
    return s(svg('rect', { x: 6, y: 6, width: 108, height: 68, fill: 'none', stroke: '#2e7d32', 'stroke-width': 2, 'stroke-dasharray': '4 3' }),
      card(12, 10, '7♥', true), card(37, 10, 'K♠'), card(62, 10, '9♦', true), card(87, 10, 'A♣'),
      card(24, 42, '10♣'), card(49, 42, 'Q♥', true), card(74, 42, 'J♠'));
  }
  if (game === 'tamcuc') {
    const card = (x, rot, ch, red) =>
      svg('g', { transform: `rotate(${rot} 60 90)` }, svg('rect', { x, y: 14, width: 24, height: 40, rx: 3, fill: '#f6ecd2', stroke: '#6d4c2a' }),
        svg('circle', { cx: x + 12, cy: 34, r: 9, fill: 'none', stroke: red ? '#b3261e' : '#222' }),
        svg('text', { x: x + 12, y: 39, 'text-anchor': 'middle', 'font-size': 13, fill: red ? '#b3261e' : '#222', class: 'cjk', lang: 'zh-Hant' }, ch));
    return s(card(48, -30, '將', true), card(48, -10, '車'), card(48, 10, '馬', true), card(48, 30, '卒'));
  }
  // karuta: two torifuda with vertical kana. The pictures' characters are
  // marked in their language (the karuta's kana Japanese, Tam Cúc's faces
  // Chinese characters), as the tables mark theirs: the font of that script
  // draws them, and the walk over the pages (test_words.mjs) judges them as
  // such, on a page of any language; aria-hidden alone would hide them from
  // a screen reader, not from the eye.
  const fuda = (x, txt) =>
    svg('g', {}, svg('rect', { x, y: 6, width: 30, height: 68, rx: 2, fill: '#fbf6e9', stroke: '#3b6e3b', 'stroke-width': 2 }),
      svg('text', { x: x + 15, y: 14, 'font-size': 11, 'writing-mode': 'vertical-rl', class: 'cjk', lang: 'ja', fill: '#222' }, txt));
  return s(fuda(20, 'わがころも'), fuda(70, 'ふじのたか'));
}

// The server's invitation addresses (welcome.invite, docs/web-protocol.md):
// {urls: [...], local_only}; null until the welcome came (app.js: setInvite).
let invite = null;
const inviteBoxes = new Set(); // the boxes on the page, redrawn when it comes

/** Keeps the server's invitation addresses (the `welcome`'s `invite`) and redraws the open invitation boxes. */
export function setInvite(inv) {
  invite = inv && Array.isArray(inv.urls) ? inv : null;
  for (const redraw of inviteBoxes) redraw();
}

const isLoopback = (hostname) => /^(127\.|localhost$|\[::1\]$|::1$)/.test(hostname);

/** The address a friend's device opens for page `path`: { url, localOnly, others }.
 * The page's own address when the server lists it, or when the page was opened
 * at an address other devices reach (not this machine's 127.0.0.1); else the
 * server's first address for other devices (its public URL, or a network
 * address). localOnly: the server listens on this machine only. */
export function inviteUrl(path, inv = invite, loc = location) {
  const own = loc.origin + path;
  if (!inv) return { url: own, localOnly: false, others: [] };
  if (inv.local_only) return { url: own, localOnly: true, others: [] };
  const bases = inv.urls.map((u) => u.replace(/\/+$/, ''));
  const base = bases.includes(loc.origin) || !isLoopback(loc.hostname) ? loc.origin : bases[0] || loc.origin;
  return { url: base + path, localOnly: false, others: bases.filter((b) => b !== base).map((b) => b + path) };
}

/** The invitation: the link with a copy button and its QR code (loaded on
 * demand), built from an address other devices open (inviteUrl); a plain
 * word when the server listens on this machine only. "Open the room" only
 * outside the room itself. */
export function inviteBox(path) {
  const box = h('div', { class: 'invite' });
  const draw = () => {
    if (!box.isConnected && box.dataset.drawn) {
      inviteBoxes.delete(draw); // the box left the page
      return;
    }
    box.dataset.drawn = '1';
    const { url, localOnly, others } = inviteUrl(path);
    if (box.dataset.url === url && box.dataset.local === String(localOnly)) return;
    box.dataset.url = url;
    box.dataset.local = String(localOnly);
    const qrBox = h('div', { class: 'qr-box' });
    const copied = h('span', { class: 'quiet', role: 'status' });
    const input = h('input', { class: 'invite-link', readonly: true, value: url, 'aria-label': t('invite.link'), onfocus: (ev) => ev.target.select() });
    import('./qr.js').then(
      (q) => qrBox.append(q.qrSvg(url, t('invite.qr'))),
      () => qrBox.append(h('span', { class: 'quiet' }, t('invite.noqr'))),
    );
    const inRoom = location.pathname.replace(/\/$/, '') === path;
    const parts = [
      h('p', {}, t(inRoom ? 'invite.text.room' : 'invite.text')),
      localOnly ? h('p', { class: 'note info', id: 'invite-local' }, t('invite.localOnly'), ' ', h('code', {}, '--host 0.0.0.0'), t('invite.localOnly.end')) : null,
      h('div', { class: 'row' }, input,
        h('button', { type: 'button', class: 'copy', onclick: async () => {
          try {
            await navigator.clipboard.writeText(url);
          } catch {
            input.select();
            document.execCommand && document.execCommand('copy');
          }
          copied.textContent = t('invite.copied');
        } }, t('invite.copy')), copied),
      inRoom ? null : h('p', {}, h('a', { href: path, class: 'button primary', id: 'open-room' }, t('invite.open'))),
      others.length ? h('p', { class: 'quiet invite-others' }, t('invite.others'), ' ', others.join(', ')) : null,
      qrBox];
    clear(box).append(...parts.filter(Boolean));
  };
  inviteBoxes.add(draw);
  draw();
  return box;
}

export function open(ctx) {
  const { net, root } = ctx;
  // pending: a `create` is on its way (no second one); made: the form made
  // L.created and is unchanged since (a second press would make a second room)
  const L = { games: null, rooms: null, created: null, error: null, pending: false, made: false, showComputer: false,
    form: { game: 'ur', options: {}, seats: null } };
  const els = {};
  const offs = [];
  const pn = playNow(net);
  let counts = null; // the server's last `counts`

  offs.push(
    net.on('rooms', (m) => {
      L.rooms = m.rooms;
      renderRooms();
    }),
    net.on('counts', (m) => {
      counts = m;
      renderCounts();
      pn.counts(m);
    }),
    net.on('created', (m) => {
      L.created = m;
      L.error = null;
      L.pending = false;
      L.made = true;
      renderCreated(true);
    }),
    net.on('error', (m) => {
      if (m.request !== 'create') return;
      L.error = m.message;
      L.pending = false;
      renderCreated(true);
    }),
  );
  const offOpen = net.onOpen(() => {
    net.send({ type: 'rooms' });
    net.send({ type: 'counts' }); // answered, then pushed while the lobby is open
  });
  // the open rooms refresh themselves every 15 s while the page is seen (and by the button)
  const poll = setInterval(() => {
    if (net.online && document.visibilityState === 'visible') net.send({ type: 'rooms' });
  }, 15000);
  ctx.games((games) => {
    L.games = games;
    L.form.seats = null; // the default seats need the levels
    render();
    performance.mark('parlour:games'); // the form has the server's options (docs/benchmarks.md)
  });

  function render() {
    clear(root);
    els.games = h('ul', { class: 'games', id: 'games' });
    els.rooms = h('div', { class: 'rooms', id: 'rooms' });
    els.form = h('div', { id: 'new-room' });
    els.created = h('div', { class: 'created', 'aria-live': 'polite' });
    root.append(
      h('section', { class: 'intro' }, h('h1', {}, t('lobby.title')), h('p', {}, t('lobby.intro')),
        (els.online = h('p', { class: 'quiet', id: 'online' }))),
      pn.el,
      h('section', { 'aria-labelledby': 'games-h' }, h('h2', { id: 'games-h' }, t('lobby.games')), els.games),
      // practice alone (issue 34): Ur's puzzles and karuta's drills, from the lobby
      h('section', { 'aria-labelledby': 'practice-h', class: 'card', id: 'practice' }, h('h2', { id: 'practice-h' }, t('lobby.practice')),
        h('ul', {},
          h('li', {}, h('a', { href: '/#puzzles', id: 'lobby-puzzles' }, t('lobby.puzzles'))),
          h('li', {}, h('a', { href: '/drill', id: 'lobby-drills' }, t('drill.lobby'))))),
      h('section', { 'aria-labelledby': 'rooms-h' },
        h('div', { class: 'row spread' }, h('h2', { id: 'rooms-h' }, t('lobby.rooms')),
          h('button', { type: 'button', id: 'refresh', onclick: () => net.send({ type: 'rooms' }) }, t('lobby.refresh'))),
        els.rooms),
      h('section', { 'aria-labelledby': 'new-h', class: 'card' }, h('h2', { id: 'new-h' }, t('lobby.new')), els.form, els.created),
      h('p', { class: 'quiet' }, h('a', { href: '/#replay' }, t('lobby.replay'))),
    );
    renderGames();
    renderRooms();
    renderForm();
    renderCreated();
    pn.render();
    renderCounts();
  }

  /** People online, and waiting to play now per game (the server's `counts`). */
  function renderCounts() {
    if (!counts || !els.online) return;
    els.online.textContent = t('playnow.online', { n: counts.online });
    for (const id of GAMES) {
      const el = document.getElementById('counts-' + id);
      if (el) el.textContent = t('playnow.gameWaiting', { n: (counts.waiting && counts.waiting[id]) || 0 });
    }
  }

  function renderGames() {
    clear(els.games);
    for (const id of GAMES) {
      const known = !L.games || L.games.some((g) => g.id === id);
      if (!known) continue;
      els.games.append(
        h('li', { class: 'game', dataset: { game: id } },
          picture(id),
          h('div', { class: 'game-text' },
            h('h3', {}, t('game.' + id + '.name')),
            h('p', {}, t('game.' + id + '.line1')),
            h('p', { class: 'quiet' }, t('game.' + id + '.line2')),
            h('p', { class: 'quiet counts', id: 'counts-' + id }),
            h('div', { class: 'row' },
              h('button', { type: 'button', class: 'primary playnow-button', id: 'playnow-' + id, onclick: () => pn.choose(id) },
                t('playnow.button')),
              h('button', { type: 'button', class: 'new-game', onclick: () => {
                L.form = { game: id, options: {}, seats: null };
                renderForm();
                document.getElementById('new-room').scrollIntoView({ behavior: 'smooth', block: 'start' });
              } }, t('lobby.play'))),
            id === 'karuta' ? h('p', { class: 'drill-entry' }, h('a', { href: '/drill', id: 'drill-link' }, t('drill.lobby'))) : null)));
    }
  }

  function renderRooms() {
    if (!els.rooms) return;
    clear(els.rooms);
    if (!L.rooms) return;
    if (!L.rooms.length) {
      els.rooms.append(h('p', { class: 'quiet', id: 'no-rooms' }, t('lobby.noRooms')));
      return;
    }
    // a room of one person against computers is that person's game: listed only when asked
    const vsComputer = (rm) => rm.seats.filter((s) => s.kind !== 'ai').length <= 1;
    const hidden = L.rooms.filter(vsComputer).length;
    const shown = L.showComputer ? L.rooms : L.rooms.filter((rm) => !vsComputer(rm));
    if (hidden)
      els.rooms.append(h('label', { class: 'check' },
        h('input', { type: 'checkbox', id: 'show-computer', checked: L.showComputer, onchange: (ev) => {
          L.showComputer = ev.target.checked;
          renderRooms();
        } }), ' ', t('lobby.showComputer')));
    if (!shown.length) {
      els.rooms.append(h('p', { class: 'quiet', id: 'no-rooms' }, t('lobby.noRooms')),
        hidden ? h('p', { class: 'quiet', id: 'hidden-rooms' }, t('lobby.hiddenComputer', { n: hidden })) : null);
      return;
    }
    const ul = h('ul', { class: 'room-list' });
    for (const rm of shown) {
      const open = rm.seats.filter((s) => s.kind === 'open').length;
      const people = rm.seats.map((s) => (s.kind === 'ai' ? t('lobby.computer') : s.kind === 'open' ? '—' : s.name)).join(', ');
      ul.append(
        h('li', { class: 'room-item' },
          h('a', { href: '/room/' + rm.room }, t('game.' + rm.game + '.name')),
          h('span', { class: 'quiet' }, ' ', people, ' · ', rm.state === 'waiting' ? t('lobby.openSeats', { n: open }) : t('lobby.playing'))));
    }
    els.rooms.append(ul);
  }

  /** Whether option `o` is in the form: not one for tests, not a fixed deal. */
  function formOption(o) {
    return !/\(tests\)\s*$/.test(o.about) && o.key !== 'deal';
  }

  function gameInfo(id) {
    return L.games && L.games.find((g) => g.id === id);
  }

  function renderForm() {
    if (!els.form) return;
    clear(els.form);
    const f = L.form;
    const g = gameInfo(f.game);
    const gameSel = h('select', { id: 'new-game', onchange: (ev) => {
      L.form = { game: ev.target.value, options: {}, seats: null };
      renderForm();
    } }, GAMES.filter((id) => !L.games || gameInfo(id)).map((id) => h('option', { value: id, selected: id === f.game }, t('game.' + id + '.name'))));
    const form = h('form', { id: 'create-form', onsubmit: (ev) => {
      ev.preventDefault();
      create();
    } });
    // a change of the form may make another room; until then one press made one
    const changed = () => {
      if (!L.made) return;
      L.made = false;
      syncCreate();
    };
    form.addEventListener('input', changed);
    form.addEventListener('change', changed);
    form.append(h('label', { class: 'field' }, h('span', {}, t('new.game')), gameSel));
    if (g) {
      // options (the ones for tests — "(tests)" in their description — and a
      // fixed deal, written in the engine's notation, stay out: docs/web-ui.md)
      const opts = h('fieldset', { class: 'options' }, h('legend', {}, t('new.options')));
      const shown = g.options.filter(formOption);
      const details = h('details', {}, h('summary', {}, t('new.moreOptions')));
      shown.forEach((o, i) => {
        const id = 'opt-' + o.key;
        const base = 'opt.' + f.game + '.' + o.key; // the catalogue's label and description, else the server's
        const cur = f.options[o.key] ?? o.default;
        let input, extra = null;
        if (f.game === 'cbw' && o.key === 'w') // "auto" or a width: a list of words and numbers
          input = h('select', { id, name: o.key }, ['auto', ...Array.from({ length: 16 }, (_, k) => String(k + 1))]
            .map((v) => h('option', { value: v, selected: v === String(cur) }, optText(f.game, o.key, v))));
        else if (f.game === 'tamcuc' && o.key === 'session_end') {
          // "deals:N" or "target:N": what is counted, then how many
          const m = /^(deals|target):(\d+)$/.exec(String(cur)) || [null, 'deals', '1'];
          input = h('input', { id, name: o.key, type: 'hidden', value: m[1] + ':' + m[2] });
          const kind = h('select', { id: id + '-kind', 'aria-label': t('opt.tamcuc.session_end') },
            ['deals', 'target'].map((v) => h('option', { value: v, selected: v === m[1] }, optText(f.game, o.key, v))));
          const num = h('input', { id: id + '-n', type: 'number', min: 1, max: 1000, step: 1, value: m[2], required: true, 'aria-label': t('opt.tamcuc.session_end') });
          const sync = () => {
            input.value = kind.value + ':' + num.value;
            input.dispatchEvent(new Event('change'));
          };
          kind.addEventListener('change', sync);
          num.addEventListener('input', sync);
          extra = h('span', { class: 'row' }, num, kind);
        } else if (Array.isArray(o.values))
          input = h('select', { id, name: o.key }, o.values.map((v) => h('option', { value: v, selected: v === cur }, optText(f.game, o.key, v))));
        else if (Array.isArray(o.range))
          input = h('input', { id, name: o.key, type: 'number', min: o.range[0], max: o.range[1], step: 1, value: cur, required: true });
        else input = h('input', { id, name: o.key, type: 'text', value: cur, spellcheck: 'false' });
        const changed = () => {
          f.options[o.key] = input.value;
          const n = seatCount(f.game, f.options);
          if (!f.seats || f.seats.length !== n || o.key === 'players') {
            f.seats = null;
            renderSeats();
          }
        };
        input.addEventListener('input', changed);
        input.addEventListener('change', changed);
        const row = h('div', { class: 'opt' },
          h('label', { for: extra ? id + '-n' : id }, has(base) ? t(base) : h('code', {}, o.key)), input, extra,
          h('p', { class: 'about', id: id + '-about' }, has(base + '.about') ? t(base + '.about') : o.about));
        input.setAttribute('aria-describedby', id + '-about');
        (i < 3 ? opts : details).append(row);
      });
      if (shown.length > 3) opts.append(details);
      form.append(opts);
    }
    els.seatsBox = h('fieldset', { class: 'seats-form' });
    form.append(els.seatsBox);
    // grace, clock, public
    const grace = h('input', { id: 'new-grace', type: 'number', min: 0, max: 3600, value: f.grace ?? 60, onchange: (ev) => (f.grace = ev.target.value) });
    const clockKind = h('select', { id: 'new-clock', onchange: (ev) => {
      f.clock = ev.target.value;
      clockN.hidden = f.clock === 'none';
    } },
      ['none', 'move', 'total'].map((k) => h('option', { value: k, selected: (f.clock || 'none') === k }, t('new.clock.' + k))));
    const clockN = h('input', { id: 'new-clock-s', type: 'number', min: 1, max: 86400, value: f.clockS ?? 60, 'aria-label': t('new.clock.seconds'), hidden: (f.clock || 'none') === 'none', onchange: (ev) => (f.clockS = ev.target.value) });
    const pub = h('input', { id: 'new-public', type: 'checkbox', checked: f.public ?? true, onchange: (ev) => (f.public = ev.target.checked) });
    // rated (issue 33 §2): only signed-in players may sit; the server says when a game is not rated
    const rated = h('input', { id: 'new-rated', type: 'checkbox', checked: f.rated ?? false, onchange: (ev) => (f.rated = ev.target.checked) });
    form.append(
      h('div', { class: 'field' }, h('label', { for: 'new-grace' }, t('new.grace')), grace, h('p', { class: 'about' }, t('new.grace.about'))),
      h('div', { class: 'field' }, h('label', { for: 'new-clock' }, t('new.clock')), h('div', { class: 'row' }, clockKind, clockN)),
      h('label', { class: 'check' }, pub, ' ', t('new.public')),
      h('label', { class: 'check' }, rated, ' ', t('new.rated')),
      (els.create = h('button', { type: 'submit', class: 'primary', id: 'create' }, t('new.create'))));
    els.form.append(form);
    syncCreate();
    renderSeats();
  }

  function renderSeats() {
    const f = L.form;
    const g = gameInfo(f.game);
    const box = clear(els.seatsBox);
    box.append(h('legend', {}, t('new.seats')));
    const n = seatCount(f.game, f.options);
    const level = g && g.levels.length ? 'ai:' + g.levels[Math.min(1, g.levels.length - 1)].name : 'person';
    const pairs = f.game === 'cbw' && Number(f.options.players) === 2;
    if (!f.seats || f.seats.length !== n) f.seats = Array.from({ length: n }, (_, i) => (i === 0 || (pairs && i === 1) ? 'person' : pairs && i >= 2 ? 'partner:' + (i - 2) : level));
    // City Behind Walls with players=2: four seats, a person plays both seats of a team
    const teams = f.game === 'cbw' && Number(f.options.players) === 2;
    f.seats.forEach((v, i) => {
      // players=2: true/false for a team's second seat whose first is a person/computer, else null
      const mateIsPerson = teams && i >= 2 ? f.seats[i - 2] === 'person' : null;
      const sel = h('select', { id: 'seat-' + i, onchange: (ev) => {
          f.seats[i] = ev.target.value;
          // one player a team (the server refuses anything else, docs/web-protocol.md):
          // a person's team mate is its partner seat, a computer's a computer
          if (teams && i < 2) {
            f.seats[i + 2] = f.seats[i] === 'person' ? 'partner:' + i : f.seats[i];
            renderSeats();
          }
        } },
        // the second seat of a team under players=2 offers only what the first allows
        mateIsPerson !== null ? null : h('option', { value: 'person', selected: v === 'person' }, t('new.seat.person')),
        teams && i >= 2 && mateIsPerson ? h('option', { value: 'partner:' + (i - 2), selected: v === 'partner:' + (i - 2) }, t('new.seat.partner', { n: i - 1 })) : null,
        mateIsPerson ? null : (g ? g.levels : []).map((l) => h('option', { value: 'ai:' + l.name, selected: v === 'ai:' + l.name, title: levelAbout(f.game, l) }, t('new.seat.ai', { level: levelName(l.name) }))));
      box.append(h('div', { class: 'field seat-choice' }, h('label', { for: 'seat-' + i }, t('room.seat.n', { n: i + 1 })), sel));
    });
    if (g && g.levels.length)
      box.append(h('details', { class: 'levels' }, h('summary', {}, t('new.levels')),
        h('ul', {}, g.levels.map((l) => h('li', {}, h('b', {}, levelName(l.name)), ': ', levelAbout(f.game, l))))));
  }

  /** The create button: off while a room is being made and after it was made from this very form. */
  function syncCreate() {
    if (!els.create) return;
    els.create.disabled = L.pending || L.made;
    els.create.textContent = t(L.pending ? 'new.creating' : 'new.create');
  }

  function create() {
    if (L.pending || L.made) return; // a double tap: one room
    const f = L.form;
    const g = gameInfo(f.game);
    const options = {};
    if (g)
      for (const o of g.options) {
        const v = f.options[o.key];
        if (v !== undefined && v !== o.default) options[o.key] = String(v);
      }
    const seat = (v) => (v === 'person' ? { kind: 'person' } : v.startsWith('partner:') ? { kind: 'partner', of: Number(v.slice(8)) } : { kind: 'ai', level: v.slice(3) });
    const msg = { type: 'create', game: f.game, options, seats: f.seats.map(seat) };
    msg.grace_s = Number(f.grace ?? 60);
    if (f.clock === 'move') msg.clock = { move_s: Number(f.clockS ?? 60) };
    if (f.clock === 'total') msg.clock = { total_s: Number(f.clockS ?? 60) };
    msg.public = f.public ?? true;
    if (f.rated) msg.rated = true;
    L.created = null;
    L.error = null;
    L.pending = true;
    renderCreated();
    net.send(msg);
  }

  /** The answer to "Make the room": the invitation (or the error), brought
   * into view when `show` (the link and "Open the room" on a phone's first screen). */
  function renderCreated(show) {
    if (!els.created) return;
    syncCreate();
    clear(els.created);
    if (L.error) els.created.append(h('p', { class: 'note error', role: 'alert' }, t('new.error', { message: L.error })));
    if (L.created) els.created.append(h('h3', { id: 'created-h' }, t('new.created')), inviteBox(L.created.link));
    if (show && (L.error || L.created)) els.created.scrollIntoView({ block: 'start' });
  }

  render();
  if (els.games.children.length) performance.mark('parlour:lobby'); // the games list is drawn (docs/benchmarks.md)
  return {
    render,
    close() {
      clearInterval(poll);
      pn.close();
      for (const off of offs) off();
      offOpen();
    },
  };
}

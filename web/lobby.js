// lobby.js — the small page of `parlour serve`: the lobby (games, public rooms,
// a form that creates a room) and a room (join, the raw state, legal actions as
// buttons, karuta's kana as they are read and a touch box, chat). It speaks the
// web protocol (docs/web-protocol.md) over one WebSocket at /ws; the real UI is
// the next issue. No framework, no external request; every text from the server
// goes into the page as text, never HTML.

const $ = (id) => document.getElementById(id);

function el(tag, text, cls) {
  const e = document.createElement(tag);
  if (text !== undefined) e.textContent = text;
  if (cls) e.className = cls;
  return e;
}

// ---- The connection -----------------------------------------------------------

let ws = null;
let retry = 500; // ms before reconnecting, doubled up to 10 s
const queue = []; // messages sent while connecting

function send(msg) {
  if (ws && ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(msg));
  else queue.push(msg);
}

function connect() {
  const url = (location.protocol === 'https:' ? 'wss://' : 'ws://') + location.host + '/ws';
  ws = new WebSocket(url, 'parlour.v1');
  ws.onopen = () => {
    retry = 500;
    setStatus('connected', true);
    onOpen();
    while (queue.length) ws.send(JSON.stringify(queue.shift()));
  };
  ws.onmessage = (ev) => {
    let msg;
    try {
      msg = JSON.parse(ev.data);
    } catch {
      return;
    }
    const fn = handlers[msg.type];
    if (fn) fn(msg);
  };
  ws.onclose = () => {
    setStatus('disconnected: reconnecting…', false);
    setTimeout(connect, retry);
    retry = Math.min(retry * 2, 10000);
  };
}

function setStatus(text, online) {
  $('status').textContent = text;
  $('status').classList.toggle('online', online);
}

function showError(text) {
  $('error').textContent = text;
  $('error').hidden = !text;
}

// ---- Where we are: the lobby, or a room (/room/CODE) ------------------------------

const roomMatch = location.pathname.match(/^\/room\/([0-9A-Za-z_-]+)$/);
const roomCode = roomMatch ? roomMatch[1] : null;
const tokenKey = (code) => 'parlour.token.' + code;
let games = [];
let mySeat = null;
let lastSeq = null;
let reading = null; // karuta: the reading whose kana are shown

function onOpen() {
  if (roomCode) {
    const token = localStorage.getItem(tokenKey(roomCode));
    if (token) send({ type: 'join', room: roomCode, token });
    else $('join').hidden = false;
  } else {
    send({ type: 'games' });
    send({ type: 'rooms' });
  }
}

// ---- Server messages --------------------------------------------------------------

const handlers = {
  welcome() {},
  sync(m) {
    send({ type: 'sync', id: m.id, client_ms: Date.now() });
  },
  error(m) {
    showError((m.request ? m.request + ': ' : '') + m.error + ' — ' + m.message);
    if (roomCode && m.request === 'join' && localStorage.getItem(tokenKey(roomCode))) {
      localStorage.removeItem(tokenKey(roomCode)); // a stale token: join anew
      $('join').hidden = false;
    }
  },
  games(m) {
    games = m.games || [];
    const list = $('games');
    list.replaceChildren();
    const select = $('create-game');
    select.replaceChildren();
    for (const g of games) {
      const li = el('li');
      li.append(el('strong', g.name), ' (' + g.id + ') — ' + (g.summary || '').split('\n')[0]);
      list.append(li);
      const o = el('option', g.name);
      o.value = g.id;
      select.append(o);
    }
    describeGame();
  },
  rooms(m) {
    const list = $('rooms');
    list.replaceChildren();
    for (const r of m.rooms || []) {
      const li = el('li');
      const a = el('a', r.game + ' — ' + r.state);
      a.href = '/room/' + encodeURIComponent(r.room);
      const seats = (r.seats || []).map((s) => (s.kind === 'open' ? 'open' : s.name || s.level || s.kind));
      li.append(a, ' (' + seats.join(', ') + ')');
      list.append(li);
    }
    $('no-rooms').hidden = list.children.length > 0;
  },
  created(m) {
    const a = $('invite-link');
    a.href = m.link;
    a.textContent = location.origin + m.link;
    $('invite').hidden = false;
    showError('');
    send({ type: 'rooms' });
  },
  joined(m) {
    localStorage.setItem(tokenKey(m.room), m.token);
    mySeat = m.seat;
    $('join').hidden = true;
    showError('');
  },
  state(m) {
    mySeat = m.seat;
    lastSeq = m.seq;
    $('join').hidden = true;
    $('table').hidden = false;
    const who = m.seat < 0 ? 'You are watching.' : 'You sit at seat ' + m.seat + '.';
    const seats = (m.seats || [])
      .map((s, i) => i + ': ' + (s.kind === 'open' ? 'open' : (s.name || s.level || s.kind) +
        (s.connected === false ? ' (away)' : '') + (s.covered ? ' (computer keeps it)' : '')))
      .join(' · ');
    $('seat-line').textContent = who + ' Seats — ' + seats + (m.over ? ' — the game is over.' : '');
    const legal = $('legal');
    legal.replaceChildren();
    for (const a of m.legal || []) {
      const b = el('button', a.action);
      b.type = 'button';
      if (a.long) b.title = a.long;
      b.onclick = () => send({ type: 'act', action: a.action, seq: lastSeq });
      legal.append(b);
    }
    $('touch').hidden = !(m.view && m.view.game === 'karuta' && m.seat >= 0 && !m.over);
    $('state').textContent = JSON.stringify(m, null, 2);
  },
  reading(m) {
    reading = m.n;
    $('reading').textContent = '';
  },
  kana(m) {
    if (m.n === reading) $('reading').textContent += m.kana;
  },
  accepted() {
    showError('');
  },
  chat(m) {
    const li = el('li');
    li.append(el('span', m.name || (m.seat < 0 ? 'spectator' : 'seat ' + m.seat), 'who'), m.text);
    $('chat').append(li);
    li.scrollIntoView({ block: 'nearest' });
  },
  rematch(m) {
    location.href = '/room/' + encodeURIComponent(m.room);
  },
  record(m) {
    $('record-title').hidden = false;
    $('record').hidden = false;
    $('record').textContent = JSON.stringify(m.record, null, 2);
  },
  left() {
    $('table').hidden = true;
    $('join').hidden = false;
  },
};

// ---- The lobby's form --------------------------------------------------------------

function describeGame() {
  const g = games.find((x) => x.id === $('create-game').value);
  if (!g) return;
  const opts = (g.options || []).map((o) => {
    const allowed = o.values ? o.values.join('|') : o.range ? o.range.join('..') : '';
    return o.key + '=' + o.default + (allowed ? ' (' + allowed + ')' : '');
  });
  $('create-about').textContent = (g.hidden ? 'Hidden cards. ' : '') +
    (opts.length ? 'Options: ' + opts.join(', ') : 'No options.');
  for (const sel of document.querySelectorAll('#create-seats select')) fillSeat(sel);
}

function fillSeat(select) {
  const g = games.find((x) => x.id === $('create-game').value);
  const was = select.value;
  select.replaceChildren();
  const p = el('option', 'a person');
  p.value = 'person';
  select.append(p);
  for (const lv of (g && g.levels) || []) {
    const o = el('option', 'computer: ' + lv.name);
    o.value = 'ai:' + lv.name;
    if (lv.about) o.title = lv.about;
    select.append(o);
  }
  if ([...select.options].some((o) => o.value === was)) select.value = was;
}

function addSeat() {
  const li = el('li');
  const sel = el('select');
  fillSeat(sel);
  li.append(sel);
  $('create-seats').append(li);
}

function parseOptions(text) {
  const options = {};
  for (const word of text.split(/\s+/).filter(Boolean)) {
    const eq = word.indexOf('=');
    if (eq <= 0) throw new Error('"' + word + '" is not KEY=VALUE');
    options[word.slice(0, eq)] = word.slice(eq + 1);
  }
  return options;
}

function createRoom(ev) {
  ev.preventDefault();
  let options;
  try {
    options = parseOptions($('create-options').value);
  } catch (e) {
    showError(e.message);
    return;
  }
  const msg = { type: 'create', game: $('create-game').value, options, public: $('create-public').checked };
  const seats = [...document.querySelectorAll('#create-seats select')].map((s) =>
    s.value === 'person' ? { kind: 'person' } : { kind: 'ai', level: s.value.slice(3) });
  if (seats.length) msg.seats = seats;
  send(msg);
}

// ---- Wiring ---------------------------------------------------------------------------

function init() {
  if (roomCode) {
    $('room').hidden = false;
    $('room-code').textContent = roomCode;
    $('join').onsubmit = (ev) => {
      ev.preventDefault();
      const msg = { type: 'join', room: roomCode, name: $('join-name').value };
      const seat = $('join-seat').value;
      if (seat !== '') msg.seat = Number(seat);
      send(msg);
    };
    $('watch').onclick = () => send({ type: 'watch', room: roomCode });
    $('leave').onclick = () => send({ type: 'leave' });
    $('rematch').onclick = () => send({ type: 'rematch' });
    $('record-seat').onclick = () => send({ type: 'record', who: 'seat' });
    $('record-referee').onclick = () => send({ type: 'record', who: 'referee' });
    $('touch').onsubmit = (ev) => {
      // karuta: the touch is stamped on this browser's clock; the server converts it
      ev.preventDefault();
      send({ type: 'touch', card: Number($('touch-card').value), client_ms: Date.now() });
    };
  } else {
    $('lobby').hidden = false;
    $('create').onsubmit = createRoom;
    $('create-game').onchange = describeGame;
    $('seat-add').onclick = addSeat;
    $('seat-remove').onclick = () => $('create-seats').lastElementChild?.remove();
    $('refresh').onclick = () => send({ type: 'rooms' });
  }
  $('chat-form').onsubmit = (ev) => {
    ev.preventDefault();
    const text = $('chat-text').value.trim();
    if (text) send({ type: 'chat', text });
    $('chat-text').value = '';
  };
  if (!roomCode) $('chat-form').hidden = true;
  connect();
}

init();

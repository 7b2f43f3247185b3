// playnow.js — "Play now" in the lobby (issue 33 §3; the messages in
// docs/web-protocol.md, "Play now"): a small form for the options that make
// the rating pool (Ur's rules, the players of City Behind Walls and Tam Cúc)
// and "let a computer take the seat after N s", then a waiting panel (the
// pool in words, the time waited, the people waiting, Cancel); on `paired`
// the seat's token is kept (as a join keeps it) and the page goes to the
// room, which joins with it. The lobby (lobby.js) puts a "Play now" button on
// each game and calls choose(game); the panel keeps its state across the
// lobby's redraws (a language change). Words: the `playnow.` keys.

import { t } from './i18n.js';
import { h, clear } from './dom.js';
import { setToken } from './net.js';

const NAME_KEY = 'parlour.name';
const AFTER_KEY = 'parlour.playnow.after'; // the last "computer after N s" (0: no computer)

function stored(key, otherwise) {
  try {
    return localStorage.getItem(key) ?? otherwise;
  } catch {
    return otherwise;
  }
}

function store(key, value) {
  try {
    localStorage.setItem(key, value);
  } catch {
    // private mode: nothing kept
  }
}

/** The options that choose a pool, per game: [key, values] (the first value is the default). */
const POOL_OPTIONS = {
  ur: [['rules', ['skiryuk', 'finkel']]],
  cbw: [['players', ['4', '6']]],
  tamcuc: [['players', ['2', '3', '4']]],
  karuta: [],
};

/** The words of a pool key ("ur/skiryuk" → "Ur, Skiryuk's rules"). */
export function poolWords(pool) {
  return t('playnow.pool.' + String(pool).replace('/', '.'));
}

/** "m:ss" for a number of seconds. */
function clock(s) {
  const m = Math.floor(s / 60);
  return m + ':' + String(s % 60).padStart(2, '0');
}

/** The Play now panel of the lobby: { el, choose(game), counts(m), render(), close() }. */
/** A refused seek in the page's words (never the server's English `message`):
 * the server busy (its pool full, a rating it could not read, too fast), else
 * "could not". Shown inside `playnow.error`. */
export function seekError(m) {
  return m.error === 'full' || m.error === 'storage' || m.error === 'rate' ? t('playnow.busy') : t('playnow.failed');
}

export function playNow(net) {
  const P = {
    mode: 'idle', // idle | form | waiting | paired
    game: null,
    opts: {},
    computer: stored(AFTER_KEY, '30') !== '0',
    after: Number(stored(AFTER_KEY, '30')) || 30,
    name: stored(NAME_KEY, ''),
    pool: null,
    since: 0,
    waiting: 0,
    error: null,
    seekMsg: null,
    account: null, // signed in (the server's `account` message): seated under the account's name, none asked
  };
  const el = h('section', { id: 'playnow', class: 'card playnow', 'aria-labelledby': 'playnow-h', hidden: true });
  let tick = null;
  const offs = [
    net.on('account', (m) => {
      P.account = typeof m.name === 'string' && m.name ? m.name : null;
      if (P.mode === 'form') render();
    }),
    net.on('seeking', (m) => {
      P.mode = 'waiting';
      P.pool = m.pool;
      P.waiting = m.waiting;
      P.error = null;
      render();
    }),
    net.on('paired', (m) => {
      P.mode = 'paired';
      render();
      setToken(m.room, m.token);
      location.assign('/room/' + m.room);
    }),
    net.on('unseeked', () => {
      if (P.mode === 'waiting') P.mode = 'form';
      render();
    }),
    net.on('error', (m) => {
      if (m.request !== 'seek') return;
      P.mode = 'form';
      P.error = seekError(m);
      render();
    }),
  ];
  // a connection lost while waiting lost its seek: seek again on the new one
  const offOpen = net.onOpen(() => {
    if (P.mode === 'waiting' && P.seekMsg) net.send(P.seekMsg);
  });

  function choose(game) {
    if (P.mode === 'waiting') net.send({ type: 'unseek' });
    P.mode = 'form';
    P.game = game;
    P.opts = {};
    for (const [k, vs] of POOL_OPTIONS[game] || []) P.opts[k] = vs[0];
    P.error = null;
    render();
    el.scrollIntoView({ block: 'start' });
    const first = el.querySelector('select, input, button');
    if (first) first.focus({ preventScroll: true });
  }

  function seek() {
    const options = { ...P.opts };
    if (P.game === 'karuta') options.variant = 'kyogi';
    const msg = { type: 'seek', game: P.game, options, computer_after_s: P.computer ? P.after : 0 };
    if (P.name && !P.account) msg.name = P.name;
    store(AFTER_KEY, String(P.computer ? P.after : 0));
    if (P.name) store(NAME_KEY, P.name);
    P.seekMsg = msg;
    P.since = Date.now();
    P.error = null;
    net.send(msg);
  }

  function cancel() {
    net.send({ type: 'unseek' });
    P.mode = 'form';
    P.seekMsg = null;
    render();
  }

  /** The lobby's `counts`: the people waiting in this pool. */
  function counts(m) {
    if (P.mode === 'waiting' && m.pools && P.pool in m.pools) {
      P.waiting = m.pools[P.pool];
      const n = el.querySelector('#playnow-people');
      if (n) n.textContent = t('playnow.people', { n: P.waiting });
    }
  }

  function render() {
    clearInterval(tick);
    tick = null;
    clear(el);
    el.hidden = P.mode === 'idle';
    if (P.mode === 'idle') return;
    el.append(h('h2', { id: 'playnow-h' }, t('playnow.title', { game: t('game.' + P.game + '.name') })));
    if (P.mode === 'form') renderForm();
    else if (P.mode === 'waiting') renderWaiting();
    else el.append(h('p', { role: 'status' }, t('playnow.found')));
  }

  function renderForm() {
    const form = h('form', { id: 'playnow-form', onsubmit: (ev) => {
      ev.preventDefault();
      seek();
    } });
    form.append(h('p', { class: 'quiet' }, t('playnow.intro')));
    for (const [k, vs] of POOL_OPTIONS[P.game] || []) {
      const id = 'playnow-opt-' + k;
      form.append(h('div', { class: 'field' },
        h('label', { for: id }, t('playnow.opt.' + P.game + '.' + k)),
        h('select', { id, onchange: (ev) => (P.opts[k] = ev.target.value) },
          vs.map((v) => h('option', { value: v, selected: v === P.opts[k] }, t('playnow.opt.' + P.game + '.' + k + '.' + v))))));
    }
    const after = h('input', { id: 'playnow-after', type: 'number', min: 1, max: 120, step: 1, value: P.after, required: true,
      disabled: !P.computer, 'aria-describedby': 'playnow-after-about',
      oninput: (ev) => (P.after = Math.max(1, Math.min(120, Number(ev.target.value) || 30))) });
    const afterBox = h('div', { class: 'field', hidden: !P.computer }, h('label', { for: 'playnow-after' }, t('playnow.after')), after,
      h('p', { class: 'about', id: 'playnow-after-about' }, t('playnow.after.about')));
    const comp = h('input', { id: 'playnow-computer', type: 'checkbox', checked: P.computer, onchange: (ev) => {
      P.computer = ev.target.checked;
      after.disabled = !P.computer;
      afterBox.hidden = !P.computer; // the seconds only with the computer
    } });
    form.append(
      h('label', { class: 'check' }, comp, ' ', t('playnow.computer')),
      afterBox,
      ...(P.account ? [] : [h('div', { class: 'field' }, h('label', { for: 'playnow-name' }, t('playnow.name')),
        h('input', { id: 'playnow-name', maxlength: 40, autocomplete: 'nickname', value: P.name,
          oninput: (ev) => (P.name = ev.target.value.trim()) }))]),
    );
    if (P.error) form.append(h('p', { class: 'note error', role: 'alert' }, t('playnow.error', { message: P.error })));
    form.append(h('div', { class: 'row' },
      h('button', { type: 'submit', class: 'primary', id: 'playnow-go' }, t('playnow.go')),
      h('button', { type: 'button', id: 'playnow-close', onclick: () => {
        P.mode = 'idle';
        render();
      } }, t('playnow.close'))));
    el.append(form);
  }

  function renderWaiting() {
    const since = h('p', { id: 'playnow-since' });
    const upd = () => (since.textContent = t('playnow.since', { time: clock(Math.floor((Date.now() - P.since) / 1000)) }));
    upd();
    tick = setInterval(upd, 1000);
    el.append(...[
      h('div', { class: 'playnow-wait', role: 'status' },
        h('span', { class: 'spinner', 'aria-hidden': 'true' }),
        h('p', { id: 'playnow-pool' }, t('playnow.looking', { pool: poolWords(P.pool) }))),
      since,
      h('p', { id: 'playnow-people' }, t('playnow.people', { n: P.waiting })),
      P.computer ? h('p', { class: 'quiet', id: 'playnow-computer-note' }, t('playnow.computerAfter', { n: P.after })) : null,
      h('button', { type: 'button', id: 'playnow-cancel', onclick: cancel }, t('playnow.cancel')),
    ].filter(Boolean));
  }

  return {
    el,
    choose,
    counts,
    render,
    close() {
      clearInterval(tick);
      if (P.mode === 'waiting') net.send({ type: 'unseek' });
      for (const off of offs) off();
      offOpen();
    },
  };
}

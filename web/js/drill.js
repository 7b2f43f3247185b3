// drill.js — karuta training (/drill; issue 34 §4, docs/drills.md): the
// kimariji drill (the first kana of a card's reading shown, or read aloud when
// the browser has a Japanese voice and the player turned it on; the player
// picks the card on the field; fewer kana as the card's box rises), the
// listening drill (the upper verse read at match speed, kana by kana, on a
// field laid out as in a match; the take time from the deciding kana) and the
// card-flipping drill (札流し: a card shown alone, the player types its
// kimariji in kana or romaji). The scheduler and the record are
// drill-sched.js's; this page measures the times and keeps the record: in
// localStorage for a guest (`parlour.drill`), on the account for a signed-in
// player (GET/PUT /api/drill; a guest's record is merged into the account's
// at the first visit signed in, then forgotten here). Words: the `drill.`
// keys. Tests reach the page through window.__parlour.page.drill.

import { t } from './i18n.js';
import { h, clear } from './dom.js';
import { CARDS } from '../games/karuta-cards.js';
import * as S from './drill-sched.js';

const STORE = 'parlour.drill';
const SPEAK = 'parlour.karuta.speech'; // the karuta room's switch: one choice for both
const UPPER_MS = 6000; // the upper half's reading at match speed (the game's default upper_ms)
const LATE_MS = 3000; // listen: no touch this long after the reading ends is a miss
const LEAD_MS = 1200; // listen: a pause before each reading
const SAVE_GAP_MS = 1500; // at most one save to the server this often (the server allows 60 a minute)
const KINDS = ['kimariji', 'listen', 'flip'];
const SIZES = [6, 12, 24, 50, 100];

function loadLocal() {
  try {
    const r = JSON.parse(localStorage.getItem(STORE) || 'null');
    return S.validRecord(r) ? r : null;
  } catch {
    return null;
  }
}

function saveLocal(rec) {
  try {
    localStorage.setItem(STORE, JSON.stringify(S.normalize(rec)));
    return true;
  } catch {
    return false;
  }
}

/** A Japanese voice of speechSynthesis, or null. */
function jaVoice() {
  if (typeof speechSynthesis === 'undefined') return null;
  return speechSynthesis.getVoices().find((v) => /^ja\b|^ja-/i.test(v.lang)) || null;
}

/** The words of `key` with `kana` (Japanese) in a span of its own, marked
 * lang="ja" where {kim} stands: an array of text and elements. */
function withKana(key, vars, kana) {
  const parts = t(key, { ...vars, kim: '\u0001' }).split('\u0001');
  const out = [parts[0]];
  for (let i = 1; i < parts.length; i++) out.push(h('span', { lang: 'ja', class: 'cjk-serif' }, kana), parts[i]);
  return out;
}

/** Seconds with one decimal, in the page's words. */
const secs = (ms) => (Math.max(0, ms) / 1000).toFixed(1);

/** A card as on the field: a button with the lower verse in three vertical
 * columns (right to left), named by its number and verse. */
function cardButton(n, onpick, flip) {
  const cols = (CARDS[n] && CARDS[n][0]) || [];
  return h('button', { type: 'button', class: 'drill-card' + (flip ? ' drill-flip' : ''), dataset: { card: n }, onclick: (ev) => onpick(n, ev) },
    h('span', { class: 'sr' }, t('drill.cardNo', { n })),
    h('span', { class: 'drill-cols cjk-serif', lang: 'ja' }, cols.map((c) => h('span', { class: 'drill-col' }, c + ' '))));
}

/** Opens the drills in `box`. Returns {close, render} and the test hooks. */
export function open(ctx, box) {
  const st = {
    me: undefined, // undefined: not known yet; null: a guest; else the account's name
    rec: S.emptyRecord(),
    kind: 'kimariji',
    size: S.DEFAULT_CARDS.kimariji,
    readText: '',
    read: [],
    speech: false,
    session: null, // {kind, field, read, asked, shownAt, decideAt, n, right, feedback, timers}
    saveNote: '',
    loaded: false,
    closed: false,
  };
  try {
    st.speech = localStorage.getItem(SPEAK) === 'on';
  } catch {}
  let sync = { inFlight: null, dirty: false, lastAt: 0, timer: null, retry: null };

  // ---- the record: where it is kept ----
  async function load() {
    let me = null;
    try {
      const r = await fetch('/api/account/me', { credentials: 'same-origin', cache: 'no-store' });
      const j = await r.json();
      me = r.status === 200 && typeof j.name === 'string' ? j.name : null;
    } catch {}
    st.me = me;
    const guest = loadLocal();
    if (!me) {
      st.rec = guest || S.emptyRecord();
    } else {
      let server;
      try {
        const r = await fetch('/api/drill', { credentials: 'same-origin', cache: 'no-store' });
        server = r.status === 200 ? (await r.json()).record : undefined;
      } catch {}
      if (server === undefined) { // not read: the browser's copy for now, nothing sent over it
        st.me = null;
        st.rec = guest || S.emptyRecord();
        st.saveNote = t('drill.loadFailed');
      } else {
        st.rec = S.mergeRecords(server, guest);
        if (guest) { // the guest's answers join the account's once, then leave this browser
          await push();
          if (!sync.dirty) {
            try {
              localStorage.removeItem(STORE);
            } catch {}
          }
        }
      }
    }
    st.loaded = true;
  }

  /** Sends the record to the server now; true when it was kept. */
  async function push() {
    sync.dirty = false;
    sync.lastAt = Date.now();
    const body = JSON.stringify(S.normalize(st.rec));
    let ok = false;
    let status = 0;
    try {
      const r = await fetch('/api/drill', { method: 'PUT', credentials: 'same-origin', headers: { 'Content-Type': 'application/json' }, body });
      status = r.status;
      ok = r.status === 200;
    } catch {}
    if (!ok) {
      sync.dirty = true;
      st.saveNote = t('drill.saveFailed');
      if (!sync.retry && !st.closed) sync.retry = setTimeout(() => { sync.retry = null; save(); }, status === 429 ? 20000 : 5000);
    } else st.saveNote = t('drill.saved');
    drawSaved();
    return ok;
  }

  /** Keeps the record: at once in this browser for a guest; for an account,
   * one PUT at a time, at most one every SAVE_GAP_MS (answers in between
   * ride with the next). */
  function save() {
    if (!st.me) {
      st.saveNote = saveLocal(st.rec) ? t('drill.savedLocal') : t('drill.saveFailed');
      drawSaved();
      return;
    }
    sync.dirty = true;
    if (sync.inFlight || sync.timer) return;
    const wait = Math.max(0, sync.lastAt + SAVE_GAP_MS - Date.now());
    sync.timer = setTimeout(() => {
      sync.timer = null;
      if (!sync.dirty) return;
      sync.inFlight = push().finally(() => {
        sync.inFlight = null;
        if (sync.dirty && !sync.retry) save();
      });
    }, wait);
  }

  /** Resolves once nothing waits to be saved (tests). */
  async function synced() {
    while (sync.timer || sync.inFlight || (st.me && sync.dirty && !sync.retry)) {
      if (sync.inFlight) await sync.inFlight;
      else await new Promise((r) => setTimeout(r, 50));
    }
    return !sync.dirty;
  }

  function onHide() {
    if (st.me && sync.dirty) {
      try {
        fetch('/api/drill', { method: 'PUT', keepalive: true, credentials: 'same-origin', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(S.normalize(st.rec)) });
      } catch {}
    }
  }
  window.addEventListener('pagehide', onHide);

  // ---- the page ----
  const els = {};

  function drawSaved() {
    if (els.saved) els.saved.textContent = st.saveNote;
  }

  function drawWhere() {
    if (!els.where) return;
    els.where.textContent = st.me === undefined ? t('drill.loading') : st.me ? t('drill.where.account', { name: st.me }) : t('drill.where.guest');
  }

  function drawWeakest() {
    if (!els.weak) return;
    clear(els.weak);
    const list = S.weakest(st.rec, 10);
    els.weak.append(h('h2', { id: 'drill-weak-h' }, t('drill.weakest')));
    if (!list.length) {
      els.weak.append(h('p', { class: 'quiet', id: 'drill-weak-none' }, t('drill.weakNone')));
      return;
    }
    els.weak.append(h('ol', { id: 'drill-weak-list', class: 'drill-weak' }, list.map((n) => {
      const e = S.entry(st.rec, n);
      return h('li', { dataset: { card: n } },
        withKana('drill.weakItem', { n, miss: e.miss, slow: e.slow, seen: e.seen, mean: secs(e.ms / e.seen) }, S.prefix(n, S.kimariji(n))));
    })));
  }

  function setup() {
    const kind = h('fieldset', { class: 'drill-kinds' }, h('legend', {}, t('drill.kind')),
      KINDS.map((k) => h('label', { class: 'drill-kind' },
        h('input', { type: 'radio', name: 'drill-kind', value: k, id: 'drill-kind-' + k, checked: st.kind === k, onchange: () => {
          st.kind = k;
          st.size = S.DEFAULT_CARDS[k];
          draw();
          document.getElementById('drill-kind-' + k)?.focus();
        } }), ' ', t('drill.kind.' + k))));
    const size = h('select', { id: 'drill-size', onchange: (ev) => { st.size = Number(ev.target.value); } },
      [...new Set([...SIZES, S.DEFAULT_CARDS[st.kind]])].sort((a, b) => a - b).map((n) => h('option', { value: n, selected: n === st.size }, t('drill.cardsN', { n }))));
    const readErr = h('p', { class: 'drill-error', id: 'drill-read-error', 'aria-live': 'polite' });
    const read = h('input', { type: 'text', id: 'drill-read', inputmode: 'numeric', value: st.readText, 'aria-describedby': 'drill-read-hint drill-read-error',
      oninput: (ev) => { st.readText = ev.target.value; } });
    const form = h('form', { id: 'drill-setup', class: 'drill-setup card', onsubmit: (ev) => {
      ev.preventDefault();
      const parsed = parseRead(st.kind === 'listen' ? '' : st.readText);
      if (!parsed) {
        readErr.textContent = t('drill.readBad');
        read.setAttribute('aria-invalid', 'true');
        read.focus();
        return;
      }
      st.read = parsed;
      start();
    } }, kind,
    h('label', { class: 'drill-field-row' }, t('drill.cards'), ' ', size),
    st.kind === 'listen' ? null : h('div', { class: 'drill-field-row' },
      h('label', { for: 'drill-read' }, t('drill.read')), read,
      h('p', { class: 'quiet drill-hint', id: 'drill-read-hint' }, t('drill.readHint')), readErr),
    speakSwitch(),
    h('button', { type: 'submit', class: 'primary', id: 'drill-start' }, t('drill.start')));
    return form;
  }

  function speakSwitch() {
    const v = jaVoice();
    if (!v) return null; // no Japanese voice: the kana are shown
    return h('label', { class: 'drill-speak' }, h('input', { type: 'checkbox', id: 'drill-speak', checked: st.speech, onchange: (ev) => {
      st.speech = ev.target.checked;
      try {
        localStorage.setItem(SPEAK, st.speech ? 'on' : 'off');
      } catch {}
    } }), ' ', t('drill.speak'));
  }

  function say(text) {
    const v = jaVoice();
    if (!st.speech || !v) return false;
    const u = new SpeechSynthesisUtterance(text);
    u.voice = v;
    u.lang = v.lang;
    u.rate = 1.1;
    speechSynthesis.cancel();
    speechSynthesis.speak(u);
    return true;
  }

  /** The read cards typed (numbers 1..100, commas or spaces), or null. */
  function parseRead(text) {
    const parts = String(text).split(/[\s,、，]+/).filter(Boolean);
    const out = [];
    for (const p of parts) {
      if (!/^\d{1,3}$/.test(p) || Number(p) < 1 || Number(p) > 100) return null;
      if (!out.includes(Number(p))) out.push(Number(p));
    }
    return out.length >= 100 ? null : out;
  }

  // ---- a session ----
  function start() {
    const field = S.buildField(st.rec, st.size, st.read);
    st.session = { kind: st.kind, field, read: st.read, asked: null, prev: null, n: 0, right: 0, feedback: null, grade: '', timers: [], shownAt: 0, decideAt: 0, answered: false };
    draw();
    ask();
    const first = document.querySelector(st.session.kind === 'flip' ? '#drill-answer' : '#drill-field .drill-card');
    if (first) first.focus();
  }

  function stopTimers() {
    const s = st.session;
    if (!s) return;
    for (const id of s.timers) clearTimeout(id);
    s.timers = [];
    if (typeof speechSynthesis !== 'undefined') speechSynthesis.cancel();
  }

  function stop() {
    stopTimers();
    st.session = null;
    draw();
    document.getElementById('drill-start')?.focus();
  }

  function ask() {
    const s = st.session;
    stopTimers();
    s.asked = S.nextCard(st.rec, s.field, s.prev);
    s.answered = false;
    const n = s.asked;
    if (s.kind === 'kimariji') {
      const k = S.shownKana(st.rec, n, s.read);
      const kana = S.prefix(n, k);
      const spoken = say(kana);
      els.prompt.textContent = spoken ? '' : kana;
      els.prompt.dataset.kana = kana;
      els.promptNote.textContent = spoken ? t('drill.spoken') : '';
      s.shownAt = performance.now();
    } else if (s.kind === 'flip') {
      clear(els.flipCard).append(cardButton(n, () => els.answer.focus(), false));
      els.answer.value = '';
      s.shownAt = performance.now();
    } else {
      reading(n);
    }
  }

  /** The listening drill's reading of card n: after a pause, the key's kana
   * one by one over UPPER_MS (and spoken when asked); the take time counts
   * from the start of the kimariji's last kana. */
  function reading(n) {
    const s = st.session;
    const kana = S.keyOf(n);
    const each = UPPER_MS / kana.length;
    const k = S.kimariji(n); // against the hundred, as in a match
    els.prompt.textContent = '';
    els.promptNote.textContent = t('drill.ready');
    const t0 = performance.now() + LEAD_MS;
    s.decideAt = t0 + (k - 1) * each;
    s.shownAt = t0;
    s.timers.push(setTimeout(() => {
      els.promptNote.textContent = '';
      say(CARDS[n] ? CARDS[n][1] : kana.join(''));
    }, LEAD_MS));
    kana.forEach((ch, i) => s.timers.push(setTimeout(() => { els.prompt.textContent += ch; }, LEAD_MS + i * each)));
    s.timers.push(setTimeout(() => { if (!s.answered && st.session === s) answer(false, LATE_MS + UPPER_MS, 'late'); }, LEAD_MS + UPPER_MS + LATE_MS));
  }

  function pick(n) {
    const s = st.session;
    if (!s || s.answered || s.kind === 'flip') return;
    const now = performance.now();
    const ms = s.kind === 'listen' ? now - s.decideAt : now - s.shownAt;
    answer(n === s.asked, ms, n === s.asked ? null : 'wrong');
  }

  function flipAnswer(text) {
    const s = st.session;
    if (!s || s.answered) return;
    const ms = performance.now() - s.shownAt;
    answer(S.flipCorrect(s.asked, text, s.read), ms, 'wrong');
  }

  function answer(correct, ms, why) {
    const s = st.session;
    s.answered = true;
    stopTimers();
    const n = s.asked;
    const g = S.grade(s.kind, correct, ms);
    S.recordAnswer(st.rec, n, g, ms);
    s.n += 1;
    if (correct) s.right += 1;
    const kim = S.prefix(n, S.kimariji(n, s.kind === 'listen' ? [] : s.read));
    const key = g === 'good' ? 'drill.right' : g === 'slow' ? 'drill.rightSlow' : why === 'late' ? 'drill.late' : 'drill.wrong';
    s.feedback = { key, vars: { n, s: secs(ms) }, kim };
    s.grade = g;
    s.prev = n;
    clear(els.feedback).append(...withKana(key, s.feedback.vars, kim));
    els.feedback.dataset.grade = g;
    els.score.textContent = t('drill.score', { n: s.n, right: s.right });
    save();
    drawWeakest();
    ask();
  }

  function sessionView() {
    const s = st.session;
    els.prompt = h('p', { id: 'drill-prompt', class: 'drill-prompt cjk-serif', lang: 'ja', 'aria-live': 'off' });
    els.promptNote = h('p', { class: 'quiet', id: 'drill-prompt-note', 'aria-live': 'polite' });
    els.feedback = h('p', { id: 'drill-feedback', class: 'drill-feedback', role: 'status', dataset: { grade: s.grade || '' } },
      s.feedback ? withKana(s.feedback.key, s.feedback.vars, s.feedback.kim) : '');
    els.score = h('p', { id: 'drill-score', class: 'quiet' }, s.n ? t('drill.score', { n: s.n, right: s.right }) : '');
    const head = h('div', { class: 'drill-head' },
      h('h2', { id: 'drill-session-h' }, t('drill.kind.' + s.kind)),
      h('p', {}, t('drill.prompt.' + s.kind)));
    const controls = h('div', { class: 'row drill-controls' },
      s.kind === 'listen' ? null : h('button', { type: 'button', id: 'drill-pass', onclick: () => {
        if (s.kind === 'flip') flipAnswer('');
        else if (!s.answered) answer(false, performance.now() - s.shownAt, 'wrong');
      } }, t('drill.pass')),
      h('button', { type: 'button', id: 'drill-stop', onclick: stop }, t('drill.stop')));
    const out = h('section', { id: 'drill-session', class: 'drill-session card', 'aria-labelledby': 'drill-session-h', dataset: { kind: s.kind } }, head);
    if (s.kind === 'flip') {
      els.flipCard = h('div', { id: 'drill-flip-card', class: 'drill-flip-card' });
      els.answer = h('input', { type: 'text', id: 'drill-answer', autocomplete: 'off', autocapitalize: 'off', spellcheck: 'false', lang: 'ja' });
      out.append(els.flipCard,
        h('form', { id: 'drill-flip-form', class: 'row drill-flip-form', onsubmit: (ev) => { ev.preventDefault(); flipAnswer(els.answer.value); els.answer.focus(); } },
          h('label', { for: 'drill-answer' }, t('drill.answer')), els.answer,
          h('button', { type: 'submit', class: 'primary', id: 'drill-submit' }, t('drill.submit'))));
    } else {
      out.append(h('div', { class: 'drill-prompt-box' }, els.prompt, els.promptNote));
      out.append(s.kind === 'listen' ? matchField(s.field) : gridField(s.field));
    }
    out.append(els.feedback, els.score, controls);
    return out;
  }

  /** The kimariji drill's field: the cards by number. */
  function gridField(field) {
    return h('div', { id: 'drill-field', class: 'drill-grid', role: 'group', 'aria-label': t('drill.field') },
      field.slice().sort((a, b) => a - b).map((n) => cardButton(n, pick, false)));
  }

  /** The listening drill's field, as a match: the cards dealt alternately to
   * your side and the other's (in the field's order), three rows a side,
   * the other's upside down at the top, row 1 nearest the line. */
  function matchField(field) {
    const sides = [[], []];
    field.forEach((n, i) => sides[i % 2].push(n));
    const rows = (cards) => {
      const r = [[], [], []];
      cards.forEach((n, i) => r[i % 3].push(n));
      return r;
    };
    const mine = rows(sides[0]);
    const theirs = rows(sides[1]);
    const side = (id, label, rws, flip) => h('div', { class: 'drill-side' + (flip ? ' drill-theirs' : ''), id, role: 'group', 'aria-label': label },
      (flip ? rws.slice().reverse() : rws).map((r) => h('div', { class: 'drill-row' }, r.map((n) => cardButton(n, pick, flip)))));
    return h('div', { id: 'drill-field', class: 'drill-match' },
      side('drill-theirs', t('drill.theirs'), theirs, true),
      h('hr', { class: 'drill-line' }),
      side('drill-mine', t('drill.yours'), mine, false));
  }

  function draw() {
    if (st.closed) return;
    clear(box);
    els.where = h('p', { id: 'drill-where', class: 'quiet' });
    els.saved = h('p', { id: 'drill-saved', class: 'quiet', 'aria-live': 'polite' }, st.saveNote);
    els.weak = h('section', { id: 'drill-weak', class: 'drill-weak-box', 'aria-labelledby': 'drill-weak-h' });
    box.append(h('h1', {}, t('drill.title')), h('p', {}, t('drill.intro')), els.where);
    if (!st.loaded) box.append(h('p', { class: 'quiet' }, t('drill.loading')));
    else box.append(st.session ? sessionView() : setup());
    box.append(els.saved, els.weak);
    drawWhere();
    drawWeakest();
    if (st.session && st.session.asked && !st.session.answered) {
      // drawn again (the language changed): the question goes on
      const s = st.session;
      if (s.kind === 'kimariji') els.prompt.textContent = S.prefix(s.asked, S.shownKana(st.rec, s.asked, s.read));
      else if (s.kind === 'flip') els.flipCard.append(cardButton(s.asked, () => els.answer.focus(), false));
      else ask();
    }
  }

  draw();
  load().then(() => {
    if (st.closed) return;
    draw();
  });

  return {
    close() {
      st.closed = true;
      stopTimers();
      window.removeEventListener('pagehide', onHide);
      onHide();
      if (sync.timer) clearTimeout(sync.timer);
      if (sync.retry) clearTimeout(sync.retry);
    },
    render: draw,
    // test hooks: what is asked, the record, whether it is saved
    drill: {
      asked: () => (st.session && !st.session.answered ? st.session.asked : null),
      loaded: () => st.loaded,
      record: () => S.normalize(st.rec),
      synced,
    },
  };
}

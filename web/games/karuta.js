// karuta.js — the karuta table (docs/web-ui.md, "The table contract"), for
// kyōgi, uta-karuta and chirashi-dori. Drawn by hand in SVG from the seat's
// JSON view alone (docs/web-views.md, `karuta`) and the room's real-time
// messages (`reading`, `kana`: docs/web-protocol.md, "Karuta in real time").
//
// The field: kyōgi — the opponent's territory mirrored at the top (his row 1
// nearest him, his cards upside down, as they face him), a line, yours at the
// bottom (row 1 nearest you, slot 1 on your left); chirashi — the shared field
// in poem order; uta — the four hands and the pool, eight cards to a line. Each card is
// a torifuda: a tall card with the lower verse in vertical hiragana, three
// columns right to left (the texts come from karuta-cards.js, generated from
// data/hyakunin-isshu/data.csv by scripts/gen_karuta_cards.py). Only the
// columns of slots that hold a card are drawn, so a short deal stays large on a
// phone; all 17 when you place or rearrange.
//
// A reading: the kana appear one by one as the server sends them, optionally
// spoken with speechSynthesis (a Japanese voice only, toggle kept in
// localStorage). A tap/click on a card (or Enter/Space on a focused card)
// during a reading touches it: api.touch(card, performance.timeOrigin +
// performance.now()) at pointerdown. The judgement is said in plain words from
// view.judgement's fields (who took, in how many seconds after the deciding
// kana, the kimariji, fouls, sends; its details: the territory kimariji and
// each answer), never from its `text`. History entries are worded from their
// `events` (tell, for js/events.js), legal actions from their `fields`
// (actionMove, actionWords): docs/web-views.md, "Karuta: events".
// Uta with answer=poet (KA-U4): a tap on a card opens a choice of six poets
// (and "another card"); the touch, naming the chosen poet, goes out when he is
// chosen.
//
// Between readings: `send` (tap your card then the opponent's side or the Send
// button, or drag it there), `pass`, `place`/`arrange` (tap the card then an
// empty slot, or drag it onto the slot), `ready`, uta `pool` (tap, then the
// button or the pool row). Only moves in state.legal are offered.
//
// Practice: when a computer holds another seat, the seat's take times
// (judgement.take_ms less judgement.decide_ms, the deciding kana's start)
// are kept in localStorage (`parlour.karuta.takes`) and plotted per card and
// over time (SVG). `practiceStats(root, t)` draws the same charts for the
// shell's practice page.

import { h, svg, clear } from '../js/dom.js';
import { CARDS } from './karuta-cards.js';


const CW = 50; // a card in SVG units
const CH = 72;
// gaps between cards, the line between kyōgi territories, the margin: set
// by spacing() at each drawing, tighter on a narrow window (a phone upright:
// the cards get the width)
let GX = 6;
let GY = 6;
let MID = 18;
let LEFT = 4;
function spacing(narrow) {
  [GX, GY, MID, LEFT] = narrow ? [2, 3, 10, 1] : [6, 6, 18, 4];
}
const NARROW = 600; // px: a window narrower than this is a phone upright (tight spacing)
const ROW_PER = 8; // cards to a line in a hand, the pool, the cards to place
const STORE = 'parlour.karuta.takes';
const SPEAK = 'parlour.karuta.speech';

let cssLinked = false;
function linkCss() {
  if (cssLinked || document.querySelector('link[data-karuta]')) return;
  cssLinked = true;
  document.head.append(h('link', { rel: 'stylesheet', href: '/games/karuta.css', dataset: { karuta: '1' } }));
}

/** The torifuda text of poem n (the lower verse, no spaces). */
export function lowerVerse(n) {
  const c = CARDS[n];
  return c ? c[0].join('') : '';
}

/** Parses one legal action → {kind, card, row, slot} (null for none). */
export function parseAction(a) {
  let m = /^(send|pool) (\d+)$/.exec(a);
  if (m) return { kind: m[1], card: Number(m[2]) };
  m = /^(place|arrange) (\d+)@(\d+),(\d+)$/.exec(a);
  if (m) return { kind: m[1], card: Number(m[2]), row: Number(m[3]), slot: Number(m[4]) };
  if (a === 'ready' || a === 'pass' || a === 'none') return { kind: a };
  return null;
}

/** A legal action's move from its `fields` (docs/web-views.md, "Karuta:
 * action fields") → {kind, card, row, slot}; the notation is read only
 * from a server without fields. null for an action the page does not offer
 * (touch, none). */
export function actionMove(e) {
  const f = e && e.fields;
  if (f && typeof f.kind === 'string') {
    if (f.kind === 'send' || f.kind === 'pool') return { kind: f.kind, card: f.card };
    if (f.kind === 'place' || f.kind === 'arrange') return { kind: f.kind, card: f.card, row: f.row, slot: f.slot };
    if (f.kind === 'ready' || f.kind === 'pass' || f.kind === 'none') return { kind: f.kind };
    return null;
  }
  return e ? parseAction(e.action) : null;
}

function secsOf(ms) {
  return (ms / 1000).toFixed(2);
}

/** The judgement of a reading in sentences, from its fields (the view's
 * `judgement` or the `judgement` event, docs/web-views.md): `who(seat)`
 * names a seat. Never reads the judgement's `text`. */
export function judgementLines(j, t, who, variant) {
  // who took it first (what a player looks for), then the card and its
  // deciding sounds, fouls and sends
  const lines = [];
  const c = CARDS[j.card];
  const card = t('karuta.j.card', { n: j.card, verse: c ? c[1] : '', lower: lowerVerse(j.card) });
  const kim = typeof j.kimariji === 'number' && j.kimariji > 0 ? t('karuta.j.kimariji', { n: j.kimariji, kana: j.kimariji_kana || '', s: secsOf(j.decide_ms || 0) }) : null;
  if (j.void) return [t('karuta.j.void'), card].concat(kim ? [kim] : []);
  if (j.taker === null || j.taker === undefined) lines.push(t('karuta.j.nobody'));
  else if (typeof j.decide_ms === 'number') lines.push(t('karuta.j.took', { name: who(j.taker), s: secsOf(Math.max(0, j.take_ms - j.decide_ms)) }));
  else lines.push(t('karuta.j.tookAt', { name: who(j.taker), s: secsOf(j.take_ms) }));
  lines.push(card);
  if (kim) lines.push(kim);
  (j.fouls || []).forEach((f, i) => f > 0 && lines.push(t('karuta.j.foul', { name: who(i), n: f })));
  if (j.sender !== null && j.sender !== undefined && j.receiver !== null && j.receiver !== undefined && j.owed > 0)
    lines.push(t('karuta.j.send', { from: who(j.sender), to: who(j.receiver), n: j.owed }));
  if (j.sent_cards && j.sent_cards.length) lines.push(t('karuta.j.sent', { cards: j.sent_cards.join(', ') }));
  if (variant === 'kyogi' && j.taker !== null && j.taker !== undefined && !(j.fouls || []).some((f) => f) && !(j.owed > 0)) lines.push(t('karuta.j.nosend'));
  return lines;
}

/** The details of a judgement from its fields: the territory kimariji and
 * each seat's answer with its times. */
export function judgementDetails(j, t, who) {
  const lines = [];
  if (j.territory > 0) lines.push(t('karuta.j.territory', { n: j.territory, kana: j.territory_kana || '', s: secsOf(j.territory_ms || 0) }));
  (j.responses || []).forEach((r, i) => {
    if (!r) lines.push(t('karuta.ev.waiting', { who: who(i) }));
    else lines.push(answerWords({ seat: i, touches: r.touches, poet: r.poet }, t, who));
  });
  return lines;
}

function answerWords(ev, t, who) {
  if (!ev.touches || !ev.touches.length) return t('karuta.ev.none', { who: who(ev.seat) });
  const touches = ev.touches.map((x) => t('karuta.ev.at', { card: x.card, s: secsOf(x.ms) })).join(', ');
  return t(ev.poet ? 'karuta.ev.touchPoet' : 'karuta.ev.touch', { who: who(ev.seat), touches, poet: ev.poet || '' });
}

/** Sentences for one history entry, from its `events` (js/events.js; the
 * types of docs/web-views.md, "Karuta: events"), in the page's language. */
export function tell(entry, ctx) {
  const t = ctx.t;
  // a seat by its player's name when the caller knows them (the replay's ctx.names)
  const who = (i) => (i === ctx.seat ? t('karuta.ev.you') : (ctx.names && ctx.names[i]) || t('karuta.seat', { n: i + 1 }));
  const out = [];
  for (const ev of (entry && entry.events) || []) {
    switch (ev.type) {
      case 'read':
        out.push(t(ev.void ? 'karuta.ev.readVoid' : 'karuta.ev.read', { card: ev.card, n: ev.n }));
        break;
      case 'answer':
        out.push(answerWords(ev, t, who));
        break;
      case 'judgement':
        out.push(...judgementLines(ev, t, who, null));
        break;
      case 'send':
        out.push(t(ev.label ? 'karuta.ev.send' : 'karuta.ev.sendWait', { who: who(ev.seat), to: who(ev.to), card: ev.card, label: ev.label || '' }));
        break;
      case 'place':
        out.push(t('karuta.ev.place', { who: who(ev.seat), card: ev.card, label: ev.label || '' }));
        break;
      case 'arrange':
        out.push(t('karuta.ev.arrange', { who: who(ev.seat), card: ev.card, from: ev.from_label || '', label: ev.label || '' }));
        break;
      case 'pass':
        out.push(t('karuta.ev.pass', { who: who(ev.seat), n: ev.forgone }));
        break;
      case 'ready':
        out.push(t('karuta.ev.ready', { who: who(ev.seat) }));
        break;
      case 'pool':
        out.push(t('karuta.ev.pool', { who: who(ev.seat), card: ev.card }));
        break;
      case 'give':
        out.push(t('karuta.ev.give', { who: who(ev.seat), to: who(ev.to), card: ev.card }));
        break;
      case 'discard':
        out.push(t('karuta.ev.discard', { who: who(ev.seat), card: ev.card }));
        break;
      case 'move':
        out.push(t('karuta.ev.move', { card: ev.card, from: t('karuta.zone.' + ev.from), to: t('karuta.zone.' + ev.to) }));
        break;
      case 'end':
        if (ev.winner === null || ev.winner === undefined) out.push(t('karuta.ev.draw'));
        else if (ev.team !== null && ev.team !== undefined) out.push(t('karuta.ev.endTeam', { n: ev.team + 1 }));
        else out.push(t('karuta.ev.end', { who: who(ev.winner) }));
        break;
      default:
        break;
    }
  }
  return out;
}

/** The table draws `status` itself in its sticky status line (#kar-status):
 * the room's line above it stays empty, not the same words twice. */
export const drawsStatus = true;

/** What is going on, in words, for the room's status line (room.js calls
 * it for karuta instead of its generic words): `view` the seat's view, ctx
 * {t, seat, name(i) (a seat's name; default "Seat N"), memo (the state's
 * `memo`, during the memorisation time, its left_ms counted down by the
 * caller), touched (cards this seat touched in the reading on, 0 default)}. "Memorise the field:
 * 14:59 left", "Reading 12", "Listen, and touch…", "Waiting for Yuki to send
 * a card", "The game is over: Ann won. Cards left: …". */
export function status(view, ctx) {
  const t = ctx.t;
  const me = ctx.seat ?? -1;
  const v = view || {};
  const name = ctx.name || ((i) => (i === me ? t('karuta.ev.you') : t('karuta.seat', { n: i + 1 })));
  const pending = v.pending || [];
  const touched = ctx.touched || 0;
  if (v.phase === 'over' || v.stage === 'over') {
    const o = v.outcome;
    const s = !o || o.kind === 'draw' ? t('karuta.over.draw') : o.kind === 'team' ? t('karuta.over.team', { n: o.winner + 1 }) : t('karuta.over.win', { name: name(o.winner) });
    const left = cardsLeft(v, name);
    return left ? s + ' ' + t('karuta.over.left', { list: left }) : s;
  }
  if (ctx.memo) return t('karuta.memo', { time: clockText(ctx.memo.left_ms) });
  if (v.stage === 'touch') {
    if (me >= 0 && pending.includes(me)) {
      if (v.answer_poet && !touched) return t('karuta.listen.poet');
      return touched ? t('karuta.touched', { n: touched }) : t('karuta.listen', { n: v.readings });
    }
    return t('karuta.reading', { n: v.readings });
  }
  if (v.stage === 'send' && v.send) {
    const left = v.send.owed - v.send.sent;
    return v.send.sender === me ? t('karuta.send.you', { n: left, name: name(v.send.receiver) }) : t('karuta.send.other', { name: name(v.send.sender), n: left });
  }
  if (v.stage === 'place' && v.send) return v.send.receiver === me ? t('karuta.place.you') : t('karuta.place.other', { name: name(v.send.receiver) });
  const waiting = pending.filter((i) => i !== me).map(name).join(', ');
  if (v.stage === 'arrange') return pending.includes(me) ? t('karuta.arrange.you') : t('karuta.arrange.wait', { names: waiting });
  if (v.stage === 'pool') return pending.includes(me) ? t('karuta.pool.you') : t('karuta.pool.wait', { names: waiting });
  return t('karuta.next', { n: (v.readings || 0) + 1 });
}

/** "Ann 0, Bob 3": the cards each seat still has (kyōgi: in its territory,
 * uta: in its hand; fewer is better), or '' for chirashi (cards taken). */
function cardsLeft(v, name) {
  const rows = v.variant === 'uta' ? v.hands : v.variant === 'kyogi' ? v.territories : null;
  if (!rows) return '';
  return rows.map((r, i) => name(i) + ' ' + (r.count ?? (r.cards || []).length)).join(', ');
}

/** m:ss of `ms` (rounded up to the second). */
function clockText(ms) {
  const s = Math.max(0, Math.ceil(ms / 1000));
  return Math.floor(s / 60) + ':' + String(s % 60).padStart(2, '0');
}

/** A legal action in words, from its fields (js/events.js). */
export function actionWords(a, ctx) {
  const m = actionMove(a);
  if (!m) return a.action;
  const f = a.fields || {};
  if (m.kind === 'place' || m.kind === 'arrange') return ctx.t('karuta.act.' + m.kind, { card: m.card, label: f.label || m.row + ',' + m.slot });
  if (m.kind === 'send' || m.kind === 'pool') return ctx.t('karuta.do.' + m.kind, { card: m.card });
  if (m.kind === 'ready' || m.kind === 'pass') return ctx.t('karuta.do.' + m.kind);
  return a.action;
}

/** The take times kept by this browser: [{id, card, ms (after the deciding kana), take, decide, at}]. */
export function loadTakes() {
  try {
    const v = JSON.parse(localStorage.getItem(STORE) || '[]');
    return Array.isArray(v) ? v : [];
  } catch {
    return [];
  }
}

function saveTake(rec) {
  const all = loadTakes();
  if (all.some((r) => r.id === rec.id)) return false;
  all.push(rec);
  try {
    localStorage.setItem(STORE, JSON.stringify(all.slice(-2000)));
  } catch {}
  return true;
}

/** Sets attribute k of el to v (removes it for null), only when it differs. */
function setAttr(el, k, v) {
  if (v === null || v === undefined) {
    if (el.hasAttribute(k)) el.removeAttribute(k);
  } else if (el.getAttribute(k) !== String(v)) el.setAttribute(k, String(v));
}

/** One card: a torifuda <g> at (x, y), upside down when `flip`. */
function torifuda(n, x, y, flip, attrs) {
  const cols = (CARDS[n] && CARDS[n][0]) || ['', '', ''];
  const kids = [svg('rect', { class: 'kar-face', x: 0, y: 0, width: CW, height: CH, rx: 3 })];
  // the kana as large as the card's longest column allows (6 kana at most:
  // 9.6 units; 4: 14), at most 14 units (the columns are 16 apart)
  const most = Math.max(...cols.map((col) => [...col].length), 1);
  const fs = Math.min(14, (CH - 8 - (most - 1) * 1.3) / most);
  cols.forEach((col, c) => {
    const cx = CW - 9 - c * 16;
    const chars = [...col];
    kids.push(
      svg('text', { class: 'kar-kana cjk-serif', 'font-size': fs, 'text-anchor': 'middle', 'aria-hidden': 'true' },
        chars.map((ch, i) => svg('tspan', { x: cx, y: 6 + fs * (i + 1) + i * 1.3 }, ch))),
    );
  });
  const tr = flip ? `translate(${x + CW} ${y + CH}) rotate(180)` : `translate(${x} ${y})`;
  return svg('g', { class: 'kar-card', transform: tr, tabindex: 0, role: 'button', dataset: { card: n }, ...attrs }, ...kids);
}

export function mount(root, api) {
  linkCss();
  const t = api.t;
  const me = api.seat;
  let state = null;
  let sel = null; // the selected card (send, place, arrange, pool)
  let drag = null; // {card, x, y, moved, el}
  let reading = { n: 0, kana: [], t0: 0 };
  let touched = new Set(); // cards touched in this reading
  let touchN = -1; // the reading those touches belong to
  let lastJudgement = '';
  let fieldKey = '';
  let poetAsk = null; // uta answer=poet: {card, n (the reading), choices} while the poet is asked
  let poetsKey = '';
  let poetArmed = false; // a press began on the poets' panel since it opened
  let myAnswer = null; // uta answer=poet: {n, card, poet} of this seat's last answer
  const gcache = new Map(); // card → its <g>, built once and moved between redraws
  let fieldOut = null; // the field being built by drawField (morphed into els.field)

  /** Places card n for the next redraw of the field: its cached element (its
   * 15-odd kana are built once) gets the position and labels asked for,
   * each attribute written only when it differs (an unchanged card costs the
   * browser no style or layout work); returns a placeholder that morph()
   * swaps for the element, so a card that stays in place is never taken out
   * of the page. */
  function cardEl(n, x, y, flip, attrs) {
    let g = gcache.get(n);
    if (!g) {
      g = torifuda(n, 0, 0, false, {});
      gcache.set(n, g);
    }
    const ds = attrs.dataset || {};
    setAttr(g, 'transform', flip ? `translate(${x + CW} ${y + CH}) rotate(180)` : `translate(${x} ${y})`);
    setAttr(g, 'class', attrs.class || 'kar-card');
    setAttr(g, 'aria-label', attrs['aria-label'] || '');
    setAttr(g, 'aria-pressed', attrs['aria-pressed'] || null);
    setAttr(g, 'data-base', null);
    setAttr(g, 'data-card', String(n));
    setAttr(g, 'data-label', ds.label ?? null);
    setAttr(g, 'data-seat', ds.seat ?? null);
    return svg('g', { dataset: { ph: n } });
  }

  /** Makes the live subtree `old` look like the freshly built `neu` (same
   * tag): attributes copied where they differ, children matched by a key
   * (a card by its number, others by tag, class and slot, in order), the
   * matched ones morphed in place, the rest added or removed. So a redraw
   * that changes a class or a label touches only that attribute, and the
   * browser keeps the laid-out text of every card (a whole field rebuilt
   * anew is a 30 ms layout at the start of a reading). Work: linear in the
   * number of elements. */
  function morph(old, neu, root) {
    if (!root) {
      for (const a of [...old.attributes]) if (!neu.hasAttribute(a.name) && a.name !== 'style') old.removeAttribute(a.name); // (style: fit's)
      for (const a of neu.attributes) setAttr(old, a.name, a.value);
    }
    const keyOf = (el) => {
      if (el.nodeType !== 1) return '#' + el.nodeType;
      if (el.dataset.ph) return 'card' + el.dataset.ph;
      if (el.classList.contains('kar-card') && gcache.get(Number(el.dataset.card)) === el) return 'card' + el.dataset.card;
      return el.tagName + '|' + (el.getAttribute('class') || '').split(' ')[0] + '|' + (el.dataset.slot || '') + '|' + (el.dataset.zone || '');
    };
    const pool = new Map();
    for (const c of old.childNodes) {
      const k = keyOf(c);
      (pool.get(k) || pool.set(k, []).get(k)).push(c);
    }
    const nodes = [...neu.childNodes].map((c) => {
      const k = keyOf(c);
      const o = (pool.get(k) || []).shift();
      if (c.nodeType === 1 && c.dataset.ph) return gcache.get(Number(c.dataset.ph));
      if (!o) {
        // a new element: its cards' placeholders become the cards
        if (c.nodeType === 1) for (const ph of c.querySelectorAll('[data-ph]')) ph.replaceWith(gcache.get(Number(ph.dataset.ph)));
        return c;
      }
      if (c.nodeType === 1) morph(o, c);
      else if (o.nodeValue !== c.nodeValue) o.nodeValue = c.nodeValue;
      return o;
    });
    const kept = new Set(nodes);
    for (const list of pool.values()) for (const o of list) if (!kept.has(o)) o.remove();
    nodes.forEach((n, i) => {
      if (old.childNodes[i] !== n) old.insertBefore(n, old.childNodes[i] || null);
    });
  }

  let memo = null; // the state's `memo` (memorisation), and when it came
  let memoAt = 0;
  let memoKey = '';
  let memoAsked = false; // this page sent `ready`
  let memoTimer = null;
  const seenTakes = new Set();
  window.__karuta = { frames: [], kanaAt: [] }; // for the browser test: kana arrival times

  const els = {
    status: h('p', { class: 'kar-status', id: 'kar-status', 'aria-live': 'polite' }),
    counts: h('p', { class: 'kar-counts', id: 'kar-counts' }),
    memo: h('div', { class: 'kar-memo', id: 'kar-memo', hidden: true }),
    memoAct: h('div', { class: 'kar-memo-act' }),
    poets: h('div', { class: 'kar-poets', id: 'kar-poets', role: 'group', 'aria-labelledby': 'kar-poets-q', hidden: true }),
    readHead: h('span', { class: 'kar-read-head' }),
    kana: h('span', { class: 'kar-kana-line cjk-serif', id: 'kar-kana', lang: 'ja' }),
    speak: h('button', { type: 'button', id: 'kar-speak', class: 'kar-speak', 'aria-pressed': 'false', onclick: () => toggleSpeech() }),
    field: h('div', { class: 'kar-field', id: 'kar-field' }),
    actions: h('div', { class: 'kar-actions', id: 'kar-actions', role: 'group', 'aria-label': t('karuta.actions') }),
    judgement: h('div', { class: 'kar-judgement', id: 'kar-judgement', 'aria-live': 'polite' }),
    practice: h('details', { class: 'kar-practice', id: 'kar-practice' }),
  };
  els.memo.append(els.memoAct);
  els.turnNote = h('p', { class: 'kar-turn-note', id: 'kar-turn-note' }, t('karuta.landscape'));
  els.top = h('div', { class: 'kar-top', id: 'kar-top' },
    els.status,
    h('div', { class: 'kar-reading', id: 'kar-reading' }, els.readHead, els.kana, els.speak));
  els.aside = h('div', { class: 'kar-aside' }, els.actions, els.judgement);
  els.main = h('div', { class: 'kar-main' }, els.field, els.aside);
  els.table = h('div', { class: 'kar-table' }, els.top, els.memo, els.poets, els.main, els.turnNote, els.counts, els.practice);
  root.append(els.table);

  // ---- the table fits the window (issue 31; docs/web-ui.md, "Karuta"):
  // the cards drawn as large as the window allows with the status, the
  // reading bar, the actions and the judgement in view.
  // - A tall window (a desktop, a phone upright): the whole table from the
  //   top of the page; the status and the reading bar stick to the window's
  //   top when the page scrolls. On a wide one (a desktop) the actions and
  //   the judgement stand beside the field, which is then as high as the
  //   window allows.
  // - A short one (a phone on its side, SIDE): the field on the left, as
  //   high as the window, and beside it the status, the reading bar, the
  //   countdown, the actions and the judgement; the page scrolls to the
  //   table once.
  // The field's SVG gets the height left (max-height; the width follows),
  // never so little that a card is under MIN_CARD px; the room for the judgement
  // is kept under the field even before one comes, so the cards do not move.
  const SIDE = '(orientation: landscape) and (max-height: 519px)';
  const MIN_CARD = 28;
  const side = window.matchMedia ? window.matchMedia(SIDE) : { matches: false };
  let scrolledTo = false;
  function arrange() {
    const want = side.matches ? els.aside : els.table;
    if (els.top.parentNode === want) return;
    if (side.matches) els.aside.prepend(els.top, els.memo, els.poets);
    else els.table.insertBefore(els.top, els.main), els.table.insertBefore(els.memo, els.main), els.table.insertBefore(els.poets, els.main);
  }
  function fit() {
    arrange();
    // (kyōgi's field and chirashi's: one SVG; uta's hands and pool are rows
    // of cards as large as the width allows, not shrunk)
    const svgs = [...els.field.querySelectorAll('svg.kar-kyogi, svg.kar-grid')];
    if (!svgs.length) return;
    const vh = window.innerHeight;
    if (side.matches && !scrolledTo && state && state.status !== 'waiting') {
      scrolledTo = true;
      els.table.scrollIntoView({ block: 'start' });
    }
    const fieldTop = els.field.getBoundingClientRect().top + window.scrollY;
    const tableTop = els.table.getBoundingClientRect().top + window.scrollY;
    const jmax = parseFloat(getComputedStyle(els.judgement).maxHeight) || 128;
    // the actions and the judgement stand beside the field (a phone on its
    // side, a wide window: karuta.css) or under it
    const beside = getComputedStyle(els.main).gridTemplateColumns.trim().split(/\s+/).length > 1;
    const under = beside ? 0 : els.actions.offsetHeight + (memo ? 0 : jmax + 4);
    let labels = 0;
    for (const p of els.field.querySelectorAll('.kar-side')) labels += p.offsetHeight + 3;
    const used = (side.matches ? fieldTop - tableTop : fieldTop) + labels + under + 10;
    const avail = Math.max(120, vh - used);
    const units = svgs.map((e) => e.viewBox.baseVal.height / e.viewBox.baseVal.width);
    const width = svgs[0].getBoundingClientRect().width || els.field.clientWidth; // (the SVG's box keeps its width)
    const natural = units.reduce((a, u) => a + u * width, 0);
    // never smaller than a card of MIN_CARD px (or its size at full width):
    // below that kana cannot be read nor a card hit; the page scrolls instead
    const cardPx = Math.min(...svgs.map((e) => (width * CW) / e.viewBox.baseVal.width));
    const floor = Math.min(1, MIN_CARD / cardPx);
    const k = natural > avail ? Math.max(floor, avail / natural) : 1;
    // (through the CSSOM: the page's CSP refuses style attributes)
    svgs.forEach((e, i) => {
      const mh = k < 1 ? Math.floor(units[i] * width * k) + 'px' : '';
      if (e.style.maxHeight !== mh) e.style.maxHeight = mh;
    });
    window.__karuta.fit = { avail, k, side: side.matches, beside };
  }
  // tight spacing where the field is short of room: a phone upright (width)
  // or on its side (height)
  function tight() {
    return window.innerWidth < NARROW || side.matches;
  }
  let tightNow = tight();
  const onResize = () => {
    if (tight() !== tightNow) {
      tightNow = !tightNow;
      fieldKey = ''; // the spacing changes: draw the field again
      if (state) draw();
    } else fit();
  };
  window.addEventListener('resize', onResize);
  // and when the table's own size changes (its style sheet or fonts came,
  // the countdown went): fit sets the same height again and stops there
  const sizeWatch = typeof ResizeObserver === 'function' ? new ResizeObserver(() => fit()) : null;
  if (sizeWatch) sizeWatch.observe(els.table);

  // ---- speech ----
  let speech = false;
  try {
    speech = localStorage.getItem(SPEAK) === 'on';
  } catch {}
  // the Japanese voice, looked up once and again when the list changes (not per kana)
  let voice;
  function jaVoice() {
    if (voice === undefined) voice = 'speechSynthesis' in window ? speechSynthesis.getVoices().find((v) => /^ja\b|^ja-/i.test(v.lang)) || null : null;
    return voice;
  }
  function voicesChanged() {
    voice = undefined;
    drawSpeak();
  }
  function drawSpeak() {
    const v = jaVoice();
    els.speak.disabled = !v;
    els.speak.hidden = !v; // no Japanese voice: nothing to switch (a line less on a phone)
    els.speak.setAttribute('aria-pressed', String(!!(v && speech)));
    els.speak.textContent = !v ? t('karuta.speech.none') : speech ? t('karuta.speech.on') : t('karuta.speech.off');
  }
  function toggleSpeech() {
    speech = !speech;
    try {
      localStorage.setItem(SPEAK, speech ? 'on' : 'off');
    } catch {}
    if (!speech && 'speechSynthesis' in window) speechSynthesis.cancel();
    drawSpeak();
  }
  if ('speechSynthesis' in window) speechSynthesis.addEventListener?.('voiceschanged', voicesChanged);
  drawSpeak();
  function say(kana) {
    const v = jaVoice();
    if (!speech || !v) return;
    const u = new SpeechSynthesisUtterance(kana.replace(/[ーｰ]/g, ''));
    if (!u.text) return;
    u.voice = v;
    u.lang = v.lang;
    u.rate = 1.3;
    speechSynthesis.speak(u);
  }

  // ---- names and words ----
  function name(i) {
    const s = state && state.seats && state.seats[i];
    // a computer in the page's words (the server names it in English)
    const level = s && s.level && ['easy', 'medium', 'hard', 'champion'].includes(s.level) ? t('level.' + s.level) : s && s.level;
    // (numbered, as the room's seats list says it: several computers play uta)
    const n = s && s.kind === 'ai' ? t('room.seat.aiN', { n: i + 1, level: level || '' }) : s && s.name ? s.name : t('karuta.seat', { n: i + 1 });
    return i === me ? t('karuta.you', { name: n }) : n;
  }
  function cardLabel(n, where) {
    return t('karuta.card', { n, text: lowerVerse(n), where: where || '' }).trim();
  }
  function secs(ms) {
    return (ms / 1000).toFixed(2);
  }

  // ---- what the seat may do now ----
  function legalMoves() {
    const out = [];
    for (const e of (state && state.legal) || []) {
      const p = actionMove(e);
      if (p) out.push({ ...p, action: e.action });
    }
    return out;
  }
  function canTouch() {
    const v = state && state.view;
    if (!v || me < 0 || v.stage !== 'touch') return false;
    if (!(v.pending || []).includes(me)) return false;
    const max = v.variant === 'uta' ? 1 : 3;
    return touched.size < max;
  }
  function cardMoves(card) {
    return legalMoves().filter((m) => m.card === card);
  }

  function act(text) {
    sel = null;
    api.act(text);
    draw();
  }

  // ---- pointer handling (one listener on the field) ----
  function cardOf(el) {
    const g = el && el.closest ? el.closest('.kar-card') : null;
    return g ? Number(g.dataset.card) : null;
  }
  function targetOf(el) {
    return el && el.closest ? el.closest('[data-target]') : null;
  }
  function touchCard(card) {
    const v = state.view;
    if (touchN !== v.readings) {
      touchN = v.readings;
      touched = new Set();
    }
    if (touched.has(card)) return;
    if (v.answer_poet) return askPoet(card);
    touched.add(card);
    api.touch(card, performance.timeOrigin + performance.now());
    const g = els.field.querySelector(`.kar-card[data-card="${card}"]`);
    if (g) g.classList.add('kar-touched');
    drawStatus();
  }
  // ---- uta answer=poet (KA-U4): the card, then its poet ----
  // A tap on a card opens a choice of six poets (the card's own and five of
  // the other cards in play, in random order); the touch goes out when a poet
  // is chosen, timed then (naming the poet is part of the answer), naming the
  // chosen poet by one of his poems. Another card may be chosen until then.
  function poetChoices(card) {
    const own = CARDS[card] && CARDS[card][2];
    const v = state.view;
    const inPlay = (v.hands || []).flatMap((hd) => hd.cards.map((c) => c.card)).concat(v.pool || []);
    const all = Array.from({ length: 100 }, (_, i) => i + 1);
    const shuffle = (a) => {
      for (let i = a.length - 1; i > 0; i--) {
        const j = Math.floor(Math.random() * (i + 1));
        [a[i], a[j]] = [a[j], a[i]];
      }
      return a;
    };
    const names = new Map([[own, card]]);
    for (const n of shuffle(inPlay).concat(shuffle(all))) {
      if (names.size >= 6) break;
      const p = CARDS[n] && CARDS[n][2];
      if (p && !names.has(p)) names.set(p, n);
    }
    return shuffle([...names].map(([name, poem]) => ({ name, poem, kana: CARDS[poem][3] })));
  }
  function askPoet(card) {
    poetAsk = { card, n: state.view.readings, choices: poetChoices(card) };
    poetArmed = false;
    draw();
    const b = els.poets.querySelector('.kar-poet');
    if (b) b.focus({ preventScroll: true });
  }
  function namePoet(choice, ev) {
    // a click whose press was not on the panel is the tail of the tap on the
    // card that opened it (the panel moved under the finger): not an answer;
    // a click from the keyboard (detail 0) is
    if (ev && ev.detail !== 0 && !poetArmed) return;
    const a = poetAsk;
    if (!a || !canTouch() || a.n !== state.view.readings) return;
    poetAsk = null;
    touched.add(a.card);
    myAnswer = { n: a.n, card: a.card, poet: choice.name };
    api.touch(a.card, performance.timeOrigin + performance.now(), choice.poem);
    draw();
  }
  function drawPoets() {
    const key = poetAsk ? poetAsk.n + ':' + poetAsk.card : '';
    if (key === poetsKey) return;
    poetsKey = key;
    clear(els.poets);
    els.poets.hidden = !poetAsk;
    if (!poetAsk) return;
    els.poets.append(
      h('p', { class: 'kar-poets-q', id: 'kar-poets-q' }, t('karuta.poet.ask', { card: poetAsk.card })),
      h('div', { class: 'kar-poets-list' },
        poetAsk.choices.map((c) => h('button', { type: 'button', class: 'kar-poet', lang: 'ja', dataset: { poem: c.poem }, onclick: (ev) => namePoet(c, ev) },
          h('span', { class: 'kar-poet-name cjk-serif' }, c.name), h('span', { class: 'kar-poet-kana' }, c.kana)))),
      h('button', { type: 'button', class: 'kar-act', id: 'kar-poet-cancel', onclick: (ev) => {
        if (ev.detail !== 0 && !poetArmed) return; // the tail of the tap that opened the panel
        poetAsk = null;
        draw();
      } }, t('karuta.poet.cancel')),
    );
  }

  function playTarget(tg, card) {
    const moves = cardMoves(card);
    const kind = tg.dataset.target;
    if (kind === 'slot') {
      const [r, s] = tg.dataset.slot.split(',').map(Number);
      const m = moves.find((x) => (x.kind === 'place' || x.kind === 'arrange') && x.row === r && x.slot === s);
      if (m) return act(m.action), true;
    } else {
      const m = moves.find((x) => x.kind === kind);
      if (m) return act(m.action), true;
    }
    return false;
  }
  function select(card) {
    sel = sel === card ? null : card;
    draw();
  }
  function onDown(e) {
    if (!state) return;
    const card = cardOf(e.target);
    if (card !== null && canTouch()) {
      e.preventDefault();
      touchCard(card);
      return;
    }
    if (card !== null && cardMoves(card).length) {
      drag = { card, x: e.clientX, y: e.clientY, moved: false, id: e.pointerId };
      return;
    }
    // a card of the other side while sending: the other side is the target
    const g = card !== null ? e.target.closest('.kar-card') : null;
    if (g && sel !== null && g.dataset.seat !== undefined && Number(g.dataset.seat) !== me && cardMoves(sel).some((m) => m.kind === 'send')) {
      e.preventDefault();
      playTarget({ dataset: { target: 'send' } }, sel);
      return;
    }
    const tg = targetOf(e.target);
    if (tg && sel !== null) {
      e.preventDefault();
      playTarget(tg, sel);
    }
  }
  function onMove(e) {
    if (!drag || e.pointerId !== drag.id) return;
    const dx = e.clientX - drag.x;
    const dy = e.clientY - drag.y;
    if (!drag.moved && Math.hypot(dx, dy) > 8) {
      drag.moved = true;
      sel = drag.card;
      draw();
    }
    if (drag.moved) {
      // follow the pointer, in the SVG's units
      const g = els.field.querySelector(`.kar-card[data-card="${drag.card}"]`);
      const box = g && g.ownerSVGElement;
      if (!g || !box) return;
      if (!g.dataset.base) g.dataset.base = g.getAttribute('transform') || '';
      const k = box.viewBox.baseVal.width / (box.getBoundingClientRect().width || 1);
      g.setAttribute('transform', `translate(${(dx * k).toFixed(1)} ${(dy * k).toFixed(1)}) ${g.dataset.base}`);
      g.classList.add('kar-dragging');
    }
  }
  function onUp(e) {
    if (!drag || e.pointerId !== drag.id) return;
    const d = drag;
    drag = null;
    if (!d.moved) return select(d.card);
    const under = document.elementsFromPoint(e.clientX, e.clientY).map(targetOf).find((x) => x);
    if (!(under && playTarget(under, d.card))) {
      fieldKey = ''; // put the dragged card back
      draw();
    }
  }
  function onKey(e) {
    if (e.key !== 'Enter' && e.key !== ' ') return;
    const card = cardOf(e.target);
    const tg = targetOf(e.target);
    if (card !== null && state) {
      e.preventDefault();
      if (canTouch()) touchCard(card);
      else if (cardMoves(card).length) select(card);
    } else if (tg && sel !== null) {
      e.preventDefault();
      playTarget(tg, sel);
    }
  }
  els.field.addEventListener('pointerdown', onDown);
  els.poets.addEventListener('pointerdown', () => (poetArmed = true));
  window.addEventListener('pointermove', onMove);
  window.addEventListener('pointerup', onUp);
  els.field.addEventListener('keydown', onKey);

  // ---- drawing ----
  function slotTargets() {
    // the empty slots the selected card may go to: "row,slot"
    const set = new Set();
    if (sel === null) return set;
    for (const m of cardMoves(sel)) if (m.row) set.add(m.row + ',' + m.slot);
    return set;
  }
  function cardAttrs(n, where) {
    const cls = ['kar-card'];
    if (touched.has(n) && touchN === state.view.readings) cls.push('kar-touched');
    if (sel === n || (poetAsk && poetAsk.card === n)) cls.push('kar-sel');
    if (cardMoves(n).length) cls.push('kar-can');
    const j = state.view.judgement;
    if (j && state.view.stage !== 'touch' && j.card === n) cls.push('kar-read');
    return { class: cls.join(' '), 'aria-label': cardLabel(n, where), 'aria-pressed': sel === n ? 'true' : null };
  }

  function drawKyogi(v) {
    const mine = me === 1 ? 1 : 0;
    const opp = 1 - mine;
    const terr = v.territories || [{ cards: [] }, { cards: [] }];
    const targets = slotTargets();
    const placing = legalMoves().some((m) => m.kind === 'place' || m.kind === 'arrange');
    // display columns: mine slot s → s; the opponent's slot s → 18 - s
    const used = new Set();
    if (placing) for (let s = 1; s <= 17; s++) used.add(s);
    for (const c of terr[mine].cards) if (c.row) used.add(c.slot);
    for (const c of terr[opp].cards) if (c.row) used.add(18 - c.slot);
    const cols = [...used].sort((a, b) => a - b);
    const colX = new Map(cols.map((c, i) => [c, LEFT + i * (CW + GX)]));
    const W = LEFT * 2 + Math.max(cols.length, 3) * (CW + GX) - GX;
    const rowY = (own, row) => (own ? 3 * (CH + GY) + MID + (3 - row) * (CH + GY) : (row - 1) * (CH + GY));
    const Hh = 6 * (CH + GY) - GY + MID;
    const kids = [];
    // the two territories' backgrounds; the opponent's is a send target
    const sendable = sel !== null && cardMoves(sel).some((m) => m.kind === 'send');
    kids.push(svg('rect', { class: 'kar-zone kar-zone-opp' + (sendable ? ' kar-target' : ''), x: 0, y: 0, width: W, height: 3 * (CH + GY) - GY / 2,
      dataset: sendable ? { target: 'send' } : {}, tabindex: sendable ? 0 : null, role: sendable ? 'button' : null,
      'aria-label': sendable ? t('karuta.sendTo', { name: name(opp), card: sel }) : null }));
    kids.push(svg('rect', { class: 'kar-zone kar-zone-own', x: 0, y: 3 * (CH + GY) + MID - GY / 2, width: W, height: 3 * (CH + GY) }));
    kids.push(svg('line', { class: 'kar-midline', x1: 0, x2: W, y1: 3 * (CH + GY) + MID / 2 - GY / 2, y2: 3 * (CH + GY) + MID / 2 - GY / 2 }));
    if (placing)
      for (let row = 1; row <= 3; row++)
        for (const s of cols) {
          const key = row + ',' + s;
          if (terr[mine].cards.some((c) => c.row === row && c.slot === s)) continue;
          const on = targets.has(key);
          kids.push(svg('rect', { class: 'kar-slot' + (on ? ' kar-target' : '') + (row === 1 && s === 9 ? ' kar-free' : ''), x: colX.get(s), y: rowY(true, row), width: CW, height: CH, rx: 3,
            dataset: on ? { target: 'slot', slot: key } : { slot: key }, tabindex: on ? 0 : null, role: on ? 'button' : null,
            'aria-label': on ? t('karuta.slot', { label: String.fromCharCode(65 + (mine ? 3 : 0) + row - 1) + String(s).padStart(2, '0') }) : null }));
        }
    const waiting = [];
    for (const [who, own] of [[opp, false], [mine, true]])
      for (const c of terr[who].cards) {
        if (!c.row) {
          waiting.push(c);
          continue;
        }
        const x = colX.get(own ? c.slot : 18 - c.slot);
        kids.push(cardEl(c.card, x, rowY(own, c.row), !own, { ...cardAttrs(c.card, c.label), dataset: { card: c.card, label: c.label, seat: who } }));
      }
    const box = svg('svg', { class: 'kar-svg kar-kyogi', viewBox: `0 0 ${W} ${Hh}`, role: 'group', 'aria-label': t('karuta.field') }, ...kids);
    fieldOut.append(
      h('p', { class: 'kar-side kar-side-opp' }, t('karuta.territory', { name: name(opp), n: terr[opp].count ?? terr[opp].cards.length })),
      box,
      h('p', { class: 'kar-side kar-side-own' }, t('karuta.territory', { name: name(mine), n: terr[mine].count ?? terr[mine].cards.length })),
    );
    if (waiting.length) drawRow(t('karuta.toPlace'), waiting.map((c) => c.card), 'place');
  }

  function drawRow(title, cards, zone, target) {
    // one labelled block of cards, ROW_PER to a line (uta hands and pool, the
    // cards to place): every block has one scale, so a hand of 25 wraps into
    // lines of cards as large as the pool's (25 on one line were 14 px wide on
    // a phone: unreadable, untappable)
    const lines = Math.max(1, Math.ceil(cards.length / ROW_PER));
    const W = LEFT * 2 + ROW_PER * (CW + GX) - GX;
    const H = lines * (CH + GY) - GY + 8;
    const kids = [];
    if (target) kids.push(svg('rect', { class: 'kar-zone kar-target', x: 0, y: 0, width: W, height: H, dataset: { target }, tabindex: 0, role: 'button', 'aria-label': t('karuta.toPool', { card: sel }) }));
    cards.forEach((n, i) => kids.push(cardEl(n, LEFT + (i % ROW_PER) * (CW + GX), 4 + Math.floor(i / ROW_PER) * (CH + GY), false, cardAttrs(n, ''))));
    fieldOut.append(
      h('p', { class: 'kar-side' }, title),
      svg('svg', { class: 'kar-svg kar-row', viewBox: `0 0 ${W} ${H}`, preserveAspectRatio: 'xMinYMin meet', role: 'group', 'aria-label': title, dataset: { zone } }, ...kids),
    );
  }

  function drawGrid(title, cards, per) {
    const rows = Math.max(1, Math.ceil(cards.length / per));
    const W = LEFT * 2 + per * (CW + GX) - GX;
    const kids = cards.map((n, i) => cardEl(n, LEFT + (i % per) * (CW + GX), 4 + Math.floor(i / per) * (CH + GY), false, cardAttrs(n, '')));
    fieldOut.append(
      h('p', { class: 'kar-side' }, title),
      svg('svg', { class: 'kar-svg kar-grid', viewBox: `0 0 ${W} ${rows * (CH + GY) + 4}`, role: 'group', 'aria-label': title, dataset: { zone: 'field' } }, ...kids),
    );
  }

  function drawField(v) {
    spacing(tight());
    fieldOut = h('div', {});
    drawFieldInto(v);
    morph(els.field, fieldOut, true);
    fieldOut = null;
  }

  function drawFieldInto(v) {
    if (v.variant === 'uta') {
      const pooling = sel !== null && cardMoves(sel).some((m) => m.kind === 'pool');
      (v.hands || []).forEach((hd, i) => drawRow(t('karuta.hand', { seat: i + 1, name: name(i), n: hd.count ?? hd.cards.length }), hd.cards.map((c) => c.card), 'hand' + i));
      drawRow(t('karuta.pool', { n: (v.pool || []).length }), v.pool || [], 'pool', pooling ? 'pool' : null);
    } else if (v.variant === 'chirashi') {
      const f = v.field || [];
      drawGrid(t('karuta.fieldCount', { n: f.length }), f, Math.min(10, Math.max(4, Math.ceil(Math.sqrt(f.length * 1.6)))));
    } else drawKyogi(v);
  }

  function drawStatus() {
    const v = state.view;
    const touchedNow = touched.size && touchN === v.readings ? touched.size : 0;
    // (the countdown changes every second: not read out each time)
    setAttr(els.status, 'aria-live', memo ? 'off' : 'polite');
    els.status.textContent = poetAsk && v.stage === 'touch' ? t('karuta.poet.status', { card: poetAsk.card })
      : status(v, { t, seat: me, name, memo: memoNow(), touched: touchedNow });
  }

  function counts(v) {
    const parts = [t('karuta.readings', { n: v.readings, left: (v.unread || []).length })];
    if (v.variant === 'chirashi') (v.taken || []).forEach((n, i) => parts.push(t('karuta.taken', { name: name(i), n })));
    if (v.variant === 'chirashi' && v.pot) parts.push(t('karuta.pot', { n: v.pot }));
    if (v.variant === 'kyogi') parts.push(t('karuta.dead', { n: (v.dead || []).length }));
    els.counts.textContent = parts.join(' · ');
  }

  function drawActions(v) {
    clear(els.actions);
    for (const m of legalMoves()) {
      if (m.kind === 'ready' || m.kind === 'pass')
        els.actions.append(h('button', { type: 'button', class: 'kar-act', dataset: { action: m.action }, onclick: () => act(m.action) }, t('karuta.do.' + m.kind)));
    }
    if (sel !== null) {
      for (const m of cardMoves(sel))
        if (m.kind === 'send' || m.kind === 'pool')
          els.actions.append(h('button', { type: 'button', class: 'kar-act kar-main', dataset: { action: m.action }, onclick: () => act(m.action) }, t('karuta.do.' + m.kind, { card: sel })));
      els.actions.append(h('button', { type: 'button', class: 'kar-act', id: 'kar-unselect', onclick: () => select(sel) }, t('karuta.do.unselect')));
    }
    const hint = legalMoves().some((m) => m.card) && sel === null ? t('karuta.hint.' + (legalMoves().find((m) => m.card).kind)) : '';
    if (hint) els.actions.append(h('span', { class: 'kar-hint' }, hint));
    els.actions.hidden = !els.actions.firstChild;
  }

  function judgementWords(j, v) {
    const c = CARDS[j.card];
    const lines = judgementLines(j, t, name, v.variant);
    if (v.answer_poet && c && !j.void) {
      lines.push(t('karuta.j.poet', { poet: c[2], kana: c[3] }));
      if (myAnswer && myAnswer.n === v.readings)
        lines.push(t(myAnswer.card === j.card && myAnswer.poet === c[2] ? 'karuta.j.poetRight' : myAnswer.card === j.card ? 'karuta.j.poetWrong' : 'karuta.j.cardWrong',
          { card: myAnswer.card, poet: myAnswer.poet }));
    }
    return lines;
  }

  function drawJudgement(v) {
    const j = v.judgement;
    if (!j || v.stage === 'touch') return;
    const key = JSON.stringify(j);
    if (key === lastJudgement) return;
    lastJudgement = key;
    clear(els.judgement);
    els.judgement.append(
      h('h3', {}, t('karuta.j.title', { n: v.readings })),
      h('ul', {}, judgementWords(j, v).map((l) => h('li', { class: 'cjk-ok' }, l))),
      h('details', {}, h('summary', {}, t('karuta.j.details')), h('ul', { class: 'kar-details' }, judgementDetails(j, t, name).map((l) => h('li', {}, l)))),
    );
    // the read card's kana line: complete it with the whole upper verse
    const c = CARDS[j.card];
    if (c && reading.n) els.kana.textContent = c[1];
    recordTake(j, v);
  }

  function recordTake(j, v) {
    if (me < 0 || j.taker !== me || !state.seats) return;
    if (!state.seats.some((s, i) => i !== me && s && (s.kind === 'ai' || s.covered))) return;
    if (typeof j.decide_ms !== 'number') return;
    const id = (state.room || '') + ':' + v.readings;
    if (seenTakes.has(id)) return;
    seenTakes.add(id);
    const d = j.decide_ms;
    const kim = typeof j.kimariji === 'number' ? j.kimariji : null;
    if (saveTake({ id, card: j.card, ms: Math.max(0, j.take_ms - d), take: j.take_ms, decide: d, kimariji: kim, at: Date.now() }))
      drawPractice();
  }

  function drawPractice() {
    const open = els.practice.open;
    clear(els.practice);
    els.practice.append(h('summary', {}, t('karuta.practice.title')));
    practiceStats(els.practice, t);
    els.practice.append(h('p', {}, h('a', { href: '/#practice', id: 'kar-practice-link' }, t('karuta.practice.link'))));
    els.practice.open = open;
  }

  // ---- the memorisation time (KA-R3): the state's `memo` while it runs ----
  // {left_ms, ready (by seat), total_ms}, counted down from when it came; a
  // person's "Ready" sends `ready` (the readings start once every person is
  // ready; computers always are).
  function memoNow() {
    if (!memo) return null;
    return { ...memo, left_ms: Math.max(0, memo.left_ms - (performance.now() - memoAt)) };
  }
  function sendReady() {
    // through the room (a table never talks to the WebSocket itself)
    if (api.ready) api.ready();
    memoAsked = true;
    drawMemo();
  }
  function drawMemo() {
    const m = memoNow();
    if (!m) {
      els.memo.hidden = true;
      if (memoTimer) clearInterval(memoTimer);
      memoTimer = null;
      return;
    }
    const mine = me >= 0 && m.ready && m.ready[me];
    const waiting = (m.ready || []).map((r, i) => (r || i === me ? -1 : i)).filter((i) => i >= 0);
    const key = [mine, memoAsked, waiting.join(',')].join('|');
    if (key !== memoKey) {
      memoKey = key;
      clear(els.memoAct);
      if (me >= 0 && !mine)
        els.memoAct.append(h('button', { type: 'button', class: 'primary kar-ready', id: 'kar-ready', disabled: memoAsked, onclick: sendReady }, t('karuta.memo.ready')));
      const note = me < 0 ? t('karuta.memo.watch')
        : mine ? (waiting.length ? t('karuta.memo.waiting', { names: waiting.map(name).join(', ') }) : '')
        : waiting.length ? t('karuta.memo.readyHint', { names: waiting.map(name).join(', ') }) : t('karuta.memo.readyAlone');
      if (note) els.memoAct.append(h('span', { class: 'kar-hint' }, note));
    }
    els.memo.hidden = false;
    if (!memoTimer) memoTimer = setInterval(() => {
      drawMemo();
      drawStatus();
    }, 1000);
  }

  function draw() {
    if (!state) return;
    const v = state.view;
    if (sel !== null && !cardMoves(sel).length) sel = null;
    if (touchN !== v.readings && v.stage === 'touch') {
      touchN = v.readings;
      touched = new Set();
    }
    if (poetAsk && (poetAsk.n !== v.readings || v.stage !== 'touch' || !canTouch())) poetAsk = null;
    drawStatus();
    drawPoets();
    // the field is redrawn only when what it shows changed (a state that
    // changes only `pending` during a reading leaves the cards in place)
    const key = JSON.stringify([v.territories, v.hands, v.pool, v.field, v.stage, v.judgement && v.judgement.card, sel,
      (state.legal || []).map((e) => e.action), touchN === v.readings ? [...touched] : [], (state.seats || []).map((x) => x && x.name), poetAsk && poetAsk.card]);
    if (key !== fieldKey) {
      fieldKey = key;
      const t0 = performance.now();
      drawField(v);
      window.__karuta.drawMs = performance.now() - t0;
    }
    drawActions(v);
    drawJudgement(v);
    counts(v);
    drawMemo();
    if (reading.n === 0) els.readHead.textContent = v.stage === 'touch' ? t('karuta.reading', { n: v.readings }) : t('karuta.noReading');
    fit();
  }

  drawPractice();

  return {
    update(st) {
      state = st;
      if (st.memo) {
        memo = st.memo;
        memoAt = performance.now();
      } else memo = null;
      if (!memo) memoAsked = false;
      draw();
    },
    event(m) {
      if (m.type === 'reading') {
        reading = { n: m.n, kana: [], t0: m.t0_ms };
        window.__karuta.reading = reading;
        window.__karuta.readingAt = performance.now();
        els.readHead.textContent = t('karuta.reading', { n: m.n });
        els.kana.textContent = '';
        els.kana.classList.add('kar-live');
        memo = null;
        drawMemo();
      } else if (m.type === 'kana') {
        if (m.n !== reading.n) reading = { n: m.n, kana: [], t0: 0 };
        reading.kana[m.i] = m.kana;
        window.__karuta.reading = reading;
        els.kana.textContent = reading.kana.join('');
        window.__karuta.kanaAt.push({ n: m.n, i: m.i, t: performance.now() });
        say(m.kana);
      } else if (m.type === 'error' && m.request === 'touch') {
        drawStatus();
      } else if (m.type === 'error' && m.request === 'act') {
        sel = null;
        draw();
      }
    },
    destroy() {
      window.removeEventListener('resize', onResize);
      if (sizeWatch) sizeWatch.disconnect();
      window.removeEventListener('pointermove', onMove);
      window.removeEventListener('pointerup', onUp);
      if (memoTimer) clearInterval(memoTimer);
      if ('speechSynthesis' in window) {
        speechSynthesis.removeEventListener?.('voiceschanged', voicesChanged);
        speechSynthesis.cancel();
      }
    },
  };
}

/** Draws the practice statistics kept in this browser into `root`: take
 * times after the deciding kana per card (mean, bars) and over time (each
 * take, and the mean of the last 5), as SVG, with a button to forget them. */
export function practiceStats(root, t) {
  const takes = loadTakes();
  if (!takes.length) {
    root.append(h('p', { class: 'quiet', id: 'kar-practice-empty' }, t('karuta.practice.empty')));
    return;
  }
  const ms = takes.map((r) => r.ms);
  const mean = ms.reduce((a, b) => a + b, 0) / ms.length;
  const sorted = ms.slice().sort((a, b) => a - b);
  const median = sorted[Math.floor((sorted.length - 1) / 2)];
  root.append(h('p', { id: 'kar-practice-sum' }, t('karuta.practice.sum', { n: takes.length, mean: Math.round(mean), median: Math.round(median) })));
  const W = 600;
  const H = 200;
  const P = { l: 44, r: 8, t: 10, b: 26 };
  const max = Math.max(500, ...ms);
  const yOf = (v) => P.t + (H - P.t - P.b) * (1 - v / max);
  const axis = (title) => {
    const k = [];
    for (let i = 0; i <= 4; i++) {
      const v = (max * i) / 4;
      k.push(svg('line', { class: 'kar-grid-line', x1: P.l, x2: W - P.r, y1: yOf(v), y2: yOf(v) }),
        svg('text', { class: 'kar-axis', x: P.l - 4, y: yOf(v) + 4, 'text-anchor': 'end' }, String(Math.round(v))));
    }
    k.push(svg('text', { class: 'kar-axis', x: P.l, y: H - 4 }, title));
    return k;
  };
  // per card
  const by = new Map();
  for (const r of takes) (by.get(r.card) || by.set(r.card, []).get(r.card)).push(r.ms);
  const cards = [...by.keys()].sort((a, b) => a - b);
  const bw = (W - P.l - P.r) / cards.length;
  const bars = cards.map((c, i) => {
    const list = by.get(c);
    const m = list.reduce((a, b) => a + b, 0) / list.length;
    return svg('rect', { class: 'kar-bar', x: P.l + i * bw + bw * 0.15, y: yOf(m), width: Math.max(1, bw * 0.7), height: yOf(0) - yOf(m), dataset: { card: c } },
      svg('title', {}, t('karuta.practice.bar', { card: c, ms: Math.round(m), n: list.length })));
  });
  const labels = cards.length <= 30 ? cards.map((c, i) => svg('text', { class: 'kar-axis', x: P.l + (i + 0.5) * bw, y: H - P.b + 12, 'text-anchor': 'middle' }, String(c))) : [];
  root.append(h('figure', { class: 'kar-chart' },
    svg('svg', { id: 'kar-chart-cards', viewBox: `0 0 ${W} ${H}`, role: 'img', 'aria-label': t('karuta.practice.perCard') }, ...axis(t('karuta.practice.axisCard')), ...bars, ...labels),
    h('figcaption', {}, t('karuta.practice.perCard'))));
  // over time
  const n = takes.length;
  const xOf = (i) => P.l + (n === 1 ? (W - P.l - P.r) / 2 : ((W - P.l - P.r) * i) / (n - 1));
  const dots = takes.map((r, i) => svg('circle', { class: 'kar-dot', cx: xOf(i), cy: yOf(r.ms), r: 3 }, svg('title', {}, t('karuta.practice.dot', { card: r.card, ms: r.ms }))));
  const avg = takes.map((r, i) => {
    const w = ms.slice(Math.max(0, i - 4), i + 1);
    return `${xOf(i).toFixed(1)},${yOf(w.reduce((a, b) => a + b, 0) / w.length).toFixed(1)}`;
  });
  root.append(h('figure', { class: 'kar-chart' },
    svg('svg', { id: 'kar-chart-time', viewBox: `0 0 ${W} ${H}`, role: 'img', 'aria-label': t('karuta.practice.overTime') }, ...axis(t('karuta.practice.axisTime')),
      svg('polyline', { class: 'kar-avg', points: avg.join(' ') }), ...dots),
    h('figcaption', {}, t('karuta.practice.overTime'))));
  root.append(h('button', { type: 'button', id: 'kar-practice-clear', onclick: () => {
    try {
      localStorage.removeItem(STORE);
    } catch {}
    clear(root);
    if (root.tagName === 'DETAILS') root.append(h('summary', {}, t('karuta.practice.title')));
    practiceStats(root, t);
  } }, t('karuta.practice.clear')));
}

/** The practice page (/#practice, web/app.js): kyōgi against the computer at
 * a chosen level and the statistics kept in this browser. "Start" creates
 * the room (seat 0 a person, seat 1 the computer; memo_s=0, send=manual) and
 * opens it; the room page asks the name and joins as usual. */
export function practicePage(root, ctx, t) {
  linkCss();
  // a level's name in the page's language (`level.NAME`), else the server's
  const levelText = (name) => (['easy', 'medium', 'hard', 'champion'].includes(name) ? t('level.' + name) : name);
  const level = h('select', { id: 'kar-practice-level' });
  const cards = h('select', { id: 'kar-practice-cards' });
  const note = h('p', { class: 'quiet', 'aria-live': 'polite' });
  const stats = h('section', { class: 'kar-practice', 'aria-labelledby': 'kar-practice-h' });
  for (const n of [5, 10, 25]) cards.append(h('option', { value: n, selected: n === 10 }, t('karuta.practice.cards', { n })));
  const off = ctx.net.on('created', (m) => location.assign('/room/' + m.room));
  const offErr = ctx.net.on('error', (m) => {
    if (m.request === 'create') note.textContent = m.message;
  });
  ctx.games((games) => {
    const g = games.find((x) => x.id === 'karuta');
    clear(level);
    for (const l of (g && g.levels) || [{ name: 'medium' }]) level.append(h('option', { value: l.name, selected: l.name === 'medium' }, levelText(l.name)));
  });
  function start(ev) {
    ev.preventDefault();
    // a random deal of N cards a side from the 100 (the rest are dead, KA-R1)
    const all = Array.from({ length: 100 }, (_, i) => i + 1);
    for (let i = all.length - 1; i > 0; i--) {
      const j = Math.floor(Math.random() * (i + 1));
      [all[i], all[j]] = [all[j], all[i]];
    }
    const n = Number(cards.value);
    const deal = all.slice(0, n).join(';') + '/' + all.slice(n, 2 * n).join(';');
    ctx.net.send({ type: 'create', game: 'karuta', options: { variant: 'kyogi', memo_s: '0', deal },
      seats: [{ kind: 'person' }, { kind: 'ai', level: level.value }] });
  }
  root.append(
    h('h1', {}, t('karuta.practice.start')),
    h('p', {}, t('karuta.practice.intro')),
    h('form', { class: 'kar-practice-form', onsubmit: start },
      h('label', {}, t('karuta.practice.level'), ' ', level), ' ',
      h('label', {}, t('karuta.practice.size'), ' ', cards), ' ',
      h('button', { type: 'submit', class: 'primary', id: 'kar-practice-go' }, t('karuta.practice.go'))),
    note,
    stats,
  );
  stats.append(h('h2', { id: 'kar-practice-h' }, t('karuta.practice.title')));
  practiceStats(stats, t);
  return {
    close() {
      off && off();
      offErr && offErr();
    },
  };
}

// hint.js — the room's hint (issue 34 §3; docs/hints.md, docs/web-protocol.md
// "Hints"): a "Hint" button at the player's decision in a casual room (the
// `joined` message's `hints`), the answer in words (the game's actionWords
// from the action's fields, the page's language: never notation) with its
// chance of winning (exact or an estimate), and the move marked on the table
// (the squares or cards its fields name) until the next state.
//
// hintTool({t, send, words, table}) → { el, button, render(state, allowed, myTurn), show(msg, state), reset(state), failed() }
//   el: the answer, placed by room.js in the room's head, under "Your turn" (in view on a
//   phone); button: where the Hint button goes, placed in the bar under the table (beside
//   "Describe the table"), so that it never pushes the table's moves below a phone's fold.
//   t: the catalogue; send(msg): to the server; words(a): a legal action in words;
//   table(): the table's root element (for the marks).

import { h, svg } from './dom.js';

/** The hint's stylesheet (web/css/hint.css), linked once: the page's CSP allows no inline style. */
function addStyle() {
  if (document.querySelector('link[data-hint]')) return;
  document.head.append(h('link', { rel: 'stylesheet', href: '/css/hint.css', dataset: { hint: '1' } }));
}

/** The table's elements a legal action's fields name: Ur's squares (`from`,
 * `to`, the reserve, off the board), Tam Cúc's cards, City Behind Walls' card. */
function marked(root, fields, seat) {
  if (!root || !fields) return [];
  const esc = (v) => (window.CSS && CSS.escape ? CSS.escape(String(v)) : String(v));
  const sel = [];
  for (const k of ['from', 'to']) {
    const v = fields[k];
    if (typeof v !== 'string') continue;
    if (v === 'reserve') sel.push('[data-reserve="' + esc(seat) + '"]');
    else if (v === 'off') sel.push('[data-off="' + esc(seat) + '"]');
    else sel.push('[data-square="' + esc(v) + '"]');
  }
  const cards = Array.isArray(fields.cards) ? fields.cards : typeof fields.card === 'string' ? [fields.card] : [];
  for (const c of cards) if (typeof c === 'string') sel.push('[data-card="' + esc(c) + '"]');
  if (!sel.length) return [];
  return [...root.querySelectorAll(sel.join(','))].filter((el) => !el.closest('.hint-box'));
}

export function hintTool({ t, send, words, table }) {
  addStyle();
  const box = h('div', { class: 'hint-box', id: 'hint-box', role: 'status', hidden: true });
  const slot = h('span', { class: 'hint-slot' });
  const el = h('div', { class: 'hint-bar' }, box);
  let askedSeq = null; // the decision (state seq) a hint was asked for
  let marks = [];
  let shown = null; // the hint whose move is marked: {fields, seat}
  // a table may redraw a part without a new state (Tam Cúc's hand when the width changes):
  // the marks are put back on the new elements
  const watch = typeof MutationObserver === 'function' ? new MutationObserver(() => {
    if (shown && !marks.every((el) => el.isConnected)) markMove();
  }) : null;

  function unmark() {
    if (watch) watch.disconnect();
    for (const el of marks) {
      el.classList.remove('hint-mark');
      for (const ring of el.querySelectorAll(':scope > .hint-ring')) ring.remove();
    }
    marks = [];
  }

  /** Marks the shown hint's move on the table (again), then watches the table for redraws. */
  function markMove() {
    unmark();
    const root = table();
    marks = marked(root, shown.fields, shown.seat);
    for (const el of marks) mark(el);
    if (watch && root) watch.observe(root, { childList: true, subtree: true });
  }

  /** Marks an element: an HTML one by its outline, an SVG group by a dashed ring around its box. */
  function mark(el) {
    el.classList.add('hint-mark');
    if (!(el instanceof SVGGraphicsElement) || typeof el.getBBox !== 'function') return;
    const b = el.getBBox();
    el.append(svg('rect', { class: 'hint-ring', x: b.x - 3, y: b.y - 3, width: b.width + 6, height: b.height + 6, rx: 4,
      fill: 'none', stroke: '#b85c00', 'stroke-width': 4, 'stroke-dasharray': '7 4', 'pointer-events': 'none' }));
  }

  return {
    el,
    button: slot,
    /** The Hint button at the seat's decision in a room that gives hints (none otherwise). */
    render(state, allowed, myTurn) {
      slot.textContent = '';
      if (!allowed || !state || state.over || !myTurn || !(state.legal && state.legal.length) || askedSeq === state.seq) return;
      slot.append(h('button', { type: 'button', id: 'hint', onclick: (ev) => {
        askedSeq = state.seq;
        ev.currentTarget.remove();
        box.hidden = false;
        box.textContent = t('hint.thinking');
        send({ type: 'hint' });
      } }, t('hint.ask')));
    },
    /** A `hint` message: its words and chance in the box, its move marked on the table. */
    show(msg, state) {
      if (!state || msg.seq !== state.seq) return;
      const a = (state.legal || []).find((l) => l.action === msg.action && (l.seat === undefined || l.seat === msg.seat)) ||
        { action: msg.action, fields: msg.fields, seat: msg.seat };
      const pct = Math.round(Math.max(0, Math.min(1, msg.win)) * 100);
      box.hidden = false;
      box.textContent = '';
      box.append(h('b', {}, t('hint.title')), ' ', h('span', { class: 'hint-move' }, words(a)), ' ',
        h('span', { class: 'hint-chance' }, t(msg.exact ? 'hint.exact' : 'hint.estimate', { pct })));
      shown = { fields: msg.fields, seat: msg.seat };
      markMove();
    },
    /** A new state: the marks go (the table redraws); the box goes at the next decision. */
    reset(state) {
      shown = null;
      unmark();
      if (!state || state.seq !== askedSeq) {
        box.hidden = true;
        box.textContent = '';
      }
    },
    /** An error answering a hint: the button may be tried again at the next decision. */
    failed() {
      box.hidden = true;
      box.textContent = '';
    },
  };
}

// replay.js — a finished game stepped forward and back (buttons, the arrow
// keys, Home/End), from a record file dropped onto the page or chosen, or
// from a room's referee record (/room/CODE#replay). The views at each step
// come from the server's `replay` message (docs/web-protocol.md): the page
// sends {type: "replay", record} and draws each step's view with the game's
// own table (web/games/GAME.js, as a spectator). A server without `replay`
// answers an error: the page then steps through the record's actions as text.

import { t, lang, has } from './i18n.js';
import { h, clear, download } from './dom.js';

/** The steps of a `replay` answer: [{view, text, seat, said}], index 0 the start. */
export function stepsOf(msg) {
  if (Array.isArray(msg.steps)) return msg.steps.map((s) => (s && s.view !== undefined ? s : { view: s }));
  if (Array.isArray(msg.views)) return msg.views.map((v, i) => ({ view: v, text: i && msg.history ? (msg.history[i - 1] || {}).text : '' }));
  return [];
}

/** Steps from the record alone (no views): the start, then one per action. */
function textSteps(record) {
  return [{ view: null, text: '' }].concat(
    record.actions.map((a) => ({ view: null, seat: a.seat, text: (a.seat === 'chance' ? '' : t('replay.seat', { n: Number(a.seat) + 1 }) + ': ') + a.action })),
  );
}

export function open(ctx, code) {
  const { net, root } = ctx;
  const R = { record: null, steps: null, views: false, i: 0, error: null, note: null, table: null, tableGame: null, wantRecord: false };
  const els = {};
  const offs = [];

  offs.push(
    net.on('record', (m) => {
      if (!R.wantRecord) return;
      R.wantRecord = false;
      load(m.record);
    }),
    net.on('replay', (m) => {
      const steps = stepsOf(m);
      if (!steps.length) return fallback();
      R.steps = steps;
      R.views = steps.some((s) => s.view);
      R.i = 0;
      renderAll();
    }),
    net.on('error', (m) => {
      if (m.request === 'replay') return fallback(m.message);
      if (m.request !== 'record' && m.request !== 'watch') return;
      R.wantRecord = false;
      R.error = m.error === 'room' ? t('room.noSuch') : m.message;
      renderAll();
    }),
  );
  let offOpen = () => {};
  if (code)
    offOpen = net.onOpen(() => {
      if (R.record) return;
      R.wantRecord = true;
      net.send({ type: 'watch', room: code });
      net.send({ type: 'record', who: 'referee' });
    });

  function fallback(message) {
    if (!R.record) return;
    R.steps = textSteps(R.record);
    R.views = false;
    R.i = 0;
    R.note = t('replay.noViews');
    if (message) console.info('replay:', message);
    renderAll();
  }

  function load(record) {
    R.error = null;
    R.note = null;
    R.steps = null;
    R.i = 0;
    if (!record || typeof record !== 'object' || !Array.isArray(record.actions) || typeof record.game !== 'string') {
      R.error = t('replay.bad');
      R.record = null;
    } else {
      R.record = record;
      net.send({ type: 'replay', record });
    }
    renderAll();
  }

  function readFile(file) {
    file.text().then((text) => {
      let rec = null;
      try {
        rec = JSON.parse(text);
      } catch {}
      load(rec);
    });
  }

  function render() {
    clear(root);
    if (R.table) R.table.destroy();
    R.table = null;
    R.tableGame = null;
    els.status = h('div', { class: 'replay-status', 'aria-live': 'polite' });
    els.controls = h('div', { class: 'replay-controls row' });
    els.table = h('div', { class: 'table', id: 'table' });
    els.history = h('ol', { class: 'replay-history', start: 1 });
    const file = h('input', { type: 'file', id: 'replay-file', accept: '.json,application/json', onchange: (ev) => ev.target.files[0] && readFile(ev.target.files[0]) });
    const drop = h('label', {
        class: 'drop', for: 'replay-file', id: 'replay-drop',
        ondragover: (ev) => {
          ev.preventDefault();
          ev.currentTarget.classList.add('over');
        },
        ondragleave: (ev) => ev.currentTarget.classList.remove('over'),
        ondrop: (ev) => {
          ev.preventDefault();
          ev.currentTarget.classList.remove('over');
          const f = ev.dataTransfer.files[0];
          if (f) readFile(f);
        },
      }, t('replay.drop'));
    root.append(
      h('section', { class: 'replay' },
        h('h1', {}, t('replay.title')),
        code ? null : h('div', { class: 'card' }, drop, file),
        els.status, els.controls, els.table,
        h('h2', { class: 'sr' }, t('replay.moves')), els.history,
        h('p', {}, h('a', { href: code ? '/room/' + code : '/' }, code ? t('replay.toRoom') : t('room.toLobby')))));
    renderAll();
  }

  function renderAll() {
    if (!els.status) return;
    clear(els.status);
    if (R.error) els.status.append(h('p', { class: 'note error', role: 'alert' }, R.error));
    if (R.note) els.status.append(h('p', { class: 'note info' }, R.note));
    if (R.record) {
      const g = R.record.game;
      els.status.append(
        h('p', {}, h('b', {}, has('game.' + g + '.name') ? t('game.' + g + '.name') : g), ' · ', t('replay.actions', { n: R.record.actions.length }), ' ',
          h('button', { type: 'button', id: 'replay-download', onclick: () => download('parlour-' + g + '-record.json', JSON.stringify(R.record, null, 1) + '\n') }, t('replay.download'))));
      if (!R.steps && !R.error) els.status.append(h('p', { class: 'quiet' }, t('replay.loading')));
    } else if (code && !R.error) els.status.append(h('p', { class: 'quiet' }, t('replay.loading')));
    renderHistory();
    renderStep();
  }

  function go(i) {
    if (!R.steps) return;
    R.i = Math.max(0, Math.min(R.steps.length - 1, i));
    renderStep();
  }

  function renderHistory() {
    clear(els.history);
    if (!R.steps) return;
    R.steps.slice(1).forEach((s, k) =>
      els.history.append(h('li', { class: k + 1 === R.i ? 'now' : null },
        h('button', { type: 'button', class: 'linkish', onclick: () => go(k + 1) }, s.text || (s.said ? s.said : t('replay.step', { i: k + 1, n: R.steps.length - 1 }))))));
  }

  function renderStep() {
    clear(els.controls);
    if (!R.steps) return;
    const n = R.steps.length - 1;
    els.controls.append(
      h('button', { type: 'button', id: 'replay-first', onclick: () => go(0), 'aria-label': t('replay.first') }, '«'),
      h('button', { type: 'button', id: 'replay-back', onclick: () => go(R.i - 1), 'aria-label': t('replay.back') }, '◀'),
      h('span', { class: 'step', id: 'replay-step', role: 'status' }, t('replay.step', { i: R.i, n })),
      h('button', { type: 'button', id: 'replay-forward', onclick: () => go(R.i + 1), 'aria-label': t('replay.forward') }, '▶'),
      h('button', { type: 'button', id: 'replay-last', onclick: () => go(n), 'aria-label': t('replay.last') }, '»'));
    [...els.history.children].forEach((li, k) => li.classList.toggle('now', k + 1 === R.i));
    const step = R.steps[R.i];
    if (step.view) mount(step.view, R.i === n);
    else {
      clear(els.table);
      els.table.append(h('p', { class: 'replay-text', id: 'replay-text' }, R.i === 0 ? t('replay.start') : step.text));
    }
  }

  function mount(view, last) {
    const game = view.game;
    const state = { type: 'state', room: code || '', seat: -1, seq: R.i, view, legal: [], history: [], history_from: 0, seats: [], clock: null, over: last, result: last ? view.outcome : null, status: last ? 'over' : 'playing' };
    if (R.table && R.tableGame === game) return R.table.update(state);
    R.tableGame = game;
    const api = { t, lang, seat: -1, act() {}, touch() {}, say() {} };
    const plainMount = (box) => {
      const pre = h('pre', { class: 'view-json' });
      box.append(pre);
      return { update: (s) => (pre.textContent = JSON.stringify(s.view, null, 1)), event() {}, destroy() {} };
    };
    const start = (mod) => {
      clear(els.table);
      const box = h('div', { class: 'table-root', dataset: { game } });
      els.table.append(box);
      try {
        R.table = mod && mod.mount ? mod.mount(box, api) : plainMount(box);
      } catch {
        clear(box);
        R.table = plainMount(box);
      }
      const st = R.steps[R.i];
      R.table.update({ ...state, seq: R.i, view: st.view });
    };
    import('/games/' + game + '.js').then(start, () => start(null));
  }

  function onKey(ev) {
    if (!R.steps || (ev.target.closest && ev.target.closest('input,select,textarea'))) return;
    const keys = { ArrowRight: R.i + 1, ArrowLeft: R.i - 1, Home: 0, End: R.steps.length - 1 };
    if (!(ev.key in keys)) return;
    ev.preventDefault();
    go(keys[ev.key]);
  }
  document.addEventListener('keydown', onKey);

  render();
  return {
    render,
    replay: R,
    close() {
      for (const off of offs) off();
      offOpen();
      document.removeEventListener('keydown', onKey);
      if (R.table) R.table.destroy();
    },
  };
}

// replay.js — a finished game stepped forward and back (buttons, the arrow
// keys, Home/End), from a record file dropped onto the page or chosen, or
// from a room's referee record (/room/CODE#replay). The views at each step
// come from the server's `replay` message (docs/web-protocol.md); the table
// is the game's own (web/games/GAME.js) fed those views as states.

import { t, lang } from './i18n.js';
import { h, clear, download } from './dom.js';

export function open(ctx, code) {
  const { net, root } = ctx;
  const R = { record: null, steps: null, i: 0, error: null, table: null, tableGame: null, source: null };
  const els = {};
  const offs = [];

  offs.push(
    net.on('record', (m) => {
      if (!R.wantRecord) return;
      R.wantRecord = false;
      load(m.record, 'room');
    }),
    net.on('replay', (m) => {
      R.steps = m.steps || [];
      R.i = 0;
      renderStep();
    }),
    net.on('error', (m) => {
      if (m.request !== 'replay' && m.request !== 'record' && m.request !== 'watch') return;
      R.error = m.message;
      renderStatus();
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

  function load(record, source) {
    R.record = record;
    R.source = source;
    R.error = null;
    R.steps = null;
    if (!record || typeof record !== 'object' || !Array.isArray(record.actions)) {
      R.error = t('replay.bad');
      R.record = null;
    } else net.send({ type: 'replay', record });
    renderStatus();
  }

  function readFile(file) {
    file.text().then((text) => {
      let rec = null;
      try {
        rec = JSON.parse(text);
      } catch {}
      load(rec, 'file');
    });
  }

  function render() {
    clear(root);
    els.status = h('div', { class: 'replay-status', 'aria-live': 'polite' });
    els.table = h('div', { class: 'table', id: 'table' });
    els.steps = h('div', { class: 'replay-controls row' });
    els.history = h('ol', { class: 'replay-history' });
    const file = h('input', { type: 'file', id: 'replay-file', accept: '.json,application/json', onchange: (ev) => ev.target.files[0] && readFile(ev.target.files[0]) });
    const drop = h('label', { class: 'drop', for: 'replay-file', id: 'replay-drop',
      ondragover: (ev) => ev.preventDefault(),
      ondrop: (ev) => {
        ev.preventDefault();
        const f = ev.dataTransfer.files[0];
        if (f) readFile(f);
      } }, t('replay.drop'));
    root.append(h('section', { class: 'replay' }, h('h1', {}, t('replay.title')), h('div', { class: 'card' }, drop, file), els.status, els.steps, els.table, els.history));
    renderStatus();
    renderStep();
  }

  function renderStatus() {
    if (!els.status) return;
    clear(els.status);
    if (R.error) els.status.append(h('p', { class: 'note error', role: 'alert' }, R.error));
    else if (R.record && !R.steps) els.status.append(h('p', { class: 'quiet' }, t('replay.loading')));
    if (R.record)
      els.status.append(h('button', { type: 'button', onclick: () => download('parlour-' + (R.record.game || 'game') + '-record.json', JSON.stringify(R.record, null, 1) + '\n') }, t('replay.download')));
  }

  function renderStep() {
    if (!els.steps) return;
    clear(els.steps);
    if (!R.steps || !R.steps.length) return;
    const n = R.steps.length - 1;
    const go = (i) => {
      R.i = Math.max(0, Math.min(n, i));
      renderStep();
    };
    els.steps.append(
      h('button', { type: 'button', onclick: () => go(0), 'aria-label': t('replay.first') }, '⏮'),
      h('button', { type: 'button', id: 'replay-back', onclick: () => go(R.i - 1), 'aria-label': t('replay.back') }, '◀'),
      h('span', { class: 'step', id: 'replay-step' }, t('replay.step', { i: R.i, n })),
      h('button', { type: 'button', id: 'replay-forward', onclick: () => go(R.i + 1), 'aria-label': t('replay.forward') }, '▶'),
      h('button', { type: 'button', onclick: () => go(n), 'aria-label': t('replay.last') }, '⏭'));
    const step = R.steps[R.i];
    const state = { type: 'state', room: '', seat: -1, seq: R.i, view: step.view, legal: [], history: [], history_from: 0, seats: [], clock: null, over: R.i === n, result: null, status: 'over' };
    mount(state);
    clear(els.history);
    R.steps.slice(1, R.i + 1).forEach((s) => els.history.append(h('li', {}, s.text || s.action || '')));
  }

  function mount(state) {
    const game = state.view && state.view.game;
    if (R.table && R.tableGame === game) return R.table.update(state);
    const api = { t, lang, seat: -1, act() {}, touch() {}, say() {} };
    import('/games/' + game + '.js').then(
      (mod) => {
        clear(els.table);
        const box = h('div', { class: 'table-root', dataset: { game } });
        els.table.append(box);
        R.table = mod.mount(box, api);
        R.tableGame = game;
        R.table.update(state);
      },
      () => {
        clear(els.table);
        const pre = h('pre', { class: 'view-json' });
        els.table.append(pre);
        R.table = { update: (s) => (pre.textContent = JSON.stringify(s.view, null, 1)), destroy() {}, event() {} };
        R.tableGame = game;
        R.table.update(state);
      },
    );
  }

  function onKey(ev) {
    if (!R.steps || ev.target.closest('input,select,textarea')) return;
    const n = R.steps.length - 1;
    let i = R.i;
    if (ev.key === 'ArrowRight') i++;
    else if (ev.key === 'ArrowLeft') i--;
    else if (ev.key === 'Home') i = 0;
    else if (ev.key === 'End') i = n;
    else return;
    ev.preventDefault();
    R.i = Math.max(0, Math.min(n, i));
    renderStep();
  }
  document.addEventListener('keydown', onKey);

  render();
  return {
    render,
    close() {
      for (const off of offs) off();
      offOpen();
      document.removeEventListener('keydown', onKey);
      if (R.table) R.table.destroy();
    },
  };
}

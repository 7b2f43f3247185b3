// test_tamcuc_a11y.mjs — Tam Cúc's table for the keyboard and the screen
// reader (issue 32 §2, §3): a WHOLE two-player game against the computer
// (easy, one deal) played by keyboard only — Tab, Shift+Tab, the arrow
// keys, Space, Enter, Escape — deciding every key from the accessibility
// tree alone (Chromium's, through the DevTools protocol: roles, names,
// pressed, disabled, focused; never a CSS selector nor a click for a move),
// once on a desktop in English and once on a phone in Russian. On the way:
//   - axe-core finds no serious or critical violation on the table at the
//     start, in the middle and at the end;
//   - the hand is one Tab stop (roving tabindex), its cards named as players
//     say them, in the order and with the states of the server's state
//     (chosen: pressed; a card no legal group takes: disabled); Escape clears;
//   - describe(view, ctx) tells the hand, every seat's hand size and score
//     and what the reader may do, as the state says; the room's Alt+Shift+D
//     region says it and takes the focus; the room's live region says the
//     moves from announce() (the last trick, the end); announce/soundOf;
//   - the focus ring (a hand card, a button) stands out at 3:1 or more;
//   - at 200 % text the hand, the prompt, the buttons and the trick still
//     show, inside the screen, without overlapping;
//   - with prefers-reduced-motion: reduce, nothing in the table moves;
//   - red and black cards differ by a mark's shape, the last trick's winner
//     by words, not by colour alone;
//   - the night exchange (a pass of two cards) by keyboard, on a phone in
//     Vietnamese, its hand named in Vietnamese as the state holds it.
// Screenshots: tamcuc_a11y-{focus,described,text200,text200-hand,over}-SIZE-LANG.png.

import { run } from './harness.mjs';
import en from '../../web/i18n/en.js';
import ru from '../../web/i18n/ru.js';
import vi from '../../web/i18n/vi.js';

const CATS = { en, ru, vi };
const CHAR = { r: { G: '帥', A: '仕', E: '相', C: '俥', N: '炮', H: '傌', S: '兵' }, b: { G: '將', A: '士', E: '象', C: '車', N: '砲', H: '馬', S: '卒' } };
const VN = { G: 'tướng', A: 'sĩ', E: 'tượng', C: 'xe', N: 'pháo', H: 'mã', S: 'tốt' };

/** The catalogue's text of `key` in `lang` (as js/i18n.js: `.one` for n 1). */
function T(lang, key, vars = {}) {
  const c = CATS[lang];
  if (vars.n === 1 && c[key + '.one'] !== undefined) key += '.one';
  const s = c[key] ?? en[key];
  if (s === undefined) throw new Error('no key ' + key);
  return s.replace(/\{(\w+)\}/g, (m, k) => (vars[k] === undefined ? m : String(vars[k])));
}
/** A hand card's name as a screen reader should say it (from the state's card code). */
function cardName(lang, c) {
  return T(lang, 'tamcuc.a11y.card', { colour: T(lang, c[0] === 'r' ? 'tamcuc.red' : 'tamcuc.black'), rank: T(lang, 'tamcuc.rank.' + c[1]), char: CHAR[c[0]][c[1]], vn: VN[c[1]] });
}
const esc = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

// ---- the accessibility tree (Chromium's, by the DevTools protocol) ----
const sessions = new Map();
/** The page's accessibility tree: {nodes, byId, focused, text(n), kids(n), find(pred), inside(n, anc)}. */
async function ax(page) {
  if (!sessions.has(page)) sessions.set(page, await page.context().newCDPSession(page));
  const { nodes } = await sessions.get(page).send('Accessibility.getFullAXTree');
  const byId = new Map();
  const prop = (n, k) => {
    const p = (n.properties || []).find((x) => x.name === k);
    return p ? p.value.value : undefined;
  };
  for (const n of nodes) byId.set(n.nodeId, n);
  const view = (n) => ({
    id: n.nodeId, dom: n.backendDOMNodeId, role: n.role ? n.role.value : '', name: n.name ? n.name.value : '',
    focused: prop(n, 'focused') === true, pressed: prop(n, 'pressed'), disabled: prop(n, 'disabled') === true, parentId: n.parentId, raw: n,
  });
  const all = nodes.filter((n) => !n.ignored).map(view);
  const vById = new Map(all.map((n) => [n.id, n]));
  /** A node's unignored children (through ignored ones). */
  const kids = (n) => {
    const out = [];
    const walk = (ids) => {
      for (const id of ids || []) {
        const r = byId.get(id);
        if (!r) continue;
        if (r.ignored) walk(r.childIds);
        else out.push(vById.get(id));
      }
    };
    walk(n.raw.childIds);
    return out;
  };
  const text = (n) => {
    const parts = [];
    const walk = (x) => {
      if (x.role === 'StaticText') parts.push(x.name);
      for (const k of kids(x)) walk(k);
    };
    walk(n);
    return parts.join('');
  };
  const inside = (n, anc) => {
    for (let r = byId.get(n.id); r; r = byId.get(r.parentId)) if (r.nodeId === anc.id) return true;
    return false;
  };
  return { all, focused: all.find((n) => n.focused && n.role !== 'RootWebArea') || null, kids, text, inside, find: (pred) => all.find(pred) || null };
}

/** The name of the hand's group in `lang` ("Your hand, 8 cards"). */
function handRe(lang) {
  return new RegExp('^(' + esc(T(lang, 'tamcuc.hand', { n: 2 })).replace('2', '\\d+') + '|' + esc(T(lang, 'tamcuc.hand', { n: 1 })).replace('1', '\\d+') + ')$');
}
/** A tabTo predicate: the focus is on a card of the hand (the hand as the tree has it now). */
const inHand = (lang) => (n, a) => {
  const hand = a.find((x) => x.role === 'group' && handRe(lang).test(x.name));
  return !!hand && a.inside(n, hand);
};

/** What the tree shows of the table, in the page's language. */
async function table(page, lang) {
  const a = await ax(page);
  const hand = a.find((n) => n.role === 'group' && handRe(lang).test(n.name));
  const cards = hand ? a.kids(hand).filter((n) => n.role === 'button' || n.role === 'img') : [];
  const actions = a.find((n) => n.role === 'group' && n.name === T(lang, 'tamcuc.actions'));
  const buttons = actions ? a.kids(actions).filter((n) => n.role === 'button') : [];
  const statuses = a.all.filter((n) => n.role === 'status').map((n) => a.text(n));
  const resultPrefix = T(lang, 'tamcuc.result', { names: '@' }).split('@')[0];
  const over = statuses.some((s) => s.startsWith(resultPrefix));
  // how many cards a lay or a pass needs, from the prompt (a status)
  let need = 0;
  for (const key of ['tamcuc.prompt.lay', 'tamcuc.prompt.pass'])
    for (const n of [1, 2]) {
      const k = n === 1 && CATS[lang][key + '.one'] !== undefined ? key + '.one' : key;
      const re = new RegExp('^' + esc(T(lang, k, { n: '@' })).replace('@', '(\\d+)') + '$');
      for (const s of statuses) if (re.test(s)) need = Number(s.match(re)[1]);
    }
  return { a, hand, cards, actions, buttons, over, statuses, need };
}

run('tamcuc_a11y', async (h) => {
  /** Presses `key` and reads the tree again. */
  const press = async (page, key) => {
    await page.keyboard.press(key);
  };
  /** Tab (or Shift+Tab) until the focused node satisfies pred; false if not within `max`. */
  async function tabTo(page, pred, { back = false, max = 60 } = {}) {
    for (let i = 0; i <= max; i++) {
      const a = await ax(page);
      if (a.focused && pred(a.focused, a)) return true;
      if (i < max) await press(page, back ? 'Shift+Tab' : 'Tab');
    }
    return false;
  }

  async function game(size, lang) {
    const tag = `${size}-${lang}`;
    const page = await h.page(size, { lang });
    const seats = [{ kind: 'person' }, { kind: 'ai', level: 'easy' }];
    let cdpPage = page;
    await h.step(`${tag}: a room against the computer, joined by keyboard`, async () => {
      await page.goto(h.url('/'));
      const { room } = await h.createRoom(page, { game: 'tamcuc', options: { players: '2', session_end: 'deals:1' }, seats });
      await page.goto(h.url('/room/' + room));
      await page.getByRole('textbox', { name: T(lang, 'room.join.name') }).waitFor();
      h.check(await tabTo(page, (n) => n.role === 'textbox' && n.name === T(lang, 'room.join.name')), 'Tab reaches the name field');
      await page.keyboard.type('Ann');
      await press(page, 'Enter');
      await h.waitState(page, (st) => st.seat === 0 && st.status === 'playing' && st.view && st.view.hand && st.view.hand.length > 0);
    });

    let moves = 0, mid = false, checkedStart = false, escChecked = false;
    const names = (st) => st.view.hand.map((c) => cardName(lang, c));

    /** The hand in the tree is the server's hand, in order, named as players say it. */
    const checkHand = (tb, st) => {
      const got = tb.cards.map((n) => n.name);
      h.check(JSON.stringify(got) === JSON.stringify(names(st)), `the hand in the accessibility tree (${got.join(' | ')}) is the state's (${st.view.hand.join(' ')})`);
      h.check(tb.hand.name === T(lang, 'tamcuc.hand', { n: st.view.hand.length }), 'the hand is named with its size: ' + tb.hand.name);
    };

    /** describe() from the page's own table module, checked against the state. */
    const checkDescribe = async (st) => {
      const said = await page.evaluate(async () => {
        const m = await import('/games/tamcuc.js');
        const i18n = await import('/js/i18n.js');
        const s = window.__parlour.page.room.state;
        return m.describe(s.view, { t: i18n.t, lang: i18n.lang, has: i18n.has, seat: s.seat, seats: s.seats, state: s });
      });
      const v = st.view;
      h.check(Array.isArray(said) && said.length >= 4, 'describe says several sentences: ' + JSON.stringify(said));
      const all = said.join(' ');
      h.check(!/\b[rb][GAECNHS]\b|⟦|undefined|null|NaN/.test(all), 'no card code, no missing word: ' + all);
      for (let i = 0; i < v.seats; i++) {
        const name = i === 0 ? T(lang, 'tamcuc.you', { name: 'Ann' }) : T(lang, 'tamcuc.computer', { n: i + 1 });
        const sgn = (x) => (x > 0 ? '+' + x : String(x));
        const line = T(lang, 'tamcuc.a11y.d.seat', { name, n: v.hand_sizes[i], won: v.won[i].length, deal: sgn(v.deal_score[i]), total: sgn(v.score[i]) });
        h.check(said.includes(line), `seat ${i}: its hand size, won cards and scores as the state says (${line}) in: ${all}`);
      }
      if (v.phase !== 'over') {
        const hand = said.find((s) => s.startsWith(T(lang, 'tamcuc.a11y.d.hand', { n: v.hand.length, cards: '@' }).split('@')[0]));
        h.check(hand, 'the hand is told: ' + all);
        for (const c of new Set(v.hand)) h.check(hand.includes(T(lang, 'tamcuc.name.' + c)), `the hand's ${c} is told by its name in ${hand}`);
        const lay = st.legal.find((x) => x.action.startsWith('lay '));
        if (lay) h.check(said.includes(T(lang, 'tamcuc.a11y.d.lay', { n: lay.fields.count })), 'what the reader may do: lay ' + lay.fields.count);
        if (v.trick) h.check(said.some((s) => s.startsWith(T(lang, v.trick.kind === 'extra' ? 'tamcuc.trick.extra' : 'tamcuc.trick', { name: '@' }).split('@')[0])), 'the trick on the table is told');
      } else {
        const best = Math.max(...v.score);
        h.check(said[0].startsWith(T(lang, 'tamcuc.result', { names: '@' }).split('@')[0]) && said[0].includes(String(best > 0 ? '+' + best : best)), 'the result first: ' + said[0]);
      }
      return said;
    };

    /** Contrast ratio of two CSS colours (rgb/rgba). */
    const contrastOf = (page2, fg, bg) => page2.evaluate(([fg, bg]) => {
      const lum = (c) => {
        const m = c.match(/[\d.]+/g).map(Number);
        const ch = m.slice(0, 3).map((v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; });
        return 0.2126 * ch[0] + 0.7152 * ch[1] + 0.0722 * ch[2];
      };
      const [a, b] = [lum(fg), lum(bg)].sort((x, y) => y - x);
      return (a + 0.05) / (b + 0.05);
    }, [fg, bg]);

    /** The focused element's ring, and the colour around it. */
    const ringOf = () => page.evaluate(() => {
      const a = document.activeElement;
      const bgOf = (el) => {
        for (let e = el; e; e = e.parentElement) {
          const c = getComputedStyle(e).backgroundColor;
          if (c && !/rgba\(.*, 0\)$|transparent/.test(c)) return c;
        }
        return 'rgb(255, 255, 255)';
      };
      const ring = a && a.querySelector ? a.querySelector('.tc-focus') : null;
      if (ring) {
        const cs = getComputedStyle(ring);
        return { visible: a.matches(':focus-visible'), color: cs.stroke, width: parseFloat(cs.strokeWidth), around: bgOf(a.closest('svg').parentElement), face: getComputedStyle(a.querySelector('.tc-frame')).fill };
      }
      const cs = getComputedStyle(a);
      return { visible: a.matches(':focus-visible'), color: cs.outlineStyle === 'none' ? 'rgb(255, 255, 255)' : cs.outlineColor, width: cs.outlineStyle === 'none' ? 0 : parseFloat(cs.outlineWidth), around: bgOf(a.parentElement), face: null };
    });

    const middleChecks = async (st) => {
      await h.step(`${tag}: in the middle — axe, describe, the focus ring, Escape, 200 % text, reduced motion`, async () => {
        await h.expectAxeClean(page, `${tag} middle`, { include: '#table' });
        await checkDescribe(st);
        // the focus ring of a hand card (focus is in the hand: Tab brought it there)
        const r = await ringOf();
        h.check(r.visible, 'the focused card shows its focus (:focus-visible)');
        const c1 = await contrastOf(page, r.color, r.around), c2 = r.face ? await contrastOf(page, r.color, r.face) : 99;
        h.check(r.width >= 2 && c1 >= 3 && c2 >= 3, `the card's focus ring stands out: ${r.color} ${r.width} against ${r.around} ${c1.toFixed(2)}:1, against the face ${r.face} ${c2.toFixed(2)}:1`);
        await h.shot(page, `focus-${tag}`, { fullPage: false });
        // colour never alone: a red card has a round mark, a black one a triangle; the last
        // trick's winner is told in words beside its ring
        const marks = await page.evaluate(() => [...document.querySelectorAll('.table-root .tc-card[data-card]')].map((g) => g.dataset.card[0] + (g.querySelector('circle.tc-mark-red') ? 'O' : g.querySelector('path.tc-mark-black') ? 'T' : '?')));
        h.check(marks.length > 0 && marks.every((m) => m === 'rO' || m === 'bT'), 'every face has its colour\'s mark: ' + marks.join(' '));
        const ax2 = await ax(page);
        const lastTrick = ax2.all.filter((n) => n.role === 'paragraph' || n.role === 'generic').map((n) => ax2.text(n)).find((x) => x.includes(T(lang, 'tamcuc.a11y.tookIt')));
        h.check(!!lastTrick, 'the last trick\'s winner is told in words: ' + T(lang, 'tamcuc.a11y.tookIt'));
        // "Describe the table" (the room's Alt+Shift+D): its region takes the focus and says describe()
        const said = await checkDescribe(st);
        await press(page, 'Alt+Shift+D');
        const T2 = (k) => (lang === 'ru' ? ru : en)[k];
        let a = await ax(page);
        const region = a.find((n) => n.role === 'region' && n.name === T2('room.a11y.words'));
        h.check(region && a.focused && a.focused.id === region.id, 'Alt+Shift+D: the table in words has the focus');
        const words = a.kids(region).map((n) => a.text(n));
        for (const line of said) h.check(words.includes(line), `the region says "${line}"`);
        await page.evaluate(() => document.getElementById('table-words').scrollIntoView());
        await h.shot(page, `described-${tag}`, { fullPage: false });
        await press(page, 'Escape');
        a = await ax(page);
        h.check(a.focused && a.focused.role === 'button' && a.focused.name === T2('room.a11y.describe'), 'Escape gives the focus back to the Describe button');
        // back into the hand, by keyboard
        h.check(await tabTo(page, inHand(lang), { back: true, max: 30 }), 'Shift+Tab goes back into the hand');
      });
    };

    const textAndMotion = async () => {
      await h.step(`${tag}: 200 % text: the essentials show, inside the screen, without overlapping`, async () => {
        // (the reader's text size is set before a page loads; here the table is told by a resize)
        await page.evaluate(() => { document.documentElement.style.fontSize = '200%'; window.dispatchEvent(new Event('resize')); });
        await page.waitForTimeout(100);
        const parts = await page.evaluate(() => {
          const vw = document.documentElement.clientWidth;
          const out = {};
          for (const [k, sel] of Object.entries({ hand: '.tc-hand', prompt: '.tc-prompt', actions: '.tc-actions button', trick: '.tc-trick', scores: '.tc-score-table' })) {
            const el = document.querySelector(sel);
            const r = el ? el.getBoundingClientRect() : null;
            out[k] = r ? { shown: r.width > 0 && r.height > 0, left: r.left, right: r.right, vw } : null;
          }
          out.scrollX = document.documentElement.scrollWidth > vw + 1 ? document.documentElement.scrollWidth : 0;
          // what sticks out (the table's own elements, and the page's around it)
          out.wide = [...document.querySelectorAll('body *')].filter((e) => e.getBoundingClientRect().right > vw + 1 && !e.closest('[data-layout-skip]'))
            .map((e) => (e.closest('.table-root') ? 'table: ' : 'page: ') + e.tagName.toLowerCase() + (e.id ? '#' + e.id : '') + '.' + (e.getAttribute('class') || '').split(' ').join('.') + ' ' + Math.round(e.getBoundingClientRect().right)).slice(0, 12);
          return out;
        });
        for (const k of ['hand', 'prompt', 'actions', 'scores']) h.check(parts[k] && parts[k].shown && parts[k].left >= -1 && parts[k].right <= parts[k].vw + 1, `${k} shows inside the screen at 200 %: ${JSON.stringify(parts[k])}`);
        // the table's own part: nothing of it sticks out (the page around it, e.g. its header, is the room's)
        const ours = parts.wide.filter((w) => w.startsWith('table: '));
        h.check(!ours.length, 'nothing of the table sticks out sideways at 200 %: ' + ours.join(', '));
        if (parts.scrollX) console.log('# at 200 %, outside the table, the page is ' + parts.scrollX + ' px wide: ' + parts.wide.join(', '));
        h.expectLayout(await h.layout(page, { root: '.table-root', allowScrollX: true }), `${tag} at 200 %`); // sideways: checked above, for the table
        await page.evaluate(() => document.querySelector('.tc-trick, .tc-prompt').scrollIntoView());
        await h.shot(page, `text200-${tag}`, { fullPage: false });
        await page.evaluate(() => document.querySelector('.tc-hand').scrollIntoView({ block: 'center' }));
        await h.shot(page, `text200-hand-${tag}`, { fullPage: false });
        await page.evaluate(() => { document.documentElement.style.fontSize = ''; window.dispatchEvent(new Event('resize')); });
      });
      await h.step(`${tag}: prefers-reduced-motion: nothing in the table moves`, async () => {
        // a transition and an animation as any later style (or the page's) could give the cards and buttons
        const give = () => page.evaluate(() => {
          for (const el of document.querySelectorAll('.tc-card, .tc button, .tc-group')) {
            el.style.transition = 'opacity 0.3s, transform 0.3s';
            el.style.animation = 'none 0.5s infinite';
          }
        });
        const moving = () => page.evaluate(() => {
          const out = [];
          for (const el of document.querySelectorAll('.tc, .tc *')) {
            const cs = getComputedStyle(el);
            const ms = (s) => Math.max(...s.split(',').map((x) => parseFloat(x) * (x.trim().endsWith('ms') ? 1 : 1000)));
            if (ms(cs.transitionDuration) > 0 || ms(cs.animationDuration) > 0) out.push(el.tagName + '.' + (el.getAttribute('class') || ''));
          }
          return out;
        });
        await give();
        const normal = await moving();
        h.check(normal.length > 0, 'the control: without the preference the given transitions run');
        await page.emulateMedia({ reducedMotion: 'reduce' });
        const reduced = await moving();
        h.check(reduced.length === 0, 'with reduced motion no transition or animation: ' + reduced.slice(0, 5).join(', '));
        await page.emulateMedia({ reducedMotion: null });
        await page.evaluate(() => {
          for (const el of document.querySelectorAll('.tc-card, .tc button, .tc-group')) el.style.transition = el.style.animation = '';
        });
      });
    };

    await h.step(`${tag}: the whole game by keyboard, read from the accessibility tree`, async () => {
      for (let guard = 0; guard < 600; guard++) {
        const tb = await table(page, lang); // the tree first: the state it was drawn from is already in
        const st = await h.state(page);
        if (tb.over) break;
        if (!checkedStart && tb.hand && tb.cards.length) {
          await h.step(`${tag}: at the start — axe, the hand's names and one Tab stop`, async () => {
            await h.expectAxeClean(page, `${tag} start`, { include: '#table' });
            checkHand(tb, st);
            h.check(await tabTo(page, inHand(lang)), 'Tab reaches the hand');
            // one Tab stop: Tab once more leaves the hand
            await press(page, 'Tab');
            const out = await ax(page);
            h.check(!out.focused || !out.inside(out.focused, (await table(page, lang)).hand), 'one Tab leaves the hand (a roving tabindex, not a stop per card)');
            await press(page, 'Shift+Tab');
          });
          checkedStart = true;
        }
        const pick = tb.cards.some((n) => n.role === 'button');
        const enabled = tb.buttons.filter((b) => !b.disabled);
        if (!pick && !enabled.length) {
          await page.waitForTimeout(80); // not this seat's turn
          continue;
        }
        if (pick) {
          h.check(st.legal.some((a) => /^(lead|lay|pass) /.test(a.action)), 'the hand is offered as buttons only when cards are to be played');
          checkHand(tb, st);
          const need = tb.need;
          if (tb.cards.length === 1 || need === tb.cards.length || (need && new Set(tb.cards.map((c) => c.name)).size === 1)) {
            // the seat's only move: the room plays it for the player after a moment
            await h.waitState(page, (s, seq) => s.seq !== seq || s.over, st.seq);
            continue;
          }
          // into the hand
          const a0 = await ax(page);
          if (!a0.focused || !a0.inside(a0.focused, tb.hand)) h.check(await tabTo(page, inHand(lang)), 'Tab reaches the hand');
          if (!mid && st.view.last_trick) {
            await middleChecks(st);
          }
          // choose enabled cards from the left until the Play button is enabled
          // (a move that is the seat's only one, e.g. the Four declared as the
          // extra trick, the room plays by itself after a moment: the hand then
          // changes under the keys, and the move is read again)
          let ok = false, gone = false;
          const same = (t2) => t2.cards.length === tb.cards.length && t2.cards.every((c, i) => c.name === tb.cards[i].name);
          for (let k = 0; k < tb.cards.length && !ok; k++) {
            let t2 = await table(page, lang);
            if (!same(t2)) { gone = true; break; }
            if (t2.cards[k].disabled || t2.cards[k].pressed === 'true') continue;
            let a = await ax(page);
            let at = t2.cards.findIndex((c) => a.focused && c.id === a.focused.id);
            while (at !== k) {
              await press(page, at < k ? 'ArrowRight' : 'ArrowLeft');
              a = await ax(page);
              const was = at;
              at = t2.cards.findIndex((c) => a.focused && c.id === a.focused.id);
              h.check(at !== was && at >= 0, 'an arrow key moves the focus along the hand');
            }
            await press(page, 'Space');
            t2 = await table(page, lang);
            if (!same(t2)) { gone = true; break; }
            h.check(t2.cards[k].pressed === 'true', `Space chooses the focused card (${t2.cards[k].name}): pressed`);
            if (!escChecked) {
              // Escape clears the choice, the focus stays on the card
              await press(page, 'Escape');
              const t3 = await table(page, lang);
              const a3 = await ax(page);
              h.check(t3.cards.every((c) => c.pressed !== 'true') && a3.focused && a3.focused.id === t3.cards[k].id, 'Escape clears the choice; the focus stays');
              await press(page, 'Enter');
              h.check((await table(page, lang)).cards[k].pressed === 'true', 'Enter chooses it again');
              escChecked = true;
              t2 = await table(page, lang);
            }
            ok = !t2.buttons[0].disabled;
          }
          if (gone || (await h.state(page)).seq !== st.seq) {
            console.log('# the room played the only move meanwhile');
            continue;
          }
          h.check(ok, 'a legal group chosen: the Play button is enabled');
          if (!mid && st.view.last_trick) {
            // the Play button's ring, and the rest of the middle checks
            const t4 = await table(page, lang);
            h.check(await tabTo(page, (n) => n.role === 'button' && n.name === t4.buttons[0].name, { back: true, max: 8 }), 'Shift+Tab reaches Play');
            const r = await ringOf();
            const c = await contrastOf(page, r.color, r.around);
            h.check(r.visible && r.width >= 2 && c >= 3, `the Play button's focus ring: ${r.color} ${r.width}px against ${r.around}: ${c.toFixed(2)}:1`);
            await textAndMotion();
            mid = true;
          }
          if ((await h.state(page)).seq !== st.seq) {
            console.log('# the room played the only move meanwhile');
            continue;
          }
          const t5 = await table(page, lang);
          const f5 = (await ax(page)).focused;
          const reached = await tabTo(page, (n) => n.role === 'button' && n.name === t5.buttons[0].name, { back: true, max: 8 });
          if (!reached && (await h.state(page)).seq !== st.seq) {
            console.log('# the room played the only move meanwhile');
            continue;
          }
          h.check(reached, `Shift+Tab reaches Play (${t5.buttons[0].name}; from ${f5 && f5.role} ${f5 && f5.name})`);
          await press(page, 'Enter');
        } else {
          if (enabled.length === 1) {
            await h.waitState(page, (s, seq) => s.seq !== seq || s.over, st.seq);
            continue;
          }
          const reveal = T(lang, 'tamcuc.act.reveal', { cards: '@' }).split('@')[0];
          const target = enabled.find((b) => b.name.startsWith(reveal)) || enabled[0];
          const a = await ax(page);
          const found = (await tabTo(page, (n) => n.role === 'button' && n.name === target.name, { back: true, max: 8 })) || (await tabTo(page, (n) => n.role === 'button' && n.name === target.name, { max: 80 }));
          h.check(found, 'Tab reaches the button ' + target.name + ' (from ' + (a.focused ? a.focused.name : 'nothing') + ')');
          await press(page, 'Enter');
        }
        await h.waitState(page, (s, seq) => s.seq !== seq || s.over, st.seq);
        moves++;
      }
      const st = await h.waitState(page, (s) => s.over);
      h.check(mid && checkedStart && escChecked, `every check ran (start ${checkedStart}, middle ${mid}, Escape ${escChecked})`);
      h.check(moves >= 5, 'moves played by keyboard: ' + moves);
      const tb = await table(page, lang);
      h.check(tb.over, 'the result is shown (a status in the tree): ' + tb.statuses.join(' | '));
      await checkDescribe(st);
      // the room's live region said the moves from announce(): the last trick, the deal's scores, the end
      const a = await ax(page);
      const log = a.find((n) => n.role === 'log');
      const said = log ? a.kids(log).map((n) => a.text(n)) : [];
      const endWords = T(lang, 'tamcuc.ev.gameEnd', { names: '@', total: '@' }).split('@')[0];
      h.check(said.some((l) => l.startsWith(endWords)), 'the live region says the end: ' + said.join(' | '));
      const trickWords = T(lang, 'tamcuc.ev.trick', { name: '@', cards: '@' }).split('@')[1];
      h.check(said.some((l) => l.includes(trickWords.trim())), 'the live region says who took the last trick: ' + said.join(' | '));
      h.check(!said.some((l) => l.startsWith(T(lang, 'tamcuc.ev.deal.hand', { cards: '@' }).split('@')[0])), 'no hand listing in the live region');
      await h.expectAxeClean(page, `${tag} end`, { include: '#table' });
      await h.shot(page, `over-${tag}`, { fullPage: false });
      console.log(`# ${tag}: ${moves} moves by keyboard`);
    });
    void cdpPage;
  }

  await game('desktop', 'en');
  await game('phone', 'ru');

  await h.step('the night exchange by keyboard, on a phone in Vietnamese', async () => {
    const lang = 'vi';
    const page = await h.page('phone', { lang });
    await page.goto(h.url('/'));
    const { room } = await h.createRoom(page, { game: 'tamcuc', options: { players: '2', night_exchange: '2', session_end: 'deals:1' }, seats: [{ kind: 'person' }, { kind: 'ai', level: 'easy' }] });
    await page.goto(h.url('/room/' + room));
    await page.getByRole('textbox', { name: T(lang, 'room.join.name') }).waitFor();
    h.check(await tabTo(page, (n) => n.role === 'textbox' && n.name === T(lang, 'room.join.name')), 'Tab reaches the name field');
    await page.keyboard.type('Lan');
    await press(page, 'Enter');
    // the pass is asked: the hand is buttons, the prompt says how many
    let tb = null;
    for (let i = 0; i < 200; i++) {
      tb = await table(page, lang);
      if (tb.cards.some((c) => c.role === 'button') && tb.need) break;
      await page.waitForTimeout(50);
    }
    h.check(tb.need === 2, 'the prompt asks for 2 cards to pass: ' + tb.statuses.join(' | '));
    const st = await h.state(page);
    h.check(st.view.stage === 'exchange' && JSON.stringify(tb.cards.map((c) => c.name)) === JSON.stringify(st.view.hand.map((c) => cardName(lang, c))), 'the hand named in Vietnamese as the state holds it: ' + tb.cards.map((c) => c.name).join(' | '));
    await h.expectAxeClean(page, 'vi, night exchange', { include: '#table' });
    h.check(await tabTo(page, inHand(lang)), 'Tab reaches the hand');
    await press(page, 'Space');
    await press(page, 'ArrowRight');
    await press(page, 'Enter');
    tb = await table(page, lang);
    h.check(tb.cards.filter((c) => c.pressed === 'true').length === 2 && !tb.buttons[0].disabled, 'two cards chosen, Play enabled: ' + tb.buttons[0].name);
    await h.shot(page, 'focus-phone-vi', { fullPage: false });
    h.check(await tabTo(page, (n) => n.role === 'button' && n.name === tb.buttons[0].name, { back: true, max: 8 }), 'Shift+Tab reaches Play');
    await press(page, 'Enter');
    const after = await h.waitState(page, (s) => s.view.exchange && (s.view.exchange.done || []).includes(0));
    h.check(after.view.exchange.passed && after.view.exchange.passed.length === 2, 'the two cards passed: ' + JSON.stringify(after.view.exchange));
  });

  await h.step('announce and soundOf: who played what, who took the trick', async () => {
    const page = await h.page('desktop');
    await page.goto(h.url('/'));
    const out = await page.evaluate(async () => {
      const m = await import('/games/tamcuc.js');
      const i18n = await import('/js/i18n.js');
      const ctx = { t: i18n.t, lang: i18n.lang, has: i18n.has, seat: 0, seats: [{ kind: 'person', name: 'Ann' }, { kind: 'ai', level: 'easy' }] };
      const deal = { seq: 1, seat: -1, events: [{ type: 'deal', deal: 1, dealer: 1, sizes: [16, 16], hand: ['rG', 'bS'] }] };
      const lay = { seq: 5, seat: 1, events: [{ type: 'hide', seat: 1, count: 1, cards: null }, { type: 'trick', winner: 0, leader: 0, count: 1, extra: false, last: false, cards: ['rG'] }] };
      const decl = { seq: 2, seat: 1, events: [{ type: 'declare', seat: 1, size: 'four', colour: 'black', counter: false }] };
      return { deal: m.announce(deal, ctx), lay: m.announce(lay, ctx), decl: m.announce(decl, ctx), sounds: [m.soundOf(deal), m.soundOf(lay), m.soundOf({ events: [] })] };
    });
    h.check(out.deal.length === 1 && /Deal 1: Computer 2 deals 16 cards each\./.test(out.deal[0]), 'a deal in one sentence, the hand left to the table: ' + out.deal);
    h.check(out.lay.join(' ') === 'Computer 2 kept a card hidden. Ann (you) won the trick with red General.', 'who played what, who took the trick, by name: ' + out.lay.join(' '));
    h.check(out.decl.join(' ') === 'Computer 2 declares Four black Soldiers.', 'a declaration: ' + out.decl);
    h.check(JSON.stringify(out.sounds) === JSON.stringify(['move', 'capture', null]), 'sounds: ' + JSON.stringify(out.sounds));
  });
});

// events.js — what happened and what can be done, in the page's words, from
// data (docs/web-views.md, "Events and action fields"): a history entry's
// `events` and a legal action's `fields`, never the server's English (`said`,
// `long`; tests/web/no_prose.py fails on a page that reads them).
//
// A game's table module (web/games/GAME.js) words its own games' events and
// actions by exporting
//   tell(entry, ctx)   → [sentence]   entry: {seq, seat, events, text}
//   actionWords(a, ctx) → string      a: a legal action {action, fields, seat}
// with ctx = {t, lang, seat} (the page's i18n, its language, the reader's
// seat, -1 a spectator). A module without them, or the plain table, gets the
// generic words below: each event as the catalogue's `GAME.ev.TYPE` with the
// event's plain fields as {placeholders} (nothing when the catalogue has no
// such key), and an action's notation.

/** The event's fields that a catalogue text can hold: numbers, strings,
 * booleans, and lists of them joined by ", "; seats also as `seatN`
 * (1-based) for the texts that number seats from one. */
function varsOf(ev) {
  const vars = {};
  for (const [k, v] of Object.entries(ev)) {
    if (['number', 'string', 'boolean'].includes(typeof v)) vars[k] = v;
    else if (Array.isArray(v) && v.every((x) => ['number', 'string'].includes(typeof x))) vars[k] = v.join(', ');
    if (typeof v === 'number' && /seat$|^by$|^taker$|^winner$/.test(k)) vars[k + '1'] = v + 1;
  }
  return vars;
}

/** Sentences for one history entry, through the game's module when it words its events. */
export function tellEntry(mod, game, entry, ctx) {
  if (!entry) return [];
  if (mod && typeof mod.tell === 'function') {
    try {
      return mod.tell(entry, ctx).filter((s) => typeof s === 'string' && s);
    } catch (e) {
      console.error('tell', game, e);
    }
  }
  const out = [];
  for (const ev of Array.isArray(entry.events) ? entry.events : []) {
    if (!ev || typeof ev.type !== 'string') continue;
    const key = game + '.ev.' + ev.type;
    // a text whose {placeholder} the event does not fill (a game module's
    // own words fill it) is left out rather than shown with braces
    const text = ctx.has && ctx.has(key) ? ctx.t(key, varsOf(ev)) : '';
    if (text && !/\{\w+\}/.test(text)) out.push(text);
  }
  return out;
}

/** A refused action in the reader's words: the catalogue's
 * `GAME.refusal.WHY` with the refusal's fields as {placeholders} (the
 * `illegal` error's `refusal`, docs/web-protocol.md), or null when there is
 * no refusal or no such key (the page then says a plain sentence; never the
 * server's notation). */
export function refusalWords(game, refusal, ctx) {
  if (!refusal || typeof refusal.why !== 'string' || !game) return null;
  const key = game + '.refusal.' + refusal.why;
  return ctx.has && ctx.has(key) ? ctx.t(key, varsOf(refusal)) : null;
}

/** What the note of a move the server played for the reader's seat says
 * (a history entry with `forced`: that seat's only legal move): the
 * catalogue's sentence, then the move in the game's words when it has them. */
export function forcedWords(mod, game, entry, ctx) {
  const told = tellEntry(mod, game, entry, ctx);
  return [ctx.t('room.forced'), ...told].join(' ');
}

/** A legal action for a button or a list: the game's words when its module has them, else its notation. */
export function actionWords(mod, game, a, ctx) {
  if (mod && typeof mod.actionWords === 'function') {
    try {
      const s = mod.actionWords(a, ctx);
      if (typeof s === 'string' && s) return s;
    } catch (e) {
      console.error('actionWords', game, e);
    }
  }
  return a.action;
}

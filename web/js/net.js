// net.js — the one WebSocket to the server (docs/web-protocol.md): connect,
// reconnect with back-off (0.5 s doubling to 8 s) while showing
// "reconnecting…", send (queued while the socket is down), handlers by
// message type, the answer to the server's `sync` at once (karuta), and the
// seat tokens kept in localStorage per room (`parlour.token.CODE`). On a
// room's page the socket names the room (/ws?room=CODE) so that a cluster's
// front routes it to the process that plays it (docs/cluster.md).

export const tokenKey = (room) => 'parlour.token.' + room;

export function getToken(room) {
  try {
    return localStorage.getItem(tokenKey(room));
  } catch {
    return null;
  }
}

export function setToken(room, token) {
  try {
    localStorage.setItem(tokenKey(room), token);
  } catch {}
}

/** The client's clock in ms since the epoch, as the protocol's client_ms. */
export function clientMs() {
  return Math.round(performance.timeOrigin + performance.now());
}

/** The WebSocket's path for page `path`: /ws?room=CODE on a room's page (a
 * front such as nginx routes by the room: docs/cluster.md), else /ws. */
export function wsPath(path) {
  const m = /^\/room\/([0-9A-Za-z_-]+)\/?$/.exec(path || '');
  return m ? '/ws?room=' + m[1] : '/ws';
}

export class Net {
  /** onStatus(kind): 'connecting', 'online', 'reconnecting'. */
  constructor(onStatus) {
    this.onStatus = onStatus || (() => {});
    this.handlers = new Map();
    this.openHooks = [];
    this.queue = [];
    this.ws = null;
    this.retry = 500;
    this.timer = null;
    this.closed = false;
    this.everOpen = false;
    this.on('sync', (m) => this.send({ type: 'sync', id: m.id, client_ms: clientMs() }));
  }

  /** Calls fn(msg) for each message of `type` ('*': every message). Returns an off function. */
  on(type, fn) {
    if (!this.handlers.has(type)) this.handlers.set(type, new Set());
    this.handlers.get(type).add(fn);
    return () => this.handlers.get(type).delete(fn);
  }

  /** Calls fn() on every (re)connection, before the queued messages go. */
  onOpen(fn) {
    this.openHooks.push(fn);
    if (this.ws && this.ws.readyState === WebSocket.OPEN) fn();
    return () => {
      const i = this.openHooks.indexOf(fn);
      if (i >= 0) this.openHooks.splice(i, 1);
    };
  }

  get online() {
    return !!this.ws && this.ws.readyState === WebSocket.OPEN;
  }

  send(msg) {
    if (this.online) this.ws.send(JSON.stringify(msg));
    else this.queue.push(msg);
  }

  connect() {
    this.closed = false;
    const url = (location.protocol === 'https:' ? 'wss://' : 'ws://') + location.host + wsPath(location.pathname);
    this.onStatus(this.everOpen ? 'reconnecting' : 'connecting');
    const ws = new WebSocket(url, 'parlour.v1');
    this.ws = ws;
    ws.onopen = () => {
      this.retry = 500;
      this.everOpen = true;
      this.onStatus('online');
      for (const fn of this.openHooks) fn();
      const q = this.queue.splice(0);
      for (const m of q) ws.send(JSON.stringify(m));
    };
    ws.onmessage = (ev) => {
      let msg;
      try {
        msg = JSON.parse(ev.data);
      } catch {
        return;
      }
      for (const key of [msg.type, '*']) {
        const set = this.handlers.get(key);
        if (set) for (const fn of [...set]) fn(msg);
      }
    };
    ws.onclose = () => {
      if (this.ws !== ws) return;
      this.ws = null;
      if (this.closed) return;
      this.everOpen = true; // a socket that never opened counts: show "reconnecting…"
      this.onStatus('reconnecting');
      // ±25 % jitter: after a server process dies its clients do not all come back at once
      this.timer = setTimeout(() => this.connect(), this.retry * (0.75 + Math.random() / 2));
      this.retry = Math.min(this.retry * 2, 8000);
    };
  }

  /** Closes the socket for good (no reconnection). */
  close() {
    this.closed = true;
    clearTimeout(this.timer);
    if (this.ws) this.ws.close();
  }

  /** Drops the socket as a network fault would (tests): it reconnects. */
  drop() {
    if (this.ws) this.ws.close();
  }
}

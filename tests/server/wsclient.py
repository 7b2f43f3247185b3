"""wsclient.py -- a scripted WebSocket client and a server runner for the
tests of `parlour serve` (Python 3 standard library only).

API (everything a server test needs):

    srv = ServerProcess(parlour, web=DIR, test_seed=N, extra_args=[...])
    srv.start()              # picks a free port, temp db unless db= is given,
                             # waits for the "listening on" line (raises on failure)
    srv.port, srv.db, srv.log_text()
    srv.stop()               # SIGTERM, waits, asserts exit status 0; returns it
    srv.kill()               # SIGKILL (crash tests); srv.start() again reuses
                             # the same port and db
    srv.alive()              # the process still runs
    with ServerProcess(...) as srv:   # start; stop (exit 0 checked) and remove
                             # the temp folder at the end (kill on an exception)

    c = WSClient(port)       # connects to ws://127.0.0.1:PORT/ws (handshake
                             # checked: 101, Sec-WebSocket-Accept)
    c.send(obj)              # one JSON object as a masked text frame
    c.recv(timeout) -> dict  # the next message; raises Timeout / Closed
    c.wait_for(type, timeout, pred=None) -> dict
                             # the next message of that type (others are kept
                             # in c.log only); raises Timeout
    c.poll() -> list         # the messages delivered so far, not yet taken
    c.log                    # every message delivered, in order (dicts)
    c.close()                # close handshake, then the socket
    c.drop()                 # the socket closed without a handshake (a lost network)
    c.closed, c.close_code   # the connection is over; the server's close code
    c.send_frame(opcode, payload, fin=True, mask=True)   # raw frames for
    c.send_raw(bytes)                                     # hostile tests

  Simulated network (karuta tests): WSClient(port, down_ms=D, up_ms=U,
  jitter_ms=J, clock_offset_ms=O, auto_sync=True, seed=S): every message
  from the server is delivered to the test D ms (+ uniform 0..J) after it
  arrived, every message sent leaves U ms (+ 0..J) late (order kept, as TCP
  keeps it); c.now_ms() is the client's own clock (real time + O ms);
  with auto_sync the client answers the server's `sync` at delivery with
  its own clock, as a browser does. c.delivered_ms[i] is when c.log[i]
  was delivered (client clock), c.arrived_ms[i] when it came off the
  socket (real clock, before the simulated delay).

  HTTP: http_request(port, method, path, body=dict | raw=bytes, token=T,
  origin="same" | None | TEXT) -> Answer (.status, .headers, .body, .json,
  .header(name), .cookie, .token), on a connection of its own.

  Common command line of the server tests: parse_args() -> args with
  args.parlour, args.web and args.only (run only the tests whose name
  holds it); run_main(tests, args) runs them. strip_volatile(msg) drops
  the keys docs/web-protocol.md calls volatile, canonical(msg) is the
  json.dumps(sort_keys) text compared byte for byte.

Threads: per client a reader (frames, ping/pong, close, fragments), a
dispatcher (delivers each message when its delay is over, answers sync)
and a sender (sends each message when its delay is over); the test itself
uses the client from one thread.
"""

import argparse
import base64
import hashlib
import heapq
import http.client
import json
import os
import random
import re
import shutil
import signal
import socket
import struct
import subprocess
import sys
import tempfile
import threading
import time

GUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"
OP_CONT, OP_TEXT, OP_BIN, OP_CLOSE, OP_PING, OP_PONG = 0, 1, 2, 8, 9, 10


class Timeout(Exception):
    pass


class Closed(Exception):
    pass


class HandshakeError(Exception):
    pass


def parse_args(argv=None):
    p = argparse.ArgumentParser()
    p.add_argument("--parlour", required=True, help="the parlour program")
    p.add_argument("--web", default=None, help="the web directory to serve")
    p.add_argument("--only", default=None, help="run only the tests whose name contains this")
    return p.parse_args(argv)


def free_port():
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def pg_database(url):
    """A new, empty database in the PostgreSQL cluster at `url` (the cluster
    of tests/server/with_pg.sh: PARLOUR_TEST_PG_URL) and the URL that names
    it: every server of a test gets its own, as it gets its own SQLite file."""
    global _pg_serial
    _pg_serial += 1
    name = "serve_%d_%d" % (os.getpid(), _pg_serial)
    psql = os.environ.get("PARLOUR_TEST_PSQL", "psql")
    subprocess.run([psql, "-qX", "-d", url, "-c", "CREATE DATABASE " + name], check=True,
                   stdout=subprocess.DEVNULL)
    return url + ("&" if "?" in url else "?") + "dbname=" + name


_pg_serial = 0


class ServerProcess:
    """`parlour serve` on a free port with a temporary database."""

    def __init__(self, parlour, web=None, db=None, test_seed=None, extra_args=(), port=None, start_timeout=30):
        self.parlour = os.path.abspath(parlour)  # the server runs in its temp folder
        self.web = os.path.abspath(web) if web else None
        self.tmp = tempfile.mkdtemp(prefix="parlour-serve-")
        if db is None and os.environ.get("PARLOUR_TEST_PG_URL"):
            db = pg_database(os.environ["PARLOUR_TEST_PG_URL"])
        if db and db.startswith(("postgresql://", "postgres://")):
            self.db = db
        else:
            self.db = os.path.abspath(db) if db else os.path.join(self.tmp, "parlour.db")
        self.test_seed = test_seed
        self.extra = list(extra_args)
        self.port = port
        self.start_timeout = start_timeout
        self.proc = None
        self.logpath = os.path.join(self.tmp, "server.log")
        self.returncodes = []

    def args(self):
        a = [self.parlour, "serve", "--port", str(self.port), "--db", self.db]
        if self.web:
            a += ["--web", self.web]
        if self.test_seed is not None:
            a += ["--test-seed", str(self.test_seed)]
        return a + self.extra

    def start(self):
        if self.port is None:
            self.port = free_port()
        self._logf = open(self.logpath, "ab")
        start = self._logf.tell()
        self.proc = subprocess.Popen(self.args(), stdout=self._logf, stderr=subprocess.STDOUT,
                                     stdin=subprocess.DEVNULL, cwd=self.tmp)
        deadline = time.monotonic() + self.start_timeout
        while time.monotonic() < deadline:
            with open(self.logpath, "rb") as f:
                f.seek(start)
                text = f.read().decode("utf-8", "replace")
            m = re.search(r"listening on http://[^:/ ]+:(\d+)/", text)
            if m:
                self.port = int(m.group(1))
                return self
            if self.proc.poll() is not None:
                raise RuntimeError("parlour serve exited with %d before listening:\n%s"
                                   % (self.proc.returncode, text))
            time.sleep(0.02)
        self.proc.kill()
        raise RuntimeError("parlour serve did not print its listening line in %d s" % self.start_timeout)

    def alive(self):
        return self.proc is not None and self.proc.poll() is None

    def stop(self, timeout=20, check=True):
        """SIGTERM; waits; with `check`, asserts exit status 0."""
        if self.proc is None:
            return None
        self.proc.send_signal(signal.SIGTERM)
        try:
            rc = self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
            raise AssertionError("parlour serve did not stop within %d s of SIGTERM:\n%s"
                                 % (timeout, self.log_text()[-3000:]))
        self._logf.close()
        self.proc = None
        self.returncodes.append(rc)
        if check and rc != 0:
            raise AssertionError("parlour serve exited with %d after SIGTERM:\n%s" % (rc, self.log_text()[-6000:]))
        return rc

    def kill(self):
        """SIGKILL (a crash)."""
        if self.proc is None:
            return
        self.proc.kill()
        self.proc.wait()
        self._logf.close()
        self.returncodes.append(self.proc.returncode)
        self.proc = None

    def log_text(self):
        try:
            with open(self.logpath, "rb") as f:
                return f.read().decode("utf-8", "replace")
        except OSError:
            return ""

    def cleanup(self):
        if self.proc is not None:
            self.kill()
        shutil.rmtree(self.tmp, ignore_errors=True)

    def __enter__(self):
        return self.start()

    def __exit__(self, et, ev, tb):
        try:
            if et is None:
                self.stop()
        finally:
            self.cleanup()


class Answer:
    """An HTTP answer: status, headers (list of (name lower, value)), body bytes, and json
    (the body parsed, or None when it is empty or not JSON)."""

    def __init__(self, status, headers, body):
        self.status = status
        self.headers = headers  # list of (name lower, value)
        self.body = body
        try:
            self.json = json.loads(body) if body else None
        except ValueError:
            self.json = None

    def header(self, name):
        return [v for k, v in self.headers if k == name.lower()]

    @property
    def cookie(self):
        """The Set-Cookie value, or None."""
        c = self.header("set-cookie")
        return c[0] if c else None

    @property
    def token(self):
        c = self.cookie
        m = re.match(r"parlour_session=([0-9a-f]*);", c or "")
        return m.group(1) if m else None


def http_request(port, method, path, body=None, raw=None, token=None, cookie="parlour_session=", origin=None,
                 headers=None, timeout=30):
    """One HTTP request to 127.0.0.1:PORT on a connection of its own -> Answer. body: a dict
    (sent as JSON) or raw: bytes; token: the session, sent as "Cookie: " + cookie + token;
    origin: "same" (this server's page), None (no Origin) or the Origin's text; headers: more."""
    h = {"Host": "127.0.0.1:%d" % port}
    if origin == "same":
        h["Origin"] = "http://127.0.0.1:%d" % port
    elif origin:
        h["Origin"] = origin
    if token:
        h["Cookie"] = cookie + token
    h.update(headers or {})
    data = raw if raw is not None else (json.dumps(body).encode() if body is not None else None)
    if data is not None:
        h["Content-Type"] = "application/json"
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        c.request(method, path, body=data, headers=h)
        r = c.getresponse()
        return Answer(r.status, [(k.lower(), v) for k, v in r.getheaders()], r.read())
    finally:
        c.close()


def _recv_exact(sock, n):
    b = bytearray()
    while len(b) < n:
        chunk = sock.recv(n - len(b))
        if not chunk:
            raise Closed("connection closed by the server")
        b += chunk
    return bytes(b)


class WSClient:
    def __init__(self, port, host="127.0.0.1", path="/ws", protocol="parlour.v1", timeout=10,
                 down_ms=0, up_ms=0, jitter_ms=0, clock_offset_ms=0, auto_sync=False, seed=None,
                 name=""):
        self.name = name
        self.down_ms, self.up_ms, self.jitter_ms = down_ms, up_ms, jitter_ms
        self.clock_offset_ms = clock_offset_ms
        self.auto_sync = auto_sync
        self.rng = random.Random(seed)
        self.log = []            # every message delivered, in order
        self.delivered_ms = []   # client clock at each delivery
        self.arrived_ms = []     # real clock (ms since the epoch) when each came off the socket
        self.binary = []         # binary messages received (payloads)
        self.close_code = None
        self._taken = 0          # log entries already handed to the test
        self._cv = threading.Condition()
        self._pending = []       # heap (deliver_at monotonic, n, msg)
        self._n = 0
        self._last_in = 0.0
        self._closed = False
        self._sendq = []         # heap (send_at, n, bytes)
        self._last_out = 0.0
        self._wlock = threading.Lock()
        self.sock = socket.create_connection((host, port), timeout=timeout)
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self._handshake(host, port, path, protocol)
        self.sock.settimeout(None)
        self._reader = threading.Thread(target=self._read_loop, daemon=True)
        self._reader.start()
        self._sender = threading.Thread(target=self._send_loop, daemon=True)
        self._sender.start()
        self._dispatcher = threading.Thread(target=self._dispatch_loop, daemon=True)
        self._dispatcher.start()

    # ---- handshake ----------------------------------------------------------
    def _handshake(self, host, port, path, protocol):
        key = base64.b64encode(os.urandom(16)).decode()
        lines = ["GET %s HTTP/1.1" % path, "Host: %s:%d" % (host, port), "Upgrade: websocket",
                 "Connection: Upgrade", "Sec-WebSocket-Key: " + key, "Sec-WebSocket-Version: 13"]
        if protocol:
            lines.append("Sec-WebSocket-Protocol: " + protocol)
        self.sock.sendall(("\r\n".join(lines) + "\r\n\r\n").encode())
        data = b""
        while b"\r\n\r\n" not in data:
            chunk = self.sock.recv(4096)
            if not chunk:
                raise HandshakeError("connection closed during the handshake: %r" % data)
            data += chunk
            if len(data) > 65536:
                raise HandshakeError("handshake answer too long")
        head, self._rest = data.split(b"\r\n\r\n", 1)
        head = head.decode("latin-1").split("\r\n")
        if not re.match(r"HTTP/1\.1 101", head[0]):
            raise HandshakeError("handshake refused: %s" % head[0])
        hdr = {}
        for h in head[1:]:
            k, _, v = h.partition(":")
            hdr[k.strip().lower()] = v.strip()
        want = base64.b64encode(hashlib.sha1((key + GUID).encode()).digest()).decode()
        if hdr.get("sec-websocket-accept") != want:
            raise HandshakeError("bad Sec-WebSocket-Accept %r (want %r)" % (hdr.get("sec-websocket-accept"), want))
        if hdr.get("upgrade", "").lower() != "websocket":
            raise HandshakeError("no Upgrade: websocket in %r" % hdr)
        self.protocol = hdr.get("sec-websocket-protocol")

    # ---- clock and delays ------------------------------------------------------
    def now_ms(self):
        """The client's own clock (ms since the epoch, shifted by clock_offset_ms)."""
        return int(time.time() * 1000) + self.clock_offset_ms

    def _delay(self, base):
        if not base and not self.jitter_ms:
            return 0.0
        return (base + self.rng.uniform(0, self.jitter_ms)) / 1000.0

    # ---- frames ----------------------------------------------------------------
    @staticmethod
    def frame(opcode, payload, fin=True, mask=True):
        b0 = (0x80 if fin else 0) | opcode
        n = len(payload)
        mbit = 0x80 if mask else 0
        if n < 126:
            head = struct.pack("!BB", b0, mbit | n)
        elif n < 65536:
            head = struct.pack("!BBH", b0, mbit | 126, n)
        else:
            head = struct.pack("!BBQ", b0, mbit | 127, n)
        if not mask:
            return head + payload
        key = os.urandom(4)
        masked = bytes(b ^ key[i & 3] for i, b in enumerate(payload))
        return head + key + masked

    def send_raw(self, data, delayed=True):
        """Bytes as they are, onto the socket (after the simulated up delay)."""
        at = time.monotonic() + (self._delay(self.up_ms) if delayed else 0.0)
        with self._cv:
            at = max(at, self._last_out)
            self._last_out = at
            self._n += 1
            heapq.heappush(self._sendq, (at, self._n, data))
            self._cv.notify_all()

    def send_frame(self, opcode, payload, fin=True, mask=True):
        if isinstance(payload, str):
            payload = payload.encode()
        self.send_raw(self.frame(opcode, payload, fin, mask))

    def send_text(self, text):
        self.send_frame(OP_TEXT, text.encode() if isinstance(text, str) else text)

    def send(self, obj):
        """One JSON object as one text message."""
        self.send_text(json.dumps(obj, ensure_ascii=False))

    def _send_loop(self):
        while True:
            with self._cv:
                while not self._sendq or self._sendq[0][0] > time.monotonic():
                    if self._closed and not self._sendq:
                        return
                    wait = None if not self._sendq else self._sendq[0][0] - time.monotonic()
                    self._cv.wait(wait if wait is None else max(wait, 0))
                _, _, data = heapq.heappop(self._sendq)
            try:
                with self._wlock:
                    self.sock.sendall(data)
            except OSError:
                pass

    def _write_now(self, opcode, payload):
        try:
            with self._wlock:
                self.sock.sendall(self.frame(opcode, payload))
        except OSError:
            pass

    def _read_frame(self):
        def get(n):
            if self._rest:
                take, self._rest = self._rest[:n], self._rest[n:]
                if len(take) < n:
                    take += _recv_exact(self.sock, n - len(take))
                return take
            return _recv_exact(self.sock, n)
        b0, b1 = get(2)
        fin, opcode = bool(b0 & 0x80), b0 & 0x0F
        if b1 & 0x80:
            raise Closed("the server masked a frame (RFC 6455 5.1 forbids it)")
        n = b1 & 0x7F
        if n == 126:
            n = struct.unpack("!H", get(2))[0]
        elif n == 127:
            n = struct.unpack("!Q", get(8))[0]
        return fin, opcode, get(n) if n else b""

    def _deliver(self, msg):
        arrived = int(time.time() * 1000)
        with self._cv:
            at = max(time.monotonic() + self._delay(self.down_ms), self._last_in)
            self._last_in = at
            self._n += 1
            heapq.heappush(self._pending, (at, self._n, (arrived, msg)))
            self._cv.notify_all()

    def _read_loop(self):
        parts, first_op = [], None
        try:
            while True:
                fin, op, payload = self._read_frame()
                if op == OP_PING:
                    self._write_now(OP_PONG, payload)
                    continue
                if op == OP_PONG:
                    continue
                if op == OP_CLOSE:
                    self.close_code = struct.unpack("!H", payload[:2])[0] if len(payload) >= 2 else 1005
                    self._write_now(OP_CLOSE, payload[:2])
                    break
                if op in (OP_TEXT, OP_BIN):
                    parts, first_op = [payload], op
                elif op == OP_CONT and first_op is not None:
                    parts.append(payload)
                else:
                    raise Closed("unexpected opcode %d" % op)
                if not fin:
                    continue
                data = b"".join(parts)
                parts, op0, first_op = [], first_op, None
                if op0 == OP_BIN:
                    self.binary.append(data)
                    continue
                self._deliver(json.loads(data.decode("utf-8")))
        except (Closed, OSError, ValueError):
            pass
        finally:
            self._deliver(None)  # end of stream, after what came before

    # ---- messages to the test --------------------------------------------------
    def _dispatch_loop(self):
        """Delivers each message when its simulated delay is over (and
        answers `sync` then, with auto_sync), whatever the test is doing."""
        with self._cv:
            while True:
                now = time.monotonic()
                if self._pending and self._pending[0][0] <= now:
                    _, _, (arrived, msg) = heapq.heappop(self._pending)
                    if msg is None:  # end of stream
                        self._closed = True
                        self._cv.notify_all()
                        return
                    self.log.append(msg)
                    self.delivered_ms.append(self.now_ms())
                    self.arrived_ms.append(arrived)
                    if self.auto_sync and msg.get("type") == "sync":
                        ans = json.dumps({"type": "sync", "id": msg.get("id"), "client_ms": self.now_ms()})
                        at = max(now + self._delay(self.up_ms), self._last_out)
                        self._last_out = at
                        self._n += 1
                        heapq.heappush(self._sendq, (at, self._n, self.frame(OP_TEXT, ans.encode())))
                    self._cv.notify_all()
                    continue
                self._cv.wait(self._pending[0][0] - now if self._pending else None)

    def recv(self, timeout=10):
        """The next message (a dict). Raises Timeout, or Closed when the
        connection is closed and everything before was taken."""
        until = time.monotonic() + timeout
        with self._cv:
            while self._taken >= len(self.log):
                if self._closed:
                    raise Closed("%s: connection closed (code %s)" % (self.name, self.close_code))
                left = until - time.monotonic()
                if left <= 0:
                    raise Timeout("%s: no message in %.1f s" % (self.name, timeout))
                self._cv.wait(left)
            self._taken += 1
            return self.log[self._taken - 1]

    def poll(self):
        """Every message delivered by now and not yet taken."""
        with self._cv:
            out = self.log[self._taken:]
            self._taken = len(self.log)
        return out

    def wait_for(self, type_, timeout=10, pred=None):
        """The next message of type `type_` (and `pred(msg)` true); the
        messages skipped stay in self.log."""
        until = time.monotonic() + timeout
        while True:
            left = until - time.monotonic()
            if left <= 0:
                raise Timeout("%s: no %r in %.1f s (last: %s)" % (self.name, type_, timeout,
                              [m.get("type") for m in self.log[-5:]]))
            m = self.recv(left)
            if m.get("type") == type_ and (pred is None or pred(m)):
                return m

    @property
    def closed(self):
        return self._closed

    def close(self, code=1000):
        """The close handshake (waits up to 2 s for the server's close), then the socket."""
        with self._cv:
            open_ = not self._closed
        if open_:
            self._write_now(OP_CLOSE, struct.pack("!H", code))
            deadline = time.monotonic() + 2
            with self._cv:
                while not self._closed and time.monotonic() < deadline:
                    self._cv.wait(deadline - time.monotonic())
        with self._cv:
            self._closed = True
            self._cv.notify_all()
        try:
            self.sock.close()
        except OSError:
            pass

    def drop(self):
        """Closes the socket without a close handshake (a dropped network)."""
        try:
            self.sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        self.sock.close()
        with self._cv:
            self._closed = True
            self._cv.notify_all()


VOLATILE = ("room", "token", "link", "server_ms", "at_ms", "t0_ms", "since_ms", "clock")


def strip_volatile(obj, keys=VOLATILE):
    """A copy of a message without the keys docs/web-protocol.md calls
    volatile (at any depth; `id` only in a sync)."""
    if isinstance(obj, dict):
        out = {}
        for k, v in obj.items():
            if k in keys:
                continue
            if k == "id" and obj.get("type") == "sync":
                continue
            out[k] = strip_volatile(v, keys)
        return out
    if isinstance(obj, list):
        return [strip_volatile(v, keys) for v in obj]
    return obj


def canonical(obj):
    return json.dumps(obj, sort_keys=True, ensure_ascii=False, separators=(",", ":"))


def check(cond, what):
    if not cond:
        raise AssertionError(what)


def run_main(tests, args):
    """Runs test functions `tests` (each f(args)); prints a line each;
    exits 1 on the first failure."""
    t0 = time.monotonic()
    if getattr(args, "only", None):
        tests = [f for f in tests if args.only in f.__name__]
    for f in tests:
        t = time.monotonic()
        try:
            f(args)
        except Exception:
            import traceback
            traceback.print_exc()
            print("FAIL %s (%.1f s)" % (f.__name__, time.monotonic() - t), flush=True)
            sys.exit(1)
        print("ok   %s (%.1f s)" % (f.__name__, time.monotonic() - t), flush=True)
    print("all %d passed in %.1f s" % (len(tests), time.monotonic() - t0))

#!/usr/bin/env python3
"""test_accounts.py -- accounts on the wire (issue 33 §1; docs/server.md, "Accounts").

Usage: test_accounts.py --parlour BINARY --web DIR [--only NAME]

Drives `parlour serve --test-fast-hash` (Argon2id at its smallest limits, for tests only)
over real sockets: every /api/account endpoint (sign-up, sign-in, me, password, sign-out,
delete), the cookie's flags (HttpOnly, SameSite=Lax, Path=/, Max-Age; Secure behind an
https front), bodies of the wrong shape (unknown keys, wrong types, not JSON, more than
4 KB) refused with 400 and {"error", "message"}, a POST from another site's page (Origin)
refused, an unknown name and a wrong password answered alike, sign-in rate-limited per
name, a WebSocket that brings the cookie from this server's page seated under the
account's name (the seat's stored configuration carries the account), the same cookie
from a foreign Origin a guest, a guest who signs up mid-game keeping the seat, no token
or hash in any WebSocket message, and two processes on one SQLite file (--cluster)
knowing one session. Python's standard library only.
"""
import base64
import hashlib
import http.client
import json
import os
import re
import sqlite3
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from wsclient import GUID, HandshakeError, ServerProcess, WSClient, http_request, parse_args, run_main  # noqa: E402

FAST = ["--test-fast-hash"]
WS_MESSAGES = []  # every message any client of these tests got (no token, no hash in any)


def api(port, path, body=None, method=None, token=None, origin="same", headers=None, raw=None):
    """One request to /api/account/PATH: body a dict (JSON) or raw bytes; origin "same"
    (this server's), None (no Origin) or a text."""
    sends = raw is not None or body is not None
    method = method or ("POST" if sends or path not in ("me",) else "GET")
    return http_request(port, method, "/api/account/" + path, body=body, raw=raw, token=token,
                        cookie="other=1; parlour_session=", origin=origin, headers=headers)


def expect(cond, what):
    if not cond:
        raise AssertionError(what)


class CookieWS(WSClient):
    """A WSClient whose handshake carries a Cookie and an Origin."""

    def __init__(self, port, token=None, origin=None, **kw):
        self._extra = []
        if token:
            self._extra.append("Cookie: parlour_session=" + token)
        if origin:
            self._extra.append("Origin: " + origin)
        super().__init__(port, **kw)

    def _handshake(self, host, port, path, protocol):
        key = base64.b64encode(os.urandom(16)).decode()
        lines = ["GET %s HTTP/1.1" % path, "Host: %s:%d" % (host, port), "Upgrade: websocket",
                 "Connection: Upgrade", "Sec-WebSocket-Key: " + key, "Sec-WebSocket-Version: 13",
                 "Sec-WebSocket-Protocol: parlour.v1"] + self._extra
        self.sock.sendall(("\r\n".join(lines) + "\r\n\r\n").encode())
        data = b""
        while b"\r\n\r\n" not in data:
            chunk = self.sock.recv(4096)
            if not chunk:
                raise HandshakeError("closed during the handshake")
            data += chunk
        head, self._rest = data.split(b"\r\n\r\n", 1)
        head = head.decode("latin-1")
        if not head.startswith("HTTP/1.1 101"):
            raise HandshakeError(head.split("\r\n")[0])
        want = base64.b64encode(hashlib.sha1((key + GUID).encode()).digest()).decode()
        if want not in head:
            raise HandshakeError("bad Sec-WebSocket-Accept")
        self.protocol = "parlour.v1"


def ws(port, token=None, origin="same"):
    c = CookieWS(port, token=token, origin="http://127.0.0.1:%d" % port if origin == "same" else origin)
    c.wait_for("welcome")
    return c


def drain(*clients):
    for c in clients:
        WS_MESSAGES.extend(c.log)


def signup(port, name, pw="correct horse", **kw):
    a = api(port, "signup", {"name": name, "password": pw}, **kw)
    expect(a.status == 200 and a.json == {"name": name}, "signup %s: %s %r" % (name, a.status, a.body))
    expect(a.token and len(a.token) == 64, "signup gives a 64-hex-digit session cookie: %r" % a.cookie)
    return a.token


def room_config(db, code, pred, what):
    """The stored configuration of room `code` once pred(config) holds (the store is
    written in batches: polled, not timed)."""
    for _ in range(500):
        con = sqlite3.connect(db, timeout=10)
        try:
            row = con.execute("SELECT config FROM rooms WHERE code = ?", (code,)).fetchone()
        finally:
            con.close()
        if row and pred(json.loads(row[0])):
            return json.loads(row[0])
        time.sleep(0.02)
    raise AssertionError("room %s: %s (config %s)" % (code, what, row and row[0]))


# ---- the tests ----------------------------------------------------------------------

def test_endpoints(args):
    with ServerProcess(args.parlour, web=args.web, extra_args=FAST) as srv:
        p = srv.port
        a = api(p, "me")
        expect(a.status == 200 and a.json == {"name": None}, "me without a cookie: a guest: %r" % a.body)
        a = api(p, "signup", {"name": "Ada", "password": "correct horse"})
        expect(a.status == 200 and a.json == {"name": "Ada"}, "signup: %s %r" % (a.status, a.body))
        ck = a.cookie
        expect(re.fullmatch(r"parlour_session=[0-9a-f]{64}; HttpOnly; SameSite=Lax; Path=/; Max-Age=2592000", ck),
               "the cookie's flags: %r" % ck)
        expect(a.header("cache-control") == ["no-store"], "no-store: %r" % a.headers)
        t1 = a.token
        expect(t1.encode() not in a.body, "the token only in the Set-Cookie")
        a = api(p, "me", token=t1)
        expect(a.status == 200 and a.json == {"name": "Ada"}, "me with the cookie: %r" % a.body)
        a = api(p, "signup", {"name": "ADA", "password": "another one"})
        expect(a.status == 409 and a.json["error"] == "name_taken" and a.json["message"], "taken: %r" % a.body)
        expect(a.cookie is None, "no cookie for a refusal")
        a = api(p, "signup", {"name": "Bob", "password": "short"})
        expect(a.status == 400 and a.json["error"] == "bad_password", "short password: %r" % a.body)
        a = api(p, "signup", {"name": "", "password": "long enough"})
        expect(a.status == 400 and a.json["error"] == "bad_name", "empty name: %r" % a.body)
        wrong = api(p, "signin", {"name": "Ada", "password": "wrong horse"})
        unknown = api(p, "signin", {"name": "Nobody", "password": "wrong horse"})
        expect(wrong.status == 403 and wrong.json["error"] == "wrong", "wrong password: %r" % wrong.body)
        expect((wrong.status, wrong.body, wrong.cookie) == (unknown.status, unknown.body, unknown.cookie),
               "an unknown name and a wrong password answer alike: %r / %r" % (wrong.body, unknown.body))
        a = api(p, "signin", {"name": "ada", "password": "correct horse"})
        expect(a.status == 200 and a.json == {"name": "Ada"} and a.token and a.token != t1, "signin: %r" % a.body)
        t2 = a.token
        a = api(p, "password", {"old_password": "wrong horse", "new_password": "battery staple"}, token=t2)
        expect(a.status == 403 and a.json["error"] == "wrong", "password with a wrong old one: %r" % a.body)
        a = api(p, "password", {"old_password": "correct horse", "new_password": "battery staple"})
        expect(a.status == 401 and a.json["error"] == "no_session", "password without a cookie: %r" % a.body)
        a = api(p, "password", {"old_password": "correct horse", "new_password": "battery staple"}, token=t2)
        expect(a.status == 200 and a.json == {}, "password: %r" % a.body)
        expect(api(p, "me", token=t2).json == {"name": "Ada"}, "the session that changed it lives on")
        a = api(p, "me", token=t1)
        expect(a.json == {"name": None} and "Max-Age=0" in (a.cookie or ""),
               "every other session ended (and its cookie cleared): %r %r" % (a.body, a.cookie))
        expect(api(p, "signin", {"name": "Ada", "password": "correct horse"}).status == 403, "the old password")
        expect(api(p, "signin", {"name": "Ada", "password": "battery staple"}).status == 200, "the new password")
        a = api(p, "signout", token=t2)
        expect(a.status == 200 and re.fullmatch(r"parlour_session=; HttpOnly; SameSite=Lax; Path=/; Max-Age=0",
                                                a.cookie or ""), "signout clears the cookie: %r" % a.cookie)
        expect(api(p, "me", token=t2).json == {"name": None}, "signed out")
        a = api(p, "signout", {})
        expect(a.status == 200, "signout without a session: %r" % a.body)
        t3 = api(p, "signin", {"name": "Ada", "password": "battery staple"}).token
        a = api(p, "delete", {"password": "correct horse"}, token=t3)
        expect(a.status == 403 and a.json["error"] == "wrong", "delete with a wrong password: %r" % a.body)
        a = api(p, "delete", {"password": "battery staple"}, token=t3)
        expect(a.status == 200 and "Max-Age=0" in (a.cookie or ""), "delete: %r %r" % (a.body, a.cookie))
        expect(api(p, "me", token=t3).json == {"name": None}, "the deleted account's session is over")
        expect(api(p, "signin", {"name": "Ada", "password": "battery staple"}).status == 403, "no account")
        signup(p, "Ada", "a new person")  # the name is free again
        a = api(p, "signin", {"name": "Ada", "password": "x" * 300})
        expect(a.status in (400, 403), "a password too long: %r" % a.body)
        log = srv.log_text()
        for secret in ("correct horse", "battery staple", t1, t2, t3):
            expect(secret not in log, "never logged: %s" % secret[:8])


def test_shapes(args):
    with ServerProcess(args.parlour, web=args.web, extra_args=FAST) as srv:
        p = srv.port
        bad = [
            ("signup", b'{"name":"a","password":"long enough","extra":1}', "unknown key"),
            ("signup", b'{"name":"a","password":12345678}', "a number for a string"),
            ("signup", b'{"name":"a"}', "a missing key"),
            ("signup", b'["a","long enough"]', "an array"),
            ("signup", b'{"name":"a","password":"long enough"', "not JSON"),
            ("signup", b'{"name":"a","name":"b","password":"long enough"}', "a key twice"),
            ("signup", b'{"name":"a\\u0000b","password":"long enough"}', "a NUL"),
            ("signin", b'{"name":null,"password":"long enough"}', "null"),
            ("signin", b'', "nothing"),
            ("signin", json.dumps({"name": "a", "password": "p" * 5000}).encode(), "more than 4 KB"),
            ("password", b'{"old":"a","new":"b"}', "password's keys"),
            ("delete", b'{"password":"a","really":true}', "delete's keys"),
            ("signout", b'{"a":1}', "signout's body"),
            ("signout", b'"x"', "signout's body, a string"),
        ]
        for path, body, what in bad:
            a = api(p, path, raw=body)
            expect(a.status == 400 and a.json and a.json.get("error") == "shape" and a.json.get("message"),
                   "%s: 400 shape: %s %r" % (what, a.status, a.body))
        a = api(p, "signup", raw=b"x" * 100000)
        expect(a.status == 400 and a.json["error"] == "shape", "100 KB: %r" % a.body)
        a = api(p, "signup", method="GET")
        expect(a.status == 405 and a.json["error"] == "method", "GET signup: %s %r" % (a.status, a.body))
        a = api(p, "me", {"x": 1}, method="POST")
        expect(a.status == 405, "POST me: %s" % a.status)
        a = api(p, "nothing", {"x": 1})
        expect(a.status == 404 and a.json["error"] == "not_found", "unknown path: %s %r" % (a.status, a.body))
        a = api(p, "signup/", {"name": "a", "password": "long enough"})
        expect(a.status == 404, "signup/: %s" % a.status)
        # keep-alive: two requests on one connection, the second answered too
        c = http.client.HTTPConnection("127.0.0.1", p, timeout=30)
        for i in range(2):
            c.request("POST", "/api/account/signin", body=b'{"bad":1}',
                      headers={"Origin": "http://127.0.0.1:%d" % p, "Host": "127.0.0.1:%d" % p})
            r = c.getresponse()
            expect(r.status == 400, "keep-alive request %d: %s" % (i, r.status))
            r.read()
        c.close()
        # clients that leave before their answer (the account thread still hashing): answered to no one
        import socket
        for i in range(20):
            body = json.dumps({"name": "Leaver %d" % i, "password": "long enough"}).encode()
            s = socket.create_connection(("127.0.0.1", p))
            s.sendall(b"POST /api/account/%s HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nOrigin: http://127.0.0.1:%d\r\n"
                      b"Content-Type: application/json\r\nContent-Length: %d\r\n\r\n"
                      % (b"signup" if i % 2 else b"signin", p, p, len(body)) + body[:len(body) - (i % 3)])
            s.close()
        expect(api(p, "me").status == 200, "the server lives on")
        expect(api(p, "signin", {"name": "Leaver 3", "password": "long enough"}).status == 200,
               "a sign-up whose client left was made all the same")


def test_csrf(args):
    with ServerProcess(args.parlour, web=args.web, extra_args=FAST) as srv:
        p = srv.port
        body = {"name": "Eve", "password": "long enough"}
        for origin, hdr, what in [("http://evil.example", {}, "another site"),
                                  ("http://127.0.0.1:%d.evil.example" % p, {}, "a host that starts alike"),
                                  ("null", {}, "Origin null"),
                                  (None, {}, "no Origin, no Sec-Fetch-Site"),
                                  (None, {"Sec-Fetch-Site": "cross-site"}, "Sec-Fetch-Site cross-site")]:
            a = api(p, "signup", body, origin=origin, headers=hdr)
            expect(a.status == 403 and a.json["error"] == "origin" and a.cookie is None,
                   "%s: refused: %s %r" % (what, a.status, a.body))
        expect(api(p, "signin", body).status == 403 and api(p, "signin", body).json["error"] == "wrong",
               "nothing was made by a refused request")
        a = api(p, "signup", body, origin=None, headers={"Sec-Fetch-Site": "same-origin"})
        expect(a.status == 200, "no Origin, Sec-Fetch-Site same-origin: %s %r" % (a.status, a.body))
        t = a.token
        a = api(p, "signout", {}, token=t, origin="http://evil.example")
        expect(a.status == 403, "signout from another site: %s" % a.status)
        expect(api(p, "me", token=t).json == {"name": "Eve"}, "still signed in")
        # behind an https front (X-Forwarded-Proto from a local proxy): Secure
        a = api(p, "signin", body, origin="https://127.0.0.1:%d" % p, headers={"X-Forwarded-Proto": "https"})
        expect(a.status == 200 and a.cookie.endswith("; Secure"), "https: a Secure cookie: %r" % a.cookie)


def test_rate(args):
    with ServerProcess(args.parlour, web=args.web, extra_args=FAST) as srv:
        p = srv.port
        signup(p, "Mallory's target", "long enough")
        codes = []
        for i in range(12):  # from many addresses (X-Forwarded-For: the server's peer is local)
            a = api(p, "signin", {"name": "Mallory's target", "password": "guess %d" % i},
                    headers={"X-Forwarded-For": "10.0.%d.1, 192.0.2.%d" % (i, i + 1)})
            codes.append(a.json["error"])
        expect(codes[:10] == ["wrong"] * 10 and codes[-1] == "rate", "per name: 10, then rate: %s" % codes)
        a = api(p, "signin", {"name": "Mallory's target", "password": "long enough"},
                headers={"X-Forwarded-For": "192.0.2.200"})
        expect(a.status == 429, "even the right password waits: %s" % a.status)
        # per address: the client's address behind a local front is X-Forwarded-For's last hop
        codes = [api(p, "signin", {"name": "nobody %d" % i, "password": "long enough"},
                     headers={"X-Forwarded-For": "203.0.113.9, 198.51.100.7"}).json["error"] for i in range(51)]
        expect(codes[:50] == ["wrong"] * 50 and codes[50] == "rate", "per address: 50, then rate: %s" % codes)
        a = api(p, "signin", {"name": "nobody", "password": "long enough"},
                headers={"X-Forwarded-For": "198.51.100.7, 203.0.113.9"})
        expect(a.json["error"] == "wrong", "another address (the last hop) is not limited: %r" % a.body)


def test_websocket(args):
    with ServerProcess(args.parlour, web=args.web, extra_args=FAST) as srv:
        p = srv.port
        tok = signup(p, "Grace")
        # this server's page: the account
        c = ws(p, tok)
        m = c.wait_for("account")
        expect(m == {"type": "account", "name": "Grace"}, "account: %r" % m)
        c.send({"type": "create", "game": "ur", "seats": [{"kind": "person"}, {"kind": "person"}]})
        code = c.wait_for("created")["room"]
        c.send({"type": "join", "room": code, "name": "Someone else"})
        j = c.wait_for("joined")
        st = c.wait_for("state")
        names = [s["name"] for s in st["seats"]]
        expect(names[j["seat"]] == "Grace", "seated under the account's name: %r" % names)
        aid = room_config(srv.db, code, lambda cfg: cfg["seats"][j["seat"]].get("account"), "the account stored")
        aid = aid["seats"][j["seat"]]["account"]
        expect(isinstance(aid, int) and aid > 0, "an account id: %r" % aid)
        # a foreign page with the same cookie: a guest
        e = ws(p, tok, origin="http://evil.example")
        e.send({"type": "join", "room": code, "name": "Guest"})
        j2 = e.wait_for("joined")
        st = e.wait_for("state")
        expect(st["seats"][j2["seat"]]["name"] == "Guest", "a foreign Origin's cookie is not trusted")
        expect(not [x for x in e.log if x.get("type") == "account"], "no account message for it")
        cfg = room_config(srv.db, code, lambda cfg: cfg["seats"][j2["seat"]].get("token"), "the guest's seat")
        expect("account" not in cfg["seats"][j2["seat"]], "the guest's seat has no account: %r" % cfg)
        # no Origin at all (not a browser): a guest too
        n = ws(p, tok, origin=None)
        n.send({"type": "games"})
        n.wait_for("games")
        expect(not [x for x in n.log if x.get("type") == "account"], "no Origin: a guest")
        # the guest signs up mid-game and comes back with the seat's token: the seat is theirs
        gtok = j2["token"]
        t2 = signup(p, "Hopper")
        e.close()
        g = ws(p, t2)
        expect(g.wait_for("account")["name"] == "Hopper", "signed up")
        g.send({"type": "join", "room": code, "token": gtok})
        j3 = g.wait_for("joined")
        expect(j3["seat"] == j2["seat"], "the same seat")
        cfg = room_config(srv.db, code, lambda cfg: cfg["seats"][j2["seat"]].get("account"), "the seat's account")
        expect(cfg["seats"][j2["seat"]]["account"] != aid, "another account than Grace's")
        # a bad cookie: a guest, and the connection works
        b = ws(p, "0" * 64)
        b.send({"type": "games"})
        b.wait_for("games")
        expect(not [x for x in b.log if x.get("type") == "account"], "an unknown session: a guest")
        # Grace deletes her account: her stored seat is anonymised, the game stays
        expect(api(p, "delete", {"password": "correct horse"}, token=tok).status == 200, "delete Grace")
        cfg = room_config(srv.db, code, lambda cfg: "account" not in cfg["seats"][j["seat"]], "Grace's seat anonymised")
        expect(cfg["seats"][j["seat"]]["name"] != "Grace", "her name is gone from the room: %r" % cfg)
        # ... and the live room too: its players see the seat renamed (the hub's copy), and the
        # configuration the hub writes next cannot bring the name back
        st = g.wait_for("state", pred=lambda m: m["seats"][j["seat"]]["name"] == "anonymous")
        expect("Grace" not in json.dumps(st), "no Grace in the live room's state")
        for x in (c, g, n, b):
            x.close()
        drain(c, e, g, n, b)
        text = json.dumps(WS_MESSAGES)
        for secret in (tok, t2):
            expect(secret not in text, "no session token in any WebSocket message")
        expect("argon2" not in text and "$" not in text.replace("\\u0024", ""), "no hash in any message")


def test_cluster(args):
    with ServerProcess(args.parlour, web=args.web, extra_args=FAST + ["--cluster"]) as a:
        with ServerProcess(args.parlour, web=args.web, db=a.db, extra_args=FAST + ["--cluster"]) as b:
            tok = signup(a.port, "Lovelace")
            r = api(b.port, "me", token=tok)
            expect(r.json == {"name": "Lovelace"}, "the other process knows the session: %r" % r.body)
            c = ws(b.port, tok)
            expect(c.wait_for("account")["name"] == "Lovelace", "its WebSocket too")
            c.close()
            drain(c)
            expect(api(b.port, "signout", token=tok).status == 200, "signout on b")
            expect(api(a.port, "me", token=tok).json == {"name": None}, "a knows it ended")


def test_nginx(args):
    """Three --cluster processes behind nginx (deploy/cluster.sh, deploy/nginx.conf, one SQLite
    file; real Argon2id limits): sign up through the front, the session known by whichever
    process answers, the WebSocket through the front signed in. Skipped without nginx."""
    import shutil
    import subprocess
    import tempfile
    if not shutil.which("nginx"):
        print("skip test_nginx: no nginx")
        return
    script = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "deploy", "cluster.sh")
    d = tempfile.mkdtemp(prefix="parlour-acct-nginx-")
    from test_cluster_nginx import free_base
    port = free_base()
    env = dict(os.environ, PARLOUR=os.path.abspath(args.parlour), PORT=str(port), STORE="sqlite",
               WEB=os.path.abspath(args.web or os.path.join(os.path.dirname(script), "..", "web")))

    def sh(cmd):
        return subprocess.run(["bash", script, cmd, d], env=env, capture_output=True, text=True, timeout=120)

    try:
        r = sh("start")
        expect(r.returncode == 0, "cluster.sh start: %s %s" % (r.stdout, r.stderr))
        a = api(port, "signup", {"name": "Behind Nginx", "password": "correct horse"})
        expect(a.status == 200 and a.token, "sign-up through nginx (Origin = Host with its port): %s %r"
               % (a.status, a.body))
        tok = a.token
        for _ in range(6):  # the lobby's requests go to any process
            expect(api(port, "me", token=tok).json == {"name": "Behind Nginx"}, "every process knows the session")
        c = ws(port, tok)
        expect(c.wait_for("account")["name"] == "Behind Nginx", "the WebSocket through nginx is signed in")
        c.close()
        drain(c)
        a = api(port, "signup", {"name": "Evil", "password": "correct horse"}, origin="http://evil.example")
        expect(a.status == 403, "another site's POST refused through nginx: %s" % a.status)
    finally:
        sh("stop")
        shutil.rmtree(d, ignore_errors=True)


if __name__ == "__main__":
    run_main([test_endpoints, test_shapes, test_csrf, test_rate, test_websocket, test_cluster, test_nginx],
             parse_args())

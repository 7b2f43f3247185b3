#!/usr/bin/env python3
"""test_player.py -- a player's page on the wire: GET /api/player/NAME (issue 33 §4;
docs/server.md, "A player's page").

Usage: test_player.py --parlour BINARY --web DIR [--only NAME]

Drives `parlour serve --test-fast-hash`: two signed-up people play a rated Ur game to the end
(test_rated.py's helpers) and each one's page shows the rating that was shown to them, its
history point, and the game with the right result ("won"/"lost") and the other's name; the
name is matched case-folded; an unknown, a deleted or a malformed name is 404; no token, hash,
id or seed is in a page. Python's standard library only.
"""
import http.client
import json
import os
import random
import sys
import urllib.parse

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from wsclient import ServerProcess, parse_args, run_main  # noqa: E402
from test_accounts import api, expect, signup, ws  # noqa: E402
from test_rated import FAST, play_out, seat_up  # noqa: E402


def page(port, name, method="GET", raw_path=None):
    """(status, JSON or None, body bytes) of GET /api/player/NAME (NAME percent-encoded)."""
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        path = raw_path or "/api/player/" + urllib.parse.quote(name, safe="")
        c.request(method, path, headers={"Host": "127.0.0.1:%d" % port})
        r = c.getresponse()
        body = r.read()
    finally:
        c.close()
    try:
        j = json.loads(body) if body else None
    except ValueError:
        j = None
    return r.status, j, body


def no_secrets(body, tokens):
    text = body.decode("utf-8", "replace")
    for t in tokens:
        expect(t not in text, "a token in a page: %s" % text)
    for word in ('"token"', '"hash"', '"id"', '"seed"', '"account"', "$argon2"):
        expect(word not in text, "%s in a page: %s" % (word, text))


def test_pages_after_a_rated_game(args):
    rng = random.Random(34)
    srv = ServerProcess(args.parlour, web=args.web, extra_args=FAST)
    try:
        srv.start()
        p = srv.port
        ta, tb = signup(p, "Ann"), signup(p, "Bob")
        st, j, body = page(p, "Ann")
        expect(st == 200 and j == {"name": "Ann", "ratings": [], "history": {}, "games": []},
               "a new player's page is empty: %s %r" % (st, body))
        a, b = ws(p, ta), ws(p, tb)
        a.send({"type": "create", "game": "ur", "rated": True})
        code = a.wait_for("created")["room"]
        sa, sb = seat_up(a, code), seat_up(b, code)
        states, rated = play_out([a, b], rng)
        winner = states[0]["result"]["winner"]
        shown = rated[0]["seats"]
        for name, seat, tok in (("Ann", sa, ta), ("Bob", sb, tb)):
            st, j, body = page(p, name.lower() if name == "Bob" else name)  # matched case-folded
            expect(st == 200, "%s's page: %s %r" % (name, st, body))
            no_secrets(body, [ta, tb])
            expect(j["name"] == name, "the stored spelling: %r" % j)
            pool = rated[0]["pool"]
            r = j["ratings"]
            expect(len(r) == 1 and r[0]["pool"] == pool and r[0]["games"] == 1
                   and r[0]["rating"] == shown[seat]["after"] and r[0]["rd"] == shown[seat]["after_rd"],
                   "%s's rating is what was shown %r: %r" % (name, shown[seat], r))
            h = j["history"][pool]
            expect(len(h) == 1 and h[0]["rating"] == shown[seat]["after"] and h[0]["at_ms"] > 0,
                   "%s's history: %r" % (name, h))
            g = j["games"]
            other = "Bob" if name == "Ann" else "Ann"
            want = "won" if seat == winner else "lost"
            expect(len(g) == 1 and g[0]["room"] == code and g[0]["game"] == "ur" and g[0]["rated"] is True
                   and g[0]["result"] == want and g[0]["opponents"] == [other] and g[0]["finished_ms"] > 0,
                   "%s's game (%s): %r" % (name, want, g))
        for c in (a, b):
            c.close()
        # unknown, empty, too long, not UTF-8, a control character: 404; a POST: 405
        for raw in ("/api/player/Nobody", "/api/player/", "/api/player/%ff%fe", "/api/player/" + "x" * 300,
                    "/api/player/An%01n", "/api/player/%20%20"):
            st, j, body = page(p, None, raw_path=raw)
            expect(st == 404 and j and j.get("error") == "not_found", "%s: %s %r" % (raw, st, body))
        # escapes libwebsockets itself refuses (a bad one, a NUL): refused, the server goes on
        for raw in ("/api/player/%zz", "/api/player/%00Ann"):
            st, j, body = page(p, None, raw_path=raw)
            expect(400 <= st < 500, "%s: %s %r" % (raw, st, body))
        st, j, _ = page(p, "ANN")
        expect(st == 200 and j["name"] == "Ann", "still answering: %s" % st)
        st, _, _ = page(p, "Ann", method="POST")
        expect(st == 405, "a POST is refused: %s" % st)
        # a deleted account is unknown
        d = api(p, "delete", {"password": "correct horse"}, token=tb)
        expect(d.status == 200, "Bob deletes his account: %s %r" % (d.status, d.body))
        st, j, body = page(p, "Bob")
        expect(st == 404, "a deleted account's page: %s %r" % (st, body))
        st, j, body = page(p, "Ann")
        expect(st == 200 and j["games"] and j["games"][0]["opponents"] == ["anonymous"],
               "Ann's game keeps its place, its opponent anonymised: %r" % body)
        srv.stop()
    finally:
        if srv.proc:
            srv.kill()
        srv.cleanup()


if __name__ == "__main__":
    run_main([test_pages_after_a_rated_game], parse_args())

#!/usr/bin/env python3
"""test_drill.py -- a player's karuta drill record on the wire: GET/PUT /api/drill (issue 34 §4;
docs/drills.md, "In the browser").

Usage: test_drill.py --parlour BINARY --web DIR [--only NAME]

Drives `parlour serve --test-fast-hash`: a signed-in player writes a record and reads it back; a
guest, a bad session, another site's page (CSRF), a wrong shape, a body over 64 KB and a wrong method
are refused with a clear error; another account reads none of it and its own write leaves the
first one's alone; past the rate limit a write is 429; the record goes with its account. Python's
standard library only.
"""
import http.client
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from wsclient import ServerProcess, http_request, parse_args, run_main  # noqa: E402
from test_accounts import FAST, api, expect, signup  # noqa: E402

RATE_MAX = 60  # drill.h DRILL_RATE_MAX


def drill(port, method="GET", body=None, token=None, origin="same", raw=None):
    """(status, JSON or None, body bytes) of METHOD /api/drill."""
    a = http_request(port, method, "/api/drill", body=body, raw=raw, token=token, origin=origin)
    return a.status, a.json, a.body


def card(box=1, due=2, good=0, slow=0, miss=1, ms=900, last=1):
    return {"box": box, "due": due, "seen": good + slow + miss, "good": good, "slow": slow, "miss": miss,
            "ms": ms, "last": last}


def test_drill_record(args):
    with ServerProcess(args.parlour, web=args.web, extra_args=FAST) as srv:
        p = srv.port
        ta, tb = signup(p, "Ann"), signup(p, "Bob")
        st, j, body = drill(p, token=ta)
        expect(st == 200 and j == {"record": None, "updated_ms": None}, "no record yet: %s %r" % (st, body))
        rec = {"version": 1, "step": 1, "cards": {"17": card()}}
        st, j, body = drill(p, "PUT", rec, token=ta)
        expect(st == 200, "Ann saves her record: %s %r" % (st, body))
        st, j, body = drill(p, token=ta)
        expect(st == 200 and j["record"] == rec and j["updated_ms"] > 0, "Ann reads it back: %s %r" % (st, body))
        # another account sees none of it, and its own write leaves Ann's alone
        st, j, body = drill(p, token=tb)
        expect(st == 200 and j["record"] is None, "Bob reads no record of Ann's: %s %r" % (st, body))
        rb = {"version": 1, "step": 2, "cards": {"5": card(box=2, due=5, good=1, miss=1, ms=5000, last=2)}}
        st, _, body = drill(p, "PUT", rb, token=tb)
        expect(st == 200, "Bob saves his: %s %r" % (st, body))
        st, j, _ = drill(p, token=ta)
        expect(j["record"] == rec, "Ann's record is still hers: %r" % j)
        st, j, _ = drill(p, token=tb)
        expect(j["record"] == rb, "Bob's is his: %r" % j)
        # a guest, a session that is not one: 401
        for tok in (None, "0" * 64):
            for m, b in (("GET", None), ("PUT", rec)):
                st, j, body = drill(p, m, b, token=tok)
                expect(st == 401 and j and j["error"] == "no_session", "%s as %s: %s %r" % (m, tok, st, body))
        # another site's page, or no Origin from a script: 403, nothing written
        for origin in ("http://evil.example", "null"):
            for m, b in (("GET", None), ("PUT", {"version": 1, "step": 0, "cards": {}})):
                st, j, body = drill(p, m, b, token=ta, origin=origin)
                expect(st == 403 and j and j["error"] == "origin", "%s from %s: %s %r" % (m, origin, st, body))
        st, j, _ = drill(p, token=ta)
        expect(j["record"] == rec, "a refused write changed nothing: %r" % j)
        # shapes: 400 with a message
        # a PUT without a body: 400, or (Content-Length: 0, which lws 4.1 leaves waiting for a body)
        # the connection dropped at lws's timeout; nothing written, the server goes on
        try:
            st, _, body = drill(p, "PUT", raw=b"", token=ta)
            expect(st == 400, "a PUT without a body: %s %r" % (st, body))
        except (http.client.RemoteDisconnected, ConnectionResetError):
            pass
        st, j, _ = drill(p, token=ta)
        expect(st == 200 and j["record"] == rec, "still answering, the record unchanged: %s %r" % (st, j))
        bad = [b"not json", b"[]", b'{"version": 1, "step": 0}', b'{"version": 2, "step": 0, "cards": {}}',
               b'{"version": 1, "step": 0, "cards": {"101": {}}}', b'{"version": 1, "step": 0, "cards": {"07": {}}}',
               json.dumps({"version": 1, "step": 1, "cards": {"3": dict(card(), seen=5)}}).encode(),
               json.dumps({"version": 1, "step": 1, "cards": {"3": dict(card(), box=9)}}).encode(),
               b'{"version": 1, "step": 0, "step": 0, "cards": {}}']
        for raw in bad:
            st, j, body = drill(p, "PUT", raw=raw, token=ta)
            expect(st == 400 and j and j["error"] == "shape" and j["message"], "shape %r: %s %r" % (raw, st, body))
        # keys the server does not know are ignored, and kept (docs/drills.md: readers ignore them)
        more = {"version": 1, "step": 1, "cards": {"17": dict(card(), note=[1, 2])}, "device": "phone"}
        st, _, body = drill(p, "PUT", more, token=ta)
        expect(st == 200, "a record with more keys: %s %r" % (st, body))
        st, j, _ = drill(p, token=ta)
        expect(j["record"] == more, "kept as it came: %r" % j)
        st, _, _ = drill(p, "PUT", rec, token=ta)
        # over 64 KB: 413; 64 KB of a good record (padded with spaces) is kept
        big = json.dumps(rec).encode()
        st, j, body = drill(p, "PUT", raw=big + b" " * (65536 - len(big) + 1), token=ta)
        expect(st == 413 and j and j["error"] == "too_large", "65537 bytes: %s %r" % (st, body))
        st, j, body = drill(p, "PUT", raw=big + b" " * (65536 - len(big)), token=ta)
        expect(st == 200, "65536 bytes: %s %r" % (st, body))
        # methods
        for m, b in (("POST", rec), ("DELETE", None)):
            st, j, body = drill(p, m, b, token=ta)
            expect(st == 405, "%s /api/drill: %s %r" % (m, st, body))
        st = api(p, "signout", body={}, method="PUT", token=ta).status
        expect(st == 405, "PUT on an account address: %s" % st)
        # the rate limit: Bob's calls in a minute, then 429 (Ann's calls are hers)
        n = 0
        while True:
            st, j, body = drill(p, "PUT", rb, token=tb)
            if st != 200:
                break
            n += 1
            expect(n <= RATE_MAX, "no limit after %d writes" % n)
        expect(st == 429 and j["error"] == "rate", "past the limit: %s %r" % (st, body))
        expect(n == RATE_MAX - 3, "Bob had 3 calls before, then %d writes" % n)
        st, _, _ = drill(p, token=ta)
        expect(st == 200, "Ann is not limited by Bob's calls: %s" % st)
        # the record goes with its account
        d = api(p, "delete", {"password": "correct horse"}, token=ta)
        expect(d.status == 200, "Ann deletes her account: %s" % d.status)
        ta2 = signup(p, "Ann")
        st, j, _ = drill(p, token=ta2)
        expect(st == 200 and j["record"] is None, "a new Ann starts with no record: %r" % j)


if __name__ == "__main__":
    run_main([test_drill_record], parse_args())

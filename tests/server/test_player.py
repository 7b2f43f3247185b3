#!/usr/bin/env python3
"""test_player.py -- a player's page on the wire: GET /api/player/NAME (issue 33 §4;
docs/server.md, "A player's page").

Usage: test_player.py --parlour BINARY --web DIR [--only NAME]

Drives `parlour serve --test-fast-hash`: two signed-up people play a rated Ur game to the end
(test_rated.py's helpers) and each one's page shows the rating that was shown to them, its
history point, and the game with the right result ("won"/"lost") and the other's name; the
name is matched case-folded; an unknown, a deleted or a malformed name is 404; no token, hash,
id or seed is in a page. Then (issue 33 §4 finished): a private page is 404 to everyone but its
owner, with the unknown name's very body; win rates against each computer level from games
against computer seats; the games a page at a time; the zip export, the owner's only, each
record replayed by `parlour replay`; karuta take times and fouls from a scripted kyogi match.
Python's standard library only.
"""
import io
import json
import os
import random
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.parse
import zipfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from wsclient import ServerProcess, http_request, parse_args, run_main  # noqa: E402
from test_accounts import api, expect, signup, ws  # noqa: E402
from test_rated import FAST, play_out, seat_up  # noqa: E402
from test_accounts import CookieWS  # noqa: E402
from driver import Conn, all_over, poem_timelines, predict_reads  # noqa: E402
import test_karuta_net as kn  # noqa: E402

NO_KARUTA = {"matches": 0, "takes": 0, "mean_ms": None, "median_ms": None, "fouls": 0, "fouls_per_match": None,
             "recent": []}


def page(port, name, method="GET", raw_path=None, token=None, query=""):
    """(status, JSON or None, body bytes) of GET /api/player/NAME (NAME percent-encoded;
    query: "?before=..." as it is), with the session cookie of `token` if given."""
    path = raw_path or "/api/player/" + urllib.parse.quote(name, safe="") + query
    a = http_request(port, method, path, token=token)
    return a.status, a.json, a.body


def no_secrets(body, tokens):
    text = body.decode("utf-8", "replace")
    for t in tokens:
        expect(t not in text, "a token in a page: %s" % text)
    for word in ('"token"', '"hash"', '"id"', '"seed"', '"account"', "$argon2"):
        expect(word not in text, "%s in a page: %s" % (word, text))


def test_pages_after_a_rated_game(args):
    rng = random.Random(34)
    with ServerProcess(args.parlour, web=args.web, extra_args=FAST) as srv:
        p = srv.port
        ta, tb = signup(p, "Ann"), signup(p, "Bob")
        st, j, body = page(p, "Ann")
        expect(st == 200 and j == {"name": "Ann", "ratings": [], "history": {}, "levels": [], "games": [],
                                   "more": False, "karuta": NO_KARUTA},
               "a new player's page is empty: %s %r" % (st, body))
        st, j, body = page(p, "Ann", token=ta)
        expect(st == 200 and j.get("own") is True and j.get("private") is False,
               "its owner sees it is theirs and public: %s %r" % (st, body))
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


def privacy(port, body, token=None, origin="same", raw=None):
    return api(port, "privacy", body, token=token, origin=origin, raw=raw)


def test_private_page(args):
    """A private page answers others, guests and other accounts alike, exactly as an unknown
    name does (404, the same body); its owner sees it whole, marked private. The switch is a
    POST with the session and from a page of this server (CSRF), its body checked."""
    with ServerProcess(args.parlour, web=args.web, extra_args=FAST) as srv:
        p = srv.port
        ta, tb = signup(p, "Ann"), signup(p, "Bob")
        unknown = page(p, "Nobody")
        expect(unknown[0] == 404, "an unknown name: %r" % (unknown,))
        for who, tok in (("a guest", None), ("Bob", tb)):
            st, j, _ = page(p, "Ann", token=tok)
            expect(st == 200 and "own" not in j and "private" not in j,
                   "a public page to %s, nothing of its owner's: %s %r" % (who, st, j))
        r = privacy(p, {"private": True}, token=ta)
        expect(r.status == 200 and r.json == {"private": True}, "Ann makes her page private: %s %r" % (r.status, r.body))
        for who, tok in (("a guest", None), ("Bob", tb), ("a stale cookie", "ab" * 32)):
            st, j, body = page(p, "Ann", token=tok)
            expect(st == 404 and body == unknown[2], "private to %s, as an unknown name: %s %r" % (who, st, body))
            st, j, body = page(p, "Ann", token=tok, query="?before=99999999&limit=5")
            expect(st == 404 and body == unknown[2], "its next page too (%s): %s %r" % (who, st, body))
        st, j, body = page(p, "ann", token=ta)
        expect(st == 200 and j["name"] == "Ann" and j["own"] is True and j["private"] is True
               and j["games"] == [] and j["ratings"] == [], "Ann sees her own private page: %s %r" % (st, body))
        # the switch: a session, this server's page, the shape
        r = privacy(p, {"private": False})
        expect(r.status == 401, "no session: %s %r" % (r.status, r.body))
        r = privacy(p, {"private": False}, token=ta, origin="http://evil.example")
        expect(r.status == 403, "another site's page: %s %r" % (r.status, r.body))
        for bad in (b'{}', b'{"private": "no"}', b'{"private": 0}', b'{"private": false, "x": 1}', b'[false]',
                    b'{"private": false, "private": true}', b'nonsense', b''):
            r = privacy(p, None, token=ta, raw=bad)
            expect(r.status in (400, 401) if bad == b'' else r.status == 400,
                   "a bad body %r: %s %r" % (bad, r.status, r.body))
        r = api(p, "privacy", method="GET", token=ta)
        expect(r.status == 405, "a GET of the switch: %s" % r.status)
        st, j, _ = page(p, "Ann")
        expect(st == 404, "still private after the refusals: %s" % st)
        r = privacy(p, {"private": False}, token=ta)
        expect(r.status == 200 and r.json == {"private": False}, "public again: %s %r" % (r.status, r.body))
        st, j, _ = page(p, "Ann")
        expect(st == 200 and j["name"] == "Ann", "a guest sees it again: %s %r" % (st, j))


def play_computer(p, tok, level, rng):
    """One casual Ur game (3 pieces) of the account of `tok` against a computer of `level`:
    (room code, the account's seat, the result)."""
    c = ws(p, tok)
    c.send({"type": "create", "game": "ur", "options": {"pieces": "3"},
            "seats": [{"kind": "person"}, {"kind": "ai", "level": level}]})
    code = c.wait_for("created")["room"]
    seat = seat_up(c, code)
    states, _ = play_out([c], rng, want_rated=False)
    c.close()
    return code, seat, states[0]["result"]


def export(port, name, token=None, method="GET"):
    """(status, headers {lowercase: value}, body bytes) of GET /api/player/NAME/records.zip."""
    path = "/api/player/" + urllib.parse.quote(name, safe="") + "/records.zip"
    a = http_request(port, method, path, token=token, timeout=60)
    return a.status, dict(a.headers), a.body


def check_export(args, p, ta, played):
    """The export of Ann's games (played: [(room, "won"/"lost")], oldest first): hers only;
    a zip of one full record per game, each replaying (`parlour replay`) to its stored result."""
    unknown = page(p, "Nobody")[2]
    tb = signup(p, "Bob")
    for who, tok in (("a guest", None), ("Bob", tb), ("a stale cookie", "cd" * 32)):
        st, _, body = export(p, "Ann", token=tok)
        expect(st == 404 and body == unknown, "the export to %s, as an unknown name: %s %r" % (who, st, body))
    st, _, body = export(p, "Nobody", token=ta)
    expect(st == 404 and body == unknown, "an unknown name's export: %s %r" % (st, body))
    st, _, _ = export(p, "Ann", token=ta, method="POST")
    expect(st == 405, "a POST: %s" % st)
    st, h, body = export(p, "ann", token=ta)
    expect(st == 200 and h.get("content-type") == "application/zip"
           and "attachment" in h.get("content-disposition", ""), "Ann's export: %s %r" % (st, h))
    z = zipfile.ZipFile(io.BytesIO(body))
    expect(z.testzip() is None, "the archive is sound")
    names = z.namelist()
    expect(len(names) == len(played), "a record per game: %r" % names)
    tmp = tempfile.mkdtemp(prefix="parlour-export-")
    try:
        for room, res in played:
            name = [n for n in names if n.endswith("-ur-%s.json" % room)]
            expect(len(name) == 1 and re.match(r"^\d{4}-\d\d-\d\d-ur-", name[0]), "%s's file: %r" % (room, names))
            rec = json.loads(z.read(name[0]))
            expect(rec["format"] == "parlour-record" and rec["game"] == "ur" and rec["options"]["pieces"] == "3"
                   and isinstance(rec["seed"], int) and rec["actions"], "a full record: %r" % rec)
            # the computer sat at seat 1 (play_computer), Ann at seat 0
            want = "0" if res == "won" else "1"
            expect(rec["result"] and rec["result"]["winner"] == want, "%s: the stored result %s: %r" %
                   (room, res, rec["result"]))
            path = os.path.join(tmp, name[0])
            with open(path, "wb") as f:
                f.write(z.read(name[0]))
            r = subprocess.run([args.parlour, "replay", "--text", path], stdin=subprocess.DEVNULL,
                               capture_output=True, timeout=60)
            expect(r.returncode == 0, "parlour replay %s: %s %r" % (name[0], r.returncode, r.stderr[-400:]))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    st, h, body = export(p, "Bob", token=tb)
    expect(st == 404 and json.loads(body)["error"] == "no_games", "no games, nothing to export: %s %r" % (st, body))


def test_levels_and_pages(args):
    """Win rates against each computer level from the games played against computer seats,
    and the games list a page at a time (?before=FINISHED_MS&limit=N; bad values: 400)."""
    rng = random.Random(35)
    with ServerProcess(args.parlour, web=args.web, extra_args=FAST) as srv:
        p = srv.port
        ta = signup(p, "Ann")
        want = {}
        played = []
        for level in ("easy", "easy", "medium"):
            code, seat, result = play_computer(p, ta, level, rng)
            res = "won" if result.get("winner") == seat else "lost"
            g, w = want.get(level, (0, 0))
            want[level] = (g + 1, w + (res == "won"))
            played.append((code, res))
        st, j, body = page(p, "Ann")
        expect(st == 200, "the page: %s %r" % (st, body))
        got = {x["level"]: (x["games"], x["wins"]) for x in j["levels"]}
        expect(got == want and all(x["game"] == "ur" for x in j["levels"]),
               "win rates per level: %r, played %r" % (j["levels"], want))
        for x in j["levels"]:
            expect(abs(x["rate"] - x["wins"] / x["games"]) < 1e-9 and x["draws"] == 0, "the rate: %r" % x)
        expect([(g["room"], g["result"]) for g in j["games"]] == played[::-1] and j["more"] is False,
               "the games, newest first: %r, played %r" % (j["games"], played))
        # a page at a time
        seen = []
        query = "?limit=1"
        for k in range(3):
            st, j, body = page(p, "Ann", query=query)
            expect(st == 200 and len(j["games"]) == 1, "page %d: %s %r" % (k, st, body))
            if k:
                expect(set(j) == {"name", "games", "more"}, "a next page holds the games only: %r" % j)
            seen.append(j["games"][0]["room"])
            expect(j["more"] is (k < 2), "more after page %d: %r" % (k, j))
            query = "?before=%d&limit=1" % j["games"][0]["finished_ms"]
        expect(seen == [c for c, _ in played[::-1]], "every game once, in order: %r" % seen)
        st, j, body = page(p, "Ann", query="?limit=2&other=1")
        expect(st == 200 and len(j["games"]) == 2 and j["more"] is True, "limit 2: %r" % body)
        for q in ("?limit=0", "?limit=51", "?limit=x", "?limit=", "?before=-5", "?before=1e9",
                  "?before=" + "9" * 16, "?limit=" + "1" * 80):
            st, j, body = page(p, "Ann", query=q)
            expect(st == 400 and j and j.get("error") == "shape", "%s: %s %r" % (q, st, body))
        check_export(args, p, ta, played)


def test_export_rate(args):
    """An account's exports are rate-limited (PLAYER_EXPORT_RATE a minute, server/player.h):
    each replays up to 1000 games on the thread that checks passwords, so a loop of them
    would stall every sign-in. Past the limit: 429 `rate`, to the owner only (anyone else
    still gets the unknown name's 404); another account is not counted with it."""
    srv = ServerProcess(args.parlour, web=args.web, extra_args=FAST)
    try:
        srv.start()
        p = srv.port
        ta, tb = signup(p, "Ann"), signup(p, "Bob")
        unknown = page(p, "Nobody")[2]
        for k in range(4):
            st, _, body = export(p, "Ann", token=ta)
            expect(st == 404 and json.loads(body)["error"] == "no_games", "export %d: %s %r" % (k, st, body))
        st, _, body = export(p, "Ann", token=ta)
        expect(st == 429 and json.loads(body)["error"] == "rate", "the fifth export in a minute: %s %r" % (st, body))
        st, _, body = export(p, "Ann", token=tb)
        expect(st == 404 and body == unknown, "Bob asking Ann's, as an unknown name: %s %r" % (st, body))
        st, _, body = export(p, "Bob", token=tb)
        expect(st == 404 and json.loads(body)["error"] == "no_games", "Bob's own, not counted with Ann's: %s %r"
               % (st, body))
        srv.stop()
    finally:
        if srv.proc:
            srv.kill()
        srv.cleanup()


class FoulingPlayer(kn.Player):
    """test_karuta_net's player that, at the first kana of reading `n` (a touch before it is
    refused), first touches card `wrong` (in its own territory while the read card lies in
    the other's: a foul)."""

    def __init__(self, conn, seat, reaction_ms, tl, send_card, n, wrong):
        super().__init__(conn, seat, reaction_ms, tl, send_card)
        self.foul_n, self.wrong = n, wrong

    def step(self):
        super().step()
        if self.reading and self.reading["n"] == self.foul_n and self.heard and self.wrong:
            self.p.c.send({"type": "touch", "card": self.wrong, "client_ms": self.p.c.now_ms()})
            self.wrong = None


def test_karuta_take_times(args):
    """Karuta take times and fouls across matches: a kyogi match of two accounts played by a
    script (test_karuta_net's players: Ann touches each read card 250 ms after its deciding
    kana, Bob 330 ms: Ann takes them all, her planned deal ends the match; at the last
    reading Bob first touches a card of his own while the read card is Ann's, a foul (at the
    last, so that the send it costs changes no reading drawn after it). Each
    page's `karuta` is what the judgements shown during the match say: Ann's takes (their
    times on the reading's timeline as judged), mean and median; Bob's foul; Bob took none."""
    tl = poem_timelines(args.parlour, int(kn.OPTS["upper_ms"]), "even")
    reads, spare = predict_reads(args.parlour, kn.SEED, " ".join("%s=%s" % kv for kv in kn.OPTS.items()),
                                 kn.READINGS, first_send=True)
    f, g = spare[0], spare[1]
    deal = "%s;%d/%d;%d" % (";".join(str(c) for c in reads[1:]), f, reads[0], g)
    with ServerProcess(args.parlour, web=args.web, test_seed=kn.SEED, extra_args=FAST) as srv:
        p = srv.port
        ta, tb = signup(p, "Ann"), signup(p, "Bob")
        origin = "http://127.0.0.1:%d" % p
        ca = Conn(CookieWS(p, token=ta, origin=origin, auto_sync=True), "A")
        cb = Conn(CookieWS(p, token=tb, origin=origin, auto_sync=True), "B")
        ca.c.wait_for("welcome", 10)
        cb.c.wait_for("welcome", 10)
        room = kn.create_room(ca, "karuta", dict(kn.OPTS, deal=deal), [kn.person(), kn.person()])
        ca.join(room, "Ann", 0)
        cb.join(room, "Bob", 1)
        a, b = kn.Player(ca, 0, 250, tl, f), FoulingPlayer(cb, 1, 330, tl, g, kn.READINGS, g)
        until = time.monotonic() + 120
        while not all_over([ca, cb]) and time.monotonic() < until:
            a.step()
            b.step()
            time.sleep(0.001)
        expect(all_over([ca, cb]), "the match ended")
        shown = {}
        for s in ca.states:
            j = s["view"].get("judgement")
            if j:
                shown[s["view"]["readings"]] = j
        expect(shown, "judgements were shown")
        for name, seat, tok in (("Ann", 0, ta), ("Bob", 1, tb)):
            takes = [j["take_ms"] for j in shown.values() if j["taker"] == seat]
            fouls = sum(j["fouls"][seat] for j in shown.values())
            st, j, body = page(p, name)
            expect(st == 200, "%s's page: %s %r" % (name, st, body))
            k = j["karuta"]
            print("  %s: take times %r, fouls %d; page: %r" % (name, takes, fouls, {x: k[x] for x in k if x != "recent"}))
            expect(k["matches"] == 1 and k["takes"] == len(takes) and k["fouls"] == fouls
                   and k["fouls_per_match"] == fouls, "%s's karuta %r; shown: takes %r, fouls %d" %
                   (name, k, takes, fouls))
            if takes:
                expect(abs(k["mean_ms"] - statistics.mean(takes)) < 1e-6
                       and abs(k["median_ms"] - statistics.median(takes)) < 1e-6, "%s's times %r: %r" %
                       (name, takes, k))
            else:
                expect(k["mean_ms"] is None and k["median_ms"] is None, "no takes, no times: %r" % k)
            r = k["recent"]
            expect(len(r) == 1 and r[0]["room"] == room and r[0]["takes"] == len(takes) and r[0]["fouls"] == fouls,
                   "the match: %r" % r)
        ann = [j["take_ms"] for j in shown.values() if j["taker"] == 0]
        expect(len(ann) >= 3, "Ann took the planned cards: %r" % ann)
        expect(sum(j["fouls"][1] for j in shown.values()) >= 1, "Bob's foul was judged: %r" % shown)
        for c in (ca, cb):
            c.close()


if __name__ == "__main__":
    run_main([test_pages_after_a_rated_game, test_private_page, test_levels_and_pages, test_karuta_take_times,
              test_export_rate], parse_args())

#!/usr/bin/env python3
"""test_rated.py -- rated rooms on the wire (issue 33 §2; docs/ratings.md, "How the server
applies them").

Usage: test_rated.py --parlour BINARY --web DIR [--only NAME]

Drives `parlour serve --test-fast-hash` over real sockets: two signed-in people play a rated
Ur game to the end (random legal moves) and both get a `rated` message with each seat's
rating before and after (the winner up, the loser down, from a new player's 1500/350); the
stored ratings equal what was shown, also after a kill -9 right after the message and a
restart; a guest can neither create nor join a rated room; a casual room's game changes no
rating; a person who leaves a rated game past the grace time (a computer finishes the seat)
is rated as the loser whatever the computer made of it (the other keeps the board's result);
one who stays connected and lets the move clock play 3 decisions in a row (a stall) likewise;
Play now pairs signed-in people (or one and a computer) into a rated room under their accounts'
names (a kill -9 right after the `rated` message loses nothing shown), a guest's pairing casual.
Python's standard library only.
"""
import os
import random
import sqlite3
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from wsclient import ServerProcess, parse_args, run_main  # noqa: E402
from test_accounts import expect, signup, ws  # noqa: E402

FAST = ["--test-fast-hash"]


def stored_ratings(db):
    """{(account name, pool): (rating, rd, games)} from the store."""
    con = sqlite3.connect(db, timeout=10)
    try:
        rows = con.execute("SELECT a.name, r.pool, r.rating, r.rd, r.games FROM ratings r "
                           "JOIN accounts a ON a.id = r.account").fetchall()
    finally:
        con.close()
    return {(n, p): (r, d, g) for n, p, r, d, g in rows}


def seat_up(c, code):
    c.send({"type": "join", "room": code, "name": "x"})
    return c.wait_for("joined")["seat"]


def play_out(clients, rng, want_rated=True, limit=200000, first=None):
    """Plays random legal moves for every client until the game is over and (want_rated)
    each client got its `rated` message (`first`: each client's last state already read, or
    None). Returns {client index: rated message}."""
    states = list(first) if first else [None] * len(clients)
    rated = {}
    pending = [None] * len(clients)
    sent = [0.0] * len(clients)
    over = False
    for _ in range(limit):
        for i, c in enumerate(clients):
            for m in c.poll():
                t = m.get("type")
                if t == "state":
                    states[i] = m
                    if pending[i] is not None and m["seq"] > pending[i]:
                        pending[i] = None
                elif t == "rated":
                    rated[i] = m
                elif t == "error":
                    expect(m.get("error") in ("stale", "not-your-turn"), "an error in play: %r" % m)
                    pending[i] = None
            s = states[i]
            # at most one act per 55 ms: the hub allows 20 messages a second ("rate")
            if s and not s["over"] and s["legal"] and pending[i] is None and time.monotonic() - sent[i] > 0.055:
                pending[i] = s["seq"]
                sent[i] = time.monotonic()
                c.send({"type": "act", "action": rng.choice(s["legal"])["action"], "seq": s["seq"]})
        # over once EVERY client has seen the end (one may hear of it before the other)
        over = all(st is not None and st["over"] for st in states)
        if over and (not want_rated or len(rated) == len(clients)):
            return states, rated
        time.sleep(0.002)  # the clients' reader threads fill their queues meanwhile
    raise AssertionError("the game did not end (or no rated message) in %d rounds" % limit)


def check_rated(msg, names_by_seat, winner):
    expect(msg["pool"] == "ur/skiryuk", "the pool: %r" % msg)
    seats = msg["seats"]
    expect(len(seats) == 2 and all(s["person"] for s in seats), "two persons: %r" % seats)
    for i, s in enumerate(seats):
        expect(abs(s["before"] - 1500) < 1e-9 and abs(s["before_rd"] - 350) < 1e-9,
               "a new player is rated from 1500/350: %r" % s)
        expect((s["after"] > 1500) == (i == winner), "the winner up, the loser down: %r" % seats)
        expect(s["after_rd"] < 350, "the deviation shrinks: %r" % s)


def test_rated_game_and_kill_9(args):
    rng = random.Random(33)
    srv = ServerProcess(args.parlour, web=args.web, extra_args=FAST)
    try:
        srv.start()
        p = srv.port
        ta, tb = signup(p, "Ann"), signup(p, "Bob")
        a, b, g = ws(p, ta), ws(p, tb), ws(p)
        g.send({"type": "create", "game": "ur", "rated": True})
        e = g.wait_for("error")
        expect(e["error"] == "rated" and e["request"] == "create", "a guest cannot create a rated room: %r" % e)
        a.send({"type": "create", "game": "ur", "options": {"pieces": "3"}, "rated": True})
        e = a.wait_for("error")
        expect(e["error"] == "rated" and "not rated" in e["message"], "a variant is not rated: %r" % e)
        a.send({"type": "create", "game": "ur", "rated": True, "seats": [{"kind": "person"},
                                                                          {"kind": "ai", "level": "easy"}]})
        code_ai = a.wait_for("created")["room"]
        a.send({"type": "create", "game": "ur", "rated": True})
        code = a.wait_for("created")["room"]
        sa, sb = seat_up(a, code), seat_up(b, code)
        g.send({"type": "join", "room": code, "name": "Guest"})
        e = g.wait_for("error")
        expect(e["error"] == "rated" and e["request"] == "join", "a guest cannot join a rated room: %r" % e)
        expect(code_ai, "a rated room with a computer at a rated level")
        states, rated = play_out([a, b], rng)
        winner = states[0]["result"]["winner"]
        names = {sa: "Ann", sb: "Bob"}
        check_rated(rated[0], names, winner)
        expect(rated[0]["seats"] == rated[1]["seats"], "both see the same: %r / %r" % (rated[0], rated[1]))
        srv.kill()  # kill -9 right after the message: what was shown is on disk
        got = stored_as_shown(srv.db, names, rated[0])
        srv.start()  # and a restart keeps it
        srv.stop()
        expect(stored_ratings(srv.db) == got, "the same after a restart")
        for c in (a, b, g):
            c.close()
    finally:
        if srv.proc:
            srv.kill()
        srv.cleanup()


def test_casual_changes_nothing(args):
    rng = random.Random(7)
    with ServerProcess(args.parlour, web=args.web, extra_args=FAST) as srv:
        p = srv.port
        a, b = ws(p, signup(p, "Ann")), ws(p, signup(p, "Bob"))
        a.send({"type": "create", "game": "ur"})
        code = a.wait_for("created")["room"]
        seat_up(a, code)
        seat_up(b, code)
        states, rated = play_out([a, b], rng, want_rated=False)
        expect(states[0]["over"] and not rated, "no rated message in a casual room: %r" % rated)
        a.send({"type": "create", "game": "ur"})  # a round trip after the finish: it is stored
        a.wait_for("created")
        expect(stored_ratings(srv.db) == {}, "no rating: %r" % stored_ratings(srv.db))
        a.close()
        b.close()


def test_leaver_past_grace_loses(args):
    rng = random.Random(5)
    with ServerProcess(args.parlour, web=args.web, extra_args=FAST) as srv:
        p = srv.port
        a, b = ws(p, signup(p, "Ann")), ws(p, signup(p, "Bob"))
        a.send({"type": "create", "game": "ur", "rated": True, "grace_s": 1})
        code = a.wait_for("created")["room"]
        sa, sb = seat_up(a, code), seat_up(b, code)
        b.close()  # Bob leaves; after a second the computer keeps his seat
        states, rated = play_out([a], rng)
        seats = rated[0]["seats"]
        expect(seats[sb]["left"] and not seats[sa]["left"], "Bob left: %r" % seats)
        expect(seats[sb]["after"] < 1500, "the leaver loses, whoever won on the board (%s): %r"
               % (states[0]["result"], seats))
        # the one who stayed wins, whoever won on the board: the leaver's side forfeits, no one
        # loses rating to the computer that finished his seat (docs/ratings.md, "Leaving a rated game")
        expect(seats[sa]["after"] > 1500,
               "Ann, who stayed, wins against the leaver (board: %s): %r" % (states[0]["result"], seats))
        a.close()


def test_staller_loses(args):
    """Stalling counts as leaving (docs/ratings.md, "Stalling"): Bob stays connected and never
    moves; after his move clock ran out 3 times in a row the computer keeps his seat (covered,
    stalled), his own move is refused, and the finish rates him the leaver: a loss, Ann a win."""
    rng = random.Random(8)
    with ServerProcess(args.parlour, web=args.web, extra_args=FAST) as srv:
        p = srv.port
        a, b = ws(p, signup(p, "Ann")), ws(p, signup(p, "Bob"))
        a.send({"type": "create", "game": "ur", "rated": True, "clock": {"move_s": 2}})
        code = a.wait_for("created")["room"]
        sa, sb = seat_up(a, code), seat_up(b, code)
        states, rated = play_out([a], rng)  # Bob never acts; his connection stays
        seats = rated[0]["seats"]
        expect(seats[sb]["left"] and not seats[sa]["left"], "Bob stalled, counted as leaving: %r" % seats)
        expect(seats[sb]["after"] < 1500 < seats[sa]["after"],
               "the staller loses, the other wins, whoever won on the board (%s): %r"
               % (states[0]["result"], seats))
        last = None
        for m in b.poll():
            last = m if m.get("type") == "state" else last
            if m.get("type") == "rated":
                expect(m["seats"] == seats, "Bob sees the same: %r" % m)
        shown = last["seats"][sb] if last else states[0]["seats"][sb]
        expect(shown["covered"] and shown.get("stalled") and shown["connected"],
               "Bob's seat: covered and stalled, still connected: %r" % shown)
        expect(stored_ratings(srv.db)[("Bob", "ur/skiryuk")][0] == seats[sb]["after"], "stored as shown")
        a.close()
        b.close()


def stored_as_shown(db, names, rated):
    """The ratings stored in `db` (stored_ratings); checks that each of `names` ({seat: name})
    has one game in ur/skiryuk and the rating the `rated` message showed its seat."""
    got = stored_ratings(db)
    for seat, name in names.items():
        r, d, n = got[(name, "ur/skiryuk")]
        shown = rated["seats"][seat]
        expect(n == 1 and r == shown["after"] and d == shown["after_rd"],
               "%s's stored rating %r is what was shown %r" % (name, (r, d, n), shown))
    return got


def seek(c, computer_after_s=0, name=None):
    """Seeks Ur on connection c (as `name` if given); waits for `seeking`."""
    msg = {"type": "seek", "game": "ur", "computer_after_s": computer_after_s}
    if name:
        msg["name"] = name
    c.send(msg)
    c.wait_for("seeking")


def join_paired(c):
    """Waits for c's `paired` and joins that room. Returns the `paired` message."""
    p = c.wait_for("paired", timeout=30)
    c.send({"type": "join", "room": p["room"], "token": p["token"]})
    c.wait_for("joined")
    return p


def paired(c, computer_after_s=0, name=None):
    """Seeks Ur on connection c; joins the room it is paired into. Returns the `paired` message."""
    seek(c, computer_after_s, name)
    return join_paired(c)


def pair_two(a, b, b_name):
    """b seeks Ur as `b_name` and waits; a seeks and is paired with it; both join.
    Returns (a's `paired`, b's `paired`)."""
    seek(b, name=b_name)
    pa = paired(a)
    return pa, join_paired(b)


def test_play_now_rated_for_accounts(args):
    """Play now pairs signed-in people into a rated room, seated as their accounts (the name a
    seek carries is not theirs to choose); the ratings are shown and stored (kill -9 right after
    the message); a guest's pairing stays casual; a computer pairing of an account is rated
    against the level's fixed rating."""
    rng = random.Random(34)
    with ServerProcess(args.parlour, web=args.web, extra_args=FAST) as srv:
        p = srv.port
        a, b = ws(p, signup(p, "Ann")), ws(p, signup(p, "Bob"))
        pa, pb = pair_two(a, b, "Mallory")
        expect(pa["room"] == pb["room"], "one room: %r %r" % (pa, pb))
        first = [a.wait_for("state"), b.wait_for("state")]  # given to play_out: read once
        seats = first[1]["seats"]
        expect(all(f["clock"]["move_s"] == 60 for f in first),
               "a rated Play now room has the move clock of rated rooms: %r" % [f["clock"] for f in first])
        names = {pa["seat"]: "Ann", pb["seat"]: "Bob"}
        expect(all(seats[s]["name"] == n for s, n in names.items()),
               "seated under the accounts' names, not the seek's: %r" % seats)
        states, rated = play_out([a, b], rng, first=first)
        check_rated(rated[0], names, states[0]["result"]["winner"])
        expect(rated[0]["seats"] == rated[1]["seats"], "both see the same")
        w = ws(p)  # someone who comes later (a reload, a spectator) gets it too, after the state
        w.send({"type": "watch", "room": pa["room"]})
        w.wait_for("state")
        again = w.wait_for("rated")
        expect(again == rated[0], "the rated message again to a later watcher: %r" % again)
        w.close()
        srv.kill()  # kill -9 right after the message
        stored_as_shown(srv.db, names, rated[0])
        a.close()
        b.close()
        srv.start()
        p = srv.port
        # a guest and an account: a casual game, no rating changes
        c, g = ws(p, signup(p, "Cat")), ws(p)
        pc, pg = pair_two(c, g, "Guest")
        states, rated = play_out([c, g], rng, want_rated=False)
        expect(not rated, "a guest's pairing is casual: %r" % rated)
        # an account with a computer: rated against the level's fixed rating
        d = ws(p, signup(p, "Dan"))
        pd = paired(d, computer_after_s=1)
        expect(pd["computer"], "a computer pairing: %r" % pd)
        states, rated = play_out([d], rng)
        seats = rated[0]["seats"]
        me, cpu = seats[pd["seat"]], seats[1 - pd["seat"]]
        expect(me["person"] and not cpu["person"] and cpu["before"] == cpu["after"],
               "the person rated, the computer's rating fixed: %r" % seats)
        expect(abs(me["before"] - 1500) < 1e-9 and (me["after"] > 1500) == (states[0]["result"]["winner"] == pd["seat"]),
               "the rating moves with the result: %r %r" % (seats, states[0]["result"]))
        d.send({"type": "create", "game": "ur"})  # a round trip after the finish: it is stored
        d.wait_for("created")
        got = stored_ratings(srv.db)
        expect(("Cat", "ur/skiryuk") not in got and got[("Dan", "ur/skiryuk")][0] == me["after"],
               "Cat's casual game stored no rating, Dan's rated one its: %r" % got)
        for x in (c, g, d):
            x.close()


if __name__ == "__main__":
    run_main([test_rated_game_and_kill_9, test_casual_changes_nothing, test_leaver_past_grace_loses,
              test_staller_loses, test_play_now_rated_for_accounts], parse_args())

#!/usr/bin/env python3
"""test_playnow.py -- "Play now" over real sockets (issue 33 §3, docs/web-protocol.md
"Play now"): `seek`, `seeking`, `paired`, `unseek`, `counts` against `parlour serve`.

Usage: test_playnow.py --parlour BINARY --web DIR

Two connections that seek Ur are paired into one new private room and both join it with
the token `paired` gave and play a move; a seeker that allows a computer after 2 s is
seated with the computer level whose measured rating (data/ratings/levels.txt) is nearest
its own; ratings further apart than any window wait (a test server, --test-seed, takes a
`rating` field); a signed-in seeker is rated by the store's rating (seeded in the SQLite
file: two far apart wait, a near one is paired at once, into a rated room; guests get a
casual one); bad shapes are refused with a
clear error and change nothing; a closed connection's seek is gone; the lobby's `counts`.
Python's standard library only.
"""
import os
import shutil
import sqlite3
import sys
import tempfile
import time

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from wsclient import ServerProcess, WSClient, check, parse_args, run_main  # noqa: E402
from driver import Conn  # noqa: E402
from test_accounts import room_config, signup, ws  # noqa: E402

SRV = {}


def server(args):
    if "s" not in SRV:
        srv = ServerProcess(args.parlour, web=args.web, test_seed=33)
        srv.start()
        SRV["s"] = srv
    return SRV["s"]


def conn(args, name):
    return Conn(WSClient(server(args).port), name)


def seek(c, **fields):
    msg = {"type": "seek", "game": "ur", "computer_after_s": 0, "name": c.name}
    msg.update(fields)
    return c.request(msg, answers=("seeking", "error"))


def test_two_people_paired_join_and_play(args):
    ann, bob = conn(args, "Ann"), conn(args, "Bob")
    a = seek(ann)
    check(a["type"] == "seeking" and a["pool"] == "ur/skiryuk" and a["game"] == "ur", "seeking: %s" % a)
    b = seek(bob)
    check(b["type"] == "seeking", "seeking: %s" % b)
    pa, pb = ann.wait_type("paired"), bob.wait_type("paired")
    check(pa["room"] == pb["room"] and len(pa["room"]) == 32, "one room: %s %s" % (pa, pb))
    check({pa["seat"], pb["seat"]} == {0, 1}, "two seats: %s %s" % (pa, pb))
    check(pa["token"] != pb["token"] and not pa["computer"], "their own tokens, people: %s %s" % (pa, pb))
    check(pa["rated"] is False and pb["rated"] is False, "guests: a casual room: %s" % pa)
    ann.rejoin(pa["room"], pa["token"])
    bob.rejoin(pb["room"], pb["token"])
    ann.wait(lambda: ann.state["status"] == "playing", what="playing")
    names = sorted(s["name"] for s in ann.state["seats"])
    check(names == ["Ann", "Bob"], "the seats are theirs by name: %s" % ann.state["seats"])
    mover = ann if ann.state["legal"] else bob
    mover.wait(lambda: mover.state["legal"], what="a legal move")
    r = mover.act(mover.state["legal"][0]["action"], mover.state["seq"])
    check(r["type"] == "accepted", "the move: %s" % r)
    # the room is private: not in the lobby's list
    rooms = ann.request({"type": "rooms"}, answers=("rooms",))
    check(all(x["room"] != pa["room"] for x in rooms["rooms"]), "a Play now room is not public")
    # in a room, a seek is refused
    e = seek(ann)
    check(e["type"] == "error" and e["error"] == "seek" and "leave" in e["message"], "seek in a room: %s" % e)
    ann.close()
    bob.close()


def computer_level(args, rating, want):
    cat = conn(args, "Cat")
    s = seek(cat, computer_after_s=2, rating=rating)
    check(s["type"] == "seeking" and s["computer_after_s"] == 2, "seeking: %s" % s)
    p = cat.wait_type("paired", timeout=20)
    check(p["computer"] is True and p["pool"] == "ur/skiryuk", "a computer pairing: %s" % p)
    cat.rejoin(p["room"], p["token"])
    seats = cat.state["seats"]
    other = seats[1 - p["seat"]]
    check(other["kind"] == "ai" and other["level"] == want,
          "rating %s: the computer nearest is %s, seated %s" % (rating, want, other))
    check(seats[p["seat"]]["name"] == "Cat", "the person's seat: %s" % seats)
    cat.close()


def test_computer_after_n_seconds_nearest_level(args):
    # levels.txt, ur/skiryuk: easy 1000, hard 1331, medium 1390
    computer_level(args, 1500, "medium")
    computer_level(args, 1100, "easy")
    computer_level(args, 1340, "hard")


def test_far_ratings_wait(args):
    ann, bob, cid = conn(args, "Ann"), conn(args, "Bob"), conn(args, "Cid")
    check(seek(ann, rating=1500)["type"] == "seeking", "ann seeks")
    check(seek(bob, rating=2200)["type"] == "seeking", "bob seeks")  # 700 apart: past any window (cap 600)
    check(seek(cid, rating=1520)["type"] == "seeking", "cid seeks")
    pa, pc = ann.wait_type("paired"), cid.wait_type("paired")
    check(pa["room"] == pc["room"], "Ann and Cid (20 apart) are paired: %s %s" % (pa, pc))
    u = bob.request({"type": "unseek"}, answers=("unseeked", "error"))
    check(u == {"type": "unseeked", "pool": "ur/skiryuk"}, "Bob was still waiting: %s" % u)
    check(not [m for m in bob.c.log if m.get("type") == "paired"], "Bob never paired")
    u = bob.request({"type": "unseek"}, answers=("unseeked", "error"))
    check(u == {"type": "unseeked", "pool": None}, "a second unseek: nothing to end: %s" % u)
    for c in (ann, bob, cid):
        c.close()


def seed_rating(db, name, pool, rating, rd):
    """Writes account `name`'s rating in `pool` into the SQLite store (a fixture: as a
    rated game would have left it, its last game now)."""
    con = sqlite3.connect(db, timeout=10)
    try:
        with con:
            (acc,) = con.execute("SELECT id FROM accounts WHERE name = ?", (name,)).fetchone()
            con.execute("INSERT OR REPLACE INTO ratings(account, pool, rating, rd, sigma, games, updated_ms) "
                        "VALUES (?, ?, ?, ?, 0.06, 20, ?)", (acc, pool, rating, rd, int(time.time() * 1000)))
    finally:
        con.close()


def test_stored_ratings_pair(args):
    """Signed-in seekers are rated by the store: Hi (2200) and Lo (1200) are 1,000 apart
    (past any window) and are NOT paired although both wait; Mid (2160) is paired with Hi at
    once. On a server that rated everybody 1500/350 Hi and Lo would be paired at once."""
    tmp = tempfile.mkdtemp(prefix="parlour-playnow-")
    db = os.path.join(tmp, "parlour.db")  # SQLite always: the fixture writes the file
    with ServerProcess(args.parlour, web=args.web, db=db, extra_args=["--test-fast-hash"]) as srv:
        p = srv.port
        tokens = {n: signup(p, n) for n in ("Hi", "Lo", "Mid")}
        for n, r in (("Hi", 2200), ("Lo", 1200), ("Mid", 2160)):
            seed_rating(db, n, "ur/skiryuk", r, 60)
        seed_rating(db, "Lo", "ur/finkel", 2200, 60)  # another pool's rating counts for nothing here
        hi, lo, mid = (Conn(ws(p, tokens[n]), n) for n in ("Hi", "Lo", "Mid"))
        sh = seek(hi, name="ignored")
        check(sh["type"] == "seeking" and sh["rating"] == 2200, "Hi seeks with the stored 2200: %s" % sh)
        sl = seek(lo)
        check(sl["type"] == "seeking" and sl["rating"] == 1200, "Lo seeks with the stored 1200: %s" % sl)
        sm = seek(mid)
        check(sm["type"] == "seeking" and sm["rating"] == 2160, "Mid seeks with the stored 2160: %s" % sm)
        ph, pm = hi.wait_type("paired"), mid.wait_type("paired")
        check(ph["room"] == pm["room"], "Hi and Mid (40 apart) are paired: %s %s" % (ph, pm))
        check(ph["rated"] is True and pm["rated"] is True, "two signed-in people: a rated room: %s" % ph)
        cfg = room_config(db, ph["room"], lambda c: True, "stored")
        check(cfg.get("rated") == 1, "stored as rated: %s" % cfg)
        accounts = sorted(x.get("account", 0) for x in cfg["seats"])
        check(all(a > 0 for a in accounts), "each seat holds its account from the start: %s" % cfg["seats"])
        u = lo.request({"type": "unseek"}, answers=("unseeked", "error"))
        check(u == {"type": "unseeked", "pool": "ur/skiryuk"}, "Lo was still waiting: %s" % u)
        check(not [m for m in lo.c.log if m.get("type") == "paired"], "Lo never paired")
        hi.rejoin(ph["room"], ph["token"])
        names = sorted(s["name"] for s in hi.state["seats"])
        check(names == ["Hi", "Mid"], "seated by their account names: %s" % hi.state["seats"])
        # a guest is a new player: 1500
        g = Conn(WSClient(p), "Guest")
        sg = seek(g)
        check(sg["type"] == "seeking" and sg["rating"] == 1500, "a guest seeks at 1500: %s" % sg)
        for c in (hi, lo, mid, g):
            c.close()
    shutil.rmtree(tmp, ignore_errors=True)


def test_bad_shapes(args):
    c = conn(args, "Eve")
    bad = [
        ({"type": "seek", "game": "ur"}, "shape", "computer_after_s"),
        ({"type": "seek", "game": "ur", "computer_after_s": 121}, "shape", "computer_after_s"),
        ({"type": "seek", "game": "ur", "computer_after_s": -1}, "shape", "computer_after_s"),
        ({"type": "seek", "game": "ur", "computer_after_s": "5"}, "shape", "computer_after_s"),
        ({"type": "seek", "game": "ur", "computer_after_s": 0, "range": 5}, "shape", "range"),
        ({"type": "seek", "game": "ur", "computer_after_s": 0, "colour": "red"}, "shape", "colour"),
        ({"type": "seek", "game": "ur", "computer_after_s": 0, "options": "fast"}, "shape", "options"),
        ({"type": "seek", "game": "ur", "computer_after_s": 0, "name": ""}, "shape", "name"),
        ({"type": "seek", "game": "ur", "computer_after_s": 0, "rating": 9000}, "shape", "rating"),
        ({"type": "seek", "game": "chess", "computer_after_s": 0}, "options", "unknown game"),
        ({"type": "seek", "game": "ur", "computer_after_s": 0, "options": {"rules": "nope"}}, "options", "rules"),
        ({"type": "seek", "game": "karuta", "computer_after_s": 0, "options": {"variant": "uta"}}, "options",
         "not rated"),
        ({"type": "seek", "game": "cbw", "computer_after_s": 0, "options": {"players": "2"}}, "options",
         "not rated"),
        ({"type": "unseek", "pool": "ur/skiryuk"}, "shape", "unseek"),
        ({"type": "counts", "game": "ur"}, "shape", "counts"),
    ]
    for msg, code, word in bad:
        r = c.request(msg, answers=("error", "seeking", "unseeked", "counts"))
        check(r["type"] == "error" and r["error"] == code and word in r["message"] and r["request"] == msg["type"],
              "%s: want error %s naming %r, got %s" % (msg, code, word, r))
    check(seek(c)["type"] == "seeking", "a good seek after the bad ones")
    r = seek(c, game="karuta", options={"variant": "kyogi"})
    check(r["type"] == "error" and r["error"] == "seek" and "already" in r["message"], "one seek: %s" % r)
    check(c.request({"type": "unseek"}, answers=("unseeked",))["pool"] == "ur/skiryuk", "unseek")
    c.close()


def test_closed_connection_seek_gone_and_counts(args):
    watcher, gone, late = conn(args, "Lobby"), conn(args, "Gone"), conn(args, "Late")
    c0 = watcher.request({"type": "counts"}, answers=("counts",))
    check(c0["online"] >= 3 and isinstance(c0["pools"], dict) and isinstance(c0["waiting"], dict),
          "counts: %s" % c0)
    check(seek(gone, game="tamcuc", options={"players": "3"})["pool"] == "tamcuc/3", "seek Tam Cuc for 3")
    watcher.wait_type("counts", pred=lambda m: m["pools"].get("tamcuc/3") == 1 and m["waiting"].get("tamcuc") == 1)
    gone.c.drop()
    watcher.wait_type("counts", pred=lambda m: m["pools"].get("tamcuc/3") == 0)
    # two more seek Tam Cuc for 3: the closed one's seek is gone, so nobody is paired
    other = conn(args, "Other")
    check(seek(late, game="tamcuc", options={"players": "3"})["type"] == "seeking", "late seeks")
    check(seek(other, game="tamcuc", options={"players": "3"})["type"] == "seeking", "other seeks")
    watcher.wait_type("counts", pred=lambda m: m["pools"].get("tamcuc/3") == 2)
    third = conn(args, "Third")
    check(seek(third, game="tamcuc", options={"players": "3"})["type"] == "seeking", "third seeks")
    ps = [c.wait_type("paired") for c in (late, other, third)]
    check(len({p["room"] for p in ps}) == 1 and sorted(p["seat"] for p in ps) == [0, 1, 2],
          "three people in one Tam Cuc room: %s" % ps)
    watcher.wait_type("counts", pred=lambda m: m["pools"].get("tamcuc/3") == 0)
    for c in (watcher, late, other, third):
        c.close()


def test_rating_field_only_on_a_test_server(args):
    with ServerProcess(args.parlour, web=args.web) as srv:
        c = Conn(WSClient(srv.port), "Real")
        r = seek(c, rating=1500)
        check(r["type"] == "error" and r["error"] == "shape" and "rating" in r["message"], "rating: %s" % r)
        c.close()


def test_cluster_mode_pairs_on_its_own_process(args):
    """--cluster (SQLite, one process): the pairing's room is stored without a lease and joined
    back by its code, as a lobby room (docs/pairing.md: across processes is not built yet)."""
    with ServerProcess(args.parlour, web=args.web, test_seed=5, extra_args=["--cluster"]) as srv:
        a, b = Conn(WSClient(srv.port), "A"), Conn(WSClient(srv.port), "B")
        for c in (a, b):
            check(seek(c)["type"] == "seeking", "seeking")
        pa, pb = a.wait_type("paired"), b.wait_type("paired")
        check(pa["room"] == pb["room"], "one room")
        a.rejoin(pa["room"], pa["token"])
        b.rejoin(pb["room"], pb["token"])
        a.wait(lambda: a.state["status"] == "playing", what="playing")
        check(sorted(s["name"] for s in a.state["seats"]) == ["A", "B"], "seated: %s" % a.state["seats"])
        a.close()
        b.close()


def test_stops_cleanly_with_seeks_waiting(args):
    """The shared server stops with status 0 (the ASan build: no leak) while seeks wait."""
    a, b = conn(args, "Stay"), conn(args, "Counter")
    check(seek(a, game="cbw", options={"players": "6"})["pool"] == "cbw/3v3", "a 3 v 3 seek waits")
    check(b.request({"type": "counts"}, answers=("counts",))["pools"].get("cbw/3v3") == 1, "counted")
    srv = SRV.pop("s")
    try:
        srv.stop()
    finally:
        srv.cleanup()


def main():
    args = parse_args()
    try:
        run_main([test_bad_shapes, test_two_people_paired_join_and_play, test_computer_after_n_seconds_nearest_level,
                  test_far_ratings_wait, test_stored_ratings_pair, test_closed_connection_seek_gone_and_counts,
                  test_rating_field_only_on_a_test_server, test_cluster_mode_pairs_on_its_own_process,
                  test_stops_cleanly_with_seeks_waiting], args)
    finally:
        if "s" in SRV:
            SRV["s"].stop(check=False)
            SRV["s"].cleanup()


if __name__ == "__main__":
    main()

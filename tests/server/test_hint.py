#!/usr/bin/env python3
"""test_hint.py -- hints on the wire (issue 34 §3; docs/hints.md, docs/web-protocol.md "hint")
against `parlour serve`: in a casual Ur room Ann asks for a hint at her decision and gets one
`hint` message (a legal action of hers, its fields, a chance in [0,1], not exact: no table)
while Bob (the other seat) and Sam (a spectator) get nothing of it; a second hint at the same
decision is refused ("one hint a move"), the next decision allows one again; Bob asking when
it is not his turn, Sam asking at all, and wrong shapes get one `error` each. In a Tam Cúc room
the hint is a legal action of the asker. With `serve --table` (Finkel's 2-piece table solved by
the test) a hint in a room of those rules is exact. In a rated room (two signed-in people) a hint is
refused with a clear error. A finished Tam Cúc room's `review` is the hidden-card review (issue 34
§5). Python's standard library only.

Usage: test_hint.py --parlour PATH [--web DIR]
"""

import os
import random
import sys
import time

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from wsclient import ServerProcess, WSClient, check, parse_args, run_main  # noqa: E402
from driver import Conn, create_room, person, ai, settle  # noqa: E402
from test_accounts import signup, ws  # noqa: E402


def hints_of(c, start=0):
    return [m for m in c.c.log[start:] if m.get("type") == "hint"]


def one_error(c, msg, code, words):
    """Sends msg; the answer is one error of `code` whose message holds `words`
    (a hello after it is the barrier)."""
    start = len(c.c.log)
    c.c.send(msg)
    c.c.send({"type": "hello", "v": 1})
    c.wait(lambda: any(m.get("type") == "welcome" for m in c.c.log[start:]), 20, "welcome")
    errs = [m for m in c.c.log[start:] if m.get("type") == "error"]
    check(len(errs) == 1 and errs[0]["error"] == code and words in errs[0]["message"],
          "%s: want one %r error saying %r, got %s" % (msg, code, words, errs))
    check(errs[0].get("request") == "hint" or code == "shape", "the error names the request: %s" % errs)


def ask(c):
    """Ann's hint at her decision now: the `hint` message."""
    start = len(c.c.log)
    c.c.send({"type": "hint"})
    c.wait(lambda: hints_of(c, start) or [m for m in c.c.log[start:] if m.get("type") == "error"], 60, "hint")
    h = hints_of(c, start)
    check(h, "%s: no hint but %s" % (c.name, c.c.log[start:]))
    return h[0]


def to_my_turn(me, other, rng):
    """Plays random moves (the other's) until `me` has a choice of more than one move."""
    for _ in range(400):
        settle([me, other], lambda: me.state["seq"] == other.state["seq"])
        if me.state["legal"] and len(me.state["legal"]) > 1:
            return
        mover = me if me.state["legal"] else other
        if mover.state["legal"]:
            time.sleep(0.06)  # under the hub's 20 messages a second
            s = mover.state
            r = mover.act(rng.choice(s["legal"])["action"], s["seq"])
            check(r["type"] == "accepted", "refused: %s" % r)
            settle([me, other], lambda: me.state["seq"] > s["seq"] and other.state["seq"] > s["seq"])
        else:
            time.sleep(0.01)
    raise AssertionError("no choice for %s" % me.name)


def test_casual_ur_hint_to_the_asker_only(args):
    rng = random.Random(34)
    srv = ServerProcess(args.parlour, web=args.web)
    try:
        srv.start()
        owner = Conn(WSClient(srv.port), "owner")
        room = create_room(owner, "ur", seats=[person(), person()])
        owner.close()
        ann, bob, sam = (Conn(WSClient(srv.port), n) for n in ("ann", "bob", "sam"))
        j = ann.join(room, "Ann", seat=0)
        check(j.get("hints") is True, "a casual room gives hints (joined): %r" % j)
        bob.join(room, "Bob", seat=1)
        sam.watch(room)
        settle([ann, bob], lambda: ann.state["status"] == "playing" and bob.state["status"] == "playing")
        one_error(ann, {"type": "hint", "extra": 1}, "shape", "hint")
        one_error(ann, {"type": "hint", "seat": "0"}, "shape", "hint")
        one_error(sam, {"type": "hint"}, "hint", "spectators")
        to_my_turn(ann, bob, rng)
        one_error(bob, {"type": "hint"}, "hint", "not your turn")
        b0, s0 = len(bob.c.log), len(sam.c.log)
        h = ask(ann)
        legal = {a["action"]: a for a in ann.state["legal"]}
        check(h["action"] in legal, "the hint %r is one of Ann's legal moves %s" % (h["action"], list(legal)))
        check(h["fields"] == legal[h["action"]]["fields"], "the hint's fields are the legal action's: %r" % h)
        check(0 <= h["win"] <= 1 and h["exact"] is False and h["seat"] == 0, "an estimate: %r" % h)
        check(h["seq"] == ann.state["seq"], "the hint names its decision: %r" % h)
        one_error(ann, {"type": "hint"}, "hint", "one hint a move")
        # a barrier for the others: everything sent before it has arrived
        for c in (bob, sam):
            c.c.send({"type": "hello", "v": 1})
            c.wait(lambda c=c: any(m.get("type") == "welcome" for m in c.c.log[b0 if c is bob else s0:]), 20, "w")
        check(not hints_of(bob, b0) and not hints_of(sam, s0), "the hint went to Ann alone")
        # Ann plays the hint; at her next decision she may ask again
        r = ann.act(h["action"], ann.state["seq"])
        check(r["type"] == "accepted", "the hint is playable: %s" % r)
        to_my_turn(ann, bob, rng)
        h2 = ask(ann)
        check(h2["action"] in {a["action"] for a in ann.state["legal"]}, "a second decision's hint: %r" % h2)
        for c in (ann, bob, sam):
            c.close()
    finally:
        srv.stop()


def test_tamcuc_hint_is_legal(args):
    srv = ServerProcess(args.parlour, web=args.web)
    try:
        srv.start()
        ann = Conn(WSClient(srv.port), "ann")
        room = create_room(ann, "tamcuc", seats=[person(), ai("easy"), ai("easy"), ai("easy")])
        ann.join(room, "Ann", seat=0)
        ann.wait(lambda: ann.state["legal"], 60, "Ann to act")
        h = ask(ann)
        check(h["action"] in {a["action"] for a in ann.state["legal"]}, "a legal Tam Cúc hint: %r" % h)
        check(0 <= h["win"] <= 1 and h["exact"] is False, "an estimate: %r" % h)
        ann.close()
    finally:
        srv.stop()


def test_exact_hint_from_a_table(args):
    """`serve --table` with Finkel's 2-piece table: a hint in a room of those rules is exact."""
    import subprocess
    import tempfile
    tmp = tempfile.mkdtemp(prefix="parlour-hint-")
    table = os.path.join(tmp, "f2.tbl")
    subprocess.run([os.path.abspath(args.parlour), "solve", "ur", "rules=finkel", "pieces=2", "--quiet", "--out",
                    table], check=True, stdout=subprocess.DEVNULL)
    srv = ServerProcess(args.parlour, web=args.web, extra_args=["--table", table])
    try:
        srv.start()
        ann = Conn(WSClient(srv.port), "ann")
        room = create_room(ann, "ur", {"rules": "finkel", "pieces": "2"}, seats=[person(), ai("easy")])
        ann.join(room, "Ann", seat=0)
        ann.wait(lambda: ann.state["legal"] and len(ann.state["legal"]) > 1 and not ann.state["over"], 60,
                 "a choice")
        h = ask(ann)
        check(h["exact"] is True and 0 <= h["win"] <= 1, "an exact hint from the table: %r" % h)
        check(h["action"] in {a["action"] for a in ann.state["legal"]}, "a legal exact hint: %r" % h)
        ann.close()
    finally:
        srv.stop()
        import shutil
        shutil.rmtree(tmp, ignore_errors=True)


def test_review_of_a_hidden_card_game(args):
    """A finished Tam Cúc room of four computers: `review` answers a hidden-card review (each
    decision from its decider's view, docs/hints.md)."""
    srv = ServerProcess(args.parlour, web=args.web)
    try:
        srv.start()
        sam = Conn(WSClient(srv.port), "sam")
        room = create_room(sam, "tamcuc", {"players": "4"}, seats=[ai("easy")] * 4)
        sam.watch(room)
        sam.wait(lambda: sam.state["over"], 120, "the game's end")
        r = sam.request({"type": "review", "room": room}, 120, answers=("review", "error"))
        check(r["type"] == "review" and r["review"]["kind"] == "hidden" and r["review"]["estimate"] is True,
              "a hidden-card review: %s" % str(r)[:300])
        rv = r["review"]
        check(len(rv["decisions"]) == 4 and sum(rv["decisions"]) == rv["ndecisions"] > 0, "counts: %r" % rv)
        for m in rv["moves"]:
            check(m["played"] != m["best"] and 0 <= m["played_value"] <= 1 and 0 <= m["best_value"] <= 1
                  and isinstance(m["best_fields"], dict) and isinstance(m["played_fields"], dict), "a move: %r" % m)
        sam.close()
    finally:
        srv.stop()


def test_rated_room_refuses_hints(args):
    srv = ServerProcess(args.parlour, web=args.web, extra_args=["--test-fast-hash"])
    try:
        srv.start()
        p = srv.port
        ta, tb = signup(p, "Ann"), signup(p, "Bob")
        a, b = ws(p, ta), ws(p, tb)
        a.send({"type": "create", "game": "ur", "rated": True})
        code = a.wait_for("created")["room"]
        for c in (a, b):
            c.send({"type": "join", "room": code, "name": "x"})
            j = c.wait_for("joined")
            check(j.get("hints") is False, "a rated room gives no hints (joined): %r" % j)
        a.wait_for("state", 20, lambda m: m.get("status") == "playing")
        a.send({"type": "hint"})
        e = a.wait_for("error", 20, lambda m: m.get("request") == "hint")
        check(e["error"] == "hint" and "rated" in e["message"], "no hints in a rated game: %r" % e)
        b.send({"type": "hint"})
        e = b.wait_for("error", 20, lambda m: m.get("request") == "hint")
        check(e["error"] == "hint" and "rated" in e["message"], "no hints in a rated game: %r" % e)
        check(not [m for m in a.log + b.log if m.get("type") == "hint"], "no hint at all")
        a.close()
        b.close()
    finally:
        srv.stop()


if __name__ == "__main__":
    run_main([test_casual_ur_hint_to_the_asker_only, test_tamcuc_hint_is_legal, test_exact_hint_from_a_table,
              test_review_of_a_hidden_card_game, test_rated_room_refuses_hints],
             parse_args())

#!/usr/bin/env python3
"""test_takeback.py -- issue 31 §5 and §7 over real sockets against `parlour serve`:
a person's only legal move is played for them (the history entry's "forced"), and a
takeback between two people (docs/web-protocol.md, "Takebacks"): asked, declined (nothing
changes, not again before the next move), asked again and accepted (the state goes back to
before the asker's last move), hostile requests refused with one `error` each (a spectator,
an answer with nothing asked, one's own request, a second request, wrong shapes), and after
`kill -9` and a restart on the same database the room is exactly as the players last saw it
(the takeback is stored as its own entry). Then the game is played to its end.

Usage: test_takeback.py --parlour PATH [--web DIR]
"""

import os
import random
import sys
import time

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from wsclient import ServerProcess, WSClient, canonical, check, parse_args, run_main  # noqa: E402
from driver import Conn, create_room, person, settle  # noqa: E402

SEED = 31


def pair(srv):
    """Ann (seat 0) and Bob (seat 1) in a new Ur room; the room's code."""
    owner = Conn(WSClient(srv.port), "owner")
    room = create_room(owner, "ur", seats=[person(), person()])
    owner.close()
    ann, bob = Conn(WSClient(srv.port), "ann"), Conn(WSClient(srv.port), "bob")
    ann.join(room, "Ann", seat=0)
    bob.join(room, "Bob", seat=1)
    settle([ann, bob], lambda: ann.state["status"] == "playing" and bob.state["status"] == "playing")
    return room, ann, bob


def same_seq(a, b):
    settle([a, b], lambda: a.state["seq"] == b.state["seq"], 20, "the same history length")


def play(c, rng):
    """c plays a random legal move; returns the state it played from (at most about 15 a
    second: the hub answers more than 20 messages a second with `rate`)."""
    time.sleep(0.06)
    s = c.state
    r = c.act(rng.choice(s["legal"])["action"], s["seq"])
    check(r["type"] == "accepted", "%s: refused %s" % (c.name, r))
    c.wait(lambda: c.state["seq"] > s["seq"], 20, "the state after the move")
    return s


def own_move(ann, bob, rng):
    """Plays until Ann has just made a move of her own (a choice); the state she played from."""
    for _ in range(400):
        same_seq(ann, bob)
        if ann.state["over"]:
            raise AssertionError("the game ended before a move of Ann's own")
        if len(ann.state["legal"]) > 1:
            s = play(ann, rng)
            same_seq(ann, bob)
            return s
        check(len(ann.state["legal"]) != 1 and len(bob.state["legal"]) != 1, "a single move offered")
        if bob.state["legal"]:
            play(bob, rng)
    raise AssertionError("Ann never had a choice")


def one_error(c, msg, code):
    """Sends msg; the answer is one error of `code` (a hello after it is the barrier)."""
    start = len(c.c.log)
    c.c.send(msg)
    c.c.send({"type": "hello", "v": 1})
    c.wait(lambda: any(m.get("type") == "welcome" for m in c.c.log[start:]), 20, "welcome")
    errs = [m for m in c.c.log[start:] if m.get("type") == "error"]
    check(len(errs) == 1 and errs[0]["error"] == code, "%s: want one %r error, got %s" % (msg, code, errs))


def snapshot(c):
    return canonical({"seq": c.state["seq"], "view": c.state["view"], "legal": c.state["legal"]})


def test_forced_and_takeback_survive_kill(args):
    rng = random.Random(SEED)
    srv = ServerProcess(args.parlour, args.web, test_seed=SEED).start()
    try:
        room, ann, bob = pair(srv)
        spec = Conn(WSClient(srv.port), "spec")
        spec.watch(room)
        # hostile: nothing asked, shapes, a spectator, nothing to take back yet
        one_error(bob, {"type": "takeback_answer", "accept": True}, "takeback")
        one_error(ann, {"type": "takeback_answer", "accept": "yes"}, "shape")
        one_error(ann, {"type": "takeback", "moves": 2}, "shape")
        one_error(spec, {"type": "takeback"}, "seat")
        # asked, declined
        own_move(ann, bob, rng)
        before = snapshot(ann)
        ann.c.send({"type": "takeback"})
        bob.wait(lambda: (bob.state.get("takeback") or {}).get("by") == 0, 20, "the question")
        one_error(ann, {"type": "takeback"}, "takeback")  # one at a time
        one_error(ann, {"type": "takeback_answer", "accept": True}, "takeback")  # not one's own
        one_error(spec, {"type": "takeback_answer", "accept": True}, "seat")
        bob.c.send({"type": "takeback_answer", "accept": False})
        told = ann.wait_type("takeback")
        check(told["result"] == "declined" and told["seat"] == 1 and told["by"] == 0, "declined: %s" % told)
        ann.wait(lambda: "takeback" not in ann.state, 20, "the question gone")
        check(snapshot(ann) == before, "declined: nothing changed")
        one_error(ann, {"type": "takeback"}, "takeback")  # not again before the next move
        # asked again after a move, accepted
        s0 = own_move(ann, bob, rng)
        ann.c.send({"type": "takeback"})
        bob.wait(lambda: "takeback" in bob.state, 20, "the question")
        bob.c.send({"type": "takeback_answer", "accept": True})
        told = bob.wait_type("takeback", pred=lambda m: m["result"] == "accepted")
        check(told["moves"] >= 1, "moves taken back: %s" % told)
        ann.wait(lambda: ann.state["seq"] == s0["seq"], 20, "back to before Ann's move")
        check(canonical(ann.state["view"]) == canonical(s0["view"]), "the view before Ann's move")
        check(len(ann.state["legal"]) > 1, "Ann chooses again")
        same_seq(ann, bob)
        back = snapshot(ann)
        forced = {e["seq"] for st in ann.states for e in st["history"] if e.get("forced")}
        check(forced, "a move was played for a person (forced)")
        # kill -9 and restart on the same database: the room as they last saw it
        srv.kill()
        srv.start()
        ann2, bob2 = Conn(WSClient(srv.port), "ann2"), Conn(WSClient(srv.port), "bob2")
        ann2.rejoin(room, ann.token)
        bob2.rejoin(room, bob.token)
        check(snapshot(ann2) == back, "after kill -9: the same seq, view and legal moves")
        again = {e["seq"] for e in ann2.state["history"] if e.get("forced")}
        check({q for q in forced if q < back_seq(back)} <= again, "the forced entries come back marked")
        # and the game goes on to its end
        for _ in range(3000):
            settle([ann2, bob2], lambda: ann2.state["seq"] == bob2.state["seq"] or ann2.state["over"])
            if ann2.state["over"] and bob2.state["over"]:
                break
            mover = ann2 if ann2.state["legal"] else bob2 if bob2.state["legal"] else None
            if mover is None:
                settle([ann2, bob2], lambda: ann2.state["legal"] or bob2.state["legal"] or ann2.state["over"])
                continue
            play(mover, rng)
        check(ann2.state["over"], "the game ended")
        one_error(ann2, {"type": "takeback"}, "takeback")  # not in a finished game
        for c in (ann, bob, spec, ann2, bob2):
            c.close()
    finally:
        srv.stop(check=False)
        srv.cleanup()


def back_seq(snap_text):
    import json
    return json.loads(snap_text)["seq"]


if __name__ == "__main__":
    run_main([test_forced_and_takeback_survive_kill], parse_args())

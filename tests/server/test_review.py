#!/usr/bin/env python3
"""test_review.py -- issue 34 §1 over real sockets against `parlour serve`: the `review`
request (docs/web-protocol.md, docs/review.md). A finished two-piece Ur room between two
computers is reviewed exactly from a table the test solves (`parlour solve ... --out`, loaded
with `serve --table`), with the same numbers as `parlour review --table --json` of the room's
record; a finished seven-piece room (no table holds it) is reviewed as an estimate; a room
that is not over, a room that does not exist and a bad shape each get one `error`.

Usage: test_review.py --parlour PATH [--web DIR]
"""

import json
import os
import subprocess
import sys
import tempfile

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from wsclient import ServerProcess, WSClient, check, parse_args, run_main  # noqa: E402
from driver import Conn, ai, create_room, person  # noqa: E402


def finished_room(srv, options):
    """A room of Ur with `options` played to its end by two computers; (code, watcher)."""
    owner = Conn(WSClient(srv.port), "owner")
    room = create_room(owner, "ur", options=options, seats=[ai("easy"), ai("easy")])
    owner.watch(room)
    owner.wait(lambda: owner.state["over"], 120, "the end of the game")
    return room, owner


def test_review(args):
    tmp = tempfile.mkdtemp(prefix="parlour-review-")
    table = os.path.join(tmp, "s2.tbl")
    subprocess.run([args.parlour, "solve", "ur", "pieces=2", "start=light", "--quiet", "--out", table],
                   check=True, stdout=subprocess.DEVNULL)
    with ServerProcess(args.parlour, args.web, extra_args=["--table", table]) as srv:
        room, c = finished_room(srv, {"pieces": 2, "start": "light"})
        r = c.request({"type": "review", "room": room}, 120, answers=("review", "error"))
        check(r["type"] == "review", "review refused: %s" % r)
        check(r["room"] == room, "the answer names its room")
        rv = r["review"]
        check(rv["exact"] is True, "a two-piece game under a loaded table is reviewed exactly")
        check(rv["over"] is True and rv["end"] in (0, 1, 0.0, 1.0), "the end is the result: %s" % rv["end"])
        check(len(rv["series"]) == rv["actions"] + 1, "a value before every action and at the end")
        check(len(rv["seats"]) == 2 and all("accuracy" in s for s in rv["seats"]), "both seats' figures")
        for s, seat in enumerate(rv["seats"]):
            res = rv["end"] if s == 0 else 1 - rv["end"]
            start = rv["start"] if s == 0 else 1 - rv["start"]
            check(abs((res - start) - (seat["luck"] + seat["skill"])) < 1e-9, "result - start = luck + skill")
        # the same review from the room's record, by the terminal's command
        rec = c.request({"type": "record", "who": "referee"}, 20, answers=("record", "error"))
        check(rec["type"] == "record", "the referee's record: %s" % rec)
        path = os.path.join(tmp, "game.json")
        with open(path, "w") as f:
            json.dump(rec["record"], f)
        out = subprocess.run([args.parlour, "review", path, "--table", table, "--json"], check=True,
                             capture_output=True, text=True).stdout
        cli = json.loads(out)
        check(cli["moves"] == rv["moves"] and cli["series"] == rv["series"], "the server's review is the terminal's")
        # not over yet, no such room, a bad shape
        owner = Conn(WSClient(srv.port), "owner2")
        live = create_room(owner, "ur", options={"pieces": 2}, seats=[person(), person()])
        e = owner.request({"type": "review", "room": live}, 20, answers=("review", "error"))
        check(e["type"] == "error" and e["error"] == "over", "a game not over: %s" % e)
        e = owner.request({"type": "review", "room": "0" * 32}, 20, answers=("review", "error"))
        check(e["type"] == "error" and e["error"] == "room", "no such room: %s" % e)
        e = owner.request({"type": "review", "room": 7}, 20, answers=("review", "error"))
        check(e["type"] == "error" and e["error"] == "shape", "a bad shape: %s" % e)
        # seven pieces: no table holds it, an estimate
        room7, c7 = finished_room(srv, {})
        r = c7.request({"type": "review", "room": room7}, 300, answers=("review", "error"))
        check(r["type"] == "review", "review refused: %s" % r)
        check(r["review"]["exact"] is False and r["review"]["iterations"] == 1000, "an estimate, labelled")
        check(len(r["review"]["moves"]) > 10, "the decisions of a whole game")


if __name__ == "__main__":
    run_main([test_review], parse_args())

#!/usr/bin/env python3
"""test_review_upload.py -- issue 34 over real sockets against `parlour serve`: the review of a
record the player uploads (docs/web-protocol.md, "Reviews"; docs/review.md). The record goes up
as a replay does (`replay_part`, the last part with `review: true`) and comes back as `review`
with room null: a two-piece Ur record exactly from a table the test solves (the same numbers as
`parlour review --table --json`), in one part and in several; a Tam Cúc record from each
decider's own view, naming only moves the record holds; wrong shapes, a part too long, a game
not over, a seat's record (no hidden cards: refused, and the refusal names none of them) and a
fifth review while four are out (`rate`) each get one `error`.

Usage: test_review_upload.py --parlour PATH [--web DIR]
"""

import json
import os
import subprocess
import sys
import tempfile

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from wsclient import ServerProcess, WSClient, check, parse_args, run_main  # noqa: E402
from driver import Conn  # noqa: E402

RECORDS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "records")


def record_text(name):
    with open(os.path.join(RECORDS, name)) as f:
        return f.read()


def upload_review(c, text, parts=1, timeout=300):
    """Sends `text` in `parts` parts, the last with review: true; the answer (review or error)."""
    size = -(-len(text) // parts)
    chunks = [text[i:i + size] for i in range(0, len(text), size)]
    for ch in chunks[:-1]:
        c.c.send({"type": "replay_part", "data": ch, "last": False})
    return c.request({"type": "replay_part", "data": chunks[-1], "last": True, "review": True}, timeout,
                     answers=("review", "error"))


def error_of(c, obj, code, what):
    e = c.request(obj, 30, answers=("review", "replay", "error"))
    check(e["type"] == "error" and e["error"] == code, "%s: %s" % (what, e))
    return e


def test_review_upload(args):
    tmp = tempfile.mkdtemp(prefix="parlour-review-upload-")
    table = os.path.join(tmp, "s2.tbl")
    subprocess.run([args.parlour, "solve", "ur", "pieces=2", "start=light", "--quiet", "--out", table],
                   check=True, stdout=subprocess.DEVNULL)
    ur = record_text("ur_review_two_pieces.json")
    cli = json.loads(subprocess.run([args.parlour, "review", os.path.join(RECORDS, "ur_review_two_pieces.json"),
                                     "--table", table, "--json"], check=True, capture_output=True,
                                    text=True).stdout)
    with ServerProcess(args.parlour, args.web, extra_args=["--table", table]) as srv:
        c = Conn(WSClient(srv.port), "uploader")
        # Ur, one part and three: exact, the terminal's numbers, room null
        for parts in (1, 3):
            r = upload_review(c, ur, parts)
            check(r["type"] == "review", "review refused: %s" % r)
            check(r["room"] is None, "an upload's review names no room: %s" % r["room"])
            rv = r["review"]
            check(rv["exact"] is True, "a two-piece record under a loaded table is reviewed exactly")
            check(rv["moves"] == cli["moves"] and rv["series"] == cli["series"], "the server's review is the terminal's")
        # shapes: review on a part that is not the last, with a seat, not a boolean; a part too long
        error_of(c, {"type": "replay_part", "data": ur[:100], "last": False, "review": True}, "shape",
                 "review on a part that is not the last")
        error_of(c, {"type": "replay_part", "data": ur, "last": True, "review": True, "seat": 0}, "shape",
                 "review with a seat")
        error_of(c, {"type": "replay_part", "data": ur, "last": True, "review": "yes"}, "shape", "review not a bool")
        error_of(c, {"type": "replay_part", "data": "x" * 6001, "last": True, "review": True}, "too-long",
                 "a part over 6000 bytes")
        # the upload dropped by those: the next whole record is reviewed
        r = upload_review(c, ur)
        check(r["type"] == "review", "after the refusals, a whole record: %s" % r)
        # a game not over
        rec = json.loads(ur)
        rec["actions"] = rec["actions"][:40]
        rec["result"] = None
        e = upload_review(c, json.dumps(rec))
        check(e["type"] == "error" and e["error"] == "over" and e["request"] == "review", "not over: %s" % e)
        # Tam Cúc: from each decider's own view; every move named is one the record holds
        tc_text = record_text("tamcuc_review.json")
        tc = json.loads(tc_text)
        r = upload_review(c, tc_text)
        check(r["type"] == "review" and r["room"] is None, "Tam Cúc's review: %s" % r)
        rv = r["review"]
        check(rv["kind"] == "hidden" and rv["estimate"] is True, "a hidden-card review, an estimate")
        check(sum(rv["decisions"]) > 0, "decisions reviewed")
        for m in rv["moves"]:
            a = tc["actions"][m["index"]]
            check(a["seat"] == m["seat"] and a["action"] == m["played"],
                  "move %d is the record's own: %s vs %s" % (m["index"], m, a))
        check("hand" not in json.dumps(rv), "no hand in the answer")
        # a seat's record (no hidden cards, no seed): refused, naming none of its actions
        view = dict(tc)
        view["format"] = "parlour-record-view"
        view["viewer"] = 0
        del view["seed"]
        view["actions"] = [{"seat": "chance", "action": "deal ?/?/bA,bA,rE,bE,rC,rN,bN,bS/?"}]
        e = upload_review(c, json.dumps(view))
        check(e["type"] == "error" and e["error"] == "record", "a seat's record: %s" % e)
        check("bA" not in e["message"] and "deal" not in e["message"], "the refusal names no card: %s" % e)
        # one review out per connection (a second meanwhile: `rate`), and four out on the
        # server at once: five connections, the fifth refused (a three-piece game: an estimate)
        three = record_text("ur_three_pieces.json")
        half = len(three) // 2
        start = len(c.c.log)
        for _ in range(2):
            c.c.send({"type": "replay_part", "data": three[:half], "last": False})
            c.c.send({"type": "replay_part", "data": three[half:], "last": True, "review": True})

        def answers(x, since=0):
            return [m for m in x.c.log[since:] if m.get("type") in ("review", "error")]
        c.wait(lambda: len(answers(c, start)) == 2, 600, "two answers")
        kinds = sorted(m["type"] + ":" + m.get("error", "") for m in answers(c, start))
        check(kinds == ["error:rate", "review:"], "one connection: one review, then one refusal: %s" % kinds)
        others = [Conn(WSClient(srv.port), "uploader%d" % k) for k in range(5)]
        for o in others:
            o.c.send({"type": "replay_part", "data": three[:half], "last": False})
            o.c.send({"type": "replay_part", "data": three[half:], "last": True, "review": True})
        for o in others:
            o.wait(lambda o=o: len(answers(o)) == 1, 600, "an answer")
        kinds = sorted(m["type"] + ":" + m.get("error", "") for o in others for m in answers(o))
        check(kinds == ["error:rate"] + ["review:"] * 4, "five connections: four reviews and one refusal: %s" % kinds)


if __name__ == "__main__":
    run_main([test_review_upload], parse_args())

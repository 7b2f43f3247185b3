#!/usr/bin/env python3
"""test_hostile.py -- bad input over the wire to `parlour serve` (issue 15,
"Bad input"): not JSON, binary frames, too long, deep nesting, wrong types,
unknown keys and types, act before join, out of turn, an illegal action
(the game's own explanation, compared with the engine's), a stale seq, bad
options (the option code's message), a flood (answered `rate`; the server
survives), half-open and garbage handshakes. Each bad message gets exactly
one `error` (a `hello` sent after it is the barrier), the room's state is
unchanged (a fresh `watch` compared with the one before), and the server
stays up and stops cleanly.

Usage: test_hostile.py --parlour PATH [--web DIR]
"""

import json
import os
import socket
import sys
import time

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from wsclient import OP_BIN, OP_TEXT, ServerProcess, Timeout, WSClient, canonical, check, parse_args, run_main  # noqa: E402
from driver import Conn, create_room, engine, person, settle  # noqa: E402

SEED = 777
DEVIATIONS = []  # what the server did against the contract; the test fails at the end with all of them


def snapshot(srv, room):
    """The room as a new spectator sees it: seq, view, history."""
    w = Conn(WSClient(srv.port), "checker")
    w.watch(room)
    s = w.state
    w.close()
    return canonical({"seq": s["seq"], "view": s["view"], "history": s["history"], "over": s["over"]})


def one_error(conn, send, codes, what):
    """Runs send(); expects exactly one `error` with a code in `codes`,
    counted once the answer to a `hello` sent right after has come and an
    error has too (a request naming a well-formed room code the server does
    not hold waits for the store's answer, so its error may come after the
    welcome: under the parallel suite it did). Returns the error (a
    deviation is noted and the test goes on)."""
    start = len(conn.c.log)
    send()
    conn.c.send({"type": "hello", "v": 1})
    conn.wait(lambda: any(m.get("type") == "welcome" for m in conn.c.log[start:]), 20, "welcome after " + what)
    try:
        conn.wait(lambda: any(m.get("type") == "error" for m in conn.c.log[start:]), 5, "an error after " + what)
    except Timeout:
        pass  # none came: counted below
    time.sleep(0.1)  # a second error would be here by now; and stay under the rate limit (20 a second)
    got = [m for m in conn.c.log[start:] if m.get("type") == "error"]
    if len(got) != 1:
        DEVIATIONS.append("%s: %d errors (want exactly 1): %s" % (what, len(got), got))
        return got[0] if got else {}
    e = got[0]
    if e.get("error") not in codes:
        DEVIATIONS.append("%s: error %r (want one of %s): %s" % (what, e.get("error"), codes, e.get("message")))
    if not (isinstance(e.get("message"), str) and e["message"]):
        DEVIATIONS.append("%s: error without a message" % what)
    return e


def no_deviations():
    if DEVIATIONS:
        msg = "\n  ".join(DEVIATIONS)
        del DEVIATIONS[:]
        raise AssertionError("the server broke the protocol's contract:\n  " + msg)


def legal_texts(conn):
    return [x["action"] for x in conn.state["legal"]]


def engine_explanation(args, seat, text, history, opts):
    """What the engine says about `text` for `seat` after `history`."""
    cmds = ["new ur %s seed=%d" % (opts, SEED)]
    for h in history:
        cmds.append("play %s" % h["text"] if h["seat"] < 0 else "play %d %s" % (h["seat"], h["text"]))
    cmds.append("play %d %s" % (seat, text))
    ans = engine(args.parlour, cmds)
    for a in ans[1:-1]:
        check(a[0].startswith("="), "engine replay of the room's history failed: %s" % a)
    check(ans[-1][0].startswith("?"), "the engine accepts %r" % text)
    return ans[-1][0][2:]


def test_bad_messages(args):
    with ServerProcess(args.parlour, args.web, test_seed=SEED) as srv:
        lobby = Conn(WSClient(srv.port), "lobby")
        lobby.c.wait_for("welcome", 10)
        opts = {"pieces": "2"}
        room = create_room(lobby, "ur", opts, [person(), person()])
        a, b = Conn(WSClient(srv.port), "A"), Conn(WSClient(srv.port), "B")
        a.join(room, "A", 0)
        b.join(room, "B", 1)
        settle([a, b], lambda: a.state["seq"] == b.state["seq"] and (a.state["legal"] or b.state["legal"]), 20)
        mover, other = (a, b) if a.state["legal"] else (b, a)
        base = snapshot(srv, room)
        x = Conn(WSClient(srv.port), "X")  # not in any room
        x.c.wait_for("welcome", 10)

        def same(what):
            check(snapshot(srv, room) == base, "%s changed the room's state" % what)

        cases = [
            ("not JSON", lambda c: c.c.send_text("hello{"), ("json",)),
            ("empty text", lambda c: c.c.send_text(""), ("json",)),
            ("not an object", lambda c: c.c.send_text("[1,2,3]"), ("shape", "json", "type")),
            ("a string", lambda c: c.c.send_text('"act"'), ("shape", "json", "type")),
            ("no type", lambda c: c.c.send({"action": "x"}), ("shape", "type")),
            ("type not a string", lambda c: c.c.send({"type": 5}), ("shape", "type")),
            ("unknown type", lambda c: c.c.send({"type": "frobnicate"}), ("type",)),
            ("unknown key", lambda c: c.c.send({"type": "chat", "text": "hi", "colour": "red"}), ("shape",)),
            ("wrong type of a field", lambda c: c.c.send({"type": "act", "action": 5}), ("shape",)),
            ("seq not an int", lambda c: c.c.send({"type": "act", "action": "x", "seq": "3"}), ("shape",)),
            ("missing field", lambda c: c.c.send({"type": "chat"}), ("shape",)),
            ("too long", lambda c: c.c.send({"type": "chat", "text": "x" * 9000}), ("too-long",)),
            ("chat text too long", lambda c: c.c.send({"type": "chat", "text": "x" * 501}), ("shape", "too-long")),
            ("deep nesting", lambda c: c.c.send_text("[" * 4000 + "]" * 4000), ("json", "shape")),
            ("deep object", lambda c: c.c.send_text('{"type":"chat","text":' + '{"a":' * 1000 + '1' + '}' * 1001),
             ("json", "shape")),
            ("NUL in a string", lambda c: c.c.send_text('{"type":"chat","text":"a\\u0000b"}'), ("json", "shape")),
            ("hello v 2", lambda c: c.c.send({"type": "hello", "v": 2}), ("shape", "type", "json")),
            ("bad room", lambda c: c.c.send({"type": "watch", "room": "0" * 32}), ("room",)),
            ("record before join", lambda c: c.c.send({"type": "record", "who": "seat"}), ("room", "seat")),
            ("chat before join", lambda c: c.c.send({"type": "chat", "text": "hi"}), ("room", "seat")),
        ]
        for what, send, codes in cases:
            for c in (x, mover):
                if c is mover and what.endswith("before join"):
                    continue
                one_error(c, lambda: send(c), codes, "%s (%s)" % (what, c.name))
            same(what)
        # Frames a WebSocket endpoint may refuse by closing (RFC 6455 5.6, 8.1):
        # binary (not part of the protocol) and a text frame that is not UTF-8.
        for what, op, payload in [("binary frame", OP_BIN, b'{"type":"hello","v":1}'),
                                  ("invalid UTF-8", OP_TEXT, b'{"type":"chat","text":"\xff\xfe"}')]:
            y = Conn(WSClient(srv.port), "Y")
            y.c.wait_for("welcome", 10)
            start = len(y.c.log)
            y.c.send_frame(op, payload)
            y.c.send({"type": "hello", "v": 1})
            settle([y], lambda: y.c.closed or any(m.get("type") == "welcome" for m in y.c.log[start:]), 20,
                   what + " answered")
            errs = [m for m in y.c.log[start:] if m.get("type") == "error"]
            if not y.c.closed and len(errs) != 1:
                DEVIATIONS.append("%s: neither closed nor exactly one error (%d errors; messages after it: %s)"
                                  % (what, len(errs), [m.get("type") for m in y.c.log[start:]]))
            print("  %s: %s" % (what, "connection closed (code %s)" % y.c.close_code if y.c.closed
                                else "errors %s" % [e.get("error") for e in errs]))
            y.close()
            same(what)

        # act before join, join errors
        one_error(x, lambda: x.c.send({"type": "act", "action": legal_texts(mover)[0]}), ("room", "seat"),
                  "act before join")
        one_error(x, lambda: x.c.send({"type": "join", "room": room, "name": "Z", "seat": 0}), ("seat", "full"),
                  "join a taken seat")
        one_error(x, lambda: x.c.send({"type": "join", "room": room, "name": "Z", "seat": 7}), ("seat", "shape"),
                  "join a seat that does not exist")
        one_error(x, lambda: x.c.send({"type": "join", "room": room, "name": ""}), ("shape", "seat", "full"),
                  "join with an empty name")
        one_error(x, lambda: x.c.send({"type": "join", "room": room, "name": "n" * 41}), ("shape", "seat", "full"),
                  "join with a name too long")
        one_error(x, lambda: x.c.send({"type": "join", "room": room, "token": "f" * 32}), ("seat", "room"),
                  "join with a wrong token")
        one_error(x, lambda: x.c.send({"type": "join", "room": "nope", "name": "Z"}), ("room",), "join a bad room")
        same("join errors")

        # out of turn, illegal (the game's explanation), stale
        one_error(other, lambda: other.c.send({"type": "act", "action": legal_texts(mover)[0]}),
                  ("not-your-turn",), "act out of turn")
        e = one_error(mover, lambda: mover.c.send({"type": "act", "action": "zzz", "seq": mover.state["seq"]}),
                      ("illegal",), "illegal action")
        want = engine_explanation(args, mover.seat, "zzz", mover.state["history"], "pieces=2")
        if want not in e.get("message", ""):
            DEVIATIONS.append("illegal action: the server says %r, the game says %r" % (e.get("message"), want))
        if e.get("request") != "act":
            DEVIATIONS.append("error.request %r for an act" % e.get("request"))
        # `reason` (web-protocol.md): the head of `message`, without the list of legal actions
        why = e.get("reason")
        if not (isinstance(why, str) and why and e.get("message", "").startswith(why) and "; legal:" not in why):
            DEVIATIONS.append("illegal action: reason %r is not the head of message %r" % (why, e.get("message")))
        one_error(mover, lambda: mover.c.send({"type": "act", "action": legal_texts(mover)[0],
                                               "seq": mover.state["seq"] - 1}), ("stale",), "stale seq")
        one_error(mover, lambda: mover.c.send({"type": "act", "action": legal_texts(mover)[0],
                                               "seq": mover.state["seq"] + 5}), ("stale",), "seq from the future")
        one_error(mover, lambda: mover.c.send({"type": "record", "who": "referee"}), ("over", "seat", "room"),
                  "referee record before the end")
        one_error(mover, lambda: mover.c.send({"type": "record", "who": "god"}), ("shape",), "record who=god")
        one_error(mover, lambda: mover.c.send({"type": "touch", "card": 5, "client_ms": 1}),
                  ("illegal", "type", "not-your-turn", "shape", "seat"), "touch outside karuta")
        same("act errors")

        # bad options: the option code's message
        e = one_error(lobby, lambda: lobby.c.send({"type": "create", "game": "ur", "options": {"pieces": "30"}}),
                      ("options",), "bad option value")
        if "bad value '30' for pieces: allowed an integer from 1 to 7" not in e.get("message", ""):
            DEVIATIONS.append("bad option: message %r is not the option code's" % e.get("message"))
        for what, msg, codes in [
            ("seed option", {"type": "create", "game": "ur", "options": {"seed": "1"}}, ("options",)),
            ("option value not a string", {"type": "create", "game": "ur", "options": {"pieces": 3}}, ("shape", "options")),
            ("unknown option", {"type": "create", "game": "ur", "options": {"colour": "red"}}, ("options",)),
            ("unknown game", {"type": "create", "game": "chess"}, ("options", "shape", "room")),
            ("too many seats", {"type": "create", "game": "ur", "seats": [person()] * 3}, ("options", "shape", "seat")),
            ("bad seat kind", {"type": "create", "game": "ur", "seats": [{"kind": "robot"}, person()]},
             ("options", "shape", "seat")),
            ("bad ai level", {"type": "create", "game": "ur", "seats": [{"kind": "ai", "level": "godlike"}, person()]},
             ("options", "shape", "seat")),
            ("grace_s out of range", {"type": "create", "game": "ur", "grace_s": 99999}, ("options", "shape")),
        ]:
            one_error(lobby, lambda: lobby.c.send(msg), codes, what)
        same("create errors")
        check(srv.alive(), "the server died")
    no_deviations()


def test_flood(args):
    with ServerProcess(args.parlour, args.web, test_seed=SEED) as srv:
        lobby = Conn(WSClient(srv.port), "lobby")
        lobby.c.wait_for("welcome", 10)
        room = create_room(lobby, "ur", {"pieces": "2"}, [person(), person()])
        a = Conn(WSClient(srv.port), "A")
        a.join(room, "A", 0)
        w = Conn(WSClient(srv.port), "W")
        w.watch(room)
        flood = Conn(WSClient(srv.port), "flood")
        flood.join(room, "F", 1)
        settle([a, w, flood], lambda: len({c.state["seq"] for c in (a, w, flood)}) == 1
               and (a.state["legal"] or flood.state["legal"]), 20, "the game started")
        base = snapshot(srv, room)
        for i in range(400):
            flood.c.send({"type": "chat", "text": "spam %d" % i})
        settle([flood], lambda: flood.c.closed or any(e.get("error") == "rate" for e in flood.errors), 30,
               "a rate error")
        time.sleep(0.5)
        flood.update()  # the messages delivered after `closed` was seen (the reader thread sets it first)
        w.update()
        rate = [e for e in flood.errors if e.get("error") == "rate"]
        chats = len([m for m in w.chats if m["text"].startswith("spam")])
        print("  flood: 400 chats sent, %d reached a spectator, %d rate errors, connection %s"
              % (chats, len(rate), "closed" if flood.c.closed else "open"))
        check(rate, "no rate error for a flood of 400 messages (got %s)" % flood.errors[:3])
        check(chats < 400, "every message of the flood was relayed")
        # the server survives: the others still talk to it
        check(srv.alive(), "the server died in the flood")
        a.c.send({"type": "chat", "text": "still here"})
        w.wait(lambda: any(m["text"] == "still here" for m in w.chats), 20, "chat after the flood")
        check(snapshot(srv, room) == base, "the flood changed the room's state")


def test_handshakes(args):
    with ServerProcess(args.parlour, args.web, test_seed=SEED) as srv:
        # half-open: a handshake that never ends, and a raw connection that says nothing
        half = socket.create_connection(("127.0.0.1", srv.port))
        half.sendall(b"GET /ws HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n")
        mute = socket.create_connection(("127.0.0.1", srv.port))
        garbage = socket.create_connection(("127.0.0.1", srv.port))
        garbage.sendall(b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03" + os.urandom(200) + b"\r\n\r\n")
        badkey = socket.create_connection(("127.0.0.1", srv.port))
        badkey.sendall(b"GET /ws HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                       b"Sec-WebSocket-Version: 13\r\n\r\n")
        # a frame without a mask from a client (RFC 6455 5.1: the server must close)
        nomask = Conn(WSClient(srv.port), "nomask")
        nomask.c.wait_for("welcome", 10)
        nomask.c.send_frame(OP_TEXT, json.dumps({"type": "hello", "v": 1}).encode(), mask=False)
        # meanwhile a normal client plays on
        lobby = Conn(WSClient(srv.port), "lobby")
        lobby.c.wait_for("welcome", 10)
        room = create_room(lobby, "ur", {"pieces": "2"}, [person(), {"kind": "ai", "level": "easy"}])
        a = Conn(WSClient(srv.port), "A")
        a.join(room, "A", 0)
        settle([a], lambda: a.state["legal"] or a.state["over"], 20, "A to act")
        r = a.act(a.state["legal"][0]["action"], a.state["seq"])
        check(r["type"] == "accepted", "act while half-open handshakes wait: %s" % r)
        nomask.update()
        print("  unmasked frame: %s" % ("closed (code %s)" % nomask.c.close_code if nomask.c.closed
                                        else "answered %s" % [m.get("type") for m in nomask.c.log[1:]]))
        for s in (half, mute, garbage, badkey):
            s.close()
        time.sleep(0.2)
        check(srv.alive(), "the server died")
        b = Conn(WSClient(srv.port), "B")
        b.c.wait_for("welcome", 10)


if __name__ == "__main__":
    run_main([test_bad_messages, test_flood, test_handshakes], parse_args())

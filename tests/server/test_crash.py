#!/usr/bin/env python3
"""test_crash.py -- issue 15, "Records and crash safety": `kill -9` of `parlour serve` at any
moment loses no acknowledged action.

Scripted clients (tests/server/wsclient.py) create rooms (Ur between two people, Ur against a
computer player, Tam Cuc between two people) and play random legal moves from each `state`'s
`legal`, each `act` naming the history length it saw (`seq`), so an `accepted` action is the
history's entry at that place. Meanwhile the script kills the server with SIGKILL at random
moments (--kills times), restarts it on the same database and port, and the clients come back
with their seat tokens and play on. At the end every game is over and its referee record
holds every accepted action at its place, in order (and, at the start, that a planted gap
would be seen: the checker is run on a record with one action changed).

Usage: test_crash.py --parlour BINARY [--web DIR] [--kills N] [--seed S]
"""
import argparse
import json
import os
import random
import sqlite3
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from wsclient import Closed, ServerProcess, Timeout, WSClient  # noqa: E402

ROOMS = [  # game, options, seats (None: a person)
    ("ur", {}, [None, None]),
    ("ur", {}, [None, None]),
    ("ur", {}, [None, "easy"]),
    ("tamcuc", {"players": "4"}, [None, None, None, None]),
]
# A person's time to move, so the games last through the kills; at least 50 ms, so that a
# fast server never pushes a client past the hub's 20 messages a second ("rate").
THINK_MS = (50, 90)
FAULTS = []  # acknowledged actions found lost while playing


class Player:
    """One person at one seat: its connection, latest state, pending act, accepted actions."""

    def __init__(self, room, seat, name):
        self.room, self.seat, self.name = room, seat, name
        self.token = None
        self.c = None
        self.state = None
        self.pending = None      # seq of the act in flight
        self.act_at = 0.0        # when this person moves next (monotonic)
        self.record = None       # the referee's record, asked for once the game is over
        self.asked = False
        self.gone = False        # the room was over before a restart: the server keeps it on disk only
        self.accepted = {}       # seq -> action text the server accepted

    def connect(self, port):
        self.c = WSClient(port, name=self.name)
        self.state = None
        self.pending = None
        self.asked = False
        if self.token is None:
            self.c.send({"type": "join", "room": self.room, "name": self.name, "seat": self.seat})
        else:
            self.c.send({"type": "join", "room": self.room, "token": self.token})

    def take(self):
        """Reads what arrived. Returns False once the connection is closed."""
        try:
            msgs = self.c.poll()
        except Closed:
            msgs = []
        for m in msgs:
            t = m.get("type")
            if t == "joined":
                self.token = m["token"]
                if m["seat"] != self.seat:
                    raise AssertionError("%s: came back to seat %s" % (self.name, m["seat"]))
            elif t == "state" and m.get("room") == self.room:
                self.state = m  # the act in flight stays so until its answer (accepted or error)
                if self.accepted and m["seq"] <= max(self.accepted):
                    FAULTS.append("%s: came back to history length %d, but seq %d was accepted"
                                  % (self.name, m["seq"], max(self.accepted)))
                if m["over"] and self.record is None and not self.asked:
                    self.c.send({"type": "record", "who": "referee"})
                    self.asked = True
            elif t == "record":
                self.record = m["record"]
            elif t == "accepted":
                if self.pending is None:
                    raise AssertionError("%s: accepted without an act in flight: %s" % (self.name, m))
                if self.pending in self.accepted:
                    FAULTS.append("%s: seq %d accepted twice (%r, then %r): the first was lost"
                                  % (self.name, self.pending, self.accepted[self.pending], m["action"]))
                self.accepted[self.pending] = m["action"]
                self.pending = None
            elif t == "error" and m.get("request") == "join" and m.get("error") == "room" and self.token:
                self.gone = True  # a finished room is not rebuilt after a restart
            elif t == "error":
                if m.get("error") not in ("stale", "not-your-turn", "illegal", "over", "storage"):
                    raise AssertionError("%s: %s" % (self.name, m))
                self.pending = None
        return not self.c.closed

    def act(self, rng):
        s = self.state
        if s is None or s["over"] or self.pending is not None or not s["legal"]:
            self.act_at = time.monotonic() + rng.uniform(*THINK_MS) / 1000
            return
        if time.monotonic() < self.act_at:
            return
        a = rng.choice(s["legal"])["action"]
        self.pending = s["seq"]
        self.c.send({"type": "act", "action": a, "seq": s["seq"]})
        # the next move thinks again, even when its answer and a computer's reply come in the
        # same poll (a fast server: then the wait above never runs between two acts)
        self.act_at = time.monotonic() + rng.uniform(*THINK_MS) / 1000

    def done(self):
        return self.gone or self.record is not None


def check_record(record, accepted):
    """Every accepted (seq, text) is the record's action at seq. Returns the faults."""
    acts = record.get("actions", [])
    faults = []
    for seq, text in sorted(accepted.items()):
        if seq >= len(acts):
            faults.append("seq %d (%s) missing: the record has %d actions" % (seq, text, len(acts)))
        elif acts[seq].get("action") != text:
            faults.append("seq %d: accepted %r, the record says %r" % (seq, text, acts[seq]))
    return faults


def create_rooms(port):
    lobby = WSClient(port, name="lobby")
    lobby.wait_for("welcome", 20)
    players = []
    for i, (game, options, seats) in enumerate(ROOMS):
        lobby.send({"type": "create", "game": game, "options": options,
                    "seats": [{"kind": "person"} if s is None else {"kind": "ai", "level": s} for s in seats]})
        m = lobby.recv(20)
        if m.get("type") != "created":
            raise AssertionError("create %s: %s" % (game, m))
        for seat, s in enumerate(seats):
            if s is None:
                players.append(Player(m["room"], seat, "p%d.%d" % (i, seat)))
    lobby.close()
    return players


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--parlour", required=True)
    ap.add_argument("--web", default=None)
    ap.add_argument("--kills", type=int, default=12)
    ap.add_argument("--seed", type=int, default=int(time.time()))
    ap.add_argument("--timeout", type=float, default=240, help="seconds for the whole run")
    args = ap.parse_args()
    rng = random.Random(args.seed)
    print("seed %d, %d kills" % (args.seed, args.kills), flush=True)

    # The checker sees a lost and a changed action.
    if not check_record({"actions": [{"action": "a"}]}, {0: "a", 1: "b"}) or \
            not check_record({"actions": [{"action": "a"}]}, {0: "b"}) or \
            check_record({"actions": [{"action": "a"}, {"action": "b"}]}, {1: "b"}):
        sys.exit("the record checker is broken")

    # --test-seed: rooms' seeds and codes follow from it. Every room is made before the first
    # kill, so a restarted server (whose counter starts again) never makes a second room.
    srv = ServerProcess(os.path.abspath(args.parlour), args.web and os.path.abspath(args.web),
                        test_seed=args.seed % 1000000 + 1)
    deadline = time.monotonic() + args.timeout
    kills = 0
    try:
        srv.start()
        players = create_rooms(srv.port)
        for p in players:
            p.connect(srv.port)
        next_kill = time.monotonic() + rng.uniform(0.2, 1.5)
        while True:
            if time.monotonic() > deadline:
                raise AssertionError("the games did not end in %d s" % args.timeout)
            alive = [p.take() for p in players]
            if all(p.done() for p in players):
                break
            if not all(alive) and kills == 0 and srv.alive():
                raise AssertionError("a connection closed without a crash")
            if kills < args.kills and time.monotonic() >= next_kill:
                srv.kill()
                kills += 1
                srv.start()
                for p in players:
                    p.c.drop()
                    p.connect(srv.port)
                next_kill = time.monotonic() + rng.uniform(0.2, 1.5)
                continue
            for p in players:
                p.act(rng)
            time.sleep(0.002)
        # every game over: the referee's records
        faults = list(FAULTS)
        total = 0
        by_room = {}
        for p in players:
            by_room.setdefault(p.room, {}).update({k: (v, p.name) for k, v in p.accepted.items()})
            total += len(p.accepted)
        for p in players:
            p.c.close()
        srv.stop()
        for room, acc in by_room.items():
            accepted = {k: v for k, (v, _) in acc.items()}
            record = next((p.record for p in players if p.room == room and p.record), None)
            source = "record"
            if record is None:  # over before a kill, then not rebuilt: its stored history
                db = sqlite3.connect(srv.db)
                rows = db.execute("SELECT seq, text FROM actions WHERE room = ? ORDER BY seq", (room,)).fetchall()
                db.close()
                if [r[0] for r in rows] != list(range(len(rows))):
                    faults.append("room %s: the stored history has gaps" % room[:8])
                record = {"actions": [{"action": r[1]} for r in rows]}
                source = "stored history"
            f = check_record(record, accepted)
            faults += ["room %s: %s" % (room[:8], x) for x in f]
            print("room %s: %d actions in its %s, %d accepted by its people, %s"
                  % (room[:8], len(record.get("actions", [])), source, len(accepted),
                     "all there" if not f else "%d FAULTS" % len(f)), flush=True)
        log = srv.log_text()
        if "Sanitizer" in log or "runtime error" in log:
            faults.append("a sanitizer spoke (server log below)")
            print(log[-6000:])
        if kills < (args.kills + 1) // 2:
            sys.exit("FAIL: the games ended after %d kills (want at least %d)" % (kills, (args.kills + 1) // 2))
        if faults:
            print("\n".join(faults))
            sys.exit("FAIL: %d accepted actions not in the records" % len(faults))
        print("ok: %d kills, %d accepted actions, every one in its record" % (kills, total))
    except (AssertionError, Timeout, Closed, RuntimeError, OSError) as e:
        print("FAIL: %s\nserver log (end):\n%s" % (e, srv.log_text()[-4000:]))
        sys.exit(1)
    finally:
        srv.cleanup()


if __name__ == "__main__":
    main()

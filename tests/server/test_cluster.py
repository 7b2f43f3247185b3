#!/usr/bin/env python3
"""test_cluster.py -- issue 17: several `parlour serve --cluster` processes on one store
(docs/cluster.md), driven directly (no nginx: as if a front sent one room to two processes).

- restart: a finished game's replay and referee record after a restart (issue 15's open end:
  rooms are loaded on demand), one process, the default store.
- lease: two processes on one SQLite file. A room is played only by the process holding its
  lease: the other answers `busy`; a process SIGSTOPped past its heartbeat's life loses the
  room to the other, and once continued its action held meanwhile is never acknowledged
  (`moved`); the stored history is exactly the acknowledged actions, in order.
- lobby: a public room made on one process is listed by the other within a few seconds.

Usage: test_cluster.py --parlour BINARY [--web DIR] [--only NAME]
"""
import os
import random
import signal
import sqlite3
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from wsclient import ServerProcess, Timeout, WSClient, check, parse_args, run_main  # noqa: E402


def wait_msg(c, pred, timeout=10, what="message"):
    """The next message of `c` for which pred(m) is true; errors other than those pred takes fail."""
    until = time.monotonic() + timeout
    while True:
        left = until - time.monotonic()
        if left <= 0:
            raise Timeout("%s: no %s in %.1f s" % (c.name, what, timeout))
        m = c.recv(left)
        if pred(m):
            return m


def create(port, game="ur", options=None, seats=None, public=False):
    c = WSClient(port, name="creator")
    c.wait_for("welcome")
    msg = {"type": "create", "game": game, "options": options or {},
           "seats": seats or [{"kind": "person"}, {"kind": "person"}]}
    if public:
        msg["public"] = True
    c.send(msg)
    m = c.wait_for("created")
    c.close()
    return m["room"]


def join(port, room, name=None, token=None, seat=None, name_="p"):
    c = WSClient(port, name=name or name_)
    c.wait_for("welcome")
    msg = {"type": "join", "room": room}
    if token:
        msg["token"] = token
    else:
        msg["name"] = name
        if seat is not None:
            msg["seat"] = seat
    c.send(msg)
    return c


def joined(c, timeout=10):
    """(token, state) after a join, or raises with the error."""
    m = wait_msg(c, lambda m: m["type"] in ("joined", "error"), timeout, "joined")
    check(m["type"] == "joined", "%s: join refused: %s" % (c.name, m))
    st = c.wait_for("state", timeout)
    return m["token"], st


def act_first(c, st):
    """Plays the first legal action of state `st`; returns (seq, action) sent."""
    a = st["legal"][0]["action"]
    c.send({"type": "act", "action": a, "seq": st["seq"]})
    return st["seq"], a


def stored(db, room):
    con = sqlite3.connect(db)
    rows = con.execute("SELECT seq, text, seat FROM actions WHERE room = ? ORDER BY seq", (room,)).fetchall()
    con.close()
    return rows


def stop_outside_write(proc, db):
    """SIGSTOP proc at a moment it holds no write transaction on db.

    SQLite has one writer at a time: a process frozen inside BEGIN IMMEDIATE keeps every other
    process from writing until it runs again (a limit of SQLite, not of the lease), so a test of
    lease expiry must freeze its process between transactions. Probe the write lock with a zero
    timeout; if the frozen process holds it, let it run a moment and freeze it again."""
    for _ in range(50):
        proc.send_signal(signal.SIGSTOP)
        con = sqlite3.connect(db, timeout=0, isolation_level=None)
        try:
            con.execute("BEGIN IMMEDIATE")
            con.execute("ROLLBACK")
            return
        except sqlite3.OperationalError:
            proc.send_signal(signal.SIGCONT)
            time.sleep(0.02)
        finally:
            con.close()
    raise AssertionError("the process held the database's write lock 50 times running")


def test_finished_replay_after_restart(args):
    with ServerProcess(args.parlour, args.web) as srv:
        room = create(srv.port, "ur", {"pieces": "1"}, [{"kind": "person"}, {"kind": "ai", "level": "easy"}])
        p = join(srv.port, room, "ann")
        _, st = joined(p)
        rng = random.Random(5)
        while not st["over"]:
            if st["legal"]:
                p.send({"type": "act", "action": rng.choice(st["legal"])["action"], "seq": st["seq"]})
            st = p.wait_for("state", 20, lambda m: m["seq"] > st["seq"] or m["over"])
        p.send({"type": "record", "who": "referee"})
        rec0 = p.wait_for("record")["record"]
        p.close()
        srv.stop()
        srv.start()  # the same database: nothing held in memory now
        w = WSClient(srv.port, name="later")
        w.wait_for("welcome")
        w.send({"type": "replay", "room": room, "seat": -1})
        rp = wait_msg(w, lambda m: m["type"] in ("replay", "error"), 10, "replay")
        check(rp["type"] == "replay", "replay after a restart: %s" % rp)
        check(rp["over"] and rp["actions"] == len(rec0["actions"]), "replay: %s actions" % rp["actions"])
        w.send({"type": "watch", "room": room})
        check(w.wait_for("state")["over"], "the finished room's state")
        w.send({"type": "record", "who": "referee"})
        rec1 = w.wait_for("record")["record"]
        check(rec1 == rec0, "the referee's record after a restart differs")
        w.close()


class Pair:
    """Two cluster processes on one SQLite file."""

    def __init__(self, args):
        self.tmp = tempfile.mkdtemp(prefix="parlour-cluster-")
        self.db = os.path.join(self.tmp, "shared.db")
        self.a = ServerProcess(args.parlour, args.web, db=self.db, extra_args=["--cluster"])
        self.b = ServerProcess(args.parlour, args.web, db=self.db, extra_args=["--cluster"])

    def __enter__(self):
        self.a.start()
        self.b.start()
        return self

    def __exit__(self, *exc):
        for s in (self.a, self.b):
            if s.proc is not None:
                try:
                    s.proc.send_signal(signal.SIGCONT)
                except OSError:
                    pass
            s.cleanup()


def latest(c):
    sts = [m for m in list(c.log) if m["type"] == "state"]
    return sts[-1] if sts else None


def mover(conns, timeout=10):
    """(seat, state) of the connection that acts at the newest history length."""
    until = time.monotonic() + timeout
    while time.monotonic() < until:
        ls = {s: latest(c) for s, c in conns.items()}
        if all(ls.values()):
            top = max(l["seq"] for l in ls.values())
            for s, l in ls.items():
                if l["seq"] == top and l["legal"]:
                    return s, l
        time.sleep(0.02)
    raise Timeout("nobody acts")


def play(conns, acked, n):
    """n actions through `conns`, each acknowledged (noted in acked: seq -> text)."""
    for _ in range(n):
        s, st = mover(conns)
        seq, a = act_first(conns[s], st)
        m = wait_msg(conns[s], lambda m: m["type"] in ("accepted", "error"), 10, "accepted")
        check(m["type"] == "accepted", "%s refused %s: %s" % (conns[s].name, a, m))
        acked[seq] = m["action"]
        wait_msg(conns[s], lambda m: m["type"] == "state" and m["seq"] > seq, 10, "state")


def test_lease_two_processes(args):
    with Pair(args) as pr:
        a, b = pr.a, pr.b
        room = create(a.port, "ur")
        p0 = join(a.port, room, "ann", seat=0)
        tok0, _ = joined(p0)
        p1 = join(a.port, room, "bob", seat=1)
        tok1, _ = joined(p1)
        # misrouted: the same room through B while A holds it
        x = join(b.port, room, token=tok1, name_="bob@B")
        m = wait_msg(x, lambda m: m["type"] in ("joined", "error"), 10, "answer")
        check(m["type"] == "error" and m["error"] == "busy" and m["request"] == "join",
              "B must answer busy while A holds the room: %s" % m)
        x.send({"type": "watch", "room": room})
        m = wait_msg(x, lambda m: m["type"] in ("state", "error"), 10, "answer")
        check(m["type"] == "error" and m["error"] == "busy", "B must not show the room A plays: %s" % m)
        x.close()
        acked = {}
        conns = {0: p0, 1: p1}
        play(conns, acked, 6)
        # A stops (a long pause, a starved machine): its lease runs out
        s_held, st = mover(conns)
        top = st["seq"]
        stop_outside_write(a.proc, pr.db)
        act_first(conns[s_held], st)  # waits in A's socket
        time.sleep(1.6)
        # the room's people come back through B, which takes the lease and plays on
        q = {}
        for s, tok in ((0, tok0), (1, tok1)):
            c = join(b.port, room, token=tok, name_="seat%d@B" % s)
            for _ in range(40):
                m = wait_msg(c, lambda m: m["type"] in ("joined", "error"), 10, "joined")
                if m["type"] == "joined":
                    break
                check(m["error"] == "busy", "B: %s" % m)
                time.sleep(0.1)
                c.send({"type": "join", "room": room, "token": tok})
            check(m["type"] == "joined", "B never took the room")
            c.wait_for("state")
            q[s] = c
        _, st = mover(q)
        check(st["seq"] == top, "B rebuilt the room at %d actions, not %d" % (st["seq"], top))
        play(q, acked, 3)
        # A goes on: the action it held must never be acknowledged
        a.proc.send_signal(signal.SIGCONT)
        old = conns[s_held]
        m = wait_msg(old, lambda m: m["type"] in ("accepted", "error"), 10, "answer from A")
        check(m["type"] == "error" and m["error"] == "moved",
              "A acknowledged (or answered oddly) an action after losing its lease: %s" % m)
        time.sleep(0.3)
        for c in conns.values():
            for m in list(c.log):
                if m["type"] == "accepted":
                    check(m["seq"] <= top, "A accepted seq %d after losing the room" % m["seq"])
        rows = stored(pr.db, room)
        check([r[0] for r in rows] == list(range(len(rows))), "the stored history has gaps")
        # After the last acknowledged action only what no one sent may follow: chance, and a
        # person's only legal move, which the server plays for them (`forced`, issue 31 §5),
        # each announced in the states B sent (they may still be on their way: wait for them).
        forced = set()
        until = time.monotonic() + 10
        while True:
            seen = -1
            for c in q.values():
                for m in list(c.log):
                    if m["type"] == "state":
                        seen = max(seen, m["seq"])
                        forced.update(e["seq"] for e in m.get("history") or [] if e.get("forced"))
            if seen >= len(rows) or time.monotonic() > until:
                break
            time.sleep(0.05)
        check(len(rows) > max(acked) and all(r[2] == -1 or r[0] in forced for r in rows[max(acked) + 1:]),
              "stored %d actions, acknowledged up to seq %d: more than the chance and forced moves after it: %s"
              % (len(rows), max(acked), rows[max(acked) + 1:]))
        for seq, text in acked.items():
            check(rows[seq][1] == text, "acknowledged seq %d (%s) is stored as %s" % (seq, text, rows[seq][1]))
        for c in list(conns.values()) + list(q.values()):
            c.close()
        a.stop()
        b.stop()


def test_lobby_across_processes(args):
    with Pair(args) as pr:
        room = create(pr.a.port, "ur", public=True)
        c = WSClient(pr.b.port, name="lobby@B")
        c.wait_for("welcome")
        until = time.monotonic() + 5
        while True:
            c.send({"type": "rooms"})
            m = c.wait_for("rooms")
            if any(r["room"] == room for r in m["rooms"]):
                entry = next(r for r in m["rooms"] if r["room"] == room)
                check(entry["game"] == "ur" and entry["state"] == "waiting", "lobby entry: %s" % entry)
                break
            check(time.monotonic() < until, "B's lobby never listed the room made on A")
            time.sleep(0.2)
        c.close()
        pr.a.stop()
        pr.b.stop()


if __name__ == "__main__":
    args = parse_args()
    run_main([test_finished_replay_after_restart, test_lease_two_processes, test_lobby_across_processes], args)

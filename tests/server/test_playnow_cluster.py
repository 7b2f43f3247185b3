#!/usr/bin/env python3
"""test_playnow_cluster.py -- "Play now" across processes (issue 33 §3; docs/pairing.md,
"Several processes"): two `parlour serve --cluster` processes on one SQLite file (on one
PostgreSQL database under tests/server/with_pg.sh: test server_playnow_cluster_pg), driven
directly (no nginx: each client connects to the process a front would send it to).

- two_processes: a seeker on each process; the holder of the role "pairing" pairs them
  into one room; both join it by its code on one process (as nginx routes a room) and each
  plays a move.
- holder_killed: a seeker waits on the process that does not hold the role; the holder is
  killed with SIGKILL; a second seeker comes; once the dead holder's heartbeat expires the
  other process takes the role and pairs the two.
- online_and_dead_seeks_swept: the lobby's `counts.online` on one process counts the other's
  connections too, and no more once it is killed (SIGKILL); the killed process's waiting
  seek stays in the table until the grace after its heartbeat expired (shortened by
  --test-sweep-ms), then the holder of the role deletes it and the dead owner's row.
Usage: test_playnow_cluster.py --parlour BINARY [--web DIR] [--only NAME]
"""
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from wsclient import ServerProcess, WSClient, check, parse_args, pg_database, run_main  # noqa: E402
from driver import Conn  # noqa: E402


def column(db, sql):
    """The first column of the rows of `sql` (constant: no parameters) in store `db` (SQLite
    file or PostgreSQL URL), as text; [] when the schema is not there yet."""
    if db.startswith("postgres"):
        psql = os.environ.get("PARLOUR_TEST_PSQL", "psql")
        r = subprocess.run([psql, "-qX", "-d", db, "-tAc", sql], capture_output=True, text=True)
        return [x for x in r.stdout.split("\n") if x] if r.returncode == 0 else []
    for _ in range(200):
        con = sqlite3.connect(db, timeout=10)
        try:
            return [str(r[0]) for r in con.execute(sql).fetchall()]
        except sqlite3.OperationalError as e:
            if "no such table" in str(e):  # the schema is not there yet
                return []
            time.sleep(0.05)  # busy: a killed process's log is being recovered
        finally:
            con.close()
    raise AssertionError("store %s not readable: %s" % (db, sql))


def role_owner(db):
    """The owner holding the role "pairing" in store `db`, or None."""
    rows = column(db, "SELECT owner FROM roles WHERE name = 'pairing'")
    return rows[0] if rows else None


def rows_of(db, table, pid):
    """How many rows of `table` (seeks or owners) belong to the process `pid` (owner
    host:pid:random)."""
    return sum(1 for o in column(db, "SELECT owner FROM " + table) if o.split(":")[1] == str(pid))


def poll(cond, what, timeout=30):
    until = time.monotonic() + timeout
    while time.monotonic() < until:
        if cond():
            return
        time.sleep(0.05)
    raise AssertionError("not within %d s: %s" % (timeout, what))


def role_pid(db, timeout=20):
    """The pid of the process holding the role "pairing" (polled: the role is taken by the
    cluster thread's first read, within a second of a start)."""
    until = time.monotonic() + timeout
    while time.monotonic() < until:
        owner = role_owner(db)
        if owner:
            return int(owner.split(":")[1])  # owner: host:pid:random
        time.sleep(0.05)
    raise AssertionError("nobody took the role 'pairing' in %d s" % timeout)


class Pair:
    """Two cluster processes on one SQLite file; `a` started first (so it takes the role)."""

    def __init__(self, args, extra=()):
        self.tmp = tempfile.mkdtemp(prefix="parlour-playnow-cluster-")
        pg = os.environ.get("PARLOUR_TEST_PG_URL")
        self.db = pg_database(pg) if pg else os.path.join(self.tmp, "shared.db")
        self.a = ServerProcess(args.parlour, args.web, db=self.db, extra_args=["--cluster", *extra])
        self.b = ServerProcess(args.parlour, args.web, db=self.db, extra_args=["--cluster", *extra])

    def __enter__(self):
        self.a.start()
        check(role_pid(self.db) == self.a.proc.pid, "the first process takes the role")
        self.b.start()
        return self

    def __exit__(self, *exc):
        try:
            for s in (self.a, self.b):
                if s.proc is not None:  # status 0 (the ASan build: no leak) unless a test failed
                    s.stop(check=exc[0] is None)
        finally:
            for s in (self.a, self.b):
                s.cleanup()
            shutil.rmtree(self.tmp, ignore_errors=True)


def seek(c):
    r = c.request({"type": "seek", "game": "ur", "computer_after_s": 0, "name": c.name},
                  answers=("seeking", "error"))
    check(r["type"] == "seeking" and r["pool"] == "ur/skiryuk", "%s seeking: %s" % (c.name, r))


def play_one_each(x, y):
    """Each of the two plays (at least) one accepted move, the mover's state and the
    other's in step before each move."""
    moved = set()
    turn = []

    def ready():
        if not (x.state and y.state and x.state["seq"] == y.state["seq"]):
            return False
        turn[:] = [c for c in (x, y) if c.state["legal"]]
        return bool(turn)
    for _ in range(60):
        if len(moved) == 2:
            return
        x.wait(ready, what="a player to move")
        c = turn[0]
        before = c.state["seq"]
        r = c.act(c.state["legal"][0]["action"], before)
        check(r["type"] == "accepted", "%s's move: %s" % (c.name, r))
        moved.add(c.name)
        for d in (x, y):
            d.wait(lambda: d.state["seq"] > before, what="the state after the move")
    check(len(moved) == 2, "both moved: %s" % moved)


def join_both(port, px, py, names):
    """Both players come to the room on the process at `port` (as nginx sends a room's
    clients to one process) with their tokens."""
    x, y = Conn(WSClient(port), names[0]), Conn(WSClient(port), names[1])
    x.rejoin(px["room"], px["token"])
    y.rejoin(py["room"], py["token"])
    x.wait(lambda: x.state["status"] == "playing", what="playing")
    check(sorted(s["name"] for s in x.state["seats"]) == sorted(names), "seated: %s" % x.state["seats"])
    return x, y


def test_two_processes(args):
    with Pair(args) as pr:
        ann, bob = Conn(WSClient(pr.a.port), "Ann"), Conn(WSClient(pr.b.port), "Bob")
        seek(ann)
        seek(bob)
        pa, pb = ann.wait_type("paired", timeout=20), bob.wait_type("paired", timeout=20)
        check(pa["room"] == pb["room"], "one room for a seeker on each process: %s %s" % (pa, pb))
        check({pa["seat"], pb["seat"]} == {0, 1} and pa["token"] != pb["token"], "two seats: %s %s" % (pa, pb))
        ann.close()
        bob.close()
        x, y = join_both(pr.b.port, pa, pb, ["Ann", "Bob"])
        play_one_each(x, y)
        x.close()
        y.close()


def test_holder_killed(args):
    with Pair(args) as pr:
        cat = Conn(WSClient(pr.b.port), "Cat")
        seek(cat)  # waits: alone
        time.sleep(0.3)  # nothing to time: only so the seek is stored before the kill (checked below)
        pr.a.kill()
        dan = Conn(WSClient(pr.b.port), "Dan")
        seek(dan)
        pc, pd = cat.wait_type("paired", timeout=30), dan.wait_type("paired", timeout=30)
        check(pc["room"] == pd["room"], "paired once the role moved: %s %s" % (pc, pd))
        check(role_pid(pr.db) == pr.b.proc.pid, "the role moved to the living process")
        cat.close()
        dan.close()
        x, y = join_both(pr.b.port, pc, pd, ["Cat", "Dan"])
        play_one_each(x, y)
        x.close()
        y.close()


def test_online_and_dead_seeks_swept(args):
    with Pair(args, extra=["--test-sweep-ms", "3000"]) as pr:
        lobby = Conn(WSClient(pr.a.port), "Lobby")
        c0 = lobby.request({"type": "counts"}, answers=("counts",))
        check(c0["online"] == 1, "alone on A: %s" % c0)
        eve, fay = Conn(WSClient(pr.b.port), "Eve"), Conn(WSClient(pr.b.port), "Fay")
        seek(eve)  # waits: alone
        lobby.wait_type("counts", pred=lambda m: m["online"] == 3)  # A's one and B's two
        pid = pr.b.proc.pid
        poll(lambda: rows_of(pr.db, "seeks", pid) == 1, "B's seek stored")
        pr.b.kill()
        # B's heartbeat runs out within a second, the grace 3 s later: the row is still there
        check(rows_of(pr.db, "seeks", pid) == 1, "a dead process's seek kept for the grace")
        lobby.wait_type("counts", pred=lambda m: m["online"] == 1 and m["pools"].get("ur/skiryuk", 0) == 0)
        poll(lambda: rows_of(pr.db, "seeks", pid) == 0, "B's seek swept after the grace")
        poll(lambda: rows_of(pr.db, "owners", pid) == 0, "B's owner row swept")
        check(rows_of(pr.db, "owners", pr.a.proc.pid) == 1, "the living process's row kept")
        lobby.close()


def main():
    args = parse_args()
    run_main([test_two_processes, test_holder_killed, test_online_and_dead_seeks_swept], args)


if __name__ == "__main__":
    main()

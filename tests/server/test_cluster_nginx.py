#!/usr/bin/env python3
"""test_cluster_nginx.py -- issue 17 through the front: three `parlour serve --cluster` processes
on one store behind nginx, started by deploy/cluster.sh (docs/cluster.md).

- crash: scripted clients play four rooms (as tests/server/test_crash.py, Ur with 3 pieces: two
  people, twice, and one against a computer; Tam Cuc for four) through nginx (/ws?room=CODE)
  while processes are killed with SIGKILL and restarted at random; clients whose socket closes
  come back with their tokens (`busy` answers are retried, `moved` reconnects). Every game must
  finish, no place be acknowledged twice, no client come back to a history shorter than an
  action it was told was accepted, and every acknowledged action be in its room's referee
  record at its place.
- recovery: the time from killing the process that holds a room's lease to a move of that room
  accepted again, the clients behaving as the browser does (printed; fails above 10 s).
- hidden: the hidden-information proof of tests/server/test_hidden.py (cbw, Tam Cuc), every
  client through nginx.

The store is PostgreSQL (a temporary cluster) when its programs are installed and the parlour
program is built with it, else one SQLite file (said in the output). Exits 77 (CTest: skipped)
with the reason when nginx is missing.

Usage: test_cluster_nginx.py --parlour BINARY [--web DIR] [--only crash|recovery|hidden] [--kills N]
       [--seed S] [--trials N]
"""
import argparse
import glob
import os
import random
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import test_hidden  # noqa: E402
from wsclient import Closed, Timeout, WSClient, check, run_main  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPT = os.path.join(HERE, "..", "..", "deploy", "cluster.sh")


def free_base():
    """A port P with P..P+3 free."""
    rng = random.Random()
    for _ in range(200):
        p = rng.randrange(20000, 40000)
        ok = True
        for q in (p, p + 1, p + 2, p + 3):
            s = socket.socket()
            try:
                s.bind(("127.0.0.1", q))
            except OSError:
                ok = False
            s.close()
        if ok:
            return p
    raise RuntimeError("no free ports")


def pg_capable(parlour):
    pgbin = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
    if not pgbin:
        return False, "PostgreSQL is not installed"
    with open(parlour, "rb") as f:
        if b"PQconnectdb" not in f.read():
            return False, "this parlour is built without PostgreSQL"
    return True, "PostgreSQL"


class Cluster:
    """deploy/cluster.sh in a temporary folder."""

    def __init__(self, args):
        self.dir = tempfile.mkdtemp(prefix="parlour-nginx-")
        self.port = free_base()
        pg, why = pg_capable(args.parlour)
        self.env = dict(os.environ, PARLOUR=os.path.abspath(args.parlour), PORT=str(self.port),
                        WEB=os.path.abspath(args.web or os.path.join(HERE, "..", "..", "web")),
                        STORE="postgresql" if pg else "sqlite")
        self.store = why if pg else "one SQLite file (%s)" % why

    def sh(self, cmd):
        r = subprocess.run(["bash", SCRIPT, cmd, self.dir], env=self.env, capture_output=True, text=True,
                           timeout=120)
        if r.returncode != 0 and cmd != "status":
            raise RuntimeError("cluster.sh %s: %s%s\n%s" % (cmd, r.stdout, r.stderr, self.logs()))
        return r

    def pid(self, i):
        try:
            with open(os.path.join(self.dir, "serve-%d.pid" % i)) as f:
                return int(f.read())
        except OSError:
            return None

    def kill(self, i):
        pid = self.pid(i)
        try:
            with open("/proc/%d/stat" % pid) as f:
                dead = f.read().rsplit(")", 1)[1].split()[0] == "Z"
        except OSError:
            dead = True
        check(not dead, "parlour serve %d (pid %d) was not running:\n%s" % (i, pid, self.logs()))
        os.kill(pid, signal.SIGKILL)
        for _ in range(100):  # gone, or a zombie nobody reaps yet (cluster.sh's setsid)
            try:
                with open("/proc/%d/stat" % pid) as f:
                    if f.read().rsplit(")", 1)[1].split()[0] == "Z":
                        return
            except (OSError, IndexError):
                return
            time.sleep(0.01)

    def lease_owner(self, room):
        """The owner id holding room's lease ('' when none)."""
        if self.env["STORE"] == "sqlite":
            import sqlite3
            con = sqlite3.connect(os.path.join(self.dir, "parlour.db"))
            row = con.execute("SELECT owner FROM leases WHERE room = ?", (room,)).fetchone()
            con.close()
            return row[0] if row else ""
        psql = sorted(glob.glob("/usr/lib/postgresql/*/bin/psql"))[-1]
        url = subprocess.run(["sh", os.path.join(HERE, "..", "..", "deploy", "pg.sh"), "url",
                              os.path.join(self.dir, "pg")], capture_output=True, text=True).stdout.strip()
        r = subprocess.run([psql, url, "-tAc", "SELECT owner FROM leases WHERE room = '%s'" % room],
                           capture_output=True, text=True, timeout=10)
        return r.stdout.strip()

    def logs(self):
        out = []
        for p in sorted(glob.glob(os.path.join(self.dir, "*.log"))):
            with open(p, "rb") as f:
                out.append("== %s\n%s" % (os.path.basename(p), f.read()[-3000:].decode("utf-8", "replace")))
        return "\n".join(out)

    def __enter__(self):
        self.sh("start")
        return self

    def __exit__(self, *exc):
        try:
            self.sh("stop")
        finally:
            shutil.rmtree(self.dir, ignore_errors=True)


# ---- the crash test ---------------------------------------------------------------------------

ROOMS = [("ur", {"pieces": "3"}, [None, None]), ("ur", {"pieces": "3"}, [None, None]), ("ur", {"pieces": "3"}, [None, "easy"]),
         ("tamcuc", {"players": "4"}, [None, None, None, None])]
THINK_MS = (50, 90)  # at least 50 ms: never past the hub's 20 messages a second ("rate")


class Player:
    """One person at one seat (tests/server/test_crash.py's, through nginx)."""

    def __init__(self, room, seat, name):
        self.room, self.seat, self.name = room, seat, name
        self.token = None
        self.c = None
        self.state = None
        self.pending = None
        self.act_at = 0.0
        self.retry_at = 0.0
        self.record = None
        self.asked = False
        self.accepted = {}
        self.faults = []
        self.busy = 0

    def connect(self, port):
        self.state, self.pending, self.asked = None, None, False
        try:
            self.c = WSClient(port, path="/ws?room=" + self.room, name=self.name, timeout=5)
        except Exception:  # nginx found no process (all down a moment): later
            self.c = None
            self.retry_at = time.monotonic() + 0.3
            return
        self.join()

    def join(self):
        if self.token is None:
            self.c.send({"type": "join", "room": self.room, "name": self.name, "seat": self.seat})
        else:
            self.c.send({"type": "join", "room": self.room, "token": self.token})

    def take(self, port):
        if self.c is None or self.c.closed:
            if time.monotonic() >= self.retry_at:
                if self.c is not None:
                    self.retry_at = time.monotonic() + 0.2
                    self.c = None
                    return
                self.connect(port)
            return
        try:
            msgs = self.c.poll()
        except Closed:
            msgs = []
        for m in msgs:
            t = m.get("type")
            if t == "joined":
                self.token = m["token"]
                check(m["seat"] == self.seat, "%s: came back to seat %s" % (self.name, m["seat"]))
            elif t == "state" and m.get("room") == self.room:
                self.state = m
                if self.accepted and m["seq"] <= max(self.accepted):
                    self.faults.append("%s: came back to history length %d, but seq %d was accepted"
                                       % (self.name, m["seq"], max(self.accepted)))
                if m["over"] and self.record is None and not self.asked:
                    self.c.send({"type": "record", "who": "referee"})
                    self.asked = True
            elif t == "record":
                self.record = m["record"]
            elif t == "accepted":
                check(self.pending is not None, "%s: accepted without an act in flight: %s" % (self.name, m))
                if self.pending in self.accepted:
                    self.faults.append("%s: seq %d accepted twice" % (self.name, self.pending))
                self.accepted[self.pending] = m["action"]
                self.pending = None
            elif t == "error" and m.get("error") == "busy":
                self.busy += 1
                time.sleep(0.05)
                self.join()  # (the browser backs off; here a short fixed wait)
            elif t == "error" and m.get("error") == "moved":
                self.pending = None
                self.c.drop()
            elif t == "error":
                check(m.get("error") in ("stale", "not-your-turn", "illegal", "over", "storage"),
                      "%s: %s" % (self.name, m))
                self.pending = None

    def act(self, rng):
        s = self.state
        if self.c is None or self.c.closed or s is None or s["over"] or self.pending is not None or not s["legal"]:
            self.act_at = time.monotonic() + rng.uniform(*THINK_MS) / 1000
            return
        if time.monotonic() < self.act_at:
            return
        self.pending = s["seq"]
        self.c.send({"type": "act", "action": rng.choice(s["legal"])["action"], "seq": s["seq"]})
        # the next move thinks again, even when its answer and a computer's reply come in the
        # same poll (a fast server: then the wait above never runs between two acts)
        self.act_at = time.monotonic() + rng.uniform(*THINK_MS) / 1000

    def done(self):
        return self.record is not None


def test_crash(args):
    rng = random.Random(args.seed)
    with Cluster(args) as cl:
        print("  store: %s; seed %d, %d kills" % (cl.store, args.seed, args.kills), flush=True)
        lobby = WSClient(cl.port, name="lobby")
        lobby.wait_for("welcome", 10)
        players = []
        for i, (game, options, seats) in enumerate(ROOMS):
            lobby.send({"type": "create", "game": game, "options": options,
                        "seats": [{"kind": "person"} if s is None else {"kind": "ai", "level": s} for s in seats]})
            m = lobby.wait_for("created", 20)
            players += [Player(m["room"], seat, "p%d.%d" % (i, seat)) for seat, s in enumerate(seats) if s is None]
        lobby.close()
        for p in players:
            p.connect(cl.port)
        kills, t0 = 0, time.monotonic()
        next_kill = t0 + rng.uniform(0.3, 1.0)
        while not all(p.done() for p in players):
            check(time.monotonic() - t0 < args.timeout, "the games did not end in %d s (kills %d): %s\n%s"
                  % (args.timeout, kills, [(p.name, p.state and p.state["seq"], p.busy, p.c and p.c.closed,
                                            p.c and [(m.get("type"), m.get("error"), m.get("seq")) for m in p.c.log[-4:]])
                                           for p in players], cl.logs()))
            for p in players:
                p.take(cl.port)
            if kills < args.kills and time.monotonic() >= next_kill:
                cl.kill(rng.randrange(1, 4))
                kills += 1
                cl.sh("start")  # restarts the dead one
                next_kill = time.monotonic() + rng.uniform(0.3, 1.0)
                continue
            for p in players:
                p.act(rng)
            time.sleep(0.003)
        faults = [f for p in players for f in p.faults]
        total = 0
        by_room = {}
        for p in players:
            by_room.setdefault(p.room, {}).update(p.accepted)
            total += len(p.accepted)
        for room, acc in by_room.items():
            rec = next(p.record for p in players if p.room == room)
            acts = rec.get("actions", [])
            for seq, text in sorted(acc.items()):
                if seq >= len(acts) or acts[seq].get("action") != text:
                    faults.append("room %s: accepted seq %d %r, the record has %r"
                                  % (room[:8], seq, text, acts[seq] if seq < len(acts) else None))
        for p in players:
            if p.c is not None:
                p.c.close()
        log = cl.logs()
        if "Sanitizer" in log or "runtime error" in log:
            faults.append("a sanitizer spoke:\n" + log[-5000:])
        check(not faults, "\n".join(faults))
        print("  %d kills, %d actions acknowledged in %.1f s, every one in its record; %d busy answers retried"
              % (kills, total, time.monotonic() - t0, sum(p.busy for p in players)))


# ---- recovery: a room's process killed, its players back at the table ---------------------

def answer(c, types, timeout=10):
    """The next message of `c` whose type is in `types`."""
    until = time.monotonic() + timeout
    while True:
        m = c.recv(max(0.01, until - time.monotonic()))
        if m["type"] in types:
            return m


def new_room(cl):
    """A room of two players through nginx: (code, [[client, token], ...]), or (code, None) when
    the second player still gets `busy` after 3 s."""
    lobby = WSClient(cl.port, name="lobby")
    lobby.wait_for("welcome")
    lobby.send({"type": "create", "game": "ur", "seats": [{"kind": "person"}, {"kind": "person"}]})
    room = lobby.wait_for("created")["room"]
    lobby.close()
    ps = []
    for seat in (0, 1):
        c = WSClient(cl.port, path="/ws?room=" + room, name="s%d" % seat)
        msg = {"type": "join", "room": room, "name": "n%d" % seat, "seat": seat}
        for _ in range(12):  # `busy`: asked again, as the browser does
            c.send(msg)
            m = answer(c, ("joined", "error"))
            if m["type"] == "joined":
                break
            check(m["error"] == "busy", "join: %s" % m)
            time.sleep(0.25)
        ps.append([c, m.get("token")])
        if m["type"] != "joined":
            for p in ps:
                p[0].close()
            return room, None
    return room, ps


def test_recovery(args):
    """Kills the process that plays a room (found by its lease) and measures the time until
    one of its players has an action accepted again through nginx, the clients doing what
    web/js/net.js and room.js do: reconnect 0.5 s after the socket closes, ask again after a
    `busy` 0.25 s later, doubling. Prints each trial; fails above 10 s (target: 2 s, measured by scripts/bench-cluster.sh)."""
    with Cluster(args) as cl:
        print("  store: %s" % cl.store, flush=True)
        times = []
        for trial in range(args.trials):
            for attempt in range(3):  # a split route (docs/cluster.md, known limit): a new room
                room, ps = new_room(cl)
                if ps:
                    break
                print("  trial %d: the room's two players reached two processes; another room" % trial)
            check(ps, "trial %d: three rooms split between processes" % trial)
            owner = cl.lease_owner(room)
            check(owner.count(":") >= 2, "no lease for the room: %r" % owner)
            pid = int(owner.split(":")[-2])
            idx = next(i for i in (1, 2, 3) if cl.pid(i) == pid)
            t0 = time.monotonic()
            cl.kill(idx)
            for p in ps:  # the sockets close: reconnect after 0.5 s, as the browser does
                try:
                    p[0].wait_for("never", 3)
                except (Closed, Timeout):
                    pass
            time.sleep(max(0.0, 0.5 - (time.monotonic() - t0)))
            acted = None
            for p in ps:
                wait = 0.25
                while True:
                    try:
                        p[0] = WSClient(cl.port, path="/ws?room=" + room, name=p[0].name, timeout=5)
                    except Exception:
                        time.sleep(0.1)
                        continue
                    p[0].send({"type": "join", "room": room, "token": p[1]})
                    m = answer(p[0], ("joined", "error"))
                    if m["type"] == "joined":
                        break
                    check(m["error"] == "busy", "after the kill: %s" % m)
                    p[0].close()
                    time.sleep(wait)
                    wait = min(wait * 2, 4)
            while acted is None:
                for p in ps:
                    st = p[0].wait_for("state", 10)
                    if st["legal"]:
                        p[0].send({"type": "act", "action": st["legal"][0]["action"], "seq": st["seq"]})
                        m = answer(p[0], ("accepted", "error"))
                        check(m["type"] == "accepted", "after the kill: %s" % m)
                        acted = time.monotonic() - t0
                        break
            times.append(acted)
            for p in ps:
                p[0].close()
            cl.sh("start")  # the killed process comes back
            time.sleep(2.5)  # nginx tries it again after fail_timeout (2 s): the ring as before
            print("  trial %d: process %d killed, a move accepted again %.2f s later" % (trial, idx, acted),
                  flush=True)
        times.sort()
        print("  recovery: median %.2f s, max %.2f s over %d kills" % (times[len(times) // 2], times[-1], len(times)))
        check(times[-1] <= 10.0, "a room took %.2f s to play again" % times[-1])  # a loaded machine: the figure is the benchmark


# ---- the hidden-information proof through nginx ----------------------------------------------

class Front:
    """test_hidden's ServerProcess stand-in: the cluster's nginx (already running)."""

    def __init__(self, cluster):
        self.port = cluster.port

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


def test_hidden_through_nginx(args):
    with Cluster(args) as cl:
        print("  store: %s" % cl.store, flush=True)
        real = test_hidden.ServerProcess
        test_hidden.ServerProcess = lambda *a, **k: Front(cl)  # noqa: E731
        test_hidden.ROOM_PATH = True
        try:
            test_hidden.test_cbw(args)
            test_hidden.test_tamcuc(args)
        finally:
            test_hidden.ServerProcess = real
            test_hidden.ROOM_PATH = False


if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("--parlour", required=True)
    ap.add_argument("--web", default=None)
    ap.add_argument("--only", default=None)
    ap.add_argument("--kills", type=int, default=8)
    ap.add_argument("--seed", type=int, default=int(time.time()))
    ap.add_argument("--timeout", type=float, default=50)
    ap.add_argument("--trials", type=int, default=3)
    a = ap.parse_args()
    if not shutil.which("nginx") and not os.path.exists("/usr/sbin/nginx"):
        print("SKIPPED: nginx is not installed (scripts/deps.sh installs it)")
        sys.exit(77)
    run_main([test_crash, test_recovery, test_hidden_through_nginx], a)

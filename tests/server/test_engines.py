#!/usr/bin/env python3
"""test_engines.py -- computer players outside the server (issue 17):
`parlour serve --engines N` and `--engine-cmd CMD` (docs/server.md,
"Computer players outside the server").

- test_engines_same_games_despite_kills: rooms of ur, cbw (4 seats) and
  tamcuc (4 seats) played to the end by computer seats only, first with the
  server's threads, then with `--engines 2` while worker processes (children
  of the server, found in /proc) are killed with SIGKILL in mid-game; every
  game finishes, the workers are restarted, and each room's referee record is
  the same as with threads (a worker answers with the move the thread would
  make: `choose SEAT SEED`, and a job cut by a kill is sent again).
- test_engine_cmd: the same ur game through `--engine-cmd 'PARLOUR engine'`.
- test_garbage_workers: `--engine-cmd` pointing at fake_engine.py, which
  answers every job with nonsense, an illegal or unreadable action, a
  refusal, an answer to another request, 2 MB of output, a NUL byte, no
  answer at all (hangs) or by exiting: every room still finishes (the hub's
  fallback plays each such move), and a person seated in a room with such
  computer players plays on unharmed.

Usage: test_engines.py --parlour PATH [--web DIR]
"""

import os
import random
import signal
import sys
import time

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from wsclient import ServerProcess, WSClient, check, parse_args, run_main  # noqa: E402
from driver import Conn, ai, create_room, person, play_turns, settle  # noqa: E402

SEED = 171717
HERE = os.path.dirname(os.path.abspath(__file__))

ROOMS = [
    ("ur", {"pieces": "7"}, [ai("medium"), ai("easy")]),  # 7: long enough to outlast the rooms' creation
    ("cbw", {"players": "4"}, [ai("easy"), ai("medium"), ai("easy"), ai("easy")]),
    ("tamcuc", {"players": "4"}, [ai("easy"), ai("medium"), ai("easy"), ai("easy")]),
]


def children(pid):
    """The pids whose parent is `pid` (from /proc)."""
    out = []
    for d in os.listdir("/proc"):
        if not d.isdigit():
            continue
        try:
            with open("/proc/%s/stat" % d) as f:
                stat = f.read()
        except OSError:
            continue
        fields = stat[stat.rfind(")") + 2:].split()  # after "pid (comm) "
        if int(fields[1]) == pid and fields[0] != "Z":
            out.append(int(d))
    return sorted(out)


def cmdline(pid):
    try:
        with open("/proc/%d/cmdline" % pid, "rb") as f:
            return f.read().replace(b"\0", b" ").decode("utf-8", "replace").strip()
    except OSError:
        return ""


def play_rooms(args, extra, rooms=ROOMS, kills=0, nworkers=2, timeout=240):
    """Creates `rooms` (computer seats only) in order on a server started with
    `extra`, watches each to its end, killing `kills` worker processes with
    SIGKILL in mid-game (one every few actions). Returns ({room index:
    referee record}, [killed pids], server log)."""
    srv = ServerProcess(args.parlour, web=args.web, test_seed=SEED, extra_args=extra)
    srv.start()
    try:
        lobby = Conn(WSClient(srv.port), "lobby")
        watchers = []
        for i, (game, opts, seats) in enumerate(rooms):
            room = create_room(lobby, game, opts, seats)
            w = Conn(WSClient(srv.port), "w%d" % i)
            w.watch(room)
            watchers.append(w)
        killed = []
        until = time.monotonic() + timeout
        last_kill_seq = 0
        while True:
            for w in watchers:
                w.update()
            if all(w.state and w.state.get("over") for w in watchers):
                break
            check(time.monotonic() < until, "games not over in %d s: %s (log: %s)" % (
                timeout, [(w.state or {}).get("seq") for w in watchers], srv.log_text()[-3000:]))
            total = sum((w.state or {}).get("seq", 0) for w in watchers)
            if len(killed) < kills and total >= last_kill_seq + 15:
                kids = [p for p in children(srv.proc.pid) if p not in killed]
                if len(kids) == nworkers:  # the last one killed is back
                    victim = random.Random(total).choice(kids)
                    os.kill(victim, signal.SIGKILL)
                    killed.append(victim)
                    last_kill_seq = total
            time.sleep(0.005)
        records = {}
        for i, w in enumerate(watchers):
            r = w.request({"type": "record", "who": "referee"}, answers=("record", "error"))
            check(r["type"] == "record", "room %d: no referee record after the end: %s" % (i, str(r)[:300]))
            records[i] = r["record"]
        for w in watchers + [lobby]:
            w.close()
        srv.stop()
        return records, killed, srv.log_text()
    finally:
        srv.cleanup()


def same_records(a, b, what):
    for i in a:
        ra, rb = a[i], b[i]
        check(ra["game"] == rb["game"] and ra["seed"] == rb["seed"], "%s: room %d not the same room" % (what, i))
        check(len(ra["actions"]) > 8, "%s: room %d: only %d actions" % (what, i, len(ra["actions"])))
        for k, (x, y) in enumerate(zip(ra["actions"], rb["actions"])):
            check(x == y, "%s: room %d (%s): action %d differs: %s vs %s" % (what, i, ra["game"], k, x, y))
        check(len(ra["actions"]) == len(rb["actions"]) and ra.get("result") == rb.get("result"),
              "%s: room %d: %d vs %d actions, result %s vs %s" % (what, i, len(ra["actions"]), len(rb["actions"]),
                                                                 ra.get("result"), rb.get("result")))


def test_engines_same_games_despite_kills(args):
    threads, _, _ = play_rooms(args, [])
    # (a long timeout: under a sanitizer on a loaded machine a slow answer must not
    # become a fallback move; timeouts are test_garbage_workers')
    # Two kills: a job is tried three times, so even two kills of the same job's workers (a
    # fast machine can cut one job twice while the other worker carries the rooms) change no move.
    engines, killed, log = play_rooms(args, ["--engines", "2", "--engine-timeout", "300000"], kills=2)
    check(len(killed) >= 2, "only %d workers killed: the games ended too soon" % len(killed))
    for pid in killed:
        check(any("pid %d %s" % (pid, x) in log for x in ("killed by signal 9", "went away", "killed:")),
              "the server did not notice that worker %d died:\n%s" % (pid, log[-3000:]))
    started = log.count(" started pid ")
    check(started >= 2 + len(killed) - 1, "%d worker starts for 2 workers and %d kills:\n%s" % (started, len(killed),
                                                                                              log[-3000:]))
    try:
        same_records(threads, engines, "threads vs --engines 2")
    except AssertionError:
        print(log[-4000:])  # which job failed, which worker went away
        raise
    print("  %d rooms, %s actions, %d workers killed, %d started" % (
        len(engines), [len(r["actions"]) for r in engines.values()], len(killed), started))


def test_engine_cmd(args):
    rooms = ROOMS[:1]
    threads, _, _ = play_rooms(args, [], rooms)
    cmd = "exec '%s' engine" % os.path.abspath(args.parlour)
    via_cmd, _, log = play_rooms(args, ["--engine-cmd", cmd], rooms)
    check("started pid" in log and cmd in log, "no worker started through --engine-cmd:\n%s" % log[-2000:])
    same_records(threads, via_cmd, "threads vs --engine-cmd")


def test_garbage_workers(args):
    fake = "exec %s '%s'" % (sys.executable, os.path.join(HERE, "fake_engine.py"))
    rooms = ROOMS[:2]
    srv_extra = ["--engines", "2", "--engine-cmd", fake, "--engine-timeout", "300"]
    records, _, log = play_rooms(args, srv_extra, rooms)
    for i, r in records.items():
        check(r.get("result") is not None and len(r["actions"]) > 8, "room %d: %s" % (i, str(r)[:300]))
    check("killed" in log, "no worker was killed for its garbage:\n%s" % log[-3000:])
    # A person among such computer players plays a whole game.
    srv = ServerProcess(args.parlour, web=args.web, test_seed=SEED, extra_args=srv_extra)
    with srv:
        p = Conn(WSClient(srv.port), "Ann")
        room = create_room(p, "ur", {"pieces": "2"}, [person(), ai("easy")])
        p.join(room, "Ann", seat=0)
        n, _ = play_turns([p], random.Random(5), timeout=120)
        check(n > 0 and p.state.get("over"), "the person's game did not end")
        check(not p.errors, "the person got errors: %s" % p.errors[:3])
        p.close()
    print("  garbage log lines: %d kills, %d starts" % (log.count("killed"), log.count("started pid")))


if __name__ == "__main__":
    run_main([test_engines_same_games_despite_kills, test_engine_cmd, test_garbage_workers], parse_args())

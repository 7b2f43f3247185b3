#!/usr/bin/env python3
"""bench_engines.py -- the figures of docs/benchmarks.md "Computer players in
worker processes" (not a test): rooms with computer seats only, played to
the end by a server with its threads (`--workers 2`) and with `--engines 2`;
moves/s = the rooms' seat actions (chance left out) over the wall time from
the first room's creation to the last room's end.

Usage: bench_engines.py --parlour PATH [--web DIR] [--rooms N]
"""

import argparse
import os
import sys
import time

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from wsclient import ServerProcess, WSClient, check  # noqa: E402
from driver import Conn, ai, create_room  # noqa: E402

SETS = [
    ("ur easy (greedy)", "ur", {"pieces": "7"}, [ai("easy"), ai("easy")]),
    ("ur medium (mcts 1000)", "ur", {"pieces": "4"}, [ai("medium"), ai("medium")]),
    ("cbw easy (mcts 100), 4 seats", "cbw", {"players": "4"}, [ai("easy")] * 4),
    ("tamcuc medium (mcts 300), 4 seats", "tamcuc", {"players": "4"}, [ai("medium")] * 4),
]


def run(args, extra, game, opts, seats, nrooms):
    srv = ServerProcess(args.parlour, web=args.web, test_seed=99, extra_args=extra)
    with srv:
        lobby = Conn(WSClient(srv.port), "lobby")
        t0 = time.monotonic()
        ws = []
        for i in range(nrooms):
            room = create_room(lobby, game, opts, seats)
            w = Conn(WSClient(srv.port), "w%d" % i)
            w.watch(room)
            ws.append(w)
        while True:
            for w in ws:
                w.update()
            if all(w.state and w.state.get("over") for w in ws):
                break
            check(time.monotonic() - t0 < 600, "not over in 10 minutes")
            time.sleep(0.002)
        dt = time.monotonic() - t0
        moves = 0
        for w in ws:
            r = w.request({"type": "record", "who": "referee"}, answers=("record", "error"))
            moves += sum(1 for a in r["record"]["actions"] if a["seat"] != "chance")
            w.close()
        lobby.close()
    return moves, dt


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--parlour", required=True)
    p.add_argument("--web", default=None)
    p.add_argument("--rooms", type=int, default=8)
    args = p.parse_args()
    print("| rooms | threads (--workers 2) | --engines 2 | ratio |")
    print("|---|---|---|---|")
    for name, game, opts, seats in SETS:
        m1, t1 = run(args, ["--workers", "2"], game, opts, seats, args.rooms)
        m2, t2 = run(args, ["--engines", "2"], game, opts, seats, args.rooms)
        check(m1 == m2, "%s: %d moves with threads, %d with engines (same seeds: must be equal)" % (name, m1, m2))
        print("| %d x %s, %d moves | %.0f moves/s | %.0f moves/s | %.2f |" % (
            args.rooms, name, m1, m1 / t1, m2 / t2, (m2 / t2) / (m1 / t1)), flush=True)


if __name__ == "__main__":
    main()

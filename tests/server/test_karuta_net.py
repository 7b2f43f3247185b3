#!/usr/bin/env python3
"""test_karuta_net.py -- a kyogi match over the network with simulated
delays (issue 15, "Real-time karuta over the network").

Two clients on a simulated network: A hears the server 120 ms late and
speaks 120 ms late, B 20 ms, each with up to 15 ms of jitter, and their
clocks are off by +3 s and -2 s; both answer the server's clock `sync` at
once. Each touches the read card a fixed reaction time after it HEARS the
kana that decide it (A 250 ms, B 330 ms: A faster by 80 ms, though its
touches reach the server 200 ms later than B's would). A must be judged the
taker of every reading (the server converts touch times to the reading's
timeline with the clock exchange, docs/server.md "Real-time karuta");
A sends a card with `act` when it takes from B's territory. Also checked:
no `kana` arrives before its time (t0_ms + t_ms on the server's clock,
which is this machine's), the kana are the engine's timeline, no
`reading`, `kana` or `state` message names the card before its judgement
(view.reading.card null and judgement null during the touch stage, the
history's `read N` withheld), and every judgement is shown in a state.
Measured and printed (not asserted): how often the kana's times, or a
`kana_count` if the reading had one, would tell the card before its
deciding kana.

The deal is planned from the engine: with --test-seed S the room's seed is
S and the match draws each reading from (seed, actions so far), so the
first cards read are known; the deal puts exactly those in play (a few
readings, all live).

Usage: test_karuta_net.py --parlour PATH [--web DIR]
"""

import os
import re
import sys
import time

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from wsclient import ServerProcess, WSClient, check, parse_args, run_main  # noqa: E402
from driver import Conn, ai, all_over, settle, candidates, create_room, decide_index, person, poem_timelines, predict_reads  # noqa: E402,E501

SEED = 31337
OPTS = {"upper_ms": "1000", "pause_ms": "0", "yoin_ms": "0", "memo_s": "0", "send": "manual", "tie_ms": "10"}
READINGS = 6
EARLY_TOLERANCE_MS = 2  # clock granularity between the server's and this process's reading of the same clock


class Player:
    def __init__(self, conn, seat, reaction_ms, tl, send_card):
        self.p, self.seat, self.reaction, self.tl, self.send_card = conn, seat, reaction_ms, tl, send_card
        self.i = 0
        self.reading = None     # the `reading` message of the current reading
        self.heard = []         # kana heard in it
        self.unread = []
        self.due = None         # (monotonic time, card) of the planned touch
        self.done = False
        self.touches = []       # (reading n, card, kana index heard, client_ms)
        self.per_reading = {}   # n -> {"reading": msg, "kana": [(msg, arrived_ms)], "decided_at": index}

    def step(self):
        self.p.update()
        log = self.p.c.log
        while self.i < len(log):
            m, arrived = log[self.i], self.p.c.arrived_ms[self.i]
            self.i += 1
            if m["type"] == "reading":
                self.reading, self.heard, self.due, self.done = m, [], None, False
                self.unread = list(self.p.state["view"]["unread"])
                self.per_reading[m["n"]] = {"reading": m, "kana": [], "decided_at": None}
            elif m["type"] == "kana" and self.reading and m.get("n") == self.reading["n"]:
                self.per_reading[m["n"]]["kana"].append((m, arrived))
                self.heard.append(m["kana"])
                if self.done or self.due:
                    continue
                cand = candidates(self.tl, self.heard, self.unread)
                if len(cand) == 1:
                    self.per_reading[m["n"]]["decided_at"] = len(self.heard) - 1
                    field = [x["card"] for t in self.p.state["view"]["territories"] for x in t["cards"]]
                    if cand[0] in field:
                        self.due = (time.monotonic() + self.reaction / 1000.0, cand[0], len(self.heard) - 1)
                    else:
                        self.done = True
        if self.due and time.monotonic() >= self.due[0]:
            _, card, k = self.due
            t = self.p.c.now_ms()
            self.p.c.send({"type": "touch", "card": card, "client_ms": t})
            self.touches.append((self.reading["n"], card, k, t))
            self.due, self.done = None, True
        s = self.p.state
        if s and s.get("legal") and not s.get("over"):
            texts = [x["action"] for x in s["legal"]]
            want = "send %d" % self.send_card
            r = self.p.act(want if want in texts else texts[0], s["seq"])
            # (a newer state may be on its way: stale and over answers are the race, not a fault)
            check(r["type"] == "accepted" or r.get("error") in ("stale", "over"),
                  "%s: %s refused: %s" % (self.p.name, texts[0], r))
            if r["type"] != "accepted":
                self.p.wait(lambda: self.p.state["seq"] != s["seq"], 20, "a newer state")


def test_fair_judging_with_delays(args):
    tl = poem_timelines(args.parlour, int(OPTS["upper_ms"]), "even")  # the hub's default for karuta rooms
    reads, spare = predict_reads(args.parlour, SEED, " ".join("%s=%s" % kv for kv in OPTS.items()), READINGS,
                                 first_send=True)
    f, g = spare[0], spare[1]
    # A (seat 0) holds the cards read 2..6 and f (the card it sends when it takes
    # the first card, read from B's territory); B holds the first card and g.
    deal = "%s;%d/%d;%d" % (";".join(str(c) for c in reads[1:]), f, reads[0], g)
    with ServerProcess(args.parlour, args.web, test_seed=SEED) as srv:
        lobby = Conn(WSClient(srv.port), "lobby")
        lobby.c.wait_for("welcome", 10)
        room = create_room(lobby, "karuta", dict(OPTS, deal=deal), [person(), person()])
        lobby.close()
        ca = Conn(WSClient(srv.port, down_ms=120, up_ms=120, jitter_ms=15, clock_offset_ms=3000, auto_sync=True,
                           seed=1), "A")
        cb = Conn(WSClient(srv.port, down_ms=20, up_ms=20, jitter_ms=15, clock_offset_ms=-2000, auto_sync=True,
                           seed=2), "B")
        ca.join(room, "A", 0)
        cb.join(room, "B", 1)
        a, b = Player(ca, 0, 250, tl, f), Player(cb, 1, 330, tl, g)
        until = time.monotonic() + 120
        while not all_over([ca, cb]) and time.monotonic() < until and len(a.per_reading) <= READINGS + 2:
            a.step()
            b.step()
            time.sleep(0.001)
        finished = all_over([ca, cb])  # else the checks below say which reading went wrong
        for conn in (ca, cb):
            seen = {}  # history entries heard so far
            for s in conn.states:
                for h in s["history"]:
                    seen[h["seq"]] = h
                if s["view"].get("stage") == "touch":
                    check(s["view"]["reading"] is None or s["view"]["reading"]["card"] is None,
                          "the card is named during the touch stage: %s" % s["view"]["reading"])
                    check(s["view"]["judgement"] is None, "a judgement during the touch stage")
                    reads_told = sum(1 for h in seen.values() if h["text"].startswith("read "))
                    check(reads_told == s["view"]["readings"] - 1,
                          "%s: during reading %d the history tells %d reads (the current one's entry must wait)"
                          % (conn.name, s["view"]["readings"], reads_told))
        # The readings as the history tells them once answered: "read N", then each
        # seat's "touch N@MS" (ms on the reading's timeline, as the server judged it).
        hist = {}
        for s in ca.states:
            for h in s["history"]:
                hist[h["seq"]] = h
        readings = []
        for q in sorted(hist):
            h = hist[q]
            if h["seat"] < 0 and h["text"].startswith("read "):
                readings.append({"card": int(h["text"].split()[1]), "ms": {}})
            m = re.match(r"touch (\d+)@(\d+)", h["text"])
            if m and h["seat"] >= 0 and readings and int(m.group(1)) == readings[-1]["card"]:
                readings[-1]["ms"].setdefault(h["seat"], int(m.group(2)))
        tie = int(OPTS["tie_ms"])
        rows, wrong = [], []
        gone = set()
        for n, r in enumerate(readings, 1):
            unread = [c for c in range(1, 101) if c not in gone]
            gone.add(r["card"])
            d = tl[r["card"]][decide_index(tl, r["card"], unread)][1]
            ta, tb = r["ms"].get(0), r["ms"].get(1)
            rows.append((n, r["card"], ta - d if ta is not None else None, tb - d if tb is not None else None))
            if (ta is None and tb is not None) or (ta is not None and tb is not None and ta > tb - tie):
                wrong.append(rows[-1])  # (neither touched: a dead card, after the plan broke)
        print("  deal %s; (reading, card, A's and B's judged time after the deciding kana; true 250 and 330 ms): %s"
              % (deal, rows))
        check(len(readings) >= 3, "only %d readings" % len(readings))
        # Tolerance: one reading of the first READINGS may go to B (a client starved of the CPU on a
        # loaded machine touches late); then the planned deal no longer ends the match, so stop there.
        live = [r for r in rows if r[2] is not None or r[3] is not None]
        check(len(wrong) <= 1 and len(live) >= 4, "A (80 ms faster) was not judged first in %s of %d readings "
              "of a card in play: %s" % (wrong, len(live), rows))
        if wrong:
            print("  note: B was judged first once (%s): the match is not played out" % wrong)
            return
        check(finished, "match not over after %d readings (all judged as planned: %s)" % (len(readings), rows))
        check_messages(tl, [a, b], readings)
        for conn in (ca, cb):  # each judgement is shown in a state before the next reading
            shown = {s["view"]["readings"]: s["view"]["judgement"] for s in conn.states if s["view"].get("judgement")}
            for n, r in enumerate(readings, 1):
                j = shown.get(n)
                check(j is not None and j["card"] == r["card"],
                      "%s: reading %d (card %d): its judgement was never in a state: %s" % (conn.name, n, r["card"], j))
                check(j["taker"] == 0, "%s: reading %d: the view's judgement: %s" % (conn.name, n, j["text"]))
        out = ca.state["view"]["outcome"]
        check(out and out["winner"] == 0, "A did not win: %s" % out)
        j = ca.state["view"]["judgement"]
        check(j and j["taker"] == 0, "the last judgement: %s" % j)
        if [r["card"] for r in readings] != reads[:len(readings)]:
            print("  note: the readings were not the planned ones %s (the hub draws them another way)" % reads)


def check_messages(tl, players, readings):
    leaks_by_count = leaks_by_tempo = 0
    for pl in players:
        for n, r in pl.per_reading.items():
            check(set(r["reading"]) <= {"type", "n", "t0_ms", "kana_count"},
                  "the reading message says more than n, t0_ms, kana_count: %s" % r["reading"])
            check(1 <= n <= len(readings), "reading %d: not in the history" % n)
            card = readings[n - 1]["card"]
            t0 = r["reading"]["t0_ms"]
            for i, (m, arrived) in enumerate(r["kana"]):
                check(set(m) <= {"type", "n", "i", "kana", "t_ms"}, "a kana message says more: %s" % m)
                check(m["i"] == i, "reading %d: kana %d came as %d" % (n, i, m["i"]))
                check(arrived >= t0 + m["t_ms"] - EARLY_TOLERANCE_MS,
                      "%s: reading %d kana %d arrived at %d, %d ms before its time %d"
                      % (pl.p.name, n, i, arrived, t0 + m["t_ms"] - arrived, t0 + m["t_ms"]))
                want = tl[card][i] if i < len(tl[card]) else None
                check(want and (m["kana"], m["t_ms"]) == want,
                      "reading %d kana %d: %s, the engine's timeline has %s" % (n, i, (m["kana"], m["t_ms"]), want))
            # what kana_count adds to the kana heard: can it tell the card sooner?
            gone = {readings[k]["card"] for k in range(n - 1)}
            unread = [c for c in range(1, 101) if c not in gone]
            d = decide_index(tl, card, unread)
            for i in range(-1, d):  # the kana's times (t_ms, and so their arrival) before the deciding one
                if len([c for c in unread if tl[c][:i + 1] == tl[card][:i + 1]]) == 1:
                    leaks_by_tempo += 1
                    break
            kc = r["reading"].get("kana_count")
            if kc is not None:
                gone = {readings[k]["card"] for k in range(n - 1)}
                unread = [c for c in range(1, 101) if c not in gone]
                d = decide_index(tl, card, unread)
                for i in range(-1, d):
                    heard = [k for k, _ in tl[card][:i + 1]]
                    if len([c for c in candidates(tl, heard, unread) if len(tl[c]) == kc]) == 1:
                        leaks_by_count += 1
                        break
    # the room's tempo (even, the hub's default) must not tell the card early
    check(not leaks_by_tempo,
          "in %d of the readings heard, the kana's times (t_ms, as their arrival shows too) named "
          "the card before its deciding kana: the timeline spreads a poem's own units over upper_ms" % leaks_by_tempo)
    if leaks_by_count:
        print("  WARNING: in %d of the readings heard, the `reading` message's kana_count with the kana heard "
              "named the card before its deciding kana" % leaks_by_count)

# ---- arrivals during a reading, and a restart (issue 30, part 3) ----------------

SLOW = {"upper_ms": "6000", "pause_ms": "0", "yoin_ms": "0", "memo_s": "0"}


def reading_seen(conn, n=None):
    """The `reading` messages `conn` got (of reading `n`), in order."""
    return [m for m in conn.c.log if m.get("type") == "reading" and (n is None or m["n"] == n)]


def check_told_first(conn, n, t0=None):
    """`conn` got reading `n`'s `reading` (once, with t0_ms) before any of its kana,
    and its kana from i = 0 in order."""
    seen_reading = 0
    kana = []
    for m in conn.c.log:
        if m.get("type") == "reading" and m["n"] == n:
            check(not kana, "%s: reading %d's `reading` came after its kana %s" % (conn.name, n, kana))
            check(t0 is None or m["t0_ms"] == t0, "%s: reading %d: t0_ms %d, the others' %s"
                  % (conn.name, n, m["t0_ms"], t0))
            seen_reading += 1
        elif m.get("type") == "kana" and m["n"] == n:
            check(seen_reading, "%s: kana %d of reading %d came before (or without) its `reading`"
                  % (conn.name, m["i"], n))
            kana.append(m["i"])
    check(seen_reading == 1, "%s: reading %d: %d `reading` messages" % (conn.name, n, seen_reading))
    check(kana == list(range(len(kana))), "%s: reading %d's kana came as %s" % (conn.name, n, kana))
    return kana


def test_arrivals_during_a_reading_get_it(args):
    """A spectator who watches, and a player who comes back on a new connection,
    during a reading get its `reading` (t0_ms) before any of its kana, then the
    kana read so far and the rest."""
    with ServerProcess(args.parlour, args.web, test_seed=SEED) as srv:
        lobby = Conn(WSClient(srv.port), "lobby")
        lobby.c.wait_for("welcome", 10)
        room = create_room(lobby, "karuta", SLOW, [person(), person()])
        lobby.close()
        a, b = Conn(WSClient(srv.port), "A"), Conn(WSClient(srv.port), "B")
        a.join(room, "A", 0)
        b.join(room, "B", 1)
        # the first reading is on: two kana read
        a.wait(lambda: any(m.get("type") == "kana" and m["i"] >= 1 for m in a.c.log), 20, "two kana")
        first = reading_seen(a)[0]
        n, t0 = first["n"], first["t0_ms"]
        check(n == 1, "the first reading is numbered %d" % n)
        w = Conn(WSClient(srv.port), "W")
        w.c.wait_for("welcome", 10)
        w.watch(room)
        b.c.drop()
        b2 = Conn(WSClient(srv.port), "B again")
        b2.c.wait_for("welcome", 10)
        b2.rejoin(room, b.token)
        for c in (w, b2):  # one more kana after arriving
            c.wait(lambda: sum(1 for m in c.c.log if m.get("type") == "kana") >= 3, 20, "kana after arriving")
        for c in (a, w, b2):
            check_told_first(c, n, t0)
        check(reading_seen(a, n) == [first], "A was told reading 1 more than once")
        for c in (a, w, b2):
            c.close()


def test_restart_goes_on_counting_readings(args):
    """kill -9 during the second reading: the restored room reads it again as
    reading 2 (the `read` actions of its history), and each player who comes
    back gets its `reading` before any of its kana."""
    opts = dict(SLOW, upper_ms="1000")
    srv = ServerProcess(args.parlour, args.web, test_seed=SEED + 1)
    try:
        srv.start()
        lobby = Conn(WSClient(srv.port), "lobby")
        lobby.c.wait_for("welcome", 10)
        room = create_room(lobby, "karuta", opts, [person(), person()])
        lobby.close()
        a, b = Conn(WSClient(srv.port), "A"), Conn(WSClient(srv.port), "B")
        a.join(room, "A", 0)
        b.join(room, "B", 1)
        # nobody touches: reading 1 closes at its deadline, reading 2 starts 3 s later
        settle([a, b], lambda: reading_seen(a, 2) and reading_seen(b, 2), 40, "the second reading")
        srv.kill()
        srv.start()
        back = []
        for old in (a, b):
            c = Conn(WSClient(srv.port), old.name + " again")
            c.c.wait_for("welcome", 10)
            c.rejoin(room, old.token)
            back.append(c)
        for c in back:
            c.wait(lambda: any(m.get("type") == "kana" for m in c.c.log), 20, "a kana after the restart")
            check(c.state["view"]["readings"] == 2, "%s: the restored view has %d readings"
                  % (c.name, c.state["view"]["readings"]))
            told = reading_seen(c)
            check(told and told[0]["n"] == 2, "%s: after the restart the reading is numbered %s, not 2"
                  % (c.name, [m["n"] for m in told]))
            check_told_first(c, 2)
        for c in back:
            c.close()
        srv.stop()
    finally:
        srv.cleanup()

# ---- memorisation (issue 31, §6): KA-R3 honoured, and `ready` -------------------

def first_reading_at(conn):
    """The index in conn's log of its first `reading`, or None."""
    for i, m in enumerate(conn.c.log):
        if m.get("type") == "reading":
            return i
    return None


def test_memorisation_against_the_computer(args):
    """memo_s=2 against a computer: the first state says how long memorisation
    runs and that the computer is ready; the first reading comes no earlier
    than that (the old hub read it 0.3 s after the join)."""
    with ServerProcess(args.parlour, args.web, test_seed=SEED) as srv:
        lobby = Conn(WSClient(srv.port), "lobby")
        lobby.c.wait_for("welcome", 10)
        room = create_room(lobby, "karuta", dict(SLOW, memo_s="2"), [person(), ai("easy")])
        lobby.close()
        a = Conn(WSClient(srv.port), "A")
        a.join(room, "A", 0)
        memo = a.state.get("memo")
        check(memo is not None, "the first state has no `memo` during the memorisation time: %s" % a.state)
        check(memo["total_ms"] == 2000 and 0 < memo["left_ms"] <= 2000 and memo["ready"] == [False, True],
              "memo %s: not 2000 ms in all, some left, the computer ready and the person not" % memo)
        a.wait(lambda: first_reading_at(a) is not None, 20, "the first reading")
        told = next(i for i, m in enumerate(a.c.log) if m.get("type") == "state" and "memo" in m)
        # both times as this process took them off the socket; on a loaded
        # machine this process may take the state off late (100 ms was seen),
        # so 500 ms of slack: the old hub's reading 0.3 s after the join fails
        waited = a.c.arrived_ms[first_reading_at(a)] - a.c.arrived_ms[told]
        check(waited >= memo["left_ms"] - 500,
              "the first reading came %.0f ms after the state, before the %d ms of memorisation it said were left"
              % (waited, memo["left_ms"]))
        check("memo" not in a.state, "a state after memorisation still has `memo`: %s" % a.state.get("memo"))
        a.close()


def errors_after(conn, start):
    return [m for m in conn.c.log[start:] if m.get("type") == "error"]


def test_ready_ends_memorisation_early(args):
    """memo_s=900 between two people: `ready` from one is shown to both and
    starts nothing; said again it changes nothing and answers no error; from
    the second the first reading starts at once. A spectator's `ready`, one
    with a field, one after memorisation and one in a room of another game
    get one error each; a person's `ready` against a computer starts it."""
    with ServerProcess(args.parlour, args.web, test_seed=SEED) as srv:
        lobby = Conn(WSClient(srv.port), "lobby")
        lobby.c.wait_for("welcome", 10)
        room = create_room(lobby, "karuta", dict(SLOW, memo_s="900"), [person(), person()])
        ur = create_room(lobby, "ur", {"pieces": "1"}, [person(), ai("easy")])
        a, b = Conn(WSClient(srv.port), "A"), Conn(WSClient(srv.port), "B")
        a.join(room, "A", 0)
        b.join(room, "B", 1)
        w = Conn(WSClient(srv.port), "W")
        w.c.wait_for("welcome", 10)
        w.watch(room)
        check(b.state.get("memo", {}).get("ready") == [False, False], "before anyone is ready: %s" % b.state.get("memo"))
        # a spectator, and a `ready` with a field
        r = w.request({"type": "ready"}, answers=("error",))
        check(r["error"] == "seat" and r["request"] == "ready", "a spectator's ready: %s" % r)
        r = a.request({"type": "ready", "now": True}, answers=("error",))
        check(r["error"] == "shape", "ready with a field: %s" % r)
        a.c.send({"type": "ready"})
        b.wait(lambda: b.state.get("memo", {}).get("ready") == [True, False], 20, "A shown ready")
        w.wait(lambda: w.state.get("memo", {}).get("ready") == [True, False], 20, "A shown ready to the spectator")
        check(first_reading_at(a) is None, "a reading began when only A was ready")
        # said again: nothing changes, no error (a chat marks the end of what it caused)
        start = len(a.c.log)
        a.c.send({"type": "ready"})
        a.request({"type": "chat", "text": "ready twice"}, answers=("chat",))
        check(not errors_after(a, start), "a second ready answered %s" % errors_after(a, start))
        check(first_reading_at(a) is None, "a reading began after A's second ready")
        b.c.send({"type": "ready"})
        settle([a, b, w], lambda: all(first_reading_at(c) is not None for c in (a, b, w)), 20,
               "the first reading once both are ready (not 900 s later)")
        # the `reading` may come before the state that follows it: wait for that state
        settle([a, b, w], lambda: all(c.state and "memo" not in c.state for c in (a, b, w)), 20,
               "a state after memorisation without `memo`")
        r = a.request({"type": "ready"}, answers=("error",))
        check(r["error"] == "not-your-turn", "ready during the readings: %s" % r)
        # another game's room
        u = Conn(WSClient(srv.port), "U")
        u.join(ur, "U", 0)
        r = u.request({"type": "ready"}, answers=("error",))
        check(r["error"] == "seat", "ready in a room of Ur: %s" % r)
        # against a computer: the person's ready is everyone's
        room2 = create_room(lobby, "karuta", dict(SLOW, memo_s="900"), [ai("easy"), person()])
        c = Conn(WSClient(srv.port), "C")
        c.join(room2, "C", 1)
        check(c.state.get("memo", {}).get("ready") == [True, False], "the computer is not ready: %s" % c.state.get("memo"))
        c.c.send({"type": "ready"})
        c.wait(lambda: first_reading_at(c) is not None, 20, "the first reading after the person's ready")
        for x in (lobby, a, b, w, u, c):
            x.close()


if __name__ == "__main__":
    run_main([test_memorisation_against_the_computer, test_ready_ends_memorisation_early,
              test_fair_judging_with_delays, test_arrivals_during_a_reading_get_it,
              test_restart_goes_on_counting_readings], parse_args())

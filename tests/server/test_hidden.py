#!/usr/bin/env python3
"""test_hidden.py -- the hidden-information proof over the wire (issue 15,
"Hidden information over the wire"), for cbw and tamcuc.

Run A: `parlour serve --test-seed S`, a room with `deal=D_A`, four person
seats from four clients and a spectator; scripted clients play random legal
actions (lowest acting seat first) and chat now and then. Run B: another
server with `--test-seed S'` (another seed) and `deal=D_B`, D_B = D_A with
two cards swapped between seats a and b; the clients play the SAME action
texts and chats. Both runs stop before the first action of a or b that
plays one of the two cards (run A avoids them while it can). Every message
each receiver got (a seat r other than a and b, the spectator; chat
included) is compared byte for byte after dropping the volatile keys of
docs/web-protocol.md (json.dumps sort_keys): any difference is a leak. And
the test can fail: the same comparison for a and b, who hold the swapped
cards, must find a difference. Deals: cbw players=4, cbw players=2 (partner
seats: one person plays both seats of a team, so a swap inside a team is
seen by that person only), Tam Cuc players=4 (with and without the night
exchange; face-down lays of a swapped card are followed, see Swap).
A swap inside a cbw team cannot show a leak between its two seats (no third
seat of that colour): test_hidden_seats.py checks every seat arrangement
against what each person may know.

Usage: test_hidden.py --parlour PATH [--web DIR]
"""

import os
import random
import re
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from wsclient import ServerProcess, WSClient, canonical, check, parse_args, run_main, strip_volatile  # noqa: E402
from driver import Conn, create_room, person, settle  # noqa: E402

CHAT_EVERY = 7
ROOM_PATH = False  # test_cluster_nginx.py: the room's clients connect to /ws?room=CODE (routed by room)


def cbw_deal(rng):
    """A random own-colour deal of the 36-card deck to 4 seats (CBW-R4)."""
    ranks = ["6", "7", "8", "9", "10", "J", "Q", "K", "A"]
    red = [r + s for s in "HD" for r in ranks]
    black = [r + s for s in "SC" for r in ranks]
    rng.shuffle(red)
    rng.shuffle(black)
    return [red[:9], black[:9], red[9:], black[9:]]


def tamcuc_deal(rng):
    """A random deal of the 32 Tam Cuc cards to 4 seats (8 each)."""
    deck = [c + k for c in "rb" for k, n in (("G", 1), ("A", 2), ("E", 2), ("C", 2), ("N", 2), ("H", 2), ("S", 5))
            for _ in range(n)]
    rng.shuffle(deck)
    return [deck[8 * i:8 * i + 8] for i in range(4)]


def deal_text(hands):
    return "/".join(",".join(h) for h in hands)


def swapped_deal(hands, a, x, b, y):
    h = [list(v) for v in hands]
    h[a][h[a].index(x)] = y
    h[b][h[b].index(y)] = x
    return h


class Swap:
    """Which actions of run A keep the two worlds comparable, and how run B
    plays them. Seat a holds x in A (y in B), seat b holds y in A (x in B).
    A face-up play of x or y by its holder ends the comparison (every
    receiver then sees it, legitimately). With `face_down` (Tam Cuc), a
    holder may lay a swapped card face down: run B lays the other card, and
    the holder then hides that lay (`hide`; a `reveal` would show it), so
    the hidden lays and secret discards are compared too."""

    def __init__(self, a, x, b, y, face_down=False):
        self.own = {a: x, b: y}
        self.other = {a: y, b: x}
        self.face_down = face_down
        self.pending = {a: False, b: False}  # a lay with the swapped card awaits reveal/hide
        self.face_down_plays = 0

    def holds(self, seat, text):
        return seat in self.own and self.own[seat] in re.split(r"[ ,/@]+", text)

    def avoid(self, seat, text):
        if seat not in self.own:
            return False
        if text == "reveal":
            return self.pending[seat]
        if self.face_down and text.startswith("lay "):
            return False
        return self.holds(seat, text)

    def played(self, seat, text):
        if seat in self.own:
            if text.startswith("lay ") and self.holds(seat, text):
                self.pending[seat] = True
                self.face_down_plays += 1
            elif text in ("reveal", "hide"):
                self.pending[seat] = False

    def translate(self, seat, text):
        """Run B's text for run A's action."""
        if seat in self.own and text.startswith("lay ") and self.holds(seat, text):
            toks = text.split(" ")
            toks[toks.index(self.own[seat])] = self.other[seat]
            return " ".join(toks)
        return text


def quiet(conns):
    """Everyone at the same seq, and someone to act or the end."""
    seqs = {c.state["seq"] for c in conns if c.state}
    if len(seqs) != 1 or any(c.state is None for c in conns):
        return False
    return any(c.state.get("legal") for c in conns) or all(c.state.get("over") for c in conns)


def run(args, seed, game, options, swap, script=None, rng=None, max_actions=400, partners=False):
    """One run. Without `script` (run A): plays random legal actions (but
    those swap.avoid flags while others exist; stops before the first one it
    must) and returns the script; with one (run B): plays it, each action
    through swap.translate. Returns (script, logs: [{receiver: [messages]}
    at each quiet point], stopped_by). With `partners` (cbw players=2),
    seats 2 and 3 are partner seats played by the persons of 0 and 1."""
    with ServerProcess(args.parlour, args.web, test_seed=seed) as srv:
        lobby = Conn(WSClient(srv.port), "lobby")
        lobby.c.wait_for("welcome", 10)
        specs = [person()] * 4 if not partners else [person(), person(), {"kind": "partner", "of": 0},
                                                       {"kind": "partner", "of": 1}]
        room = create_room(lobby, game, options, specs)
        lobby.close()
        nconn = 2 if partners else 4
        owner = (lambda s: s % 2) if partners else (lambda s: s)
        seats = []
        for s in range(nconn):
            c = Conn(WSClient(srv.port, path="/ws?room=" + room if ROOM_PATH else "/ws"), "seat%d" % s)
            c.join(room, "P%d" % s, s)
            seats.append(c)
        spec = Conn(WSClient(srv.port, path="/ws?room=" + room if ROOM_PATH else "/ws"), "spectator")
        spec.watch(room)
        everyone = seats + [spec]
        played, marks = [], []
        stopped = "end"
        k = 0
        while True:
            settle(everyone, lambda: quiet(everyone), 30, "a quiet table")
            marks.append([c.i for c in everyone])
            if all(c.state.get("over") for c in everyone):
                break
            if script is not None:
                if k >= len(script):
                    stopped = "script"
                    break
                kind, seat, text = script[k]
            else:
                if len(played) >= max_actions:
                    stopped = "max"
                    break
                if len(played) and len(played) % CHAT_EVERY == 0 and played[-1][0] != "chat":
                    kind, seat, text = "chat", len(played) % 5 - 1, "note %d" % len(played)
                else:
                    entries = [(x.get("seat", c.seat), x["action"]) for c in seats for x in c.state["legal"]]
                    seat = min(e[0] for e in entries)
                    ok = [t for s_, t in entries if s_ == seat and not swap.avoid(seat, t)]
                    if not ok:
                        stopped = "swapped card"
                        break
                    kind, text = "act", rng.choice(ok)
            k += 1
            if kind == "chat":
                sender = spec if seat < 0 else seats[owner(seat)]
                sender.c.send({"type": "chat", "text": text})
                settle(everyone, lambda: all(any(m["text"] == text for m in c.chats) for c in everyone), 20,
                       "chat everywhere")
            else:
                c = seats[owner(seat)]
                check(any(x.get("seat", c.seat) == seat for x in c.state.get("legal")),
                      "run with seed %d: seat %d does not act at step %d" % (seed, seat, k))
                prev = c.state["seq"]
                if script is None:
                    swap.played(seat, text)
                r = c.act(swap.translate(seat, text) if script is not None else text, prev,
                          seat=seat if partners else None)
                if r["type"] == "accepted":  # every receiver hears of it before the next step
                    settle(everyone, lambda: all(e.state["seq"] > prev for e in everyone), 20, "the action's state")
                if r["type"] != "accepted":
                    check(script is not None, "run A: %r refused: %s" % (text, r))
                    stopped = "refused: seat %d %s: %s" % (seat, text, r.get("message", "")[:120])
                    break
            played.append((kind, seat, text))
        if not stopped.startswith("refused"):  # each seat's own record, at the same point of both runs
            for c in seats:
                r = c.request({"type": "record", "who": "seat"}, answers=("record", "error"))
                check(r["type"] == "record", "%s: seat record refused: %s" % (c.name, r))
            settle(everyone, lambda: quiet(everyone), 30, "a quiet table")
            marks.append([c.i for c in everyone])
        # each receiver's messages up to the quiet point before each step (and at the end)
        cut = lambda i: {("seat%d" % j if j < nconn else "spectator"): everyone[j].c.log[:marks[i][j]]  # noqa: E731
                         for j in range(nconn + 1)}
        logs = [cut(i) for i in range(len(marks))]
        for c in everyone:
            c.close()
        return played, logs, stopped


def first_difference(la, lb):
    a = [canonical(strip_volatile(m)) for m in la]
    b = [canonical(strip_volatile(m)) for m in lb]
    for i in range(min(len(a), len(b))):
        if a[i] != b[i]:
            return i, a[i], b[i]
    if len(a) != len(b):
        return min(len(a), len(b)), a[len(b):][:1], b[len(a):][:1]
    return None


def proof(args, game, options, hands, a, x, b, y, seed_a, seed_b, rng, face_down=False, partners=False):
    holders = (a % 2, b % 2) if partners else (a, b)  # the connections that see a's or b's hand
    opts_a = dict(options, deal=deal_text(hands))
    opts_b = dict(options, deal=deal_text(swapped_deal(hands, a, x, b, y)))
    swap = Swap(a, x, b, y, face_down)
    script, logs_a, stop_a = run(args, seed_a, game, opts_a, swap, rng=rng, partners=partners)
    played_b, logs_b, stop_b = run(args, seed_b, game, opts_b, swap, script=script, partners=partners)
    n = len(played_b)  # steps both runs made; compare what came before step n
    if stop_b.startswith("refused"):
        # only a holder's action may be refused (its hand differs); anyone else's is a leak of its own kind
        check(script[n][1] in (a, b), "%s: run B refused another seat's action: %s" % (game, stop_b))
    if n == len(script) and not stop_b.startswith("refused"):
        logs_a, logs_b = logs_a[-1], logs_b[-1]  # to the end, the seat records included
    else:
        logs_a, logs_b = logs_a[n], logs_b[n]
    script = script[:n]
    acts = sum(1 for s in script if s[0] == "act")
    compared = 0
    for r in logs_a:
        seat = int(r[4:]) if r.startswith("seat") else -1
        d = first_difference(logs_a[r], logs_b[r])
        if seat in holders:
            check(d is not None, "%s: %s holds a swapped card (%s/%s) but saw the same messages: the proof "
                  "cannot fail" % (game, r, x, y))
        else:
            check(d is None, "%s: LEAK: %s can tell that seat %d holds %s and seat %d holds %s: message %s:\n"
                  "A: %s\nB: %s" % (game, r, a, x, b, y, d and d[0], d and str(d[1])[:2000], d and str(d[2])[:2000]))
            compared += len(logs_a[r])
    print("  %s: seats %d/%d swap %s/%s, %d actions (%d face-down plays of a swapped card) and %d chats compared "
          "(run A stopped: %s), "
          "%d messages equal for the other receivers, the holders' differ"
          % (game, a, b, x, y, acts, swap.face_down_plays, len(script) - acts, stop_b if n < len(played_b) or stop_b != "script"
             else stop_a, compared))
    check(acts >= 4, "%s: only %d actions before a swapped card was played" % (game, acts))


def test_cbw(args):
    rng = random.Random(15)
    for i, (a, b) in enumerate([(0, 2), (1, 3)]):
        hands = cbw_deal(rng)
        x, y = rng.choice(hands[a]), rng.choice(hands[b])
        proof(args, "cbw", {"players": "4", "deck": "36", "first": "red"}, hands, a, x, b, y,
              1000 + i, 5000 + i, rng)


def test_cbw_partners(args):
    """players=2: one person plays both seats of a team (seats 0+2 Red, 1+3
    Black, partner seats). Swapping two Red cards between seats 0 and 2 must
    change nothing the Black person or a spectator gets; the Red person sees
    both hands, so theirs differ."""
    rng = random.Random(17)
    for i, (a, b) in enumerate([(0, 2), (3, 1)]):
        hands = cbw_deal(rng)
        x, y = rng.choice(hands[a]), rng.choice(hands[b])
        proof(args, "cbw", {"players": "2", "deck": "36", "first": "red"}, hands, a, x, b, y,
              3000 + i, 7000 + i, rng, partners=True)


def test_tamcuc(args):
    rng = random.Random(16)
    for i, (a, b, extra) in enumerate([(0, 2, {}), (1, 3, {}), (3, 0, {}), (2, 1, {"night_exchange": "1"})]):
        while True:
            hands = tamcuc_deal(rng)
            xs = [c for c in hands[a] if c not in hands[b]]
            ys = [c for c in hands[b] if c not in hands[a]]
            if xs and ys:
                break
        x, y = rng.choice(xs), rng.choice(ys)
        proof(args, "tamcuc", dict({"players": "4", "dealer": str(i % 4)}, **extra), hands, a, x, b, y,
              2000 + i, 6000 + i, rng, face_down=True)


if __name__ == "__main__":
    run_main([test_cbw, test_cbw_partners, test_tamcuc], parse_args())

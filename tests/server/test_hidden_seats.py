#!/usr/bin/env python3
"""test_hidden_seats.py -- the hidden-card proof over every seat arrangement
(issue 30, part 1).

test_hidden.py swaps two cards between seats and compares what the others
got: it cannot see a leak between the two seats of a City Behind Walls team
(no third seat of that colour to swap with), which is how the leak of issue
30 went unseen (cbw players=2, four person seats: each got the hand of a
teammate who was another person). This test checks each connection against
what its own person may know, worked out from the deal it gave and the
rules, not from the server's answers:

- For each option set that changes who sees what (cbw players 4, 2 and 6 =
  3v3; Tam Cuc players 4, 3, 2 with each two_p_open_hands, night_exchange
  and discard_revealed_public=off), `create` is sent without `seats` (the
  default seats), then with every arrangement of person, computer and partner seats (`{"kind":"partner","of":S}` of any
  person seat S; 6 seats: every person/computer one and a seeded sample of
  those with partners). Each one it accepts is played: every person seat
  joined from a connection of its own, a spectator, random legal actions
  (MAX_ACTS of the persons', the computers' in between).
- At every quiet point, every message each connection got is read for card
  names (any depth, keys and texts, suit symbols included). A person may name
  the cards dealt to the seats it plays (its own and its partner seats), the
  cards its own seat's view shows as its `hand` (Tam Cuc's night exchange),
  and the public cards: those the spectator was told by then; with Tam Cuc
  two players and open hands, every card. Anything else is a leak. Each
  state must be of the connection's own seat (`seat`, `view.viewer`) and list
  legal actions only of seats its person plays. The spectator of a cbw room
  may name only the cards of placements in its history (every placement is
  face up, CBW-R8). Tam Cuc's cards repeat (five of a kind), so there a name
  is a kind: a leak of a kind the person holds too goes unseen (test_hidden.py
  covers Tam Cuc by swaps).

On the code before issue 30 it fails: cbw players=2 accepted four person
seats (and a person beside a computer) and each person got
`view.partner_hand` of a seat it does not play.

Usage: test_hidden_seats.py --parlour PATH [--web DIR]
"""

import itertools
import os
import random
import re
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from wsclient import ServerProcess, WSClient, check, parse_args, run_main  # noqa: E402
from driver import Conn, settle  # noqa: E402

MAX_ACTS = 8  # persons' actions a room (computers act in between)
SAMPLE_6 = 40  # 6 seats: arrangements with partner seats tried (of 3,233)

CBW_CARD = re.compile(r"(?<![0-9A-Za-z])(10|[2-9JQKA])([HDSC])(?![0-9A-Za-z])")
TC_CARD = re.compile(r"(?<![0-9A-Za-z])([rb][GAECNHS])(?![0-9A-Za-z])")
SUITS = str.maketrans({"♥": "H", "♦": "D", "♠": "S", "♣": "C"})


def cards_in(game, obj, out=None):
    """The card names anywhere in a message (keys and strings, any depth)."""
    out = set() if out is None else out
    if isinstance(obj, dict):
        for k, v in obj.items():
            cards_in(game, k, out)
            cards_in(game, v, out)
    elif isinstance(obj, list):
        for v in obj:
            cards_in(game, v, out)
    elif isinstance(obj, str):
        if game == "cbw":
            out.update(r + s for r, s in CBW_CARD.findall(obj.translate(SUITS)))
        else:
            out.update(TC_CARD.findall(obj))
    return out


def arrangements(n, rng, sample=None):
    """Every seat list of n seats: "P" person, "A" computer, or S (int):
    partner of the person seat S. With `sample`: every person/computer one
    and `sample` of the others, drawn with rng."""
    plain, partnered = [], []
    for arr in itertools.product(["P", "A"] + list(range(n)), repeat=n):
        if any(k == s or (isinstance(k, int) and arr[k] != "P") for s, k in enumerate(arr)):
            continue
        (partnered if any(isinstance(k, int) for k in arr) else plain).append(arr)
    if sample is not None and sample < len(partnered):
        partnered = rng.sample(partnered, sample)
    return plain + partnered


def seat_spec(k):
    if k == "P":
        return {"kind": "person"}
    if k == "A":
        return {"kind": "ai", "level": "easy"}
    return {"kind": "partner", "of": k}


def cbw_deal(rng, nseats):
    """A random own-colour deal of the 36 cards to nseats seats (CBW-R4):
    red to the even seats, black to the odd ones."""
    ranks = ["6", "7", "8", "9", "10", "J", "Q", "K", "A"]
    hands = [[] for _ in range(nseats)]
    for team, suits in ((0, "HD"), (1, "SC")):
        deck = [r + s for s in suits for r in ranks]
        rng.shuffle(deck)
        seats = list(range(team, nseats, 2))
        for i, c in enumerate(deck):
            hands[seats[i % len(seats)]].append(c)
    return hands


TC_COUNTS = (("G", 1), ("A", 2), ("E", 2), ("C", 2), ("N", 2), ("H", 2), ("S", 5))


def tamcuc_deal(rng, nseats):
    """A random deal of Tam Cuc's deck in play to nseats seats (TC-R3:
    4 x 8, 2 x 16; 3 players seed_27: without rG bG rA bA bS, 9 each)."""
    deck = [c + k for c in "rb" for k, n in TC_COUNTS for _ in range(n)]
    if nseats == 3:
        for c in ("rG", "bG", "rA", "bA", "bS"):
            deck.remove(c)
    rng.shuffle(deck)
    size = len(deck) // nseats
    return [deck[size * i:size * (i + 1)] for i in range(nseats)]


def quiet(conns):
    """Everyone at the same seq, and a person to act or the end."""
    if any(c.state is None for c in conns):
        return False
    if len({c.state["seq"] for c in conns}) != 1:
        return False
    return any(c.state.get("legal") for c in conns) or all(c.state.get("over") for c in conns)


class Room:
    """One room of an arrangement, its connections and what each may see."""

    def __init__(self, srv, lobby, game, options, arr, hands, everything_open):
        """arr None: `create` without `seats` (the game's default seats,
        read back from the spectator's first state)."""
        self.game, self.arr, self.hands = game, arr, hands
        msg = {"type": "create", "game": game, "options": options, "grace_s": 0}
        if arr is not None:
            msg["seats"] = [seat_spec(k) for k in arr]
        self.answer = lobby.request(msg, answers=("created", "error"))
        self.conns, self.everyone, self.plays, self.own, self.checked = [], [], {}, {}, {}
        if self.answer["type"] != "created":
            return
        room = self.answer["room"]
        self.spec = Conn(WSClient(srv.port), "spectator")
        self.spec.watch(room)
        if arr is None:
            self.arr = arr = tuple("A" if e["kind"] == "ai" else e["of"] if e["kind"] == "partner" else "P"
                                   for e in self.spec.state["seats"])
        for s, k in enumerate(arr):
            if k != "P":
                continue
            c = Conn(WSClient(srv.port), "seat%d" % s)
            c.join(room, "P%d" % s, s)
            self.conns.append(c)
            self.plays[c] = {s} | {t for t, o in enumerate(arr) if o == s}
            dealt = set() if not everything_open else {x for h in hands for x in h}
            for t in self.plays[c]:
                dealt.update(hands[t])
            self.own[c] = dealt
        self.everyone = self.conns + [self.spec]
        for c in self.everyone:
            self.checked[c] = 0

    def check_now(self, where):
        """Every message got so far against what its receiver may know."""
        public = set()
        for m in self.spec.c.log:
            cards_in(self.game, m, public)
        table = set()
        for m in self.spec.c.log:
            if m.get("type") == "state":
                check(m["seat"] == -1 and m["legal"] == [], "spectator: a state of seat %s" % m["seat"])
                for e in m.get("history", []):
                    if e["seat"] >= 0:
                        table |= cards_in(self.game, e["text"])
        if self.game == "cbw":  # every card the spectator names lies on the table
            extra = public - table
            check(not extra, "%s: LEAK to the spectator: %s (seats %s)" % (where, sorted(extra), self.arr))
        for c in self.conns:
            log = c.c.log
            for m in log[self.checked[c]:]:
                if m.get("type") == "state":
                    check(m["seat"] == c.seat and m["view"].get("viewer") == c.seat,
                          "%s: %s got a state of seat %s, view of %s" % (where, c.name, m["seat"],
                                                                          m["view"].get("viewer")))
                    bad = [x["seat"] for x in m["legal"] if x["seat"] not in self.plays[c]]
                    check(not bad, "%s: %s got legal actions of seats %s" % (where, c.name, bad))
                    # its own seat's hand and its seats' legal actions name its cards (a night exchange gives new ones)
                    self.own[c] |= set(m["view"].get("hand") or []) | cards_in(self.game, m["legal"])
            for i in range(self.checked[c], len(log)):
                extra = cards_in(self.game, log[i]) - self.own[c] - public
                check(not extra, "%s: LEAK: %s (plays seats %s; seats %s) was told %s, dealt to %s: %s"
                      % (where, c.name, sorted(self.plays[c]), self.arr, sorted(extra),
                         sorted({t for t, h in enumerate(self.hands) if set(h) & extra}),
                         str(log[i])[:1500]))
            self.checked[c] = len(log)

    def play(self, rng, where):
        acts = 0
        while True:
            settle(self.everyone, lambda: quiet(self.everyone), 60, "%s: a quiet table" % where)
            self.check_now(where)
            if all(c.state.get("over") for c in self.everyone) or acts >= MAX_ACTS:
                return acts
            entries = [(x["seat"], x["action"], c) for c in self.conns for x in c.state["legal"]]
            seat = min(e[0] for e in entries)
            _, text, c = rng.choice([e for e in entries if e[0] == seat])
            r = c.act(text, seat=seat)  # no seq: a computer may pass at the same time (night exchange)
            check(r["type"] == "accepted", "%s: %s refused: %s" % (where, text, r))
            settle(self.everyone, lambda: all(e.state["seq"] >= r["seq"] for e in self.everyone), 30,
                   "%s: the action's state" % where)
            acts += 1

    def close(self):
        for c in self.everyone:
            c.close()


def sweep(args, game, options, nseats, seed, sample=None, expect_refused=()):
    """Every arrangement of `nseats` seats for these options: created ones
    played and checked, refused ones counted (each must be `options`)."""
    rng = random.Random(seed)
    created = refused = acts = 0
    refused_arrs = []
    everything_open = game == "tamcuc" and nseats == 2 and options.get("two_p_open_hands", "initial") != "off"
    with ServerProcess(args.parlour, args.web, test_seed=seed) as srv:
        lobby = None
        for i, arr in enumerate([None] + arrangements(nseats, rng, sample)):  # None: the default seats
            if i % 30 == 0:  # a connection's burst is 60 messages (docs/web-protocol.md, Limits)
                if lobby:
                    lobby.close()
                lobby = Conn(WSClient(srv.port), "lobby")
                lobby.c.wait_for("welcome", 10)
            hands = cbw_deal(rng, nseats) if game == "cbw" else tamcuc_deal(rng, nseats)
            deal = "/".join(",".join(h) for h in hands)
            opts = dict(options, deal=deal)
            if game == "tamcuc":
                opts["dealer"] = "0"
            where = "%s %s seats %s" % (game, " ".join("%s=%s" % kv for kv in sorted(options.items())),
                                        "".join(str(k) for k in arr) if arr else "(default)")
            room = Room(srv, lobby, game, opts, arr, hands, everything_open)
            if room.answer["type"] != "created":
                check(room.answer.get("error") == "options", "%s: refused with %s" % (where, room.answer))
                refused += 1
                refused_arrs.append(arr)
                continue
            created += 1
            if arr is None:
                default = room.arr
            acts += room.play(rng, where)
            room.close()
        lobby.close()
    print("  %s %s: %d arrangements played (%d persons' actions; the default seats %s), %d refused"
          % (game, options, created, acts, "".join(str(k) for k in default), refused))
    for arr in expect_refused:
        check(arr in refused_arrs, "%s %s: %s was not refused" % (game, options, arr))
    return created - 1, refused, default


def test_cbw_four(args):
    created, refused, default = sweep(args, "cbw", {"players": "4", "first": "red"}, 4, 30)
    check(created == 104 and refused == 0 and default == ("P",) * 4,
          "cbw players=4: %d created, %d refused, default %s" % (created, refused, default))


def test_cbw_two(args):
    """players=2: only one person seat with its partner, or computers, per
    team (docs/web-protocol.md); the 9 such arrangements are played."""
    created, refused, default = sweep(args, "cbw", {"players": "2", "first": "black"}, 4, 31,
                                      expect_refused=[("P", "P", "P", "P"), ("P", "P", "A", "A")])
    check(created == 9, "cbw players=2: %d arrangements created, 9 expected" % created)
    check(default == ("P", "P", 0, 1), "cbw players=2: the default seats are %s" % (default,))


def test_cbw_six(args):
    sweep(args, "cbw", {"players": "6", "first": "red"}, 6, 32, sample=SAMPLE_6)


def test_tamcuc_four(args):
    sweep(args, "tamcuc", {"players": "4"}, 4, 33)
    rng = random.Random(34)
    for extra in ({"night_exchange": "1"}, {"discard_revealed_public": "off"}):
        sweep(args, "tamcuc", dict({"players": "4"}, **extra), 4, rng.randrange(1000), sample=8)


def test_tamcuc_three(args):
    sweep(args, "tamcuc", {"players": "3"}, 3, 35)


def test_tamcuc_two(args):
    for i, open_ in enumerate(("off", "initial", "current")):
        sweep(args, "tamcuc", {"players": "2", "two_p_open_hands": open_}, 2, 36 + i)


if __name__ == "__main__":
    run_main([test_cbw_two, test_cbw_four, test_cbw_six, test_tamcuc_four, test_tamcuc_three, test_tamcuc_two],
             parse_args())

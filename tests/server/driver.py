"""driver.py -- playing games through `parlour serve` with scripted clients
(shared by test_games.py, test_hidden.py, test_hostile.py and
test_karuta_net.py; standard library only).

    p = Conn(WSClient(port), "name")   # one connection and what it has heard
    p.update()                         # takes what was delivered: p.state (the
                                       # last `state`), p.accepted, p.errors, p.chats
    room = create_room(p, "ur", {"pieces": "2"}, [person(), ai("easy")])
    p.join(room, "Ann", seat=0)        # -> token (waits for `joined` and a `state`)
    p.act("move ...") -> reply         # `accepted` or `error` (waits for it)
    settle(conns, cond, timeout)       # polls until cond() is true
    play_turns(conns, rng, ...)        # random legal actions until `over`

Karuta: poem_timelines(parlour) gives each poem's kana (the engine's own
timeline) and DecideTracker says when the kana heard so far decide the
card; predict_reads() asks the engine for a seed's reading order.
"""

import json
import subprocess
import time

from wsclient import Closed, Timeout, WSClient, check


def person():
    return {"kind": "person"}


def ai(level="easy"):
    return {"kind": "ai", "level": level}


class Conn:
    def __init__(self, client, name=""):
        self.c = client
        self.name = name or client.name
        self.c.name = self.name
        self.i = 0
        self.state = None
        self.states = []
        self.accepted = []
        self.errors = []
        self.chats = []
        self.other = []
        self.seat = None
        self.token = None
        self.room = None

    def update(self):
        try:
            self.c.poll()
        except Closed:
            pass
        log = self.c.log
        while self.i < len(log):
            m = log[self.i]
            self.i += 1
            t = m.get("type")
            if t == "state":
                self.state = m
                self.states.append(m)
            elif t == "accepted":
                self.accepted.append(m)
            elif t == "error":
                self.errors.append(m)
            elif t == "chat":
                self.chats.append(m)
            else:
                self.other.append(m)

    def wait(self, cond, timeout=20, what="condition"):
        settle([self], cond, timeout, "%s: %s" % (self.name, what))

    def wait_type(self, type_, timeout=20, pred=None):
        """The first message of `type_` among those update() has not yet
        taken (or that come later)."""
        start = self.i
        found = []

        def cond():
            for m in self.c.log[start:]:
                if m.get("type") == type_ and (pred is None or pred(m)):
                    found.append(m)
                    return True
            return False
        self.wait(cond, timeout, "a %r message" % type_)
        return found[0]

    def request(self, obj, timeout=20, answers=None):
        """Sends `obj`, waits for the first answer of a type in `answers`
        (default: any but state/chat/sync/kana/reading) and returns it."""
        start = len(self.c.log)
        self.c.send(obj)
        skip = ("state", "chat", "sync", "kana", "reading", "welcome")
        found = []

        def cond():
            for m in self.c.log[start:]:
                t = m.get("type")
                if (answers and t in answers) or (not answers and t not in skip):
                    found.append(m)
                    return True
            return False
        self.wait(cond, timeout, "an answer to %s" % json.dumps(obj)[:200])
        return found[0]

    def join(self, room, name, seat=None, timeout=20):
        msg = {"type": "join", "room": room, "name": name}
        if seat is not None:
            msg["seat"] = seat
        r = self.request(msg, timeout, answers=("joined", "error"))
        check(r["type"] == "joined", "%s: join refused: %s" % (self.name, r))
        self.seat, self.token, self.room = r["seat"], r["token"], room
        self.wait(lambda: self.state is not None and self.state.get("room", room) == room, timeout, "first state")
        return r

    def rejoin(self, room, token, timeout=20):
        n = len(self.states)
        r = self.request({"type": "join", "room": room, "token": token}, timeout, answers=("joined", "error"))
        check(r["type"] == "joined", "%s: coming back refused: %s" % (self.name, r))
        self.seat, self.token, self.room = r["seat"], r["token"], room
        self.wait(lambda: len(self.states) > n, timeout, "state after coming back")
        return r

    def watch(self, room, timeout=20):
        n = len(self.states)
        self.c.send({"type": "watch", "room": room})
        self.wait(lambda: len(self.states) > n or self.errors, timeout, "state after watch")
        check(len(self.states) > n, "%s: watch refused: %s" % (self.name, self.errors[-1:]))
        self.room, self.seat = room, -1

    def act(self, action, seq=None, timeout=30, seat=None):
        msg = {"type": "act", "action": action}
        if seq is not None:
            msg["seq"] = seq
        if seat is not None:  # a partner seat this person plays
            msg["seat"] = seat
        return self.request(msg, timeout, answers=("accepted", "error"))

    def close(self):
        self.c.close()


def settle(conns, cond, timeout=20, what="condition"):
    """Polls every connection until cond() is true; raises Timeout."""
    until = time.monotonic() + timeout
    while True:
        for c in conns:
            c.update()
        if cond():
            return
        if time.monotonic() >= until:
            raise Timeout("%s not reached in %.0f s; last states: %s" % (
                what, timeout, [(c.name, c.state and c.state.get("seq"), c.state and c.state.get("over"),
                                 c.errors[-1:]) for c in conns]))
        time.sleep(0.003)


def create_room(conn, game, options=None, seats=None, timeout=20, **extra):
    msg = {"type": "create", "game": game}
    if options:
        msg["options"] = {k: str(v) for k, v in options.items()}
    if seats is not None:
        msg["seats"] = seats
    msg.update(extra)
    r = conn.request(msg, timeout, answers=("created", "error"))
    check(r["type"] == "created", "create %s %s refused: %s" % (game, options, r))
    check(isinstance(r["room"], str) and len(r["room"]) == 32, "room code is not 32 hex digits: %r" % r["room"])
    return r["room"]


def max_seq(conns):
    return max((c.state["seq"] for c in conns if c.state), default=-1)


def actors_now(conns):
    """Seated connections whose last state is the newest and lists actions."""
    top = max_seq(conns)
    return [c for c in conns if c.state and c.seat is not None and c.seat >= 0 and c.state["seq"] == top
            and c.state.get("legal") and not c.state.get("over")]


def all_over(conns):
    return all(c.state and c.state.get("over") for c in conns)


def play_turns(players, rng, watchers=(), on_step=None, timeout=120, step_timeout=30, choose=None):
    """Plays random legal actions (or choose(conn) -> text) for the person
    seats `players` until every connection (players and watchers) has a
    state with `over`. Each act must be `accepted` (a `stale` answer, when
    another seat's action crossed ours, is retried). on_step(n) runs after
    each accepted action. Returns (actions played, stale retries)."""
    until = time.monotonic() + timeout
    n = stale = 0
    while True:
        check(time.monotonic() < until, "game not over in %d s (%d actions)" % (timeout, n))
        everyone = list(players) + list(watchers)  # on_step may replace a connection
        settle(everyone, lambda: all_over(everyone) or (actors_now(players) and all(
            c.state and c.state["seq"] == max_seq(everyone) for c in everyone)), step_timeout,
            "a seat to act or the end")
        if all_over(everyone):
            return n, stale
        c = rng.choice(sorted(actors_now(players), key=lambda x: x.seat))
        action = choose(c) if choose else rng.choice(c.state["legal"])["action"]
        prev = c.state["seq"]
        r = c.act(action, prev)
        if r["type"] == "error" and r.get("error") == "stale":
            stale += 1
            check(stale < 50, "too many stale answers")
            continue
        check(r["type"] == "accepted", "%s: act %r at seq %d not accepted: %s" % (c.name, action, c.state["seq"], r))
        check(r.get("action") is not None and isinstance(r.get("seq"), int), "accepted without seq/action: %s" % r)
        settle([c], lambda: c.state["seq"] > prev, step_timeout, "the state after an accepted action")
        n += 1
        if on_step:
            on_step(n)


# ---- karuta -------------------------------------------------------------------

def engine(parlour, lines):
    """Runs `parlour engine` on `lines`; returns the answers, one list of
    lines per request (docs/protocol.md framing)."""
    out = subprocess.run([parlour, "engine"], input="\n".join(lines) + "\n", capture_output=True,
                         text=True, timeout=60).stdout
    answers, cur = [], []
    for line in out.split("\n"):
        if line == "":
            if cur:
                answers.append(cur)
            cur = []
        else:
            cur.append(line)
    return answers


def poem_timelines(parlour, upper_ms=1000, tempo="poem"):
    """{poem: [(kana, start_ms), ...]}: each poem's upper half as the engine
    reads it with option `tempo` (the timeline of its text view during a reading)."""
    cmds = []
    for n in range(1, 101):
        cmds += ["new karuta seed=1 upper_ms=%d tempo=%s deal=%s" % (upper_ms, tempo, "1/2" if n > 2 else "3/4"),
                 "play read %d" % n, "view 0"]
    out = {}
    for ans in engine(parlour, cmds):
        cur = None
        for line in ans:
            if line.startswith("reading "):
                cur = int(line.split()[1])
            if line.startswith("timeline ") and cur:
                out[cur] = [(k, int(ms)) for k, ms in (x.rsplit("@", 1) for x in line.split()[1:])]
    check(len(out) == 100, "poem timelines: %d of 100 from the engine" % len(out))
    return out


def decide_index(timelines, card, unread):
    """Index of the kana that decides `card` among the `unread` poems
    (its dynamic kimariji, KA-K3), as a listener can tell."""
    key = [k for k, _ in timelines[card]]
    for i in range(len(key)):
        if [m for m in unread if [k for k, _ in timelines[m][:i + 1]] == key[:i + 1]] == [card]:
            return i
    return len(key) - 1


def candidates(timelines, heard, unread):
    """Unread poems whose reading starts with the kana `heard`."""
    return [m for m in unread if [k for k, _ in timelines[m][:len(heard)]] == list(heard)]


def predict_reads(parlour, seed, options, count, first_send=False):
    """The first `count` poems a kyogi match of `seed` reads (the match
    draws from (seed, actions so far), so the order depends only on how
    many actions each reading takes). Plan: each reading takes 3 actions
    (the read and the two answers; send=auto, place=auto); with
    `first_send`, seat 0 takes the first card from seat 1's territory and
    sends one card (4 actions), every later reading 3. Simulated in the
    engine on a scratch deal whose cards are not read in time.
    Returns (reads, spare): `spare` = three cards not among the reads."""
    avoid = set()
    for _ in range(20):
        f, g, h = [c for c in range(100, 0, -1) if c not in avoid][:3]
        r1 = None
        cmds = ["new karuta seed=%d %s deal=%d/%d" % (seed, options, h, g)]
        if first_send:
            r1 = int(engine(parlour, cmds + ["random"])[-1][0].split()[2])
            cmds = ["new karuta seed=%d %s deal=%d;%d/%d;%d" % (seed, options, f, h, r1, g),
                    "random", "play 0 touch %d@500" % r1, "play 1 none", "play 0 send %d" % f]
            n = count - 1
        else:
            n = count
        cmds += ["random", "play 0 none", "play 1 none"] * n
        ans = engine(parlour, cmds)
        reads = [int(a[0].split()[2]) for a in ans if a and a[0].startswith("= read ")]
        bad = [a for a in ans if a and a[0].startswith("?")]
        if len(reads) == count and not bad and not ({f, g, h} & set(reads)):
            return reads, [f, g, h]
        avoid |= {f, g, h} & set(reads) or {f, g, h}
    raise AssertionError("could not plan a karuta deal for seed %d" % seed)

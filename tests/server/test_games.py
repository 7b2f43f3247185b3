#!/usr/bin/env python3
"""test_games.py -- whole games of the four games through `parlour serve`
over real sockets (issue 15, "Tests and benchmarks").

For each game a room with some computer seats is created, the person seats
are joined from separate clients, a spectator watches, and random legal
actions are played from each `state`'s `legal` until the end (karuta:
`touch` messages a reaction time after the kana that decide the card).
Checked: `accepted` for every act, every receiver at the same `seq` at
the end, `over` reached, `record` who=referee refused before the end and
given after (with the seed), who=seat always; a client that drops in the
middle comes back with its token (same seat, full state) and plays on; the
spectator never gets a `legal` list or a hand; chat reaches everyone;
rematch gives a new room with the same seats and people; a person gone
longer than grace_s is covered by a computer and gets the seat back, and a
move clock plays for a person who does not act in time.

Usage: test_games.py --parlour PATH [--web DIR]
"""

import os
import random
import re
import sys
import time

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from wsclient import ServerProcess, WSClient, canonical, check, parse_args, run_main  # noqa: E402
from driver import (Conn, ai, all_over, candidates, create_room, person, play_turns, poem_timelines,  # noqa: E402
                    predict_reads, settle)

SEED = 424242


def no_hidden_for_spectator(w):
    """Every state a spectator got: seat -1, no legal action, no hand."""
    for s in w.states:
        check(s["seat"] == -1, "spectator state with seat %r" % s["seat"])
        check(s.get("legal") == [], "spectator got legal actions: %s" % s.get("legal"))
        v = s["view"]
        check("hand" not in v and "partner_hand" not in v, "spectator got a hand: %s" % list(v))
        check(v.get("viewer") == -1, "spectator view of viewer %r" % v.get("viewer"))


def check_records(conns, referee_ok, seed=None):
    for c in conns:
        r = c.request({"type": "record", "who": "seat"}, answers=("record", "error"))
        check(r["type"] == "record", "%s: seat record refused: %s" % (c.name, r))
        check(r["record"].get("format") in ("parlour-record-view", "parlour-record"),
              "seat record format %r" % r["record"].get("format"))
        # before the end: no seed, or (a game that hides nothing: the whole record so far,
        # docs/records.md) a fresh seed, never the room's
        rec = r["record"]
        so_far = rec.get("format") == "parlour-record" and rec.get("result") is None and rec.get("seed") != seed
        check("seed" not in rec or referee_ok or (seed is not None and so_far),
              "%s: seat record shows the seed before the end" % c.name)
        r = c.request({"type": "record", "who": "referee"}, answers=("record", "error"))
        if referee_ok:
            check(r["type"] == "record" and r["record"].get("format") == "parlour-record",
                  "%s: referee record after the end: %s" % (c.name, str(r)[:300]))
            if seed is not None:
                check(r["record"].get("seed") == seed, "referee record seed %r, the room was made with --test-seed %d"
                      % (r["record"].get("seed"), seed))
        else:
            check(r["type"] == "error", "%s: referee record given before the end: %s" % (c.name, str(r)[:300]))


def chat_round(sender, everyone, text):
    sender.c.send({"type": "chat", "text": text})
    settle(everyone, lambda: all(any(m["text"] == text for m in c.chats) for c in everyone), 20,
           "chat %r everywhere" % text)
    for c in everyone:
        m = [m for m in c.chats if m["text"] == text][0]
        check(m["seat"] == sender.seat and (sender.seat < 0 or m["name"] == sender.name),
              "chat from %s (seat %s) arrived as %s" % (sender.name, sender.seat, m))


def no_secrets_before_end(conns, secrets):
    """No message a client got before its first `over` state holds one of
    `secrets` (the room's seed, the deal= text): they stay on the server
    until the game is over (issue 15)."""
    for c in conns:
        for m in c.c.log:
            if m.get("type") == "state" and m.get("over"):
                break
            text = canonical(m)
            for sec in secrets:
                check(sec not in text, "%s got %r before the end: %s" % (c.name, sec, text[:300]))
            if m.get("type") == "state":
                opts = m["view"].get("options") or {}
                check("seed" not in opts and "deal" not in opts, "options shown: %s" % opts)


def end_checks(players, watchers):
    everyone = players + watchers
    settle(everyone, lambda: all_over(everyone), 60, "over everywhere")
    seqs = {c.name: c.state["seq"] for c in everyone}
    check(len(set(seqs.values())) == 1, "receivers disagree on the final seq: %s" % seqs)
    res = {c.name: c.state.get("result") for c in everyone}
    check(all(r is not None for r in res.values()), "over without a result: %s" % res)
    outs = {repr(c.state["view"].get("outcome")) for c in everyone}
    check(len(outs) == 1 and "None" not in outs, "outcomes differ or are missing: %s" % outs)
    for c in players:
        check(c.state.get("legal") == [], "%s: legal actions after the end" % c.name)


def setup(srv, game, options, seats, names, public=False):
    lobby = Conn(WSClient(srv.port), "lobby")
    lobby.c.wait_for("welcome", 10)
    room = create_room(lobby, game, options, seats, public=public)
    players = []
    for name, seat in names:
        p = Conn(WSClient(srv.port), name)
        p.join(room, name, seat)
        check(p.seat == seat, "%s asked for seat %d, got %d" % (name, seat, p.seat))
        check(p.state["seat"] == seat and p.state["view"]["viewer"] == seat, "state of the wrong seat")
        players.append(p)
    w = Conn(WSClient(srv.port), "watcher")
    w.watch(room)
    lobby.close()
    return room, players, w


def test_ur_with_rematch(args):
    with ServerProcess(args.parlour, args.web, test_seed=SEED) as srv:
        room, players, w = setup(srv, "ur", {"pieces": "2"}, [person(), ai("easy")], [("Ann", 0)])
        rng = random.Random(1)
        check_records(players, referee_ok=False, seed=SEED)
        chat_round(players[0], players + [w], "good luck")
        n, _ = play_turns(players, rng, [w], timeout=120)
        end_checks(players, [w])
        no_secrets_before_end(players + [w], ["%d" % SEED])
        check_records(players, referee_ok=True, seed=SEED)
        r = players[0].act("roll", players[0].state["seq"])
        check(r["type"] == "error" and r["error"] == "over", "an act after the end: %s" % r)
        chat_round(w, players + [w], "well played")
        no_hidden_for_spectator(w)
        # Rematch: every person seated asks; everyone hears the new room.
        p = players[0]
        p.c.send({"type": "rematch"})
        m = p.wait_type("rematch", 20)
        new = m["room"]
        check(new != room, "rematch gave the same room")
        w.wait_type("rematch", 20)
        q = Conn(WSClient(srv.port), "Ann again")
        q.rejoin(new, p.token)
        check(q.seat == 0, "rematch seat %r" % q.seat)
        seats = q.state["seats"]
        check(seats[0]["kind"] == "person" and seats[0]["name"] == "Ann" and seats[1]["kind"] == "ai",
              "rematch seats %s" % seats)
        check(not q.state["over"] and q.state["seq"] < p.state["seq"],
              "rematch room not new: seq %s (the old game ended at %s)" % (q.state["seq"], p.state["seq"]))
        print("  ur: %d person actions" % n)
        # The server times every move it answered (net_latency), and says so when it stops.
        srv.stop()
        m = re.search(r"parlour serve: (\d+) moves answered; from a move's arrival to its last update: "
                      r"p50 [0-9.]+ ms p99 [0-9.]+ ms p99\.9 [0-9.]+ ms max [0-9.]+ ms", srv.log_text())
        check(m is not None, "no latency line when the server stopped:\n%s" % srv.log_text()[-2000:])
        check(int(m.group(1)) == n, "the server timed %s moves, the person played %d" % (m.group(1), n))


def test_cbw_reconnect(args):
    with ServerProcess(args.parlour, args.web, test_seed=SEED) as srv:
        room, players, w = setup(srv, "cbw", {"players": "4", "deck": "36"},
                                 [person(), ai("easy"), person(), ai("easy")], [("Bea", 0), ("Cy", 2)])
        rng = random.Random(2)
        state = {"done": False}

        def on_step(n):
            if n != 3 or state["done"]:
                return
            state["done"] = True
            old = players[0]
            settle(players + [w], lambda: all(c.state["seq"] == old.state["seq"] for c in players + [w]), 20)
            seq_before = old.state["seq"]
            old.c.drop()  # network gone without a close
            time.sleep(0.3)
            back = Conn(WSClient(srv.port), "Bea back")
            back.rejoin(room, old.token)
            check(back.seat == 0, "came back to seat %r" % back.seat)
            s = back.state
            check(s["seq"] >= seq_before, "came back to an older state")
            check(s["history_from"] == 0 and len(s["history"]) == s["seq"],
                  "full history on coming back: from %s, %d entries, seq %d"
                  % (s["history_from"], len(s["history"]), s["seq"]))
            check("hand" in s["view"], "no hand after coming back")
            seats = s["seats"]
            check(seats[0]["kind"] == "person" and seats[0]["connected"], "seat 0 after coming back: %s" % seats[0])
            players[0] = back
        n, stale = play_turns(players, rng, [w], on_step=on_step, timeout=150)
        check(state["done"], "the game ended before the reconnection")
        no_secrets_before_end(players + [w], ["%d" % SEED])
        chat_round(players[1], players + [w], "gg")
        end_checks(players, [w])
        check_records(players, referee_ok=True, seed=SEED)
        no_hidden_for_spectator(w)
        print("  cbw: %d person actions, %d stale retries" % (n, stale))


def test_tamcuc(args):
    with ServerProcess(args.parlour, args.web, test_seed=SEED) as srv:
        room, players, w = setup(srv, "tamcuc", {"players": "4"},
                                 [person(), ai("easy"), person(), ai("easy")], [("Dao", 0), ("Em", 2)])
        rng = random.Random(3)
        check_records(players, referee_ok=False)
        n, stale = play_turns(players, rng, [w], timeout=150)
        end_checks(players, [w])
        no_secrets_before_end(players + [w], ["%d" % SEED])
        check_records(players, referee_ok=True, seed=SEED)
        chat_round(players[1], players + [w], "xin chao")
        no_hidden_for_spectator(w)
        print("  tamcuc: %d person actions, %d stale retries" % (n, stale))


def test_grace_and_clock(args):
    """A person gone longer than grace_s is covered by a computer, which
    plays on; back with the token, the seat is theirs again. With a move
    clock, a person who does not act in time gets a computer move."""
    with ServerProcess(args.parlour, args.web, test_seed=SEED) as srv:
        lobby = Conn(WSClient(srv.port), "lobby")
        lobby.c.wait_for("welcome", 10)
        room = create_room(lobby, "ur", {"pieces": "2"}, [person(), ai("easy")], grace_s=1)
        p = Conn(WSClient(srv.port), "Gil")
        p.join(room, "Gil", 0)
        w = Conn(WSClient(srv.port), "watcher")
        w.watch(room)
        rng = random.Random(4)
        for _ in range(2):
            settle([p], lambda: p.state["legal"] or p.state["over"], 20, "Gil to act")
            prev = p.state["seq"]
            r = p.act(rng.choice(p.state["legal"])["action"], prev)
            check(r["type"] == "accepted", "act refused: %s" % r)
            settle([p], lambda: p.state["seq"] > prev, 20)
        p.c.drop()
        settle([w], lambda: w.state["seats"][0]["covered"] and not w.state["seats"][0]["connected"], 20,
               "the seat covered after grace_s=1")
        mine = lambda c: len({h["seq"] for s in c.states for h in s["history"] if h["seat"] == 0})  # noqa: E731
        before = mine(w)
        settle([w], lambda: mine(w) > before or w.state["over"], 30, "the computer playing the covered seat")
        back = Conn(WSClient(srv.port), "Gil back")
        back.rejoin(room, p.token)
        check(back.seat == 0, "came back to seat %r" % back.seat)
        settle([back], lambda: not back.state["seats"][0]["covered"] and back.state["seats"][0]["connected"], 20,
               "the seat handed back")
        play_turns([back], rng, [w], timeout=120)
        end_checks([back], [w])
        # the move clock: nobody acts for seat 0, the computer moves for it after move_s
        room = create_room(lobby, "ur", {"pieces": "2"}, [person(), ai("easy")], clock={"move_s": 1})
        q = Conn(WSClient(srv.port), "Hal")
        q.join(room, "Hal", 0)
        check(q.state.get("clock") and q.state["clock"].get("move_s") == 1, "no move clock: %s" % q.state.get("clock"))
        settle([q], lambda: mine(q) >= 2 or q.state["over"], 30, "moves played for a person out of time")
        idle = mine(q)
        play_turns([q], rng, timeout=120)
        check(q.state["over"], "not over")
        print("  grace: covered, played for, handed back; move clock: %d moves played for the idle seat" % idle)


KARUTA_OPTS = {"upper_ms": "1000", "pause_ms": "0", "yoin_ms": "0", "memo_s": "0", "send": "auto"}


def play_karuta(p, everyone, tl, reaction_ms=150, timeout=90):
    """Seat p touches each read card that is on the field `reaction_ms`
    after the kana that decide it (as it can tell from the kana heard);
    plays `legal` actions when it has any (none with send=auto)."""
    i = 0
    heard, unread, touched, due, readings = [], [], False, None, 0
    until = time.monotonic() + timeout
    while not all_over(everyone):
        check(time.monotonic() < until, "karuta not over in %d s (%d readings; the deal is planned from the "
              "reading order the engine gives for the seed: does the hub draw readings another way?)"
              % (timeout, readings))
        for c in everyone:
            c.update()
        log = p.c.log
        while i < len(log):
            m = log[i]
            i += 1
            if m["type"] == "reading":
                readings += 1
                heard, touched, due = [], False, None
                unread = p.state["view"]["unread"]
            elif m["type"] == "kana" and not touched and due is None:
                heard.append(m["kana"])
                cand = candidates(tl, heard, unread)
                if len(cand) == 1:
                    v = p.state["view"]
                    field = [x["card"] for t in v.get("territories", []) for x in t["cards"]]
                    if cand[0] in field:
                        due = (time.monotonic() + reaction_ms / 1000.0, cand[0])
                    else:
                        touched = True  # a dead card: no touch
        if due and time.monotonic() >= due[0]:
            p.c.send({"type": "touch", "card": due[1], "client_ms": p.c.now_ms()})
            touched, due = True, None
        s = p.state
        if s and s.get("legal") and not s.get("over"):
            r = p.act(random.choice(s["legal"])["action"], s["seq"])
            check(r["type"] == "accepted", "karuta act refused: %s" % r)
        time.sleep(0.002)
    return readings


def test_karuta(args):
    tl = poem_timelines(args.parlour)
    opts = " ".join("%s=%s" % kv for kv in KARUTA_OPTS.items())
    reads, spare = predict_reads(args.parlour, SEED, opts, 3)
    deal = "%d;%d/%d" % (reads[0], reads[1], reads[2])  # every card in play is read in the first three
    with ServerProcess(args.parlour, args.web, test_seed=SEED) as srv:
        o = dict(KARUTA_OPTS, deal=deal)
        room, players, w = setup(srv, "karuta", o, [person(), ai("easy")], [("Fumi", 0)], public=True)
        # the lobby lists the public room, and not its deal
        look = Conn(WSClient(srv.port), "looker")
        r = look.request({"type": "rooms"}, answers=("rooms", "error"))
        check(r["type"] == "rooms" and any(x["room"] == room for x in r["rooms"]), "public room not listed: %s" % r)
        check(deal not in canonical(r) and "%d" % SEED not in canonical(r), "the lobby tells the deal or seed: %s" % r)
        look.close()
        # (no record before the end: the hub answers none while a reading is open, and
        # with memo_s=0 and pause_ms=0 one always is)
        readings = play_karuta(players[0], players + [w], tl)
        no_secrets_before_end(players + [w], ["%d" % SEED, deal])
        check(readings >= 2, "karuta ended after %d `reading` messages (the deal puts 3 cards in play)" % readings)
        touched = [m for m in players[0].c.log if m.get("type") == "kana"]
        check(touched, "no `kana` message reached the player")
        end_checks(players, [w])
        check_records(players, referee_ok=True, seed=SEED)
        chat_round(players[0], players + [w], "arigatou")
        no_hidden_for_spectator(w)
        for s in players[0].states + w.states:
            v = s["view"]
            if v.get("stage") == "touch":
                check(v["reading"] is None or v["reading"]["card"] is None, "card named during touch: %s" % v["reading"])
                check(v["judgement"] is None, "judgement during touch")
        print("  karuta: %d readings (planned deal %s from the seed's reading order %s)" % (readings, deal, reads))


if __name__ == "__main__":
    run_main([test_ur_with_rematch, test_cbw_reconnect, test_tamcuc, test_grace_and_clock, test_karuta], parse_args())

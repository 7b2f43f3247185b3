#!/usr/bin/env python3
"""test_invite.py -- the addresses `parlour serve` gives for an invitation (issue 31 §1).

Usage: test_invite.py --parlour BINARY --web DIR

For each way of starting the server it checks the lines printed at start and the
`welcome` message's `invite` (docs/web-protocol.md): never 0.0.0.0 in a URL; on
127.0.0.1 (the default), localhost or the loopback interface, "this machine only"
said plainly with the way to open it (--host 0.0.0.0) and no address for other
devices; on 0.0.0.0, this machine's network addresses (compared with `ip -4 addr`
where it exists), not the loopback one; with --public-url, that URL (a trailing /
added); a bad --public-url (not http/https, a space, no host) refused with exit 2
and a message that names the option. Python's standard library only.
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from wsclient import ServerProcess, WSClient, parse_args  # noqa: E402

FAILS = []


def check(cond, what):
    print(("ok   " if cond else "FAIL ") + what)
    if not cond:
        FAILS.append(what)


def lines_of(srv):
    """The start lines (every "parlour serve:" line printed before the first message)."""
    return [ln for ln in srv.log_text().splitlines() if ln.startswith("parlour serve:")]


def welcome_invite(port):
    c = WSClient(port)
    try:
        return c.wait_for("welcome", 10).get("invite")
    finally:
        c.close()


def machine_ipv4():
    """This machine's up, non-loopback IPv4 addresses (`ip -4 -o addr show up`), or None."""
    if not shutil.which("ip"):
        return None
    out = subprocess.run(["ip", "-4", "-o", "addr", "show", "up"], capture_output=True, text=True).stdout
    addrs = []
    for ln in out.splitlines():
        m = re.search(r"inet (\d+\.\d+\.\d+\.\d+)/", ln)
        if m and not m.group(1).startswith("127."):
            addrs.append(m.group(1))
    return addrs


def serve(args, extra):
    srv = ServerProcess(args.parlour, web=args.web, test_seed=1, extra_args=extra)
    srv.start()
    return srv


def local_only(args, extra, what):
    with ServerProcess(args.parlour, web=args.web, test_seed=1, extra_args=extra) as srv:
        text = "\n".join(lines_of(srv))
        here = "http://127.0.0.1:%d/" % srv.port
        check(("on this machine: " + here) in text, what + ": the address on this machine, " + here)
        check("from other devices" not in text, what + ": no address for other devices")
        check("this machine only" in text and "--host 0.0.0.0" in text,
              what + ": says it listens on this machine only and how to open it")
        inv = welcome_invite(srv.port)
        check(inv == {"urls": [], "local_only": True}, what + ": welcome.invite " + repr(inv))


def main():
    args = parse_args()

    local_only(args, [], "default host")
    local_only(args, ["--host", "localhost"], "--host localhost")
    local_only(args, ["--host", "lo"], "--host lo")

    # every address: the network ones, never 0.0.0.0 nor loopback for others
    with ServerProcess(args.parlour, web=args.web, test_seed=1, extra_args=["--host", "0.0.0.0"]) as srv:
        lines = lines_of(srv)
        text = "\n".join(lines)
        check("0.0.0.0:" not in text.replace("--host 0.0.0.0", ""), "--host 0.0.0.0: no URL says 0.0.0.0" + ("" if "0.0.0.0:" not in text.replace("--host 0.0.0.0", "") else ":\n" + text))
        check(("on this machine: http://127.0.0.1:%d/" % srv.port) in text, "--host 0.0.0.0: 127.0.0.1 for this machine")
        others = [ln.split("from other devices: ", 1)[1] for ln in lines if "from other devices: " in ln]
        inv = welcome_invite(srv.port)
        check(inv is not None and inv["urls"] == others, "--host 0.0.0.0: welcome.invite.urls are the printed ones: %r" % inv)
        check(all("127." not in u for u in others), "--host 0.0.0.0: no loopback address for other devices")
        expect = machine_ipv4()
        if expect is not None:
            want = ["http://%s:%d/" % (a, srv.port) for a in expect][:8]
            check(others == want, "--host 0.0.0.0: this machine's addresses %r, printed %r" % (want, others))
            check(inv["local_only"] == (not want), "--host 0.0.0.0: local_only %r" % inv["local_only"])
            if not want:
                check("this machine only" in text, "--host 0.0.0.0 with no network: says this machine only")

    # a site's public URL (nginx in front): the one address for others
    for given, want in (("https://games.example.org", "https://games.example.org/"),
                        ("http://play.example.net:8443/parlour/", "http://play.example.net:8443/parlour/")):
        with ServerProcess(args.parlour, web=args.web, test_seed=1, extra_args=["--public-url", given]) as srv:
            text = "\n".join(lines_of(srv))
            check(("from other devices: " + want) in text, "--public-url %s: printed as %s" % (given, want))
            check("this machine only" not in text, "--public-url %s: not 'this machine only'" % given)
            inv = welcome_invite(srv.port)
            check(inv == {"urls": [want], "local_only": False}, "--public-url %s: welcome.invite %r" % (given, inv))

    # bad public URLs: exit 2 and a message naming the option
    tmp = tempfile.mkdtemp(prefix="parlour-invite-")
    try:
        for bad in ("games.example.org", "ftp://games.example.org", "https://games example.org", "https://",
                    "https:///room", "http://x.org/?a=1", ""):
            p = subprocess.run([args.parlour, "serve", "--port", "0", "--db", os.path.join(tmp, "x.db"),
                                "--public-url", bad], capture_output=True, text=True, timeout=30)
            check(p.returncode == 2 and "--public-url" in p.stderr and "listening" not in p.stdout,
                  "--public-url %r refused: %d %s" % (bad, p.returncode, p.stderr.strip()))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)

    print("%d failed" % len(FAILS))
    sys.exit(1 if FAILS else 0)


if __name__ == "__main__":
    main()

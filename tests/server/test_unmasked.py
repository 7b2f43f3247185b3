#!/usr/bin/env python3
"""test_unmasked.py -- an unmasked client frame (RFC 6455 section 5.1: "a
server MUST close the connection upon receiving a frame that is not masked")
sent to `parlour serve` over a raw socket.

libwebsockets before 5.0 (Debian 12 has 4.1.6) takes an unmasked frame as
if it were masked with the key 0 (lib/roles/ws/ops-ws.c: the mask bit is read
into a private field and only decides whether a key follows), and its API
shows neither the bit nor the raw bytes of a frame, so the server cannot
close such a connection itself (docs/server.md, "Unmasked frames"). lws 5.0
closes it (1002, "client unmasked").

So this test pins down what the server does, by the lws version it was
built with (--lws-version, from CMake's pkg-config): from 5.0 the connection
must be closed without an answer; before 5.0 the frame must be taken exactly
like a masked one (a `hello` answered `welcome`), and the test fails the day
that changes (update the docs and this test then). Either way the server must
stay up, serve a new masked connection and stop cleanly.

Usage: test_unmasked.py --parlour PATH [--web DIR] --lws-version X.Y.Z
"""

import argparse
import base64
import hashlib
import json
import os
import socket
import struct
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from wsclient import GUID, ServerProcess, check  # noqa: E402

HELLO = json.dumps({"type": "hello", "v": 1}).encode()


def frame(payload, mask):
    """One final text frame; masked with a random key, or not at all."""
    head = struct.pack("!BB", 0x81, (0x80 if mask else 0) | len(payload))
    if not mask:
        return head + payload
    key = os.urandom(4)
    return head + key + bytes(b ^ key[i & 3] for i, b in enumerate(payload))


class Raw:
    """A WebSocket opened by hand: the handshake, then frames read one by one."""

    def __init__(self, port):
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=10)
        key = base64.b64encode(os.urandom(16)).decode()
        self.sock.sendall(("GET /ws HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nUpgrade: websocket\r\n"
                           "Connection: Upgrade\r\nSec-WebSocket-Key: %s\r\nSec-WebSocket-Version: 13\r\n"
                           "Sec-WebSocket-Protocol: parlour.v1\r\n\r\n" % (port, key)).encode())
        data = b""
        while b"\r\n\r\n" not in data:
            chunk = self.sock.recv(4096)
            check(chunk, "the handshake was answered")
            data += chunk
        head, self.rest = data.split(b"\r\n\r\n", 1)
        check(head.startswith(b"HTTP/1.1 101"), "switching protocols: %r" % head[:40])
        want = base64.b64encode(hashlib.sha1((key + GUID).encode()).digest())
        check(b"Sec-WebSocket-Accept: " + want in head or b"sec-websocket-accept: " + want in head.lower(),
              "the accept key")

    def get(self, n):
        while len(self.rest) < n:
            chunk = self.sock.recv(4096)
            if not chunk:
                raise EOFError
            self.rest += chunk
        b, self.rest = self.rest[:n], self.rest[n:]
        return b

    def next(self):
        """(opcode, payload) of the next frame; None when the connection
        ended (closed, reset or silent for 10 s)."""
        try:
            b0, b1 = self.get(2)
            n = b1 & 0x7F
            if n == 126:
                n = struct.unpack("!H", self.get(2))[0]
            elif n == 127:
                n = struct.unpack("!Q", self.get(8))[0]
            return b0 & 0x0F, self.get(n)
        except (EOFError, OSError):
            return None

    def message(self):
        """The next text message as a dict, skipping pings; or ("close",
        code) for a close frame; or None when the connection ended."""
        while True:
            f = self.next()
            if f is None:
                return None
            op, payload = f
            if op == 0x8:
                return ("close", struct.unpack("!H", payload[:2])[0] if len(payload) >= 2 else 1005)
            if op == 0x1:
                return json.loads(payload.decode())

    def close(self):
        self.sock.close()


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--parlour", required=True)
    p.add_argument("--web", default=None)
    p.add_argument("--lws-version", required=True, help="libwebsockets' version (pkg-config)")
    args = p.parse_args()
    major = int(args.lws_version.split(".")[0])
    with ServerProcess(args.parlour, args.web) as srv:
        c = Raw(srv.port)
        m = c.message()
        check(isinstance(m, dict) and m.get("type") == "welcome", "welcome on connect: %r" % (m,))
        c.sock.sendall(frame(HELLO, mask=True))
        m = c.message()
        check(isinstance(m, dict) and m.get("type") == "welcome", "a masked hello answered: %r" % (m,))
        c.sock.sendall(frame(HELLO, mask=False))
        m = c.message()
        if isinstance(m, dict):
            print("the unmasked frame was taken like a masked one: %r" % (m,))
            check(m.get("type") == "welcome", "the unmasked hello read as sent: %r" % (m,))
            check(major < 5, "libwebsockets %s should close on an unmasked frame, yet answered %r"
                  % (args.lws_version, m))
        else:
            print("the unmasked frame closed the connection: %r" % (m,))
            check(m is None or m == ("close", 1002), "closed with 1002 (protocol error) or at once: %r" % (m,))
            check(major >= 5, "libwebsockets %s now closes on an unmasked frame: update docs/server.md "
                  "(\"Unmasked frames\") and this test" % args.lws_version)
        c.close()
        d = Raw(srv.port)  # the server still serves masked clients
        m = d.message()
        check(isinstance(m, dict) and m.get("type") == "welcome", "a new connection after it: %r" % (m,))
        d.close()
    print("ok")


if __name__ == "__main__":
    main()

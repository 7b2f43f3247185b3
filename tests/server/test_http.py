#!/usr/bin/env python3
"""test_http.py — `parlour serve`'s HTTP side and WebSocket handshake over real sockets.

Usage: test_http.py PARLOUR_BINARY SOURCE_DIR

Starts the server on a free port (--port 0) with a temporary web folder (a copy of the
source tree's web/ plus traps: a symlink out of the folder, a symlink inside it, a hidden
file, a file over the size limit), checks what is served and what is refused, that a
WebSocket opens at /ws (with the subprotocol parlour.v1 or none) and nowhere else, that a
message longer than the limit is refused even in fragments, and that SIGTERM stops the
server with exit status 0 (under ASan: no leak). Python's standard library only.
"""
import base64
import http.client
import json
import os
import random
import select
import shutil
import signal
import socket
import struct
import subprocess
import sys
import tempfile
import time

FAILS = []


def check(cond, what):
    print(("ok   " if cond else "FAIL ") + what)
    if not cond:
        FAILS.append(what)


def start(binary, tmp, web, extra=()):
    cmd = [binary, "serve", "--port", "0", "--db", os.path.join(tmp, "t.db"), "--web", web, "--max-queue", "65536",
           *extra]
    err = open(os.path.join(tmp, "stderr.txt"), "wb")
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=err, cwd=tmp, bufsize=0)
    err.close()
    line = b""
    while not line.endswith(b"\n"):
        r, _, _ = select.select([p.stdout], [], [], 60)
        if not r:
            p.kill()
            sys.exit("the server did not say it was listening within 60 s")
        c = p.stdout.read(1)
        if not c:
            with open(os.path.join(tmp, "stderr.txt")) as f:
                sys.exit("the server ended before listening: " + f.read())
        line += c
    text = line.decode()
    print(text.strip())
    if not text.startswith("parlour serve: listening on http://127.0.0.1:"):
        sys.exit("unexpected first line: " + text)
    port = int(text.split("http://127.0.0.1:")[1].split("/")[0])
    return p, port


def get(port, path, method="GET", headers=None, want=None):
    """(status, content type, content length, body); status 0: closed without an answer.
    want: a header's name, whose value comes fifth."""
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=20)
    try:
        c.request(method, path, headers=headers or {})
        r = c.getresponse()
        body = r.read()
    except (http.client.RemoteDisconnected, ConnectionResetError, BrokenPipeError):
        return (0, "", None, b"") + ((None,) if want else ())
    finally:
        c.close()
    out = (r.status, r.getheader("content-type") or "", r.getheader("content-length"), body)
    return out + ((r.getheader(want),) if want else ())


def raw(port, data):
    """Sends raw bytes, returns what came back until the server closed or 5 s of silence."""
    s = socket.create_connection(("127.0.0.1", port), timeout=20)
    try:
        s.sendall(data)
    except OSError:
        pass
    out = b""
    s.settimeout(5)
    try:
        while True:
            b = s.recv(65536)
            if not b:
                break
            out += b
    except (socket.timeout, OSError):
        pass
    s.close()
    return out


# ---- A minimal WebSocket client (RFC 6455: handshake, masked frames) -------------------

def ws_open_sock(port, rcvbuf):
    """ws_open with a small receive buffer (set before connecting: a small TCP window)."""
    s = socket.socket()
    s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
    s.settimeout(20)
    s.connect(("127.0.0.1", port))
    return ws_open(port, sock=s)


def ws_open(port, path="/ws", protocol="parlour.v1", sock=None):
    s = sock or socket.create_connection(("127.0.0.1", port), timeout=20)
    key = base64.b64encode(os.urandom(16)).decode()
    req = (f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
           f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n")
    if protocol:
        req += f"Sec-WebSocket-Protocol: {protocol}\r\n"
    s.sendall((req + "\r\n").encode())
    head = b""
    while b"\r\n\r\n" not in head:
        b = s.recv(1)
        if not b:
            break
        head += b
    return s, head.decode(errors="replace")


def ws_send(s, payload, opcode=1, fin=True):
    mask = os.urandom(4)
    n = len(payload)
    h = bytes([(0x80 if fin else 0) | opcode])
    if n < 126:
        h += bytes([0x80 | n])
    elif n < 65536:
        h += bytes([0x80 | 126]) + struct.pack("!H", n)
    else:
        h += bytes([0x80 | 127]) + struct.pack("!Q", n)
    s.sendall(h + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload)))


def recv_exact(s, n):
    out = b""
    while len(out) < n:
        b = s.recv(n - len(out))
        if not b:
            raise EOFError("closed")
        out += b
    return out


def ws_recv(s):
    """The next text message (a dict), skipping control frames; None when closed."""
    try:
        while True:
            b0, b1 = recv_exact(s, 2)
            n = b1 & 0x7F
            if n == 126:
                n = struct.unpack("!H", recv_exact(s, 2))[0]
            elif n == 127:
                n = struct.unpack("!Q", recv_exact(s, 8))[0]
            data = recv_exact(s, n)
            op = b0 & 0x0F
            if op == 8:
                return None
            if op == 1:
                return json.loads(data)
    except (EOFError, OSError):
        return None


def main():
    binary, source = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    tmp = tempfile.mkdtemp(prefix="parlour-http-")
    web = os.path.join(tmp, "web")
    shutil.copytree(os.path.join(source, "web"), web)
    with open(os.path.join(tmp, "secret.txt"), "w") as f:
        f.write("SECRET outside the web folder\n")
    os.symlink(os.path.join(tmp, "secret.txt"), os.path.join(web, "out.txt"))
    os.symlink("index.html", os.path.join(web, "in.html"))
    with open(os.path.join(web, ".hidden"), "w") as f:
        f.write("hidden\n")
    with open(os.path.join(web, "big.bin"), "wb") as f:
        f.truncate(9 << 20)  # over NET_MAX_FILE (8 MiB), sparse
    os.mkdir(os.path.join(web, "sub"))
    with open(os.path.join(web, "index.html"), "rb") as f:
        index = f.read()
    # The fonts folder (--fonts): one file by Debian's layout, one by its name, one a folder,
    # one over the size limit, and a file not on the server's list.
    fonts = os.path.join(tmp, "fonts")
    os.makedirs(os.path.join(fonts, "opentype", "ipaexfont-mincho"))
    with open(os.path.join(fonts, "opentype", "ipaexfont-mincho", "ipaexm.ttf"), "wb") as f:
        f.write(b"MINCHO by the Debian layout")
    with open(os.path.join(fonts, "DejaVuSans.ttf"), "wb") as f:
        f.write(b"DEJAVU by its name")
    os.mkdir(os.path.join(fonts, "ipaexg.ttf"))
    with open(os.path.join(fonts, "DejaVuSans-Bold.ttf"), "wb") as f:
        f.truncate(33 << 20)  # over NET_MAX_FONT (32 MiB), sparse
    with open(os.path.join(fonts, "other.ttf"), "wb") as f:
        f.write(b"SECRET not on the list")

    # Bad flags: a clear message and exit status 2; a store that cannot open: 1.
    for flags, rc_want in [(["--port", "70000"], 2), (["--port", "x"], 2), (["--port"], 2),
                           (["--workers", "0"], 2), (["--test-seed", "-1"], 2), (["--bogus"], 2), (["--max-queue", "5"], 2),
                           (["--web", os.path.join(tmp, "no-such-folder")], 2), (["extra"], 2),
                           (["--fonts", os.path.join(tmp, "no-such-folder")], 2), (["--fonts"], 2),
                           (["--port", "0", "--web", web, "--db", os.path.join(tmp, "no", "such", "t.db")], 1)]:
        r = subprocess.run([binary, "serve"] + flags, capture_output=True, text=True, timeout=60, cwd=tmp)
        first = (r.stderr.splitlines() or [""])[0]
        check(r.returncode == rc_want and first.startswith("parlour serve: ") and "Sanitizer" not in r.stderr,
              "serve %s: exit %d, %r" % (" ".join(flags), r.returncode, first))

    busy = socket.socket()
    busy.bind(("127.0.0.1", 0))
    busy.listen(1)
    r = subprocess.run([binary, "serve", "--port", str(busy.getsockname()[1]), "--web", web, "--db",
                        os.path.join(tmp, "busy.db")], capture_output=True, text=True, timeout=60, cwd=tmp)
    busy.close()
    check(r.returncode == 1 and "parlour serve: cannot listen" in r.stderr and "Sanitizer" not in r.stderr,
          "a port in use: exit %d, %r" % (r.returncode, r.stderr.strip()[-200:]))

    # SIGINT stops it too, also when started with SIGINT ignored (a background job of a shell
    # without job control): serve.c blocks it and takes it with sigwait, and Linux queues a
    # blocked signal even when its action is to ignore it.
    q = subprocess.Popen([binary, "serve", "--port", "0", "--db", os.path.join(tmp, "int.db"), "--web", web],
                         stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, cwd=tmp,
                         preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_IGN))
    q.stdout.readline()
    q.send_signal(signal.SIGINT)
    try:
        rc = q.wait(timeout=30)
    except subprocess.TimeoutExpired:
        q.kill()
        q.wait()
        rc = "still running after 30 s"
    q.stdout.close()
    check(rc == 0, f"SIGINT (inherited as ignored) stops it: exit status 0 ({rc})")

    p, port = start(binary, tmp, web, ["--fonts", fonts])
    try:
        # Fonts: /fonts/NAME from the server's list only, with a long cache lifetime.
        st, ct, _, body, cc = get(port, "/fonts/ipaexm.ttf", want="cache-control")
        check(st == 200 and ct == "font/ttf" and body == b"MINCHO by the Debian layout" and "max-age=31536000" in (cc or ""),
              f"/fonts/ipaexm.ttf: the file of Debian's layout, font/ttf, cached a year ({st} {ct} {cc})")
        st, ct, _, body = get(port, "/fonts/DejaVuSans.ttf")
        check(st == 200 and body == b"DEJAVU by its name", f"/fonts/DejaVuSans.ttf: the folder's file by its name ({st})")
        check(get(port, "/fonts/ipaexg.ttf")[0] == 404, "a font that is a folder: 404")
        check(get(port, "/fonts/DejaVuSans-Bold.ttf")[0] == 403, "a font over the size limit: 403")
        for path in ["/fonts/other.ttf", "/fonts/../secret.txt", "/fonts/%2e%2e/secret.txt", "/fonts/..%2fsecret.txt",
                     "/fonts/opentype/ipaexfont-mincho/ipaexm.ttf", "/fonts/ipaexm.ttf/", "/fonts/ipaexm.ttf%00",
                     "/fonts/IPAEXM.TTF", "/fonts/"]:
            st, _, _, body = get(port, path)
            check(st in (0, 403, 404) and b"SECRET" not in body and b"MINCHO" not in body,
                  f"{path}: not a font of the list, refused ({st or 'closed'})")
        st, ct, cl, body = get(port, "/")
        check(st == 200 and body == index and ct.startswith("text/html"), "/ serves index.html as text/html")
        st, ct, cl, body = get(port, "/room/0123456789abcdef0123456789abcdef")
        check(st == 200 and body == index, "/room/CODE serves index.html (invitation links)")
        st, ct, cl, body = get(port, "/", method="HEAD")
        check(st == 200 and body == b"" and cl == str(len(index)), "HEAD / : the length, no body")
        st, ct, _, _ = get(port, "/app.js")
        check(st == 200 and ct.startswith("text/javascript"), "/app.js as text/javascript")
        st, ct, _, _ = get(port, "/css/app.css")
        check(st == 200 and ct.startswith("text/css"), "/css/app.css as text/css")
        st, _, _, body = get(port, "/in.html")
        check(st == 200 and body == index, "a symlink inside the folder is served")
        check(get(port, "/no-such-file.html")[0] == 404, "a missing file: 404")
        check(get(port, "/sub")[0] == 404, "a folder: 404")
        for path in ["/../secret.txt", "/%2e%2e/secret.txt", "/%2E%2E/%2e%2e/" + "secret.txt",
                     "/sub/../../secret.txt", "/..%2fsecret.txt", "/%2e%2e%2fsecret.txt",
                     "//" + os.path.join(tmp, "secret.txt").lstrip("/"),
                     "/out.txt", "/.hidden", "/big.bin", "/sub/", "/index.html%00.png"]:
            st, _, _, body = get(port, path)
            check(st in (0, 403, 404) and b"SECRET" not in body, f"{path} refused ({st or 'closed'})")
        check(get(port, "/out.txt")[0] == 403, "a symlink out of the folder: 403")
        check(get(port, "/big.bin")[0] == 403, "a file over the size limit: 403")
        st = get(port, "/", method="POST")[0]
        check(st == 405, f"POST refused ({st})")
        reply = raw(port, b"GET / HTTP/1.1\r\nHost: x\r\nX-Big: " + b"a" * 20000 + b"\r\n\r\n")
        check(not reply.startswith(b"HTTP/1.1 200"), "a 20 KB header is refused: "
              + (reply.split(b"\r\n")[0].decode(errors="replace") or "connection closed"))
        reply = raw(port, b"\x00\x01garbage\r\n\r\n")
        check(not reply.startswith(b"HTTP/1.1 200"), "garbage instead of a request is refused")
        check(get(port, "/")[0] == 200, "the server still answers afterwards")

        s, head = ws_open(port)
        check(head.startswith("HTTP/1.1 101") and "sec-websocket-protocol: parlour.v1" in head.lower(),
              "WebSocket at /ws with parlour.v1: 101")
        m = ws_recv(s)
        check(isinstance(m, dict) and m.get("type") == "welcome" and m.get("protocol") == 1,
              f"the first message is the welcome ({m})")
        # Too long in one frame, then in three fragments: "too-long", and the connection lives.
        ws_send(s, b"x" * 9000)
        m = ws_recv(s)
        check(m and m.get("type") == "error" and m.get("error") == "too-long", f"9000 bytes: too-long ({m})")
        ws_send(s, b"y" * 5000, fin=False)
        ws_send(s, b"y" * 5000, opcode=0, fin=False)
        ws_send(s, b"y" * 10, opcode=0, fin=True)
        m = ws_recv(s)
        check(m and m.get("type") == "error" and m.get("error") == "too-long",
              f"10010 bytes in fragments: too-long ({m})")
        ws_send(s, b"")
        m = ws_recv(s)
        check(m and m.get("type") == "error", f"an empty message: an error ({m})")
        ws_send(s, b"", fin=False)
        ws_send(s, b"", opcode=0, fin=True)
        m = ws_recv(s)
        check(m and m.get("type") == "error", f"an empty message in two empty fragments: an error ({m})")
        ws_send(s, json.dumps({"type": "hello", "v": 1}).encode(), fin=False)
        ws_send(s, b"", opcode=0, fin=True)
        m = ws_recv(s)
        check(isinstance(m, dict) and "type" in m, f"a message in two fragments is answered ({m})")
        # Rooms in production mode (no --test-seed): seeds from getrandom, every create succeeds.
        made = 0
        for i in range(16):
            ws_send(s, json.dumps({"type": "create", "game": "ur"}).encode())
            m = ws_recv(s)
            made += bool(m and m.get("type") == "created")
            if not (m and m.get("type") == "created"):
                print("     ", m)
        check(made == 16, f"16 rooms created with seeds from getrandom ({made})")
        s.close()
        s, head = ws_open(port, protocol=None)
        check(head.startswith("HTTP/1.1 101"), "WebSocket at /ws naming no subprotocol: 101")
        m = ws_recv(s)
        check(isinstance(m, dict) and m.get("type") == "welcome", "... and its welcome")
        s.close()
        # Many connections, half of them closed in random order, more opened: each still gets
        # its own answers (the connection table grows and deletes under collisions).
        rng = random.Random(5)
        conns = []
        for i in range(300):
            c, head = ws_open(port)
            ws_recv(c)  # welcome
            conns.append(c)
        rng.shuffle(conns)
        for c in conns[:150]:
            c.close()
        conns = conns[150:]
        for i in range(100):
            c, head = ws_open(port)
            ws_recv(c)
            conns.append(c)
        rng.shuffle(conns)
        answered = 0
        for c in conns:
            ws_send(c, json.dumps({"type": "hello", "v": 1}).encode())
        for c in conns:
            m = ws_recv(c)
            answered += bool(m and m.get("type") == "welcome")
            c.close()
        check(answered == 250, f"250 connections of 400 opened, 150 closed: each answered ({answered})")
        # A client that does not read (a 4 KB receive window) and asks for the game list 50 times
        # (about 4 KB each, within the rate limit's burst): closed once 64 KB wait for it.
        slow, head = ws_open_sock(port, 4096)
        for i in range(50):
            try:
                ws_send(slow, json.dumps({"type": "games"}).encode())
            except (BrokenPipeError, ConnectionResetError):
                break  # already closed for not reading: what is checked below
        time.sleep(2)
        got = 0
        while True:
            m = ws_recv(slow)
            if m is None:
                break
            got += m.get("type") == "games"
        check(got < 50, f"a client that does not read is closed ({got} of 50 answers came before the close)")
        slow.close()
        s, head = ws_open(port, path="/other")
        check(not head.startswith("HTTP/1.1 101"), "WebSocket anywhere but /ws: refused")
        s.close()
        check(get(port, "/")[0] == 200, "the server still answers at the end")
    finally:
        p.send_signal(signal.SIGTERM)
        try:
            rc = p.wait(timeout=60)
        except subprocess.TimeoutExpired:
            p.kill()
            rc = "killed after 60 s"
        with open(os.path.join(tmp, "stderr.txt"), errors="replace") as f:
            err = f.read()
        out = p.stdout.read().decode(errors="replace")
        check(rc == 0, f"SIGTERM: exit status 0 ({rc})")
        check("Sanitizer" not in err and "runtime error" not in err, "no sanitizer report")
        if err.strip():
            print("server stderr:\n" + err)
        if out.strip():
            print("server stdout:\n" + out)
        shutil.rmtree(tmp, ignore_errors=True)
    if FAILS:
        print(f"{len(FAILS)} check(s) failed")
        sys.exit(1)
    print("all checks passed")


if __name__ == "__main__":
    main()

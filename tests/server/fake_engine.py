#!/usr/bin/env python3
"""fake_engine.py -- a worker for `parlour serve --engine-cmd` that answers
the engine protocol's requests correctly (`= ` and an empty line) except the
last of each job (`ID choose SEAT SEED SPEC`), which it answers with one of
these, drawn at random (test_engines.py, test_garbage_workers):

  nonsense   a line that is no answer at all
  illegal    an action of the notation that is not legal here ("pass",
             a square off the board, ...)
  unknown    "=ID banana": an action no game can read
  refuse     "?ID no"
  wrongid    "=ID+1 enter": an answer to another request
  flood      2 MB of output
  hang       no answer (sleeps: the server's timeout must kill it)
  exit       exits without answering
  nul        a NUL byte in the answer

Standard library only. FAKE_ENGINE_MODES (comma-separated) limits the modes.
"""

import os
import random
import sys
import time

MODES = ["nonsense", "illegal", "unknown", "refuse", "wrongid", "flood", "hang", "exit", "nul"]


def main():
    modes = [m for m in os.environ.get("FAKE_ENGINE_MODES", ",".join(MODES)).split(",") if m]
    rng = random.Random(os.getpid())
    out = sys.stdout.buffer
    for raw in sys.stdin.buffer:
        line = raw.decode("utf-8", "replace").strip()
        if not line or line.startswith("#"):
            continue
        words = line.split()
        if len(words) < 2 or words[1] != "choose":
            out.write(b"= \n\n")
            out.flush()
            continue
        rid = int(words[0])
        mode = rng.choice(modes)
        if mode == "nonsense":
            out.write(b"hello, I am not an engine\n\n")
        elif mode == "illegal":
            out.write(("=%d %s\n\n" % (rid, rng.choice(["pass", "Z9", "AS@99,99", "lead bG bG bG"]))).encode())
        elif mode == "unknown":
            out.write(b"=%d banana\n\n" % rid)
        elif mode == "refuse":
            out.write(b"?%d no\n\n" % rid)
        elif mode == "wrongid":
            out.write(b"=%d enter\n\n" % (rid + 1))
        elif mode == "flood":
            out.write(b"=" + b"x" * (2 << 20) + b"\n\n")
        elif mode == "hang":
            out.flush()
            time.sleep(3600)
        elif mode == "exit":
            sys.exit(3)
        elif mode == "nul":
            out.write(b"=%d en\x00ter\n\n" % rid)
        out.flush()


if __name__ == "__main__":
    try:
        main()
    except (BrokenPipeError, ConnectionResetError):
        pass

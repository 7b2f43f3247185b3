#!/usr/bin/env python3
"""level_ratings.py — fits the computer levels' fixed ratings from pairwise
arena results (scripts/level_ratings.sh writes them; docs/ratings.md).

usage: level_ratings.py GAMES.txt > levels.txt

Input lines: "pool A B games A-wins draws A-losses seconds" ('#' comments).
Model: Bradley-Terry on the Elo/Glicko scale, P(A beats B) = 1 / (1 +
10^((rB - rA) / 400)), a draw half a win; the maximum of the likelihood by
Newton's method, per pool. Anchor: the pool's easiest level (its first
listed, `easy`) is ANCHOR. Prior: every pair that met gets one virtual draw
more, so that a clean sweep (karuta's levels win every game) gives a finite,
cautious gap instead of an infinite one. RD: the fit's standard error
(from the observed information, relative to the anchor), at least RD_MIN;
the anchor's is RD_MIN.

Output lines: "pool level rating RD games" after a comment header.
"""
import math
import sys

ANCHOR = 1000.0
RD_MIN = 30.0  # PL_RATING_RD_MIN (include/parlour/rating.h)
UNIT = 400.0 / math.log(10.0)  # rating points per natural-log unit (= 173.7178)


def solve(a, b):
    """Solves a x = b by Gaussian elimination (a small dense matrix)."""
    n = len(b)
    m = [row[:] + [b[i]] for i, row in enumerate(a)]
    for c in range(n):
        p = max(range(c, n), key=lambda r: abs(m[r][c]))
        m[c], m[p] = m[p], m[c]
        for r in range(n):
            if r != c and m[c][c] != 0:
                f = m[r][c] / m[c][c]
                for k in range(c, n + 1):
                    m[r][k] -= f * m[c][k]
    return [m[i][n] / m[i][i] for i in range(n)]


def invert(a):
    n = len(a)
    cols = [solve(a, [1.0 if i == j else 0.0 for i in range(n)]) for j in range(n)]
    return [[cols[j][i] for j in range(n)] for i in range(n)]


def fit(levels, results):
    """levels: names, the anchor first; results: (i, j, score_i, games).
    Returns (ratings, standard errors) in rating points."""
    k = len(levels)
    x = [0.0] * k  # natural-log units; x[0] = 0 is the anchor
    for _ in range(100):
        grad = [0.0] * k
        hess = [[0.0] * k for _ in range(k)]
        for i, j, s, n in results:
            p = 1.0 / (1.0 + math.exp(x[j] - x[i]))
            grad[i] += s - n * p
            grad[j] -= s - n * p
            w = n * p * (1.0 - p)
            hess[i][i] += w
            hess[j][j] += w
            hess[i][j] -= w
            hess[j][i] -= w
        # free parameters: every level but the anchor
        h = [row[1:] for row in hess[1:]]
        step = solve(h, grad[1:])
        for i in range(1, k):
            x[i] += step[i - 1]
        if max(abs(d) for d in step) < 1e-10:
            break
    cov = invert(h)
    se = [0.0] + [math.sqrt(max(cov[i][i], 0.0)) * UNIT for i in range(k - 1)]
    return [ANCHOR + v * UNIT for v in x], se


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: level_ratings.py GAMES.txt")
    pools = {}  # pool -> (levels in order met, {(a, b): [score, games]})
    order = []
    with open(sys.argv[1], encoding="utf-8") as f:
        for line in f:
            w = line.split()
            if not w or w[0].startswith("#"):
                continue
            pool, a, b, n, wins, draws, losses = w[0], w[1], w[2], int(w[3]), int(w[4]), int(w[5]), int(w[6])
            if wins + draws + losses != n:
                sys.exit(f"level_ratings.py: {pool} {a} {b}: {wins}+{draws}+{losses} is not {n} games")
            if pool not in pools:
                pools[pool] = ([], {})
                order.append(pool)
            lv, res = pools[pool]
            for name in (a, b):
                if name not in lv:
                    lv.append(name)
            r = res.setdefault((a, b), [0.0, 0])
            r[0] += wins + draws / 2.0
            r[1] += n
    print("# pool level rating RD games — computer levels' fixed ratings (Glicko scale)")
    print("# fitted by scripts/level_ratings.py from " + sys.argv[1].split("/")[-1] +
          f": Bradley-Terry maximum likelihood, the first level of each pool = {ANCHOR:.0f},")
    print("# one virtual draw per pair; RD = the fit's standard error, at least 30 (docs/ratings.md)")
    for pool in order:
        lv, res = pools[pool]
        idx = {name: i for i, name in enumerate(lv)}
        results = [(idx[a], idx[b], s + 0.5, n + 1) for (a, b), (s, n) in res.items()]
        ratings, se = fit(lv, results)
        played = [0] * len(lv)
        for (a, b), (_, n) in res.items():
            played[idx[a]] += n
            played[idx[b]] += n
        for i, name in enumerate(lv):
            print(f"{pool} {name} {ratings[i]:.0f} {max(se[i], RD_MIN):.0f} {played[i]}")


if __name__ == "__main__":
    main()

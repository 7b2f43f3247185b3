#!/usr/bin/env python3
"""gen_vectors.py — writes data/drills/vectors.json from docs/drills.md, written
apart from the C code (src/games/karuta/kar_drill.c) so that the two check each
other. Reads the poems from data/hyakunin-isshu/data.csv (the key: KA-K1).
Usage: python3 data/drills/gen_vectors.py > data/drills/vectors.json"""
import csv, json, os, sys, unicodedata

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..')
I = [0, 1, 3, 7, 15, 31]
EXTRA = [3, 3, 2, 1, 0, 0]
SLOW = {'kimariji': 3000, 'listen': 1000, 'flip': 5000}

keys = {}
with open(os.path.join(ROOT, 'data/hyakunin-isshu/data.csv'), encoding='utf-8') as f:
    for row in csv.DictReader(f):
        up = unicodedata.normalize('NFC', ''.join(row['verse_%d_hiragana_yomi' % i] for i in (1, 2, 3)))
        k = []
        for ch in up:
            if ch == ' ':
                continue
            if ch == 'う' and k and k[-1] == 'お':
                ch = 'お'
            k.append(ch)
        keys[int(row['number'])] = ''.join(k[:24])

def lcp(a, b):
    n = 0
    while n < len(a) and n < len(b) and a[n] == b[n]:
        n += 1
    return n

kim = {a: max(lcp(keys[a], keys[b]) + 1 for b in keys if b != a) for a in keys}

def dyn(c, read):
    for d in range(1, 7):
        if not any(b != c and b not in read and keys[b][:d] == keys[c][:d] for b in keys):
            return d
    return 6

def entry(rec, c):
    return rec['cards'].get(str(c), dict(box=0, due=0, seen=0, good=0, slow=0, miss=0, ms=0, last=0))

P = [(37 * k) % 100 + 1 for k in range(100)]

def field(rec, n, read):
    seen = [c for c in range(1, 101) if str(c) in rec['cards'] and c not in read]
    weak = sorted([c for c in seen if rec['cards'][str(c)]['box'] <= 2],
                  key=lambda c: (rec['cards'][str(c)]['box'], rec['cards'][str(c)]['due'], c))
    new = [c for c in P if str(c) not in rec['cards'] and c not in read]
    rest = sorted([c for c in seen if rec['cards'][str(c)]['box'] > 2], key=lambda c: (rec['cards'][str(c)]['due'], c))
    return (weak + new + rest)[:n]

def next_card(rec, fld, prev):
    cand = [c for c in fld if c != prev] if len(fld) > 1 else list(fld)
    def k(c):
        e = entry(rec, c)
        return (e['due'], e['box'], c)
    due = [c for c in cand if entry(rec, c)['seen'] > 0 and entry(rec, c)['due'] <= rec['step']]
    if due:
        return min(due, key=k)
    new = [c for c in cand if entry(rec, c)['seen'] == 0]
    if new:
        return new[0]
    return min(cand, key=k)

def grade(drill, correct, ms):
    if not correct:
        return 'miss'
    return 'slow' if ms > SLOW[drill] else 'good'

def record(rec, c, g, t):
    rec['step'] += 1
    s = rec['step']
    e = dict(entry(rec, c))
    e['seen'] += 1
    e['ms'] += min(max(t, 0), 60000)
    e['last'] = s
    if g == 'good':
        e['good'] += 1
        e['box'] = min(5, e['box'] + 1)
        e['due'] = s + I[e['box']]
    elif g == 'slow':
        e['slow'] += 1
        e['box'] = max(1, e['box'])
        e['due'] = s + I[e['box']]
    else:
        e['miss'] += 1
        e['box'] = 1
        e['due'] = s + 1
    rec['cards'][str(c)] = {k: e[k] for k in ('box', 'due', 'seen', 'good', 'slow', 'miss', 'ms', 'last')}
    rec['cards'] = {str(k): rec['cards'][str(k)] for k in sorted(int(x) for x in rec['cards'])}
    return rec['cards'][str(c)]

def weakest(rec, n=10):
    cs = [int(c) for c, e in rec['cards'].items() if e['slow'] + e['miss'] > 0]
    cs.sort(key=lambda c: (rec['cards'][str(c)]['box'], -(2 * rec['cards'][str(c)]['miss'] + rec['cards'][str(c)]['slow']), c))
    return cs[:n]

def run(name, drill, ncards, read, rec, answers):
    rec = json.loads(json.dumps(rec))
    before = json.loads(json.dumps(rec))
    fld = field(rec, ncards, read)
    steps, prev = [], 0
    for correct, ms in answers:
        c = next_card(rec, fld, prev)
        K = dyn(c, read) if read else kim[c]
        e = entry(rec, c)
        shown = min(len(keys[c]), K + EXTRA[e['box']]) if drill == 'kimariji' else K
        g = grade(drill, correct, ms)
        t = min(max(ms, 0), 60000)
        after = record(rec, c, g, t)
        steps.append(dict(ask=c, shown=shown, prefix=keys[c][:shown], correct=correct, ms=ms, grade=g, card=after))
        prev = c
    return dict(name=name, drill=drill, cards=ncards, read=read, record=before, field=fld, steps=steps,
                after=rec, weakest=weakest(rec))

empty = {'version': 1, 'step': 0, 'cards': {}}
cases = []
# a new player: six cards, some misses and slow takes
ans = [(True, 1200), (False, 2500), (True, 3001), (True, 800), (True, 3000), (True, 900), (True, 1500),
       (False, 70000), (True, 400), (True, 2000), (True, 5000), (True, 1000), (True, 1100), (True, 1300),
       (False, 900), (True, 700), (True, 600), (True, 650), (True, 3500), (True, 800), (True, 900),
       (True, 1000), (True, 1000), (True, 1000), (True, 1000), (True, 1000), (True, 1000), (True, 1000)]
cases.append(run('new player, kimariji drill, 6 cards', 'kimariji', 6, [], empty, ans))
# carrying on from the first case's record: the field starts with the weak cards
rec1 = cases[0]['after']
cases.append(run('the same player again, flip drill, 8 cards', 'flip', 8, [], rec1,
                 [(True, 4000), (False, 3000), (True, 6000), (True, 2000), (True, 5001), (True, 100),
                  (True, 900), (False, 0), (True, 1000), (True, 4999), (True, 3000), (True, 3000)]))
# dynamic kimariji: after reads the prefixes shorten
cases.append(run('dynamic kimariji after reads (KA-K3)', 'kimariji', 5, [1, 38, 75, 12, 49, 86, 23, 60, 97, 34, 71, 8, 45, 82, 19],
                 empty, [(True, 1000)] * 6 + [(True, 500)] * 6))
# listening: take times from the deciding kana (negative is early, clamped to 0)
cases.append(run('listening drill, take times', 'listen', 4, [], empty,
                 [(True, -200), (True, 1000), (True, 1001), (False, 300), (True, 0), (True, 2500),
                  (True, 600), (True, 600), (True, 600), (True, 600)]))
# one card: it is asked again and again; boxes cap at 5
cases.append(run('one card, box 5 at most', 'kimariji', 1, [], empty, [(True, 100)] * 7 + [(False, 100), (True, 100)]))
# a record with many boxes: the third rule (nothing due, nothing new)
rec = {'version': 1, 'step': 40, 'cards': {
    '3': dict(box=3, due=45, seen=3, good=3, slow=0, miss=0, ms=3000, last=38),
    '5': dict(box=5, due=70, seen=6, good=5, slow=1, miss=0, ms=9000, last=39),
    '7': dict(box=2, due=43, seen=4, good=2, slow=1, miss=1, ms=7000, last=40),
    '9': dict(box=4, due=44, seen=5, good=4, slow=0, miss=1, ms=6000, last=29),
    '100': dict(box=1, due=41, seen=2, good=0, slow=1, miss=1, ms=8000, last=40)}}
cases.append(run('a record with boxes: the weak cards lead the field', 'flip', 5, [12, 38], rec,
                 [(True, 1000)] * 4 + [(False, 1000)] + [(True, 6000)] * 3))

out = dict(version=1, intervals=I, extra=EXTRA, slow_ms=SLOW,
           poems={str(n): dict(key=keys[n], kim=kim[n]) for n in range(1, 101)}, cases=cases)
json.dump(out, sys.stdout, ensure_ascii=False, indent=1)
sys.stdout.write('\n')

#!/usr/bin/env bash
# drill_check.sh PARLOUR CASE — drives `parlour karuta drill` in a real
# terminal (a detached tmux pane, 80x24) and checks what the screen shows,
# as tui_check.sh does for `play`, by the steps of tmux_lib.sh: each waits
# (polling, up to 60 s) for what the screen must show, so nothing depends on
# how fast the program is.
# A new player's first cards are known (docs/drills.md): poem 1 at A1 of the
# kimariji drill's field, then poem 38 at B2. Exit 77 when tmux is missing.
set -u
P=$1
CASE=$2
SOCKBASE="parlour-drill-$CASE-$$"
# shellcheck source=tmux_lib.sh
. "$(dirname "$0")/tmux_lib.sh"
REC=$WORK/drills.json

case $CASE in
kimariji)
    # The field, the prefix, two answers, quit: the summary, the weakest
    # cards and the record kept in the file named by XDG_DATA_HOME.
    start 80 24 "XDG_DATA_HOME=$WORK $P karuta drill kimariji --lang en"
    wait_for '^Kimariji drill - 12 cards - question 1'
    wait_for '^A1 わかころもてはつ'
    wait_for '^Upper verse: あきのたのか'
    fits 80 24
    keys a 1
    wait_for '^Right: A1, [0-9.]+ s\. Kimariji あきの\. \(box 1 of 5\)'
    wait_for 'question 2'
    wait_for '^Upper verse: わすらるるみ'
    keys c 3
    wait_for '^Not that card: poem 38 was B2'
    keys Space
    wait_for '^Poem 1 was A1'
    keys q
    wait_for '^PARLOUR-EXIT=0$'
    wait_for '^Asked 3: 1 right, 0 slow, 2 missed\.'
    wait_for '^Your weakest cards \(2 of 2 answered\):'
    wait_for "^Progress kept in $WORK/parlour/drills.json"
    grep -q '"38": {"box": 1, "due": 3, "seen": 1, "good": 0, "slow": 0, "miss": 1' "$WORK/parlour/drills.json" ||
        fail "the record: $(cat "$WORK/parlour/drills.json")"
    ;;
listen_ja)
    # Japanese: the two sides of the field, the reading's kana appearing at
    # its pace, the touch, the take time from the deciding kana.
    start 80 24 "$P karuta drill listen --progress $REC --lang ja"
    wait_for '^聞き取りの練習 - 24枚 - 1首目'
    wait_for '^D1 ひとのいのちのを'
    wait_for '^A1 わかころもてはつ'
    wait_for '上が相手陣'
    wait_for '^読み: あきの'
    fits 80 24
    keys a 1
    wait_for '^取り(、でも遅い)?: A1、決まり字（あきの）から-?[0-9]+ミリ秒。'
    absent '[A-Za-z]{4,}'
    wait_for '^読み: わ'
    keys q
    wait_for '^PARLOUR-EXIT=0$'
    wait_for '^1問: '
    grep -q '"1": {"box": 1' "$REC" || fail "the record: $(cat "$REC")"
    ;;
flip)
    # The card alone; the kimariji typed in romaji, then in kana; quit.
    start 80 24 "$P karuta drill flip --progress $REC --lang en"
    wait_for '^Card-flipping drill - 24 cards - card 1'
    wait_for '^Card: わかころもてはつゆにぬれつつ'
    fits 80 24
    keys -l akino
    wait_for '^> akino'
    keys Enter
    wait_for '^Right: あきの \(akino\)'
    wait_for '^Card: ひとのいのちのをしくもあるかな'
    keys -l わすれ
    keys Enter
    wait_for '^Poem 38: its kimariji is わすら \(wasura\)'
    keys -l quit
    keys Enter
    wait_for '^PARLOUR-EXIT=0$'
    wait_for '^Asked 2: 1 right, 0 slow, 1 missed\.'
    ;;
weakest)
    # `weakest` on a record: the weakest first (box, then misses), in Japanese.
    cat >"$REC" <<'JSON'
{"version": 1, "step": 9, "cards": {
  "3": {"box": 3, "due": 15, "seen": 3, "good": 3, "slow": 0, "miss": 0, "ms": 3000, "last": 8},
  "17": {"box": 2, "due": 12, "seen": 4, "good": 2, "slow": 2, "miss": 0, "ms": 9000, "last": 9},
  "87": {"box": 1, "due": 8, "seen": 2, "good": 0, "slow": 0, "miss": 2, "ms": 4000, "last": 7}
}}
JSON
    start 80 24 "$P karuta drill weakest --progress $REC --lang ja"
    wait_for '^PARLOUR-EXIT=0$'
    wait_for '^苦手な札（答えた3枚のうち2枚）:'
    screen | grep -A4 '苦手な札' | sed -n 2p | grep -q '^ 87  む  *きりたちのほるあきのゆふくれ$' || fail "87 first"
    screen | grep -A4 '苦手な札' | sed -n 3p | grep -q '^     箱1、2回、遅い0、間違い2、平均2.0秒$' || fail "87's figures"
    screen | grep -A4 '苦手な札' | sed -n 4p | grep -q '^ 17  ちは ' || fail "17 second"
    fits 80 24
    ;;
bad_progress)
    # A broken record is refused with a clear error and left as it is.
    echo '{"version": 1, "step": "x"' >"$REC"
    start 80 24 "$P karuta drill kimariji --progress $REC --lang en"
    wait_for '^PARLOUR-EXIT=1$'
    wait_for 'cannot read the progress file'
    [ "$(cat "$REC")" = '{"version": 1, "step": "x"' ] || fail "the file was changed"
    ;;
*)
    echo "unknown case $CASE"
    exit 2
    ;;
esac
t send-keys -t main C-c 2>/dev/null
exit 0

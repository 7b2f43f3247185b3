#!/usr/bin/env bash
# tui_check.sh PARLOUR CASE — drives `parlour play`/`replay` in a real
# terminal (a detached tmux pane of a given size) and checks what the screen
# shows, by the steps of tmux_lib.sh (start, wait_for, absent, keys, fits).
# Exit 77 (skipped) when tmux is not installed.
set -u
P=$1
CASE=$2
RECORDS=${3:-}
SOCKBASE="parlour-tui-$CASE-$$"
# shellcheck source=tmux_lib.sh
. "$(dirname "$0")/tmux_lib.sh"

# finish: clears the line, quits, and checks the program ended well (under
# the sanitizers a leak or an error makes the exit status non-zero).
finish() {
    keys C-u
    type_line quit
    wait_for '^PARLOUR-EXIT=0$'
}

case $CASE in
fit_ur | fit_cbw | fit_tamcuc)
    # The first screen at 80x24: the board's title, the legal list and the prompt.
    game=${CASE#fit_}
    start 80 24 "$P play $game seed=2"
    wait_for '^ >( |$)'
    wait_for 'to act, [0-9]+ legal:  1\) '
    absent 'terminal too small'
    fits 80 24
    case $game in
    ur) wait_for 'Royal Game of Ur' ;;
    cbw) wait_for 'City Behind Walls' ;;
    tamcuc) wait_for 'Tam Cúc' ;;
    esac
    finish
    ;;
fit_karuta)
    # Karuta plays in real time (src/cli/karuta.c): its first screen at 80x24
    # is the whole field, both sides, and the memorisation countdown.
    start 80 24 "$P play karuta seed=2"
    wait_for 'Memorise the field \(KA-R3\)'
    wait_for '^A  01 '
    wait_for '^F  17 '
    wait_for 'You: 25 cards, rows A-C'
    absent 'terminal too small'
    fits 80 24
    keys q
    wait_for '^PARLOUR-EXIT=0$'
    ;;
log)
    # `log` pages what the game told so far: in Tam Cúc the trick history.
    start 80 24 "$P play tamcuc players=2 seed=2"
    wait_for '^ >( |$)'
    for _ in $(seq 1 40); do
        screen | grep -Eq 'won the trick' && break
        type_line 1
        sleep 0.2
    done
    wait_for 'won the trick'
    type_line log
    wait_for '^ *[0-9]+\. Seat [1-4]: .*(You|Seat [1-4]) won the trick with '
    keys q
    wait_for '^ >( |$)'
    finish
    ;;
resize)
    # A resize redraws at once, keeps what was typed, and says when it is too small.
    start 80 24 "$P play cbw seed=1"
    wait_for '^ >( |$)'
    keys -l 'ab'
    wait_for '^ > ab$'
    t resize-window -t main -x 60 -y 20
    wait_for '^terminal too small: need [0-9]+×[0-9]+'
    wait_for '^> ab$'
    t resize-window -t main -x 80 -y 24
    wait_for 'to act, [0-9]+ legal:'
    wait_for '^ > ab$'
    absent 'terminal too small'
    t resize-window -t main -x 100 -y 40
    wait_for 'City Behind Walls'
    wait_for '^ > ab$'
    finish
    ;;
tall_board)
    # City Behind Walls on an 8-row Rectangle is taller than 24 rows: its board scrolls.
    start 80 24 "$P play cbw h=8 seed=1"
    wait_for '^ >( |$)'
    wait_for 'board rows 1–[0-9]+ of [0-9]+, Up/Down to scroll'
    keys Down
    wait_for 'board rows 2–[0-9]+ of [0-9]+'
    fits 80 24
    finish
    ;;
wide_board)
    # 52-card City Behind Walls is a grid wider than 80 columns: it pans, not folds.
    start 80 24 "$P play cbw deck=52 seed=1"
    wait_for '^ >( |$)'
    wait_for 'columns 1–78 of [0-9]+, Left/Right to scroll'
    keys Right
    wait_for 'columns 9–86 of [0-9]+'
    fits 80 24
    finish
    ;;
numbers)
    # An out-of-range number, a move played for the player, undo in moves.
    start 80 24 "$P play ur seed=3"
    wait_for '^ >( |$)'
    wait_for 'played for you\)'
    type_line 99
    wait_for 'no move 99; 1–[0-9]+'
    type_line 1
    wait_for '^ >$'
    type_line undo
    wait_for 'took back [0-9]+ moves?: Light [A-Ce]'
    finish
    ;;
hint)
    # A hint (docs/hints.md): the help line names the command; `hint` and `?` give the
    # strongest move in the menu's words with its number and its chance; in Tam Cúc too.
    start 80 24 "$P play ur seed=3"
    wait_for '^ >( |$)'
    wait_for 'hint, undo'
    type_line hint
    wait_for 'Hint: [0-9]+\) .* — about [0-9]+ % chance of winning after it \(an estimate\)\.'
    absent 'No hint'
    start 80 24 "$P play tamcuc seed=5 --seat 1=ai:easy --seat 2=ai:easy --seat 3=ai:easy"
    wait_for '^ >( |$)'
    type_line '?'
    wait_for 'Hint: [0-9]+\) .* — about [0-9]+ % chance'
    finish
    ;;
quit | ctrl_d)
    # Nothing is printed on the shell after quit or Ctrl-D.
    start 80 24 "$P play ur seed=3"
    wait_for '^ >( |$)'
    if [ "$CASE" = quit ]; then type_line quit; else keys C-d; fi
    wait_for '^PARLOUR-EXIT=0$'
    [ "$(screen | grep -cv '^ *$')" = 1 ] || fail "more than the exit line on the shell"
    ;;
game_over)
    # The end of a game is a sentence over the final board.
    start 80 24 "$P play ur pieces=1 seed=4 --seat 0=ai:random"
    wait_for '^ (Light|Dark) wins [0-9]–[0-9]\.$'
    wait_for '^ >( |$)'
    absent 'phase over|seats 2'
    type_line x
    wait_for 'the game is over'
    finish
    ;;
rules)
    # `rules` shows the summary; Finkel's board lists only its marks.
    start 80 24 "$P play ur rules=finkel seed=3"
    wait_for '^ Marks: \* rosette  \. plain$'
    absent 'eyes|conversion'
    type_line rules
    wait_for 'Options in force'
    wait_for 'rules=finkel'
    keys q
    wait_for '^ >( |$)'
    finish
    ;;
load_saves)
    # --load FILE keeps saving to FILE.
    start 80 24 "$P play ur seed=3 --save $WORK/g.json"
    wait_for '^ >( |$)'
    type_line quit
    wait_for '^PARLOUR-EXIT=0$'
    before=$(grep -o '"[^"]*"' "$WORK/g.json" | wc -l)
    start 80 24 "$P play --load $WORK/g.json"
    wait_for '^ >( |$)'
    type_line 1
    wait_for '^ >$'
    type_line quit
    wait_for '^PARLOUR-EXIT=0$'
    after=$(grep -o '"[^"]*"' "$WORK/g.json" | wc -l)
    [ "$after" -gt "$before" ] || fail "the loaded record was not saved again ($before, $after strings)"
    ;;
seats)
    # Seats are counted from 1, as the browser counts them: the hand-over, the
    # list's head and the board (three people at one keyboard, hidden hands).
    start 80 24 "$P play tamcuc players=3 seed=2 --seat 1=human --seat 2=human"
    wait_for '^ Pass the keyboard to seat 3, then press Enter\.$'
    keys Enter
    wait_for '^ Seat 3 to act, [0-9]+ legal:'
    wait_for '^ Seat 3 \(you\) \[dealer\]'
    wait_for '^ Seat 1 +score'
    absent '[Ss]eat 0'
    type_line 1
    wait_for '^ Pass the keyboard to seat 1, then press Enter\.$'
    keys Enter
    wait_for '^ Seat 1 to act, [0-9]+ legal:'
    wait_for '^ Seat 1 \(you\) '
    absent '[Ss]eat 0'
    finish
    ;;
history)
    # The computer's moves are told with where the piece went, as sentences
    # (no "another roll.; roll 4"); the log has every move, numbered.
    start 100 30 "$P play ur seed=3"
    wait_for '^ >( |$)'
    for _ in $(seq 1 30); do
        screen | grep -Eq 'Seat 2 \(Dark\): [a-zA-Z0-9:]+ → [A-C][1-8]' && break
        type_line 1
        sleep 0.2
    done
    wait_for 'Roll [0-9]\. Seat 2 \(Dark\): [a-zA-Z0-9:]+ → [A-C][1-8]'
    absent '\.;|;;|\.\.|\. \.|, \.|Seat 0|roll [0-9];'
    type_line log
    wait_for '^ *1\. .*Seat [12] \((Light|Dark)\): [a-zA-Z0-9:]+ → [A-C][1-8]'
    absent '\.;|;;|\.\.|\. \.|Seat 0'
    keys q
    wait_for '^ >( |$)'
    finish
    # Two people at one keyboard: a typed move is told to the next player.
    start 200 30 "$P play ur seed=3 --seat 1=human"
    wait_for '^ Seat 2 \(Dark\) to act, 2 legal:  1\) enter → C3 '
    type_line 1
    wait_for 'Seat 2 \(Dark\): enter → C3\. Roll [0-9]\.'
    finish
    ;;
karuta_save)
    # `play karuta --save FILE` plays in real time (the memorisation screen,
    # not the turn-based one) and writes the record from the start and after
    # every reading: replay opens it. A file that cannot be written is said.
    printf 'hit+300\nnone\nhit+200\n' >"$WORK/k.script"
    "$P" play karuta seed=5 memo_s=0 --seat 1=ai:easy --script "$WORK/k.script" --save "$WORK/k.json" >"$WORK/k.out" ||
        fail "the scripted game with --save failed"
    n=$("$P" replay --text "$WORK/k.json" | grep -c '^== after [0-9]*: chance read ')
    [ "$n" = 3 ] || fail "the record holds $n readings, not 3"
    start 80 24 "$P play karuta seed=2 --save $WORK/t.json"
    wait_for 'Memorise the field \(KA-R3\)'
    absent 'to act, [0-9]+ legal'
    [ -s "$WORK/t.json" ] || fail "no record written at the start"
    "$P" replay --text "$WORK/t.json" | grep -q '^== start' || fail "replay cannot open the record"
    keys q
    wait_for '^PARLOUR-EXIT=0$'
    "$P" play karuta --save "$WORK/no/such/dir/x.json" 2>"$WORK/err.txt" && fail "an unwritable --save was accepted"
    grep -q 'parlour play karuta: --save: cannot' "$WORK/err.txt" || fail "no clear message: $(cat "$WORK/err.txt")"
    ;;
lang_ja | lang_vi)
    # The screen in the player's language (LANG; issue 32): a few moves of Ur,
    # Tam Cúc and City Behind Walls at 80x24 show the translated prompt and hint, no English
    # prompt, nothing wider than the screen and no broken character; the log
    # page's footer too. LANG names a locale this machine may not have: the
    # words follow it all the same (and curses draws in C.UTF-8).
    case $CASE in
    lang_ja) loc=ja_JP.UTF-8 prompt='の番、[0-9]+通り:  1\) ' hint='番号か表記を入力' logfoot='記録 — ' ;;
    lang_vi) loc=vi_VN.UTF-8 prompt='Lượt của Ghế [1-4].*, [0-9]+ lựa chọn:  1\) ' hint='Gõ số thứ tự' logfoot='diễn biến — ' ;;
    esac
    # City Behind Walls' picture and history too: no English seat, label
    # or sentence of the game's own words (Seat 2, Last card, laid, won).
    for game in ur tamcuc cbw; do
        start 80 24 "env -u LC_ALL -u LC_MESSAGES LANG=$loc $P play $game seed=2"
        wait_for '^ >( |$)'
        wait_for "$prompt"
        [ "$game" = ur ] && wait_for "$hint" # Tam Cúc's tall table leaves it no row
        for _ in 1 2 3; do
            absent 'to act|legal:|Type a number|terminal too small|�'
            absent 'Seat [0-9]|Last card|edges (open|fixed)|score [0-9]| laid | won |captured'
            fits 80 24
            type_line 1
            wait_for "$prompt"
        done
        fits 80 24
        type_line log
        wait_for "$logfoot"
        absent 'Enter or q to go back'
        keys q
        wait_for "$prompt"
        finish
    done
    # --lang wins over LANG.
    start 80 24 "env -u LC_ALL LANG=ja_JP.UTF-8 $P play ur seed=2 --lang ${CASE#lang_}"
    wait_for "$prompt"
    finish
    ;;
refusal_ja)
    # A refused move in the player's language (issue 32): under a Japanese
    # LANG, Ur's `pass` while a move is possible and a square without a piece
    # are refused in the game's Japanese words, not its English reason; the
    # screen stays within 80x24 and the game goes on.
    start 80 24 "env -u LC_ALL -u LC_MESSAGES LANG=ja_JP.UTF-8 $P play ur seed=2 start=light"
    wait_for 'の番、[0-9]+通り:  1\) '
    type_line pass
    wait_for '動かせる手があるので、動かす必要がある。'
    absent 'a move is possible|must move|illegal'
    type_line C8
    wait_for 'C8に駒がない。'
    absent 'no piece|illegal'
    fits 80 24
    type_line 1
    wait_for 'の番、[0-9]+通り:  1\) '
    finish
    # English keeps the game's own reason.
    start 80 24 "env -u LC_ALL -u LC_MESSAGES LANG=C.UTF-8 $P play ur seed=2 start=light"
    wait_for 'to act, [0-9]+ legal:  1\) '
    type_line C8
    wait_for 'illegal'
    absent 'C8に駒がない'
    finish
    ;;
menu_vi)
    # The legal list in the player's language (issue 32): under a Vietnamese
    # LANG, Tam Cúc's moves show the notation to type, then what each does in
    # Vietnamese ("lay bG bA rE: úp 3 lá"), none in English; within 80x24.
    start 80 24 "env -u LC_ALL -u LC_MESSAGES LANG=vi_VN.UTF-8 $P play tamcuc seed=2"
    wait_for 'Lượt của Ghế 1.*, [0-9]+ lựa chọn:  1\) '
    wait_for '1\) lay [a-zA-Z ]+: úp 3 lá'
    absent 'face down|lay [0-9]+ cards|lead a '
    fits 80 24
    type_line 1
    wait_for 'Lượt của Ghế 1, [0-9]+ lựa chọn:  1\) reveal: ngửa bài: '
    absent 'face down|lay [0-9]+ cards|lead a '
    fits 80 24
    finish
    # English keeps the game's own list: the notation alone.
    start 80 24 "env -u LC_ALL -u LC_MESSAGES LANG=C.UTF-8 $P play tamcuc seed=2"
    wait_for 'to act, [0-9]+ legal:  1\) lay bG bA rE  2\) '
    finish
    ;;
rules_ja)
    # The rules page in the player's language (issue 32): under a Japanese
    # LANG, `rules` shows the browser's summary in Japanese for the options in
    # force (the four-sided die of dice=d4), not the game's English summary.
    start 80 24 "env -u LC_ALL -u LC_MESSAGES LANG=ja_JP.UTF-8 $P play ur seed=2 dice=d4"
    wait_for 'の番、[0-9]+通り:  1\) '
    type_line rules
    wait_for '^ ウル王朝のゲーム$'
    wait_for '^ - 四面さいころを1個振る。1〜4がどれも同じ確率。$'
    absent 'Two players race|Royal Game of Ur|投げ棒を3本'
    fits 80 24
    keys q
    wait_for 'の番、[0-9]+通り:  1\) '
    finish
    ;;
karuta_ja)
    # Karuta in Japanese (issue 32): the replay tells a reading from its
    # events (an answer's touches, the judgement, the send) in the
    # catalogue's words, not the notation ("touch 83@1300"); the real-time
    # screen refuses a typed touch off the field in Japanese. The readings
    # are made long (KA-R5's times at their most) so that the touch falls
    # inside one however slow the machine: the check still only waits for
    # what the screen shows.
    printf 'hit+300\nnone\nhit+200\n' >"$WORK/k.script"
    "$P" play karuta seed=5 memo_s=0 --seat 1=ai:easy --script "$WORK/k.script" --save "$WORK/k.json" >"$WORK/k.out" ||
        fail "the scripted game with --save failed"
    start 100 30 "env -u LC_ALL -u LC_MESSAGES LANG=ja_JP.UTF-8 $P replay $WORK/k.json"
    wait_for '0/[0-9]+手目'
    keys n
    wait_for '1/[0-9]+手目: .*1首目：83番の歌。 席1：札83（1300ms）に触れた。'
    keys n
    wait_for '2/[0-9]+手目: 席2：札83（2568ms）に触れた。 83番の札、決まり字「よのなかよ」：席1が1300msで取った。'
    wait_for '席1から席2への送り札: 1枚。'
    absent 'touch |Seat |Poem |took it'
    keys q
    wait_for '^PARLOUR-EXIT=0$'
    start 80 24 "env -u LC_ALL -u LC_MESSAGES LANG=ja_JP.UTF-8 $P play karuta seed=2 memo_s=0 pause_ms=0 upper_ms=16000 lower_ms=16000 yoin_ms=10000"
    wait_for '1首目: Enterで開始'
    keys Enter
    wait_for '札の位置を入力して取る'
    keys -l Z99
    wait_for '^Z99は場にない（段A〜F、位置01〜17）'
    absent 'not on the field'
    fits 80 24
    keys q
    wait_for '^PARLOUR-EXIT=0$'
    ;;
replay)
    # Replay opens at the start, steps by move, and jumps to the end with End.
    start 80 24 "$P replay $RECORDS/ur_three_pieces.json"
    wait_for '^ Move 0 of [0-9]+: the start'
    keys n
    wait_for '^ Move 1 of [0-9]+: .*Seat [12] \((Light|Dark)\): [a-zA-Z0-9:]+ → [A-C][1-8]'
    keys End
    wait_for '^ Move ([0-9]+) of \1: '
    wait_for '(Light|Dark) wins [0-9]–[0-9]\.'
    keys q
    wait_for '^PARLOUR-EXIT=0$'
    ;;
hint_table)
    # `play --table` (issue 34): Ur's hint exact where a table solved here holds the position,
    # an estimate (said so) where the table is of other rules; a file that is no table refused.
    "$P" solve ur pieces=2 start=light --quiet --out "$WORK/s2.tbl" >/dev/null || fail "solve"
    start 80 24 "$P play ur pieces=2 start=light seed=3 --table $WORK/s2.tbl"
    wait_for '^ >( |$)'
    type_line hint
    wait_for 'Hint: [0-9]+\) .* — [0-9]+ % chance of winning after it \(exact\)\.'
    absent 'an estimate'
    fits 80 24
    finish
    start 80 24 "$P play ur pieces=3 seed=3 --table $WORK/s2.tbl"
    wait_for '^ >( |$)'
    type_line hint
    wait_for 'Hint: [0-9]+\) .* — about [0-9]+ % chance of winning after it \(an estimate\)\.'
    finish
    echo nothing > "$WORK/bad.tbl"
    start 80 24 "$P play ur --table $WORK/bad.tbl"
    wait_for '^parlour play: .*bad\.tbl'
    wait_for '^PARLOUR-EXIT=2$'
    ;;
replay_review)
    # The replay's review (issue 34, docs/review.md "In the terminal's replay"): r reviews the
    # game (Ur exact from a table solved here, else an estimate said so; Tam Cúc from each
    # decider's own view), the page fits 80x24 and a resize, a decision's number goes there.
    "$P" solve ur pieces=2 start=light --quiet --out "$WORK/s2.tbl" >/dev/null || fail "solve"
    start 80 24 "$P replay --table $WORK/s2.tbl $RECORDS/ur_review_two_pieces.json"
    wait_for 'r review, q quit'
    keys r
    wait_for '^ Review with exact values \(a solved table\)\.'
    wait_for '^ Dark: accuracy 59\.8 %; 5 best, 2 good, 3 inaccuracies, 6 mistakes, 2'
    wait_for '^ 7\) Action 22, Dark: played C4 \(45\.9 %\); best was B4 \(54\.7 %\): a mistake\.'
    wait_for '^ >   a number and Enter: go to that move'
    fits 80 24
    t resize-window -t main -x 60 -y 20
    wait_for '^ 3\) Action 14, Light: played B1 \(50\.5 %\): the best move\.'
    fits 60 20
    keys NPage
    wait_for '^ 7\) Action 22, Dark: played C4 \(45\.9 %\); best was B4'
    fits 60 20
    t resize-window -t main -x 80 -y 24
    keys -l 7
    wait_for '^ > 7  a number'
    keys Enter
    wait_for '^ Move 11 of 59: Roll 4\. Seat 2 \(Dark\): C4 → B1\.'
    wait_for 'Review: Action 22, Dark:$'
    wait_for '^ played C4 \(45\.9 %\); best was B4 \(54\.7 %\): a mistake\.'
    fits 80 24
    keys r
    keys -l 99
    keys Enter
    wait_for 'There is no decision 99$'
    wait_for '^ \(1 to 33\)\.'
    keys q
    wait_for '^PARLOUR-EXIT=0$'
    start 80 24 "$P replay --iterations 60 $RECORDS/ur_review_two_pieces.json"
    wait_for 'r review, q quit'
    keys r
    wait_for '^ Review with estimates by the computer \(60 trials a decision\): not exact\.'
    keys Enter
    wait_for '^ Move 0 of 59: the start'
    keys q
    wait_for '^PARLOUR-EXIT=0$'
    start 80 24 "$P replay --iterations 60 $RECORDS/tamcuc_review.json"
    wait_for 'r review, q quit'
    keys r
    wait_for "^ Review from each player's own view of the cards"
    wait_for '^ 1\) Action [0-9]+, Seat [1-4]: played '
    fits 80 24
    keys -l 1
    keys Enter
    wait_for 'Review: Action [0-9]+, Seat [1-4]: played '
    fits 80 24
    keys q
    wait_for '^PARLOUR-EXIT=0$'
    ;;
*)
    echo "unknown case $CASE"
    exit 2
    ;;
esac
echo "ok ($CASE)"

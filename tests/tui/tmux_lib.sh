# tmux_lib.sh — sourced by tui_check.sh and drill_check.sh: runs a program in
# a real terminal (a detached tmux pane of a given size) and checks what the
# screen shows. Each step waits until the screen shows what it expects
# (polling, up to 60 s) or fails with the screen: no step depends on how fast
# the program is. The caller sets CASE (named in failures) and SOCKBASE (the
# tmux sockets' prefix, unique to the run) first; WORK is a temporary folder
# removed at exit. Exits 77 (skipped) when tmux is not installed.
command -v tmux >/dev/null || { echo "tmux is not installed: skipped"; exit 77; }
export LC_ALL=C.UTF-8
# Each start gets a tmux server of its own (a new socket), so that no step
# waits for an old server to go away.
RUNS=0
SOCK="$SOCKBASE-0"
WORK=$(mktemp -d)
t() { tmux -u -L "$SOCK" -f /dev/null "$@"; }
cleanup() {
    for i in $(seq 0 "$RUNS"); do tmux -L "$SOCKBASE-$i" kill-server 2>/dev/null; done
    rm -rf "$WORK"
}
trap cleanup EXIT

# start W H COMMAND: runs COMMAND in a W x H pane; PARLOUR-EXIT=rc when it ends.
start() {
    local w=$1 h=$2
    shift 2
    RUNS=$((RUNS + 1))
    SOCK="$SOCKBASE-$RUNS"
    t new-session -d -s main -x "$w" -y "$h" "$*; echo PARLOUR-EXIT=\$?; sleep 600"
}
screen() { t capture-pane -p -t main; }
fail() {
    echo "FAIL ($CASE): $1"
    echo "---- screen ----"
    screen
    echo "----------------"
    exit 1
}
# wait_for REGEX: until a line of the screen matches.
wait_for() {
    for _ in $(seq 1 600); do # 60 s at most
        screen | grep -Eq -- "$1" && return 0
        sleep 0.1
    done
    fail "never saw /$1/"
}
# absent REGEX: no line of the screen matches now.
absent() { ! screen | grep -Eq -- "$1" || fail "saw /$1/"; }
keys() { t send-keys -t main "$@"; }
type_line() { keys -l "$1"; keys Enter; }
# fits W H: every line within W columns, at most H lines, prompt on screen.
fits() {
    local n
    n=$(screen | wc -l)
    [ "$n" -le "$2" ] || fail "$n lines on a $2-line screen"
    n=$(screen | wc -L) # display columns (wide characters count two)
    [ "$n" -le "$1" ] || fail "a line $n columns wide on a $1-column screen"
}

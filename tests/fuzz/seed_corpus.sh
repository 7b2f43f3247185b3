#!/usr/bin/env bash
# Rebuilds the seed corpora tests/fuzz/corpus/<target>/ from the tests'
# protocol sessions, records and positions, run through the real program.
# Usage: tests/fuzz/seed_corpus.sh PATH/TO/parlour
# The corpora are committed; rerun after adding sessions (files are named
# after their source, so a rerun replaces rather than duplicates).
set -euo pipefail
BIN=$(realpath "$1")
cd "$(dirname "$0")"
T=../protocol
C=corpus
game_index() { case $1 in ur) echo 0;; cbw) echo 1;; tamcuc) echo 2;; karuta) echo 3;; esac; }
mkdir -p $C/proto $C/record $C/options
for g in ur cbw tamcuc karuta; do mkdir -p $C/action_$g $C/position_$g $C/play_$g; done

for in in $T/*.in; do
  name=$(basename "$in" .in)
  game=${name%%_*}
  cp "$in" "$C/proto/$name"
  # The record at the end of the session.
  grep -v '^quit' "$in" > /tmp/seed_$$.in; echo record >> /tmp/seed_$$.in
  "$BIN" engine < /tmp/seed_$$.in | grep '^= {' | tail -1 | cut -c3- > "$C/record/$name.json" || true
  [ -s "$C/record/$name.json" ] || rm -f "$C/record/$name.json"
  # Options of each `new`: byte 0 = the game's index.
  k=0
  grep '^\(\([0-9]* \)\?\)new ' "$in" | sed 's/^[0-9]* //' | while read -r _ g opts; do
    k=$((k + 1))
    { printf "\\x0$(game_index "$g")"; printf '%s' "$opts"; } > "$C/options/${name}_$k"
  done
  # Every action played, as text after a 5-byte header (options 0, a few
  # random steps, seed 1, seat byte), and the position after each action.
  k=0
  grep '^\(\([0-9]* \)\?\)play ' "$in" | sed 's/^[0-9]* //; s/^play //' | while read -r act; do
    k=$((k + 1))
    seat=255
    if [[ $act =~ ^([0-9])\ (.*)$ ]]; then seat=$((BASH_REMATCH[1] + 1)); act=${BASH_REMATCH[2]}; fi
    steps=$(( (k * 7) % 40 ))
    { printf "\\x00\\x$(printf %02x $steps)\\x00\\x01\\x$(printf %02x $seat)"; printf '%s' "$act"; } \
      > "$C/action_$game/${name}_$k"
  done
  awk '{print} /^([0-9]+ )?play /{print "position"}' /tmp/seed_$$.in | grep -v '^record' |
    "$BIN" engine | grep -A0 '^= phase=\|^= [a-z]*=' | cut -c3- | sort -u | head -40 > /tmp/seed_pos_$$ || true
  k=0
  while read -r pos; do
    k=$((k + 1))
    { printf '\x00'; printf '%s' "$pos"; } > "$C/position_$game/${name}_$k"
  done < /tmp/seed_pos_$$
done
cp ../records/*.json $C/record/
rm -f /tmp/seed_$$.in /tmp/seed_pos_$$
# Structure-aware players: a few fixed byte strings (op codes and indices).
for g in ur cbw tamcuc karuta; do
  for s in 0 1 2 3; do
    { printf "\\x0$s\\x0$s"; for i in $(seq 1 120); do printf "\\x$(printf %02x $(( (i * 37 + s * 11) % 256 )))"; done; } \
      > "$C/play_$g/walk_$s"
    { printf "\\x0$s\\x07"; for i in $(seq 1 80); do printf '\x00\x05'; done; } > "$C/play_$g/legal_$s"
  done
done

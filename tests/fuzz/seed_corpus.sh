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
# The games in registry order (`parlour list`): an input's first byte names
# the game by its index there (tests/fuzz/fuzz.h, fz_game).
GAMES=$("$BIN" list | sed -n 's/^\([a-z0-9_]*\) — .*/\1/p')
game_index() { local i=0; for g in $GAMES; do [ "$g" = "$1" ] && { echo $i; return; }; i=$((i + 1)); done; }
byte() { printf '\\x%02x' "$1"; } # the escape, for printf's format: bash drops NUL bytes
mkdir -p $C/proto $C/record $C/options $C/action $C/position $C/play

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
    { printf "$(byte "$(game_index "$g")")"; printf '%s' "$opts"; } > "$C/options/${name}_$k"
  done
  # Every action played, as text after a 6-byte header (the game's index,
  # options 0, a few random steps, seed 1, seat byte), and the position
  # after each action (after the game's index and options 0).
  gi=$(byte "$(game_index "$game")")
  k=0
  grep '^\(\([0-9]* \)\?\)play ' "$in" | sed 's/^[0-9]* //; s/^play //' | while read -r act; do
    k=$((k + 1))
    seat=255
    if [[ $act =~ ^([0-9])\ (.*)$ ]]; then seat=$((BASH_REMATCH[1] + 1)); act=${BASH_REMATCH[2]}; fi
    steps=$(( (k * 7) % 40 ))
    { printf "$gi\\x00\\x$(printf %02x $steps)\\x00\\x01\\x$(printf %02x $seat)"; printf '%s' "$act"; } \
      > "$C/action/${name}_$k"
  done || true # a session may play nothing
  awk '{print} /^([0-9]+ )?play /{print "position"}' /tmp/seed_$$.in | grep -v '^record' |
    "$BIN" engine | grep -A0 '^= phase=\|^= [a-z]*=' | cut -c3- | sort -u | head -40 > /tmp/seed_pos_$$ || true
  k=0
  while read -r pos; do
    k=$((k + 1))
    { printf "$gi\\x00"; printf '%s' "$pos"; } > "$C/position/${name}_$k"
  done < /tmp/seed_pos_$$
done
cp ../records/*.json $C/record/
rm -f /tmp/seed_$$.in /tmp/seed_pos_$$
# The structure-aware player: a few fixed byte strings (op codes and
# indices) for every game.
for g in $GAMES; do
  gi=$(byte "$(game_index "$g")")
  for s in 0 1 2 3; do
    { printf "$gi\\x0$s\\x0$s"; for i in $(seq 1 120); do printf "\\x$(printf %02x $(( (i * 37 + s * 11) % 256 )))"; done; } \
      > "$C/play/${g}_walk_$s"
    { printf "$gi\\x0$s\\x07"; for i in $(seq 1 80); do printf '\x00\x05'; done; } > "$C/play/${g}_legal_$s"
  done
done

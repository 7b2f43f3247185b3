-- schema/sqlite.sql: the store's tables in SQLite (src/server/store_sqlite.c;
-- docs/server.md, "The store"). The build embeds this file into the program
-- (CMakeLists.txt, parlour_embed_sql: comment lines are dropped, the rest is
-- kept as it is written here).
--
-- Each "-- @version N" section turns a database of version N-1 into one of
-- version N; store_open runs, in one transaction, every section above the
-- version that meta's "schema" row holds (none: 0), then writes the new
-- version there. Sections are never edited once released: a change is a new
-- section. Every statement is prepared with bound parameters; the seed (an
-- unsigned 64-bit number) is kept as the signed integer with the same bits.

-- @version 1
-- rooms and their histories (the first server; "IF NOT EXISTS" because the
-- first release created its tables that way, before meta held a version).
CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS rooms(
  code TEXT PRIMARY KEY, game TEXT NOT NULL, options TEXT NOT NULL,
  config TEXT NOT NULL, seed INTEGER NOT NULL, created_ms INTEGER NOT NULL,
  finished INTEGER NOT NULL DEFAULT 0, result TEXT);
CREATE TABLE IF NOT EXISTS actions(
  room TEXT NOT NULL REFERENCES rooms(code), seq INTEGER NOT NULL,
  seat INTEGER NOT NULL, text TEXT NOT NULL, at_ms INTEGER NOT NULL,
  PRIMARY KEY(room, seq)) WITHOUT ROWID;

-- @version 2
-- several processes on one database (issue 17): each process's heartbeat
-- (alive while alive_until_ms is in the future, machine clock in ms since
-- the epoch) and, per room, the process that may write it. A lease is valid
-- only while its owner's heartbeat is alive.
CREATE TABLE owners(owner TEXT PRIMARY KEY, alive_until_ms INTEGER NOT NULL);
CREATE TABLE leases(
  room TEXT PRIMARY KEY REFERENCES rooms(code), owner TEXT NOT NULL);
CREATE INDEX leases_owner ON leases(owner);

-- @version 3
-- accounts and their sessions (issue 33, docs/accounts.md). An account's id
-- is never reused (AUTOINCREMENT); `folded` is its name case-folded and
-- NFKC-normalised (account.c), unique, so "Ann" and "ann" are one name;
-- `hash` is the password's Argon2id string (libsodium: algorithm, limits,
-- salt and hash; never the password). A session is known only by the hash
-- of its token (64 hex digits of BLAKE2b), never the token itself, and lives
-- until expires_ms (ms since the epoch), renewed as it is used.
CREATE TABLE accounts(
  id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT NOT NULL,
  folded TEXT NOT NULL UNIQUE, hash TEXT NOT NULL, created_ms INTEGER NOT NULL);
CREATE TABLE sessions(
  hash TEXT PRIMARY KEY, account INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  expires_ms INTEGER NOT NULL) WITHOUT ROWID;
CREATE INDEX sessions_account ON sessions(account);
CREATE INDEX sessions_expires ON sessions(expires_ms);

-- @version 4
-- ratings (issue 33 §2, docs/ratings.md): an account's Glicko-2 rating in
-- each pool ("ur/finkel", "cbw/2v2"... rating.h), its games and when it last
-- changed (ms since the epoch; the idle deviation grows from there), and one
-- history row per rated game: the room, when, the rating and RD before and
-- after. Written with the room's finish in one transaction
-- (store_finish_rated); an account's rows go with the account.
CREATE TABLE ratings(
  account INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE, pool TEXT NOT NULL,
  rating REAL NOT NULL, rd REAL NOT NULL, sigma REAL NOT NULL,
  games INTEGER NOT NULL, updated_ms INTEGER NOT NULL,
  PRIMARY KEY(account, pool)) WITHOUT ROWID;
CREATE TABLE rating_history(
  account INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE, pool TEXT NOT NULL,
  room TEXT NOT NULL REFERENCES rooms(code), at_ms INTEGER NOT NULL,
  rating_before REAL NOT NULL, rd_before REAL NOT NULL,
  rating_after REAL NOT NULL, rd_after REAL NOT NULL,
  PRIMARY KEY(account, pool, at_ms, room)) WITHOUT ROWID;

-- @version 5
-- karuta drills (issue 34 §4, docs/drills.md): one drill record per account,
-- a JSON text of at most 64 KB (drill.c checks its shape), and when it was
-- last written (ms since the epoch). It goes with its account.
CREATE TABLE drills(
  account INTEGER PRIMARY KEY REFERENCES accounts(id) ON DELETE CASCADE,
  record TEXT NOT NULL, updated_ms INTEGER NOT NULL);

-- @version 6
-- a player's page may be private (issue 33 §4, docs/accounts.md): then it
-- answers others as an unknown name does; public (0) by default.
ALTER TABLE accounts ADD COLUMN private INTEGER NOT NULL DEFAULT 0;

-- @version 7
-- Play now across processes (issue 33 §3, docs/pairing.md "Several
-- processes"): each waiting seek, written by the process holding its
-- player's connection (`owner`: counted only while that owner's heartbeat
-- is alive); the pairings the process running the pool (the holder of the
-- role "pairing") wrote for each paired seek, for its owner to tell its
-- player; and the roles, a process-wide lease (as `leases`, but of no room).
CREATE TABLE seeks(
  id TEXT PRIMARY KEY, owner TEXT NOT NULL, pool TEXT NOT NULL, game TEXT NOT NULL,
  options TEXT NOT NULL, name TEXT NOT NULL, account INTEGER NOT NULL, players INTEGER NOT NULL,
  rating REAL NOT NULL, rd REAL NOT NULL, made_ms INTEGER NOT NULL, after_s INTEGER NOT NULL,
  widest INTEGER NOT NULL) WITHOUT ROWID;
CREATE TABLE pairings(
  seek TEXT PRIMARY KEY, owner TEXT NOT NULL, room TEXT NOT NULL, seat INTEGER NOT NULL,
  token TEXT NOT NULL, pool TEXT NOT NULL, game TEXT NOT NULL, computer INTEGER NOT NULL,
  rated INTEGER NOT NULL) WITHOUT ROWID;
CREATE INDEX pairings_owner ON pairings(owner);
CREATE TABLE roles(name TEXT PRIMARY KEY, owner TEXT NOT NULL) WITHOUT ROWID;

-- @version 8
-- the lobby across processes (docs/pairing.md, "Several processes"): each
-- owner's connections, written with its heartbeat (store_owner_beat_conns)
-- and summed over the live owners for `counts.online` (store_online); the
-- seeks by owner, so that the holder of the role "pairing" deletes a dead
-- process's rows without reading the table (store_seeks_sweep). The owners
-- by heartbeat: the sweep finds the dead ones in order.
ALTER TABLE owners ADD COLUMN conns INTEGER NOT NULL DEFAULT 0;
CREATE INDEX seeks_owner ON seeks(owner);
CREATE INDEX owners_alive ON owners(alive_until_ms);

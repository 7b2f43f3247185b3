-- schema/pg.sql: the store's tables in PostgreSQL (src/server/store_pg.c;
-- docs/server.md, "The store"). The build embeds this file into the program
-- (CMakeLists.txt, parlour_embed_sql: comment lines are dropped).
--
-- Each "-- @version N" section turns a database of version N-1 into one of
-- version N; store_open runs, in one transaction holding an advisory lock
-- (so processes that start together migrate once), every section above the
-- version in meta's "schema" row (none: 0), then writes the new version.
-- Sections are never edited once released: a change is a new section.
-- The tables live in the connection's schema (search_path). The seed, an
-- unsigned 64-bit number, is kept as the bigint with the same bits; codes
-- sort bytewise (COLLATE "C"), as in SQLite.

-- @version 1
CREATE TABLE meta(key text PRIMARY KEY, value text NOT NULL);
CREATE TABLE rooms(
  code text COLLATE "C" PRIMARY KEY, game text NOT NULL, options text NOT NULL,
  config text NOT NULL, seed bigint NOT NULL, created_ms bigint NOT NULL,
  finished boolean NOT NULL DEFAULT false, result text);
CREATE INDEX rooms_open ON rooms(created_ms, code) WHERE NOT finished;
CREATE TABLE actions(
  room text COLLATE "C" NOT NULL REFERENCES rooms(code), seq bigint NOT NULL,
  seat integer NOT NULL, text text NOT NULL, at_ms bigint NOT NULL,
  PRIMARY KEY(room, seq));
-- Several processes on one database (issue 17): each process's heartbeat,
-- alive while alive_until is after clock_timestamp() (the database's clock,
-- so the processes' clocks do not matter), and per room the process that may
-- write it; a lease is valid only while its owner's heartbeat is alive.
CREATE TABLE owners(owner text PRIMARY KEY, alive_until timestamptz NOT NULL);
CREATE TABLE leases(
  room text COLLATE "C" PRIMARY KEY REFERENCES rooms(code), owner text NOT NULL);
CREATE INDEX leases_owner ON leases(owner);

-- @version 2
-- accounts and their sessions (issue 33, docs/accounts.md). An account's id
-- is never reused (an identity column); `folded` is its name case-folded and
-- NFKC-normalised (account.c), unique, so "Ann" and "ann" are one name;
-- `hash` is the password's Argon2id string (libsodium: algorithm, limits,
-- salt and hash; never the password). A session is known only by the hash
-- of its token (64 hex digits of BLAKE2b), never the token itself, and lives
-- until expires_ms (ms since the epoch), renewed as it is used.
CREATE TABLE accounts(
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, name text NOT NULL,
  folded text COLLATE "C" NOT NULL UNIQUE, hash text NOT NULL, created_ms bigint NOT NULL);
CREATE TABLE sessions(
  hash text COLLATE "C" PRIMARY KEY, account bigint NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  expires_ms bigint NOT NULL);
CREATE INDEX sessions_account ON sessions(account);
CREATE INDEX sessions_expires ON sessions(expires_ms);

-- @version 3
-- ratings (issue 33 §2, docs/ratings.md): an account's Glicko-2 rating in
-- each pool ("ur/finkel", "cbw/2v2"... rating.h), its games and when it last
-- changed (ms since the epoch; the idle deviation grows from there), and one
-- history row per rated game: the room, when, the rating and RD before and
-- after. Written with the room's finish in one transaction
-- (store_finish_rated); an account's rows go with the account.
CREATE TABLE ratings(
  account bigint NOT NULL REFERENCES accounts(id) ON DELETE CASCADE, pool text COLLATE "C" NOT NULL,
  rating double precision NOT NULL, rd double precision NOT NULL, sigma double precision NOT NULL,
  games bigint NOT NULL, updated_ms bigint NOT NULL,
  PRIMARY KEY(account, pool));
CREATE TABLE rating_history(
  account bigint NOT NULL REFERENCES accounts(id) ON DELETE CASCADE, pool text COLLATE "C" NOT NULL,
  room text COLLATE "C" NOT NULL REFERENCES rooms(code), at_ms bigint NOT NULL,
  rating_before double precision NOT NULL, rd_before double precision NOT NULL,
  rating_after double precision NOT NULL, rd_after double precision NOT NULL,
  PRIMARY KEY(account, pool, at_ms, room));

-- @version 4
-- karuta drills (issue 34 §4, docs/drills.md): one drill record per account,
-- a JSON text of at most 64 KB (drill.c checks its shape), and when it was
-- last written (ms since the epoch). It goes with its account.
CREATE TABLE drills(
  account bigint PRIMARY KEY REFERENCES accounts(id) ON DELETE CASCADE,
  record text NOT NULL, updated_ms bigint NOT NULL);

-- @version 5
-- a player's page may be private (issue 33 §4, docs/accounts.md): then it
-- answers others as an unknown name does; public by default.
ALTER TABLE accounts ADD COLUMN private boolean NOT NULL DEFAULT false;

-- @version 6
-- Play now across processes (issue 33 §3, docs/pairing.md "Several
-- processes"): each waiting seek, written by the process holding its
-- player's connection (`owner`: counted only while that owner's heartbeat
-- is alive); the pairings the process running the pool (the holder of the
-- role "pairing") wrote for each paired seek, for its owner to tell its
-- player; and the roles, a process-wide lease (as `leases`, but of no room).
CREATE TABLE seeks(
  id text COLLATE "C" PRIMARY KEY, owner text NOT NULL, pool text NOT NULL, game text NOT NULL,
  options text NOT NULL, name text NOT NULL, account bigint NOT NULL, players integer NOT NULL,
  rating double precision NOT NULL, rd double precision NOT NULL, made_ms bigint NOT NULL,
  after_s integer NOT NULL, widest integer NOT NULL);
CREATE TABLE pairings(
  seek text COLLATE "C" PRIMARY KEY, owner text NOT NULL, room text NOT NULL, seat integer NOT NULL,
  token text NOT NULL, pool text NOT NULL, game text NOT NULL, computer integer NOT NULL,
  rated integer NOT NULL);
CREATE INDEX pairings_owner ON pairings(owner);
CREATE TABLE roles(name text PRIMARY KEY, owner text NOT NULL);

-- @version 7
-- the lobby across processes (docs/pairing.md, "Several processes"): each
-- owner's connections, written with its heartbeat (store_owner_beat_conns)
-- and summed over the live owners for `counts.online` (store_online); the
-- seeks by owner, so that the holder of the role "pairing" deletes a dead
-- process's rows without reading the table (store_seeks_sweep). The owners
-- by heartbeat: the sweep finds the dead ones in order.
ALTER TABLE owners ADD COLUMN conns bigint NOT NULL DEFAULT 0;
CREATE INDEX seeks_owner ON seeks(owner);
CREATE INDEX owners_alive ON owners(alive_until);

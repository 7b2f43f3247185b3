/* loadgen.h — `parlour bench serve`: the load generator for `parlour serve`
 * (a libwebsockets client; docs/benchmarks.md, "The server under load").
 * Prefix lg_.
 *
 * Threading: one thread; the function runs its own libwebsockets context
 * and shares nothing, so it may run beside anything.
 */
#ifndef PARLOUR_LOADGEN_H
#define PARLOUR_LOADGEN_H

#if !defined(PARLOUR_IN_FRONT)
#error "loadgen.h belongs to the front ends: core, games and AI may not include it"
#endif

/* `parlour bench serve --url ws://HOST:PORT/ws --clients N --rooms R
 * --seconds S [--game G] [--seats K] [--rate M] [--idle] [--pid PID] [--route]`,
 * argv[0] being "serve". Connects N clients to a running server, seats them
 * in R rooms and plays random legal moves (or holds the connections idle),
 * then prints one line of figures on stdout. Returns the exit status: 0 when
 * the run was measured (even if some connections failed: the line says how
 * many), 1 when nothing could be measured (no server, no connection,
 * out of memory), 2 for bad arguments (with a message on stderr). */
int lg_bench_serve(int argc, char **argv);

#endif

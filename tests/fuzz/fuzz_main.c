/* fuzz_main.c — a plain driver for the fuzz targets when they are not built
 * with libFuzzer (the normal gcc suite): runs every file given (or every file
 * of every folder given) through LLVMFuzzerTestOneInput, then mutates them
 * deterministically (byte flips, insertions, deletions, splices) for
 * `--seconds S` (default 1). A smoke test that keeps the targets building
 * and their corpora passing; the real campaigns use libFuzzer (docs/reliability.md).
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "fuzz.h"
#include "parlour/rng.h"

typedef struct blob {
    uint8_t *p;
    size_t n;
} blob;

static blob *corpus;
static size_t ncorpus, capcorpus;

static void add_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "cannot read %s\n", path);
        exit(2);
    }
    blob b = {NULL, 0};
    size_t cap = 0;
    int c;
    while ((c = fgetc(f)) != EOF) {
        if (b.n == cap) {
            cap = cap ? cap * 2 : 256;
            b.p = realloc(b.p, cap);
            if (!b.p)
                exit(2);
        }
        b.p[b.n++] = (uint8_t)c;
    }
    fclose(f);
    if (ncorpus == capcorpus) {
        capcorpus = capcorpus ? capcorpus * 2 : 64;
        corpus = realloc(corpus, capcorpus * sizeof *corpus);
        if (!corpus)
            exit(2);
    }
    corpus[ncorpus++] = b;
}

static int cmp_names(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static void add_path(const char *path)
{
    struct stat st;
    if (stat(path, &st) < 0) {
        fprintf(stderr, "no such file or folder: %s\n", path);
        exit(2);
    }
    if (!S_ISDIR(st.st_mode)) {
        add_file(path);
        return;
    }
    DIR *d = opendir(path);
    if (!d)
        exit(2);
    char **names = NULL;
    size_t n = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.')
            continue;
        names = realloc(names, (n + 1) * sizeof *names);
        size_t len = strlen(path) + strlen(e->d_name) + 2;
        names[n] = malloc(len);
        if (!names || !names[n])
            exit(2);
        snprintf(names[n], len, "%s/%s", path, e->d_name);
        n++;
    }
    closedir(d);
    qsort(names, n, sizeof *names, cmp_names); /* same order every run */
    for (size_t i = 0; i < n; i++) {
        add_path(names[i]);
        free(names[i]);
    }
    free(names);
}

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
    double seconds = 1;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--seconds") && i + 1 < argc)
            seconds = atof(argv[++i]);
        else
            add_path(argv[i]);
    }
    for (size_t i = 0; i < ncorpus; i++)
        LLVMFuzzerTestOneInput(corpus[i].p, corpus[i].n);
    long runs = (long)ncorpus;
    pl_rng r;
    pl_rng_seed(&r, 7);
    double end = now() + seconds;
    uint8_t *buf = NULL;
    size_t cap = 0;
    while (ncorpus && now() < end) {
        for (int k = 0; k < 16; k++) {
            const blob *b = &corpus[pl_rng_below(&r, (uint32_t)ncorpus)];
            size_t need = b->n * 2 + 64;
            if (need > cap) {
                cap = need;
                buf = realloc(buf, cap);
                if (!buf)
                    exit(2);
            }
            size_t n = b->n;
            if (n)
                memcpy(buf, b->p, n);
            int edits = 1 + (int)pl_rng_below(&r, 4);
            for (int j = 0; j < edits; j++) {
                switch (pl_rng_below(&r, 5)) {
                case 0: /* flip a byte */
                    if (n)
                        buf[pl_rng_below(&r, (uint32_t)n)] ^= (uint8_t)(1u << pl_rng_below(&r, 8));
                    break;
                case 1: /* random byte */
                    if (n)
                        buf[pl_rng_below(&r, (uint32_t)n)] = (uint8_t)pl_rng_next(&r);
                    break;
                case 2: /* insert a byte */
                    if (n + 1 < cap) {
                        size_t at = pl_rng_below(&r, (uint32_t)n + 1);
                        memmove(buf + at + 1, buf + at, n - at);
                        buf[at] = (uint8_t)pl_rng_next(&r);
                        n++;
                    }
                    break;
                case 3: /* delete a run */
                    if (n) {
                        size_t at = pl_rng_below(&r, (uint32_t)n);
                        size_t len = 1 + pl_rng_below(&r, (uint32_t)(n - at < 8 ? n - at : 8));
                        memmove(buf + at, buf + at + len, n - at - len);
                        n -= len;
                    }
                    break;
                default: { /* splice the tail of another input */
                    const blob *o = &corpus[pl_rng_below(&r, (uint32_t)ncorpus)];
                    size_t at = n ? pl_rng_below(&r, (uint32_t)n) : 0;
                    size_t from = o->n ? pl_rng_below(&r, (uint32_t)o->n) : 0;
                    size_t len = o->n - from;
                    if (at + len > cap)
                        len = cap - at;
                    memcpy(buf + at, o->p + from, len);
                    n = at + len;
                    break;
                }
                }
            }
            LLVMFuzzerTestOneInput(buf, n);
            runs++;
        }
    }
    printf("%ld runs over %zu corpus files\n", runs, ncorpus);
    for (size_t i = 0; i < ncorpus; i++)
        free(corpus[i].p);
    free(corpus);
    free(buf);
    return 0;
}

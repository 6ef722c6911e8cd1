// Frost's own deflate for filtered PNG rows: literals and runs, nothing else (see deflate_runs.c).
#ifndef FROST_DEFLATE_RUNS_H
#define FROST_DEFLATE_RUNS_H
#include <stddef.h>
#include <stdint.h>

// The most bytes `frost_deflate_runs` writes for n input bytes.
size_t frost_deflate_runs_bound(size_t n);

// in[0..<n) as one zlib stream (RFC 1950/1951) into out, which holds `frost_deflate_runs_bound(n)`
// bytes, its segments of about 1 MiB compressed on up to `threads` threads (the same bytes on any
// number); returns the stream's size, or 0 when memory runs out.
size_t frost_deflate_runs(const uint8_t *in, size_t n, uint8_t *out, int threads);
#endif

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

// in[0..<n) as a piece of a raw deflate stream (no zlib header or checksum; runs do not reach
// before in[0]): its last block final when `last`, else ended byte-aligned by an empty stored
// block, so that pieces made apart join by appending. out holds `frost_deflate_runs_bound(n)`
// bytes; returns the piece's size, 0 when memory runs out.
size_t frost_deflate_runs_piece(const uint8_t *in, size_t n, int last, uint8_t *out);

// The Adler-32 of A followed by B from theirs and B's length (RFC 1950 §8.2; zlib's
// adler32_combine): sums modulo 65521, the second sum shifted by the first over B's length.
uint32_t frost_adler32_combine(uint32_t a, uint32_t b, size_t b_length);
#endif

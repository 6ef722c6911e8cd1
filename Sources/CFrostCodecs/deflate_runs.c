// Frost's own deflate (RFC 1951) for filtered PNG rows, zlib's Z_RLE strategy done fast: every
// byte is a literal except runs of the byte before them, which become matches at distance 1.
// There is no match search, the part of every LZ77 encoder that costs the most. Each block of
// 64 KiB − 64 input bytes gets Huffman codes of its own, or is stored when that is shorter (noise).
//
// Why runs are enough: Up-filtered photos, and a blur cache's levels even more, are small residuals
// and runs of zeros. On the 4096² photo's full-size cache levels this writes within 4% of
// libdeflate's level 1 bytes at 2.0-3.2x its speed (README, "PNG settings"). Palette art with
// repeated strings is where an LZ77 search wins (eagle.png: 1.5x the bytes).
#include "deflate_runs.h"
#include <libdeflate.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#if !defined(__BYTE_ORDER__) || __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "deflate_runs.c reads bytes in 64-bit words as little-endian"
#endif

enum {
    BLOCK = 1023 * 64,                       // input bytes per block: whole chunks of `tokenize`, and
                                             // at most 65535, a stored block's most
    MIN_RUN = 3,                             // deflate's shortest match
    MAX_RUN = 258,                           // and its longest
    TOKENS = 256 + MAX_RUN - MIN_RUN + 1,    // literal bytes, then runs of 3...258
    LITLEN = 286,                            // 256 literals, the end of a block, 29 length codes
    END_OF_BLOCK = 256,
    CODE_LENGTHS = 19,                       // the alphabet the code lengths are sent in
    SEGMENT = 16 * BLOCK,                    // input bytes compressed apart (on threads), about 1 MiB
};

// RFC 1951 §3.2.5: the first length of each length code 257...285 and its extra bits.
static const uint16_t length_base[29] = {3,  4,  5,  6,  7,  8,  9,  10, 11,  13,  15,  17,  19,  23, 27,
                                         31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258};
static const uint8_t length_extra[29] = {0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2,
                                         2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0};
// RFC 1951 §3.2.7: the order the code-length code's lengths are sent in, and its repeat codes' extra bits.
static const uint8_t code_length_order[CODE_LENGTHS] = {16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15};
static const uint8_t code_length_extra[CODE_LENGTHS] = {[16] = 2, [17] = 3, [18] = 7};

// Bits go out least significant first (RFC 1951 §3.1.1). Every call stores the pending bits as
// one unaligned 64-bit word and moves on by the whole bytes among them: no branch on when to
// flush (a flush every 32 bits was mispredicted at token rate). The output keeps 8 bytes of slack.
typedef struct {
    uint8_t *out;
    uint64_t bits;     // pending bits, the first in the lowest place; those of out[0] are stored
    unsigned count;    // how many (below 8 between calls)
} bit_writer;

// Up to 56 bits.
static inline void put_bits(bit_writer *w, uint64_t value, unsigned length) {
    w->bits |= value << w->count;
    w->count += length;
    memcpy(w->out, &w->bits, 8);
    w->out += w->count >> 3;
    w->bits >>= w->count & ~7u;
    w->count &= 7;
}

// Pads with zero bits to a byte boundary (the partial byte is stored already).
static void align_to_byte(bit_writer *w) {
    w->out += w->count > 0;
    w->bits = 0;
    w->count = 0;
}

// Code lengths of at most `limit` bits for symbols 0..<count with frequencies `freq`, a complete
// prefix code. Huffman's lengths come from two queues over the leaves sorted by frequency (the
// merged nodes are made in order of weight, so they form the second queue). Lengths over the
// limit are cut to it and the Kraft sum restored by moving a shorter leaf one level down for each
// unit over (as zlib and miniz do); then the least frequent symbols take the longest lengths.
// With fewer than two symbols used, two get one bit: inflaters reject incomplete codes.
static void code_lengths(const uint32_t *freq, int count, int limit, uint8_t *lengths) {
    uint64_t keys[LITLEN];
    int n = 0;
    memset(lengths, 0, (size_t)count);
    for (int s = 0; s < count; s++)
        if (freq[s]) keys[n++] = (uint64_t)freq[s] << 16 | (uint64_t)s;
    if (n < 2) {
        int used = n ? (int)(keys[0] & 0xFFFF) : 0;
        lengths[used] = 1;
        lengths[used == 0 ? 1 : 0] = 1;
        return;
    }
    // Sorted by frequency, ties by symbol: two stable counting passes over the frequency's bytes
    // (a block's counts are below 2^16), the symbols going in in order.
    uint64_t sorted[LITLEN];
    for (int shift = 0; shift < 16; shift += 8) {
        unsigned starts[257] = {0};
        for (int i = 0; i < n; i++) starts[(keys[i] >> (16 + shift) & 0xFF) + 1]++;
        for (int b = 0; b < 256; b++) starts[b + 1] += starts[b];
        for (int i = 0; i < n; i++) sorted[starts[keys[i] >> (16 + shift) & 0xFF]++] = keys[i];
        memcpy(keys, sorted, (size_t)n * sizeof *keys);
    }
    uint64_t weight[2 * LITLEN];
    int parent[2 * LITLEN], depth[2 * LITLEN];
    for (int i = 0; i < n; i++) weight[i] = keys[i] >> 16;
    int leaf = 0, node = n;
    for (int next = n; next < 2 * n - 1; next++) {
        weight[next] = 0;
        for (int pick = 0; pick < 2; pick++) {
            int take = leaf < n && (node >= next || weight[leaf] <= weight[node]) ? leaf++ : node++;
            parent[take] = next;
            weight[next] += weight[take];
        }
    }
    depth[2 * n - 2] = 0;
    for (int i = 2 * n - 3; i >= 0; i--) depth[i] = depth[parent[i]] + 1;

    unsigned per_length[16] = {0};
    for (int i = 0; i < n; i++) per_length[depth[i] < limit ? depth[i] : limit]++;
    uint32_t kraft = 0;   // Σ 2^(limit − length): 2^limit for a complete code
    for (int l = 1; l <= limit; l++) kraft += per_length[l] << (limit - l);
    while (kraft > 1u << limit) {
        int l = limit - 1;
        while (per_length[l] == 0) l--;
        per_length[limit]--;
        per_length[l]--;
        per_length[l + 1] += 2;
        kraft--;
    }
    int i = 0;
    for (int l = limit; l >= 1; l--)
        for (unsigned k = 0; k < per_length[l]; k++) lengths[keys[i++] & 0xFFFF] = (uint8_t)l;
}

// Canonical codes for the lengths (RFC 1951 §3.2.2), bit-reversed to go out first bit first.
static void canonical_codes(const uint8_t *lengths, int count, uint32_t *codes) {
    unsigned per_length[16] = {0}, next[16] = {0}, code = 0;
    for (int s = 0; s < count; s++) per_length[lengths[s]]++;
    per_length[0] = 0;
    for (int l = 1; l < 16; l++) {
        code = (code + per_length[l - 1]) << 1;
        next[l] = code;
    }
    for (int s = 0; s < count; s++) {
        unsigned length = lengths[s], value = length ? next[length]++ : 0;
        codes[s] = length ? __builtin_bitreverse16((uint16_t)value) >> (16 - length) : 0;
    }
}

// Bit j: whether in[at + j] repeats the byte before it, for the `count` ≤ 64 bytes from `at`
// (0 for the stream's first byte and beyond `count`). Whole chunks take two vector compares.
static inline uint64_t repeats(const uint8_t *in, size_t at, size_t count) {
    typedef uint8_t bytes32 __attribute__((ext_vector_type(32)));
    typedef _Bool bits32 __attribute__((ext_vector_type(32)));
    if (count == 64 && at > 0) {
        bytes32 low, low_before, high, high_before;
        memcpy(&low, in + at, 32);
        memcpy(&low_before, in + at - 1, 32);
        memcpy(&high, in + at + 32, 32);
        memcpy(&high_before, in + at + 31, 32);
        uint32_t l = __builtin_bit_cast(uint32_t, __builtin_convertvector(low == low_before, bits32));
        uint32_t h = __builtin_bit_cast(uint32_t, __builtin_convertvector(high == high_before, bits32));
        return (uint64_t)h << 32 | l;
    }
    uint64_t mask = 0;
    for (size_t j = at == 0; j < count; j++) mask |= (uint64_t)(in[at + j] == in[at + j - 1]) << j;
    return mask;
}

// Appends a token and counts it; returns the new token count.
static inline size_t add_token(uint16_t *tokens, size_t t, uint32_t *counts, uint16_t token) {
    counts[token]++;
    tokens[t] = token;
    return t + 1;
}

// A run longer than deflate's longest match, ending at in[end]: matches of 258, then the rest
// as one match or, under 3 bytes, as literals (zlib's Z_RLE parse).
static size_t split_run(const uint8_t *in, size_t end, size_t length, uint16_t *tokens, size_t t, uint32_t *counts) {
    for (; length > MAX_RUN; length -= MAX_RUN) t = add_token(tokens, t, counts, 256 + MAX_RUN - MIN_RUN);
    if (length >= MIN_RUN) return add_token(tokens, t, counts, (uint16_t)(256 + length - MIN_RUN));
    for (; length > 0; length--) t = add_token(tokens, t, counts, in[end]);
    return t;
}

// in[start..<end) as tokens (`TOKENS`), counted; returns how many. The parse is greedy, as zlib's Z_RLE:
// a byte starts a match when it and the next two repeat the byte before them, and the match takes
// every repeat after. Found 64 bytes at a time without a branch per byte, from the mask m of
// bytes that repeat (bit j for byte j):
//   starts  = bits with m set at j, j + 1, j + 2 and clear at j − 1 (the first of each such run);
//   covered = m & ~(m + starts): the carry of each start runs through its run of ones and clears it;
//   events  = every uncovered byte (a literal) and every covered byte whose successor is not (a
//             match's last byte, whose length is the distance from the token before).
// The chunk ahead's mask shows whether a run goes on. Runs stay inside the block; the byte
// before the block is in deflate's window.
static size_t tokenize(const uint8_t *in, size_t start, size_t end, uint16_t *tokens, uint32_t *counts) {
    size_t t = 0, previous = start - 1;   // the last byte of the token before (wraps at 0; a literal comes first)
    uint64_t mask = repeats(in, start, end - start < 64 ? end - start : 64), before = 0, carried = 0;
    for (size_t at = start; at < end; at += 64) {
        size_t count = end - at < 64 ? end - at : 64;
        uint64_t valid = count == 64 ? ~(uint64_t)0 : ((uint64_t)1 << count) - 1;
        uint64_t next = at + 64 < end ? repeats(in, at + 64, end - at - 64 < 64 ? end - at - 64 : 64) : 0;
        uint64_t three = mask & (mask >> 1 | next << 63) & (mask >> 2 | next << 62);
        uint64_t starts = (three & ~(mask << 1 | before)) | carried;
        uint64_t covered = mask & ~(mask + starts);
        uint64_t goes_on = covered >> 63 & next & 1;
        uint64_t events = (~covered & valid) | (covered & ~(covered >> 1 | goes_on << 63));
        while (events) {
            // Every byte is a literal or in a match, so a literal is 1 byte after the token
            // before and a match at least 3: the length tells them apart, without a branch.
            size_t p = (size_t)__builtin_ctzll(events), position = at + p, length = position - previous;
            events &= events - 1;
            uint32_t match = (uint32_t)(256 - MIN_RUN + length), literal = in[position];
            if (length > MAX_RUN) {
                t = split_run(in, position, length, tokens, t, counts);
            } else {
                t = add_token(tokens, t, counts, (uint16_t)(match ^ ((match ^ literal) & -(uint32_t)(length == 1))));
            }
            previous = position;
        }
        carried = goes_on;
        before = mask >> 63;
        mask = next;
    }
    return t;
}

// The code lengths of a dynamic block's two alphabets, run-length coded (RFC 1951 §3.2.7) under
// a code of their own, and how many bits the header takes.
typedef struct {
    int literal_lengths;                     // HLIT + 257
    int code_length_count;                   // HCLEN + 4
    struct { uint8_t symbol, extra; } items[LITLEN + 2];
    int item_count;
    uint8_t lengths[CODE_LENGTHS];
    uint32_t codes[CODE_LENGTHS];
    size_t bits;
} block_header;

static void add_item(block_header *h, uint8_t symbol, uint8_t extra) {
    h->items[h->item_count].symbol = symbol;
    h->items[h->item_count++].extra = extra;
}

static void plan_header(const uint8_t *literal_lengths, block_header *h) {
    uint8_t sequence[LITLEN + 2];
    int hlit = LITLEN;
    while (hlit > 257 && literal_lengths[hlit - 1] == 0) hlit--;
    memcpy(sequence, literal_lengths, (size_t)hlit);
    sequence[hlit] = sequence[hlit + 1] = 1;   // distance codes 0 and 1, one bit each: only 0 (distance 1) is used
    int total = hlit + 2;
    h->literal_lengths = hlit;
    h->item_count = 0;
    for (int i = 0; i < total;) {
        uint8_t length = sequence[i];
        int run = 1;
        while (i + run < total && sequence[i + run] == length) run++;
        i += run;
        if (length == 0) {
            for (; run >= 11; run -= run < 138 ? run : 138) add_item(h, 18, (uint8_t)((run < 138 ? run : 138) - 11));
            if (run >= 3) {
                add_item(h, 17, (uint8_t)(run - 3));
                run = 0;
            }
        } else {
            add_item(h, length, 0);
            for (run--; run >= 3; run -= run < 6 ? run : 6) add_item(h, 16, (uint8_t)((run < 6 ? run : 6) - 3));
        }
        for (; run > 0; run--) add_item(h, length, 0);
    }
    uint32_t freq[CODE_LENGTHS] = {0};
    for (int i = 0; i < h->item_count; i++) freq[h->items[i].symbol]++;
    code_lengths(freq, CODE_LENGTHS, 7, h->lengths);
    canonical_codes(h->lengths, CODE_LENGTHS, h->codes);
    h->code_length_count = CODE_LENGTHS;
    while (h->code_length_count > 4 && h->lengths[code_length_order[h->code_length_count - 1]] == 0) h->code_length_count--;
    h->bits = 5 + 5 + 4 + 3 * (size_t)h->code_length_count;
    for (int i = 0; i < h->item_count; i++) h->bits += h->lengths[h->items[i].symbol] + code_length_extra[h->items[i].symbol];
}

static void write_header(bit_writer *w, const block_header *h, int final) {
    put_bits(w, (unsigned)final, 1);
    put_bits(w, 2, 2);   // dynamic Huffman codes
    put_bits(w, (unsigned)(h->literal_lengths - 257), 5);
    put_bits(w, 2 - 1, 5);   // two distance codes
    put_bits(w, (unsigned)(h->code_length_count - 4), 4);
    for (int i = 0; i < h->code_length_count; i++) put_bits(w, h->lengths[code_length_order[i]], 3);
    for (int i = 0; i < h->item_count; i++) {
        uint8_t symbol = h->items[i].symbol;
        put_bits(w, h->codes[symbol], h->lengths[symbol]);
        put_bits(w, h->items[i].extra, code_length_extra[symbol]);
    }
}

static void write_stored(bit_writer *w, const uint8_t *bytes, size_t n, int final) {
    put_bits(w, (unsigned)final, 1);
    put_bits(w, 0, 2);
    align_to_byte(w);
    uint8_t lengths[4] = {(uint8_t)n, (uint8_t)(n >> 8), (uint8_t)~n, (uint8_t)(~n >> 8)};
    memcpy(w->out, lengths, 4);
    memcpy(w->out + 4, bytes, n);
    w->out += 4 + n;
}

// The tokens' bit strings, two per `put_bits`: a pair is at most 2 × 21 bits, which fits beside
// the 7 pending ones, and halves the chain of shifts each call waits on.
static void write_tokens(bit_writer *w, const uint16_t *tokens, size_t count, const uint32_t *bits, const uint8_t *length) {
    size_t i = 0;
    for (; i + 2 <= count; i += 2) {
        uint16_t a = tokens[i], b = tokens[i + 1];
        put_bits(w, bits[a] | (uint64_t)bits[b] << length[a], (unsigned)length[a] + length[b]);
    }
    if (i < count) put_bits(w, bits[tokens[i]], length[tokens[i]]);
}

size_t frost_deflate_runs_bound(size_t n) {
    // A block is written only when no longer than stored (5 bytes + its input), with up to a
    // byte of bits pending: 8 bytes per block are ample; each segment's closing stored block 5
    // more. Then the zlib header and checksum and the bit writer's 8 bytes of slack.
    return n + 8 * (n / BLOCK + 1) + 8 * (n / SEGMENT + 1) + 2 + 4 + 8;
}

// The blocks of in[from..<to) (runs may reach back to the byte before `from`: deflate's window
// spans the stream). A segment that is not the `last` ends byte-aligned with an empty stored block
// (a zlib sync flush), so that the next one's blocks can be written separately and appended.
// Returns the bytes written, 0 when memory runs out.
static size_t deflate_segment(const uint8_t *in, size_t from, size_t to, int last, uint8_t *out) {
    uint16_t *tokens = malloc(BLOCK * sizeof *tokens);
    if (!tokens) return 0;
    bit_writer w = {out, 0, 0};
    uint8_t symbol_of_run[MAX_RUN + 1];   // a run's length code, less 257
    for (int s = 0, length = MIN_RUN; length <= MAX_RUN; length++) {
        while (s < 28 && length_base[s + 1] <= length) s++;
        symbol_of_run[length] = (uint8_t)s;
    }
    size_t start = from;
    do {
        size_t end = to - start > BLOCK ? start + BLOCK : to;
        int final = last && end == to;
        uint32_t counts[TOKENS] = {0}, freq[LITLEN] = {0}, codes[LITLEN];
        uint8_t lengths[LITLEN];
        size_t count = tokenize(in, start, end, tokens, counts);
        memcpy(freq, counts, 256 * sizeof *freq);
        freq[END_OF_BLOCK] = 1;
        for (int length = MIN_RUN; length <= MAX_RUN; length++) freq[257 + symbol_of_run[length]] += counts[256 + length - MIN_RUN];
        code_lengths(freq, LITLEN, 15, lengths);
        canonical_codes(lengths, LITLEN, codes);

        // Each token's whole bit string: a literal's code, or a length code, its extra bits and
        // distance code 0 (one 0 bit).
        uint32_t token_bits[TOKENS];
        uint8_t token_length[TOKENS];
        size_t bits = 3 + lengths[END_OF_BLOCK];
        for (int t = 0; t < TOKENS; t++) {
            if (t < 256) {
                token_bits[t] = codes[t];
                token_length[t] = lengths[t];
            } else {
                int length = t - 256 + MIN_RUN, s = symbol_of_run[length];
                token_bits[t] = codes[257 + s] | (uint32_t)(length - length_base[s]) << lengths[257 + s];
                token_length[t] = (uint8_t)(lengths[257 + s] + length_extra[s] + 1);
            }
            bits += (size_t)counts[t] * token_length[t];
        }
        block_header header;
        plan_header(lengths, &header);
        if (bits + header.bits <= 3 + 7 + 32 + 8 * (end - start)) {
            write_header(&w, &header, final);
            write_tokens(&w, tokens, count, token_bits, token_length);
            put_bits(&w, codes[END_OF_BLOCK], lengths[END_OF_BLOCK]);
        } else {
            write_stored(&w, in + start, end - start, final);
        }
        start = end;
    } while (start < to);
    if (!last) write_stored(&w, in, 0, 0);
    align_to_byte(&w);
    free(tokens);
    return (size_t)(w.out - out);
}

typedef struct {
    const uint8_t *in;
    size_t n, segments;
    uint8_t **pieces;       // each segment's bytes (NULL: not made, or no memory)
    size_t *sizes;
    int stride, first;      // this worker's segments: first, first + stride, ...
} segment_job;

static void *deflate_segments(void *argument) {
    segment_job *job = argument;
    for (size_t s = (size_t)job->first; s < job->segments; s += (size_t)job->stride) {
        size_t from = s * SEGMENT, to = from + SEGMENT < job->n ? from + SEGMENT : job->n;
        job->pieces[s] = malloc(frost_deflate_runs_bound(to - from));
        job->sizes[s] = job->pieces[s] ? deflate_segment(job->in, from, to, s + 1 == job->segments, job->pieces[s]) : 0;
    }
    return NULL;
}

// The zlib stream's two header bytes and its checksum around `size` bytes of blocks at out + 2.
static size_t wrap_zlib(const uint8_t *in, size_t n, uint8_t *out, size_t size) {
    out[0] = 0x78;   // deflate, 32 KiB window
    out[1] = 0x01;   // fastest; 0x7801 is a multiple of 31
    uint32_t adler = libdeflate_adler32(1, in, n);
    uint8_t checksum[4] = {(uint8_t)(adler >> 24), (uint8_t)(adler >> 16), (uint8_t)(adler >> 8), (uint8_t)adler};
    memcpy(out + 2 + size, checksum, 4);
    return 2 + size + 4;
}

size_t frost_deflate_runs(const uint8_t *in, size_t n, uint8_t *out, int threads) {
    size_t segments = n / SEGMENT + (n % SEGMENT != 0 || n == 0);
    if (threads <= 1 || segments == 1) {
        // In order, each segment straight after the one before: the bound holds every block and
        // closing stored block, and a segment's 8 bytes of slack are the next one's start.
        size_t size = 0;
        for (size_t s = 0; s < segments; s++) {
            size_t from = s * SEGMENT, to = from + SEGMENT < n ? from + SEGMENT : n;
            size_t piece = deflate_segment(in, from, to, s + 1 == segments, out + 2 + size);
            if (piece == 0) return 0;
            size += piece;
        }
        return wrap_zlib(in, n, out, size);
    }
    uint8_t **pieces = calloc(segments, sizeof *pieces);
    size_t *sizes = calloc(segments, sizeof *sizes);
    int workers = (size_t)threads > segments ? (int)segments : threads;   // two or more here
    segment_job *jobs = calloc((size_t)workers, sizeof *jobs);
    pthread_t *helpers = calloc((size_t)workers, sizeof *helpers);
    int *started = calloc((size_t)workers, sizeof *started);
    size_t total = 0;
    if (pieces && sizes && jobs && helpers && started) {
        for (int t = 0; t < workers; t++) jobs[t] = (segment_job){in, n, segments, pieces, sizes, workers, t};
        // Worker 0 is this thread; a helper that cannot start leaves its segments to it.
        for (int t = 1; t < workers; t++) started[t] = pthread_create(&helpers[t], NULL, deflate_segments, &jobs[t]) == 0;
        deflate_segments(&jobs[0]);
        for (int t = 1; t < workers; t++) {
            if (started[t]) pthread_join(helpers[t], NULL);
            else deflate_segments(&jobs[t]);
        }
        size_t size = 0;
        for (size_t s = 0; s < segments && sizes[s]; s++) {
            memcpy(out + 2 + size, pieces[s], sizes[s]);
            size += sizes[s];
            if (s + 1 == segments) total = wrap_zlib(in, n, out, size);
        }
    }
    for (size_t s = 0; pieces && s < segments; s++) free(pieces[s]);
    free(pieces);
    free(sizes);
    free(jobs);
    free(helpers);
    free(started);
    return total;
}

size_t frost_deflate_runs_piece(const uint8_t *in, size_t n, int last, uint8_t *out) {
    return deflate_segment(in, 0, n, last, out);
}

uint32_t frost_adler32_combine(uint32_t a, uint32_t b, size_t b_length) {
    const uint64_t base = 65521;
    uint64_t length = b_length % base, a1 = a & 0xFFFF, a2 = a >> 16, b1 = b & 0xFFFF, b2 = b >> 16;
    // s1 = a1 + b1 − 1, s2 = a2 + b2 + length·a1 − length (mod base): B's sums started from 1, 0.
    uint64_t s1 = (a1 + b1 + base - 1) % base;
    uint64_t s2 = (a2 + b2 + length * a1 % base + base - length) % base;
    return (uint32_t)(s2 << 16 | s1);
}

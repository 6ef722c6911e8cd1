// The vertical pass's vector loop, included once per instruction set and output by resample.c
// (bytes) and linear_light.c (linear 8.7): VERTICAL_PASS names it, VERTICAL_WIDE (0 or 1) picks
// 256- or 512-bit registers, MULTIPLY_ADD(acc, a, w) adds the pairwise products of a and w to acc,
// VERTICAL_OUT is the output sample type and VERTICAL_STORE(p, low, high, shift) stores a
// register's worth of samples from their sums (per 128-bit part, low holds samples 0–3 and high
// 4–7). It makes the samples it can in whole registers and returns how many; the scalar reference
// makes the rest. Between its blocks it asks for the lines of `ahead` (frost_rows_ahead), a few
// a block.

#ifndef FROST_CONCAT
// Token pasting after expansion (the helpers are named after VERTICAL_PASS).
#define FROST_CONCAT_(a, b) a##b
#define FROST_CONCAT(a, b) FROST_CONCAT_(a, b)
#endif

#if VERTICAL_WIDE
// 512 bits (Zen 4 runs them as two halves: the same multiply-adds in half the instructions, which
// measured 1.2× as fast on the linear pass's 22-row windows), one register of 32 samples a step.
#define VERTICAL_VECTOR __m512i
#define VERTICAL_LANES 32
#define VERTICAL_BLOCKS 1
#define VERTICAL_LOAD(p) _mm512_loadu_si512((const void *)(p))
#define VERTICAL_SET1 _mm512_set1_epi32
#define VERTICAL_UNPACKLO _mm512_unpacklo_epi16
#define VERTICAL_UNPACKHI _mm512_unpackhi_epi16
#else
#define VERTICAL_VECTOR __m256i
#define VERTICAL_LANES 16
#define VERTICAL_BLOCKS 2
#define VERTICAL_LOAD(p) _mm256_loadu_si256((const __m256i *)(p))
#define VERTICAL_SET1 _mm256_set1_epi32
#define VERTICAL_UNPACKLO _mm256_unpacklo_epi16
#define VERTICAL_UNPACKHI _mm256_unpackhi_epi16
#endif

// The 8.7 samples of rows k and k+1 interleaved are (row k, row k+1) pairs, one multiply-add with
// (w_k, w_{k+1}) per 32-bit lane. `taps` is even (ResamplePlan pads it). With two outputs, each
// pair of rows is loaded and interleaved once for both (their weights zero outside each one's
// window): half the loads of two single rows, which bound the long windows of a lanczos3 shrink
// (22 rows of 8.7 samples come from L2 for every output row).
static inline __attribute__((always_inline)) void FROST_CONCAT(VERTICAL_PASS, _blocks)(const uint16_t *const *rows,
                                                                                       const uint32_t *const *pairs, int taps,
                                                                                       int shift, size_t i, VERTICAL_OUT *const *out,
                                                                                       const int blocks, const int outputs) {
    const VERTICAL_VECTOR bias = VERTICAL_SET1(1 << (shift - 1));
    VERTICAL_VECTOR low[2][2], high[2][2];
    for (int o = 0; o < outputs; o++)
        for (int b = 0; b < blocks; b++) low[o][b] = high[o][b] = bias;
    for (int k = 0; k < taps; k += 2) {
        VERTICAL_VECTOR w[2];
        for (int o = 0; o < outputs; o++) w[o] = VERTICAL_SET1((int32_t)pairs[o][k / 2]);
        for (int b = 0; b < blocks; b++) {
            VERTICAL_VECTOR x = VERTICAL_LOAD(rows[k] + i + VERTICAL_LANES * b);
            VERTICAL_VECTOR y = VERTICAL_LOAD(rows[k + 1] + i + VERTICAL_LANES * b);
            VERTICAL_VECTOR lo = VERTICAL_UNPACKLO(x, y), hi = VERTICAL_UNPACKHI(x, y);
            for (int o = 0; o < outputs; o++) {
                low[o][b] = MULTIPLY_ADD(low[o][b], lo, w[o]);
                high[o][b] = MULTIPLY_ADD(high[o][b], hi, w[o]);
            }
        }
    }
    for (int o = 0; o < outputs; o++) {
        for (int b = 0; b < blocks; b++) {
            VERTICAL_STORE(out[o] + i + VERTICAL_LANES * b, low[o][b], high[o][b], shift);
        }
    }
}

static size_t VERTICAL_PASS(const uint16_t *const *rows, const uint32_t *const *pairs, int taps, int shift, size_t samples,
                            VERTICAL_OUT *const *out, const int outputs, const frost_rows_ahead *ahead) {
    int row = 0;
    size_t at = 0, per = 0;
    if (ahead && samples >= VERTICAL_LANES) {
        const size_t lines = (size_t)ahead->count * ((ahead->bytes + 63) / 64), blocks = samples / VERTICAL_LANES;
        per = (lines + blocks - 1) / blocks;
    }
    size_t i = 0;
#define FROST_VERTICAL_BLOCKS(n, outputs)                                                             \
    for (; i + n * VERTICAL_LANES <= samples; i += n * VERTICAL_LANES) {                              \
        FROST_CONCAT(VERTICAL_PASS, _blocks)(rows, pairs, taps, shift, i, out, n, outputs);          \
        if (per) frost_ahead_step(ahead, &row, &at, n * per);                                        \
    }
    if (outputs == 2) {
        if (VERTICAL_BLOCKS == 2) FROST_VERTICAL_BLOCKS(2, 2)
        FROST_VERTICAL_BLOCKS(1, 2)
    } else {
        if (VERTICAL_BLOCKS == 2) FROST_VERTICAL_BLOCKS(2, 1)
        FROST_VERTICAL_BLOCKS(1, 1)
    }
#undef FROST_VERTICAL_BLOCKS
    return i;
}

#undef VERTICAL_VECTOR
#undef VERTICAL_LANES
#undef VERTICAL_BLOCKS
#undef VERTICAL_LOAD
#undef VERTICAL_SET1
#undef VERTICAL_UNPACKLO
#undef VERTICAL_UNPACKHI

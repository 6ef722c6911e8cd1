// The vertical pass's vector loop, included once per instruction set and output by resample.c
// (bytes) and linear_light.c (linear 8.7): VERTICAL_PASS names it, MULTIPLY_ADD(acc, a, w) adds
// the pairwise products of a and w to acc, VERTICAL_OUT is the output sample type and
// VERTICAL_STORE(p, low, high, shift) stores sixteen samples from their sums (per 128-bit half,
// low holds samples 0–3 and high 4–7). It makes the samples it can in blocks of 16 and returns
// how many; the scalar reference makes the rest.

#ifndef FROST_CONCAT
// Token pasting after expansion (the helpers are named after VERTICAL_PASS).
#define FROST_CONCAT_(a, b) a##b
#define FROST_CONCAT(a, b) FROST_CONCAT_(a, b)
#endif

// Thirty-two samples per step: the 8.7 samples of rows k and k+1 interleaved are (row k, row k+1)
// pairs, one multiply-add with (w_k, w_{k+1}) per eight. `taps` is even (ResamplePlan pads it).
// With two outputs, each pair of rows is loaded and interleaved once for both (their weights zero
// outside each one's window): half the loads of two single rows, which bound the long windows
// of a lanczos3 shrink (22 rows of 8.7 samples come from L2 for every output row).
static inline __attribute__((always_inline)) void FROST_CONCAT(VERTICAL_PASS, _blocks)(const uint16_t *const *rows,
                                                                                       const uint32_t *const *pairs, int taps,
                                                                                       int shift, size_t i, VERTICAL_OUT *const *out,
                                                                                       const int blocks, const int outputs) {
    const __m256i bias = _mm256_set1_epi32(1 << (shift - 1));
    __m256i low[2][2], high[2][2];
    for (int o = 0; o < outputs; o++)
        for (int b = 0; b < blocks; b++) low[o][b] = high[o][b] = bias;
    for (int k = 0; k < taps; k += 2) {
        __m256i w[2];
        for (int o = 0; o < outputs; o++) w[o] = _mm256_set1_epi32((int32_t)pairs[o][k / 2]);
        for (int b = 0; b < blocks; b++) {
            __m256i x = _mm256_loadu_si256((const __m256i *)(rows[k] + i + 16 * b));
            __m256i y = _mm256_loadu_si256((const __m256i *)(rows[k + 1] + i + 16 * b));
            __m256i lo = _mm256_unpacklo_epi16(x, y), hi = _mm256_unpackhi_epi16(x, y);
            for (int o = 0; o < outputs; o++) {
                low[o][b] = MULTIPLY_ADD(low[o][b], lo, w[o]);
                high[o][b] = MULTIPLY_ADD(high[o][b], hi, w[o]);
            }
        }
    }
    for (int o = 0; o < outputs; o++) {
        for (int b = 0; b < blocks; b++) {
            VERTICAL_STORE(out[o] + i + 16 * b, low[o][b], high[o][b], shift);
        }
    }
}

static size_t VERTICAL_PASS(const uint16_t *const *rows, const uint32_t *const *pairs, int taps, int shift, size_t samples,
                            VERTICAL_OUT *const *out, const int outputs) {
    size_t i = 0;
    if (outputs == 2) {
        for (; i + 32 <= samples; i += 32) FROST_CONCAT(VERTICAL_PASS, _blocks)(rows, pairs, taps, shift, i, out, 2, 2);
        for (; i + 16 <= samples; i += 16) FROST_CONCAT(VERTICAL_PASS, _blocks)(rows, pairs, taps, shift, i, out, 1, 2);
    } else {
        for (; i + 32 <= samples; i += 32) FROST_CONCAT(VERTICAL_PASS, _blocks)(rows, pairs, taps, shift, i, out, 2, 1);
        for (; i + 16 <= samples; i += 16) FROST_CONCAT(VERTICAL_PASS, _blocks)(rows, pairs, taps, shift, i, out, 1, 1);
    }
    return i;
}

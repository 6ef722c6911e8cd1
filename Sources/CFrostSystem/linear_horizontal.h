// The linear horizontal pass's vector loop (linear_light.c), included once per instruction set:
// HORIZONTAL_PASS names it, MULTIPLY_ADD(acc, a, w) adds the pairwise products of a and w to acc.
// Over `nrows` rows (1 or 2) of paired pixels, two outputs a step; returns how many outputs it made.

static inline __attribute__((always_inline)) size_t FROST_CONCAT(HORIZONTAL_PASS, _rows)(
    const uint16_t *const *rows, const int32_t *first, const uint32_t *laid, int steps, int shift, size_t count,
    uint16_t *const *out, const int nrows) {
    const __m256i bias = _mm256_set1_epi32(1 << (shift - 1)), top = _mm256_set1_epi16(FROST_RESAMPLE_TOP);
    const uint16_t *const in[2] = {rows[0], rows[nrows - 1]};
    uint16_t *const to[2] = {out[0], out[nrows - 1]};
    size_t o = 0;
    for (; o + 2 <= count; o += 2) {
        const size_t at0 = 4 * (size_t)(first[o] & ~1), at1 = 4 * (size_t)(first[o + 1] & ~1);
        const uint32_t *w0 = laid + o * (size_t)steps * 8, *w1 = w0 + (size_t)steps * 8;
        __m256i a0[2], a1[2];
        for (int r = 0; r < nrows; r++) a0[r] = a1[r] = _mm256_setzero_si256();
        for (int s = 0; s < steps; s++) {
            const __m256i x0 = _mm256_loadu_si256((const __m256i *)(w0 + 8 * s)), x1 = _mm256_loadu_si256((const __m256i *)(w1 + 8 * s));
            for (int r = 0; r < nrows; r++) {
                a0[r] = MULTIPLY_ADD(a0[r], _mm256_loadu_si256((const __m256i *)(in[r] + at0 + 16 * s)), x0);
                a1[r] = MULTIPLY_ADD(a1[r], _mm256_loadu_si256((const __m256i *)(in[r] + at1 + 16 * s)), x1);
            }
        }
        for (int r = 0; r < nrows; r++) {
            // Halves: (pair 2s, pair 2s+1) of each output; their sum is output o's (low) and o+1's (high).
            const __m256i sum = _mm256_add_epi32(_mm256_permute2x128_si256(a0[r], a1[r], 0x20),
                                                 _mm256_permute2x128_si256(a0[r], a1[r], 0x31));
            const __m256i v = _mm256_srai_epi32(_mm256_add_epi32(sum, bias), shift);
            const __m256i words = _mm256_min_epu16(_mm256_packus_epi32(v, v), top);
            _mm_storeu_si128((__m128i *)(to[r] + 4 * o), _mm256_castsi256_si128(_mm256_permute4x64_epi64(words, 0x08)));
        }
    }
    return o;
}

static size_t HORIZONTAL_PASS(const uint16_t *const *rows, int nrows, const int32_t *first, const uint32_t *laid, int steps,
                              int shift, size_t count, uint16_t *const *out) {
    return nrows == 2 ? FROST_CONCAT(HORIZONTAL_PASS, _rows)(rows, first, laid, steps, shift, count, out, 2)
                      : FROST_CONCAT(HORIZONTAL_PASS, _rows)(rows, first, laid, steps, shift, count, out, 1);
}

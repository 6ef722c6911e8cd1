// SHA-256 block compression with the x86 SHA extensions (SHA-NI), for the blur cache's content
// hashes: the Swift compression was 11% of a single-threaded `frost cache` (perf), this is 2%.
// The round structure follows Intel's "Intel SHA Extensions" paper (Gulley et al., 2013): the
// state is held as ABEF and CDGH, each sha256rnds2 does two rounds, sha256msg1/msg2 extend the
// message schedule.
#include "CFrostSystem.h"

// FIPS 180-4 §4.2.2: the first 32 bits of the fractional parts of the cube roots of the first 64
// primes. One table for both paths (the Swift reference reads it through frost_sha256_constants).
static const uint32_t round_constants[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

const uint32_t *frost_sha256_constants(void) { return round_constants; }

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#include <immintrin.h>

int frost_has_sha_extensions(void) {
    unsigned a, b, c, d;
    // CPUID leaf 7: EBX bit 29 is SHA; SSSE3 and SSE4.1 (leaf 1, ECX bits 9 and 19) for the shuffles.
    if (!__get_cpuid_count(7, 0, &a, &b, &c, &d) || !(b & (1u << 29))) return 0;
    if (!__get_cpuid(1, &a, &b, &c, &d)) return 0;
    return (c & (1u << 9)) && (c & (1u << 19));
}

__attribute__((target("sha,ssse3,sse4.1")))
void frost_sha256_blocks(uint32_t state[8], const uint8_t *data, size_t blocks) {
    // Big-endian words: reverse the bytes of each 32-bit lane.
    const __m128i swap = _mm_set_epi64x(0x0c0d0e0f08090a0bLL, 0x0405060700010203LL);
    __m128i cdab = _mm_shuffle_epi32(_mm_loadu_si128((const __m128i *)state), 0xB1);
    __m128i efgh = _mm_shuffle_epi32(_mm_loadu_si128((const __m128i *)(state + 4)), 0x1B);
    __m128i abef = _mm_alignr_epi8(cdab, efgh, 8);
    __m128i cdgh = _mm_blend_epi16(efgh, cdab, 0xF0);
    for (; blocks > 0; blocks--, data += 64) {
        __m128i saved_abef = abef, saved_cdgh = cdgh, w[4];
        for (int i = 0; i < 4; i++) w[i] = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(data + 16 * i)), swap);
        // Sixteen groups of four rounds; w[g % 4] holds schedule words 4g…4g+3 when group g runs.
        for (int g = 0; g < 16; g++) {
            __m128i message = _mm_add_epi32(w[g % 4], _mm_loadu_si128((const __m128i *)(round_constants + 4 * g)));
            cdgh = _mm_sha256rnds2_epu32(cdgh, abef, message);
            if (g >= 3 && g <= 14) {
                // Words of group g + 1: W[t-16] + σ0 (msg1, earlier) + W[t-7] (alignr) + σ1 (msg2).
                __m128i seven = _mm_alignr_epi8(w[g % 4], w[(g + 3) % 4], 4);
                w[(g + 1) % 4] = _mm_sha256msg2_epu32(_mm_add_epi32(w[(g + 1) % 4], seven), w[g % 4]);
            }
            abef = _mm_sha256rnds2_epu32(abef, cdgh, _mm_shuffle_epi32(message, 0x0E));
            if (g >= 1 && g <= 12) w[(g + 3) % 4] = _mm_sha256msg1_epu32(w[(g + 3) % 4], w[g % 4]);
        }
        abef = _mm_add_epi32(abef, saved_abef);
        cdgh = _mm_add_epi32(cdgh, saved_cdgh);
    }
    __m128i feba = _mm_shuffle_epi32(abef, 0x1B);
    __m128i dchg = _mm_shuffle_epi32(cdgh, 0xB1);
    _mm_storeu_si128((__m128i *)state, _mm_blend_epi16(feba, dchg, 0xF0));
    _mm_storeu_si128((__m128i *)(state + 4), _mm_alignr_epi8(dchg, feba, 8));
}
#else
int frost_has_sha_extensions(void) { return 0; }
void frost_sha256_blocks(uint32_t state[8], const uint8_t *data, size_t blocks) { (void)state; (void)data; (void)blocks; }
#endif

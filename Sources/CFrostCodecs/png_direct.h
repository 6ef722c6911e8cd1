// The direct PNG read: libdeflate and Frost's own unfiltering for the common files (see png_direct.c).
#ifndef FROST_PNG_DIRECT_H
#define FROST_PNG_DIRECT_H
#include <stddef.h>
#include <stdint.h>

// Decodes the PNG file data[0..<size) into RGBA8 rows `row_bytes` apart, when it is 8-bit,
// non-interlaced, gray, gray+alpha, RGB or RGBA, and has no tRNS (the caller says so from IHDR;
// `channels` is 1...4 for those colour types). Returns 1 when it did; 0 when the file is outside
// that scope, anything in it is off, or memory runs out, and the rows are then undefined.
int frost_png_read_direct(const uint8_t *data, size_t size, uint32_t width, uint32_t height, int channels,
                          uint8_t *pixels, size_t row_bytes);
#endif

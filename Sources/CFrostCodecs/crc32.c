#include <libdeflate.h>
#include "CFrostCodecs.h"

uint32_t frost_crc32(const uint8_t *data, size_t length) {
    return libdeflate_crc32(0, data, length);
}

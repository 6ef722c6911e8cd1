// Internal helpers shared by the codec files.
#ifndef FROST_ERROR_H
#define FROST_ERROR_H
#include "CFrostCodecs.h"
#include <stdio.h>
#include <stdarg.h>

static inline frost_status frost_fail(frost_error *err, frost_status status, const char *fmt, ...) {
    if (err) {
        err->status = status;
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err->message, sizeof err->message, fmt, ap);
        va_end(ap);
    }
    return status;
}
#endif

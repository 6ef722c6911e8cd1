#include "CFrostSystem.h"
#include <limits.h>
#include <malloc.h>

void frost_keep_freed_buffers(size_t retained_bytes) {
    mallopt(M_MMAP_MAX, 0);
    mallopt(M_TRIM_THRESHOLD, retained_bytes > INT_MAX ? INT_MAX : (int)retained_bytes);
}

_Thread_local int frost_budget_thread_held;

#include "CFrostSystem.h"
#include <limits.h>
#include <malloc.h>
#include <stdint.h>
#include <sys/mman.h>

void frost_keep_freed_buffers(size_t retained_bytes) {
    mallopt(M_MMAP_MAX, 0);
    mallopt(M_TRIM_THRESHOLD, retained_bytes > INT_MAX ? INT_MAX : (int)retained_bytes);
}

static const size_t huge_page = 2 << 20;

static size_t mapped_size(size_t bytes) { return (bytes + huge_page - 1) / huge_page * huge_page; }

void *frost_map_buffer(size_t bytes) {
    size_t size = mapped_size(bytes);
    // Over-allocated by a huge page, then trimmed to an aligned start.
    uint8_t *raw = mmap(NULL, size + huge_page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (raw == MAP_FAILED) return NULL;
    uint8_t *start = (uint8_t *)(((uintptr_t)raw + huge_page - 1) & ~(uintptr_t)(huge_page - 1));
    if (start > raw) munmap(raw, (size_t)(start - raw));
    size_t tail = (size_t)(raw + size + huge_page - (start + size));
    if (tail) munmap(start + size, tail);
    madvise(start, size, MADV_HUGEPAGE);
    return start;
}

void frost_unmap_buffer(void *buffer, size_t bytes) {
    if (buffer) munmap(buffer, mapped_size(bytes));
}

_Thread_local int frost_budget_thread_held;
_Thread_local const int *frost_stop_flag;

void frost_advise_huge_pages(void *buffer, size_t bytes) {
    uintptr_t start = ((uintptr_t)buffer + huge_page - 1) & ~(uintptr_t)(huge_page - 1);
    uintptr_t end = ((uintptr_t)buffer + bytes) & ~(uintptr_t)(huge_page - 1);
    if (end > start) madvise((void *)start, end - start, MADV_HUGEPAGE);
}

// Process-wide allocator policy for programs that handle many large images.
#ifndef CFROSTSYSTEM_H
#define CFROSTSYSTEM_H
#include <stddef.h>

// glibc serves every allocation above 32 MiB with a fresh mmap and unmaps it on free, so each
// new 4096x4096 RGBA result (64 MiB) is paid for again in page faults: measured here, filling a
// fresh 64 MiB buffer takes 65 ms against 9 ms for a reused one (transparent huge pages only bring
// it to 40 ms). This keeps large blocks in the heap and up to `retained_bytes` of freed memory for
// reuse. The frost tool and the benchmarks opt in at start-up; the libraries never do it for you.
void frost_keep_freed_buffers(size_t retained_bytes);

// Eight 32-bit lanes (Swift sees SIMD8<UInt32>).
typedef unsigned int frost_words8 __attribute__((ext_vector_type(8)));

// A streaming (non-temporal) store of 32 bytes: the line is written without being read first.
// Swift has no way to ask for one; a kernel that writes a large new image with ordinary stores
// pays a read of every output line (write-allocate). Measured on the blend kernel, 64 MiB:
// 17.1 -> 14.7 ms. Call frost_store_fence() after the last one, before the data is shared.
static inline void frost_stream_store(void *p, frost_words8 v) { __builtin_nontemporal_store(v, (frost_words8 *)p); }
static inline void frost_store_fence(void) { __atomic_thread_fence(__ATOMIC_SEQ_CST); }

#endif

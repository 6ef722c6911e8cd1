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

#endif

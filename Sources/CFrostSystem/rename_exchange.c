#define _GNU_SOURCE
#include "CFrostSystem.h"
#include <fcntl.h>
#include <sys/syscall.h>
#include <unistd.h>

#ifndef RENAME_EXCHANGE
#define RENAME_EXCHANGE (1 << 1)
#endif

// renameat2(2) with RENAME_EXCHANGE (Linux 3.15; ext4, XFS, Btrfs, tmpfs, overlayfs): through
// syscall(2), which every glibc has, where the wrapper needs glibc 2.28 and _GNU_SOURCE.
int frost_rename_exchange(const char *a, const char *b) {
    return (int)syscall(SYS_renameat2, AT_FDCWD, a, AT_FDCWD, b, RENAME_EXCHANGE);
}

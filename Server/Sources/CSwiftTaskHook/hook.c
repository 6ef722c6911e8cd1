#include "CSwiftTaskHook.h"

extern void *swift_task_enqueueGlobal_hook;

void **frost_swift_task_enqueue_global_hook(void) {
    return &swift_task_enqueueGlobal_hook;
}

#ifndef C_SWIFT_TASK_HOOK_H
#define C_SWIFT_TASK_HOOK_H

/// The Swift runtime's hook for enqueueing a task on the global executor
/// (swift/Runtime/Concurrency.h: swift_task_enqueueGlobal_hook): where it is, or NULL.
/// NIO finds it with dlsym, which fails when the runtime is linked statically (the static
/// standard library is linked with --exclude-libs ALL); a reference resolved at link time works
/// either way.
void *_Nullable *_Nonnull frost_swift_task_enqueue_global_hook(void);

#endif

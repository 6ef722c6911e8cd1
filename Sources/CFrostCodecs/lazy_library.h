// Libraries that bring most of a codec stack with them are opened on first use: libavif loads
// four AV1 codecs and libyuv, libheif an HEVC pair and AV1 again; linked, they made every `frost`
// start 11 ms slower (18 ms instead of 7 for `frost --version`), AVIF or HEIC or not.
//
// A file lists the calls it makes in an X-macro, LAZY_TABLE declares a struct of pointers of
// those very types (from the library's own header) and LAZY_LOAD fills it by dlsym once.
#ifndef FROST_LAZY_LIBRARY_H
#define FROST_LAZY_LIBRARY_H
#include <dlfcn.h>
#include <pthread.h>

#define LAZY_DECLARE(name) __typeof__(name) *name;
#define LAZY_RESOLVE(name) \
    if (!(table->name = (__typeof__(name) *)dlsym(handle, #name))) return 0;

// `table` is a struct declared with LAZY_DECLARE over `calls`; 1 when `soname` opened and every
// call resolved.
#define LAZY_LOADER(loader, table_type, calls) \
    static int loader(const char *soname, table_type *table) { \
        void *handle = dlopen(soname, RTLD_NOW | RTLD_LOCAL); \
        if (!handle) return 0; \
        calls(LAZY_RESOLVE) \
        return 1; \
    }

// A library's table `name` of `calls` (type name_calls), whether it loaded (name_loaded) and its
// loader (load_name_calls, from LAZY_LOADER).
#define LAZY_LIBRARY(name, calls) \
    typedef struct { calls(LAZY_DECLARE) } name##_calls; \
    static name##_calls name; \
    static int name##_loaded; \
    LAZY_LOADER(load_##name##_calls, name##_calls, calls)
#endif

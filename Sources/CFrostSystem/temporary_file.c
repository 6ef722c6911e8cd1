#define _GNU_SOURCE
#include "CFrostSystem.h"
#include <fcntl.h>
#include <stdlib.h>

// mkostemp(3) with O_CLOEXEC: Swift's Glibc module leaves out what needs _GNU_SOURCE.
int frost_make_temporary(char *name_template) { return mkostemp(name_template, O_CLOEXEC); }

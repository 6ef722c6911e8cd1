#include "CFrostCodecs.h"
#include <stdlib.h>

void frost_free(void *p) { free(p); }

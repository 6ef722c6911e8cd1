// FreeType 2 (Debian libfreetype-dev); the include path comes from pkg-config's freetype2.pc.
#include <ft2build.h>
#include FT_FREETYPE_H

/* version.c - the library's version (include/wddm/wddm.h wddm_version), from CMakeLists.txt's
 * project version, so `wddm --version` and a program linked with the library say the same. */
#include "wddm/wddm.h"

const char *wddm_version(void)
{
    return WDDM_VERSION_STRING;
}

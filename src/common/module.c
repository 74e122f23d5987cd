/* One export of a driver module (module.h). */
#include "common/module.h"

#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

enum wddm_module_result wddm_module_export(const char *path, const char *name, void (**fn)(void), char *why,
                                           size_t why_size)
{
    *fn = NULL;
    void *module = dlopen(path, RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE);
    if (!module) {
        const char *e = dlerror();
        snprintf(why, why_size, "%s", e ? e : "unknown reason");
        return WDDM_MODULE_NOT_LOADED;
    }
    void *sym = dlsym(module, name);
    dlclose(module); /* RTLD_NODELETE: it stays mapped */
    if (!sym)
        return WDDM_MODULE_NO_EXPORT;
    memcpy(fn, &sym, sizeof *fn); /* POSIX: dlsym's object pointer holds the function */
    return WDDM_MODULE_OK;
}

/* Driver modules loaded by path (issue 19 §1, docs/drivers.md): one export of a shared object,
 * the module kept loaded for the life of the process (RTLD_NODELETE: a driver's registered
 * tables and threads never outlive its code) and private to its own symbols (RTLD_LOCAL). The
 * kernel loads KMD modules with it, the runtime UMD modules. */
#ifndef WDDM_COMMON_MODULE_H
#define WDDM_COMMON_MODULE_H

#include <stddef.h>

enum wddm_module_result {
    WDDM_MODULE_OK,
    WDDM_MODULE_NOT_LOADED, /* why: the dynamic loader's reason */
    WDDM_MODULE_NO_EXPORT,  /* loaded, but `name` is not among its exports */
};

/* *fn receives the export `name` of the module at `path`. */
enum wddm_module_result wddm_module_export(const char *path, const char *name, void (**fn)(void), char *why,
                                           size_t why_size);

#endif

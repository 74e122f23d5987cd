/* Fixtures for tests that run twice: once with the reference UMD building command lists and once
 * with its command-list switch off so the runtime emulates them (WDDM_UMD_NO_COMMANDLISTS=1). */
#ifndef WDDM_TESTS_E2E_LISTS_H
#define WDDM_TESTS_E2E_LISTS_H

#include "e2e/e2e.h"
#include "umd/deferred.h"

static inline int e2e_setup_umd_lists(void **state)
{
    unsetenv("WDDM_UMD_NO_COMMANDLISTS");
    return e2e_setup(state);
}

static inline int e2e_setup_emulated_lists(void **state)
{
    setenv("WDDM_UMD_NO_COMMANDLISTS", "1", 1);
    return e2e_setup(state);
}

static inline int e2e_teardown_lists(void **state)
{
    unsetenv("WDDM_UMD_NO_COMMANDLISTS");
    return e2e_teardown(state);
}

#endif

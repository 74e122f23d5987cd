/* Fixtures for tests that run twice: once with the reference UMD building command lists and once
 * with its command-list switch off so the runtime emulates them (wddm_umd_set_command_lists). */
#ifndef WDDM_TESTS_E2E_LISTS_H
#define WDDM_TESTS_E2E_LISTS_H

#include "e2e/e2e.h"
#include "umd/deferred.h"

static inline int e2e_setup_umd_lists(void **state)
{
    wddm_umd_set_command_lists(1);
    return e2e_setup(state);
}

static inline int e2e_setup_emulated_lists(void **state)
{
    wddm_umd_set_command_lists(0);
    return e2e_setup(state);
}

static inline int e2e_teardown_lists(void **state)
{
    wddm_umd_set_command_lists(-1);
    wddm_umd_fail_deferred_after(-1);
    return e2e_teardown(state);
}

#endif

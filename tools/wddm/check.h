/* wddm check: the conformance checks for the loaded drivers (issue 19 §4, docs/drivers.md
 * "Checking a driver"). Each check names the rule it holds the drivers to; check.c runs them
 * and prints the results, check_cases.c holds them. */
#ifndef WDDM_TOOL_CHECK_H
#define WDDM_TOOL_CHECK_H

#include <stdbool.h>
#include <stddef.h>

#include <d3d11.h>
#include <wddm/d3dkmddi.h>
#include <wddm/d3dkmthk.h>

enum check_result { CHECK_PASS, CHECK_FAIL, CHECK_SKIP };

/* What the checks share: the first adapter, opened through the kernel, and a D3D11 device on it
 * through its UMD (NULL until the check that opens it passed). */
struct check_env {
    D3DKMT_HANDLE adapter;
    DXGK_DRIVERCAPS caps;
    D3DKMT_WDDM_SEGMENTS segments;
    ID3D11Device *dev;
    ID3D11DeviceContext *ctx;
    bool started;   /* Adapter.Start passed: the rest can run */
    UINT adapters;  /* how many D3DKMTEnumAdapters2 listed (up to 4) ... */
    D3DKMT_HANDLE others[3]; /* ... and the others' handles, open while the checks run: an adapter
                              * whose last handle closes goes away */
};

struct check_case {
    const char *id;    /* "Paging.Oversubscribe" */
    const char *rule;  /* the rule, in one sentence, with where it comes from */
    /* Runs the check; on FAIL or SKIP writes why into detail. */
    enum check_result (*run)(struct check_env *env, char *detail, size_t size);
};

extern const struct check_case wddm_check_cases[];
/* A check that failed may leave the device removed (a KMD's failed paging operation loses it):
 * the next check starts on a new one. Returns FALSE if the device is gone and none can open. */
bool wddm_check_device_usable(struct check_env *env);
extern const size_t wddm_check_case_count;

#endif

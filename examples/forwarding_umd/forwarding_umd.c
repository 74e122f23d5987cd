/* forwarding_umd: a user-mode driver module that loads another UMD and passes every call through,
 * hooking a few on the way (README "Bring up your driver").
 *
 * It shows where a driver author's UMD meets the runtime: the two entry points the runtime
 * looks up (OpenAdapter10_2 for D3D11 devices, OpenAdapter10 for D3D10 ones), the adapter
 * function table they fill, and the device function tables pfnCreateDevice fills. A table is the
 * runtime's memory, filled by the UMD: this module lets the real UMD fill it, keeps the real
 * function and puts its own in the slot.
 *
 * The UMD it forwards to: FORWARDING_UMD_TARGET, else the path it was built with (the installed
 * reference UMD, swumd.so). With FORWARDING_UMD_LOG=1 it prints, at exit, what it counted. */
#include <wddm/d3d10umddi.h>

#include <dlfcn.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef FORWARDING_UMD_DEFAULT_TARGET
#define FORWARDING_UMD_DEFAULT_TARGET "swumd.so"
#endif

/* The real UMD's entry points and the real functions behind the slots we took. The same
 * module fills every table with the same functions, so one copy of each serves every adapter
 * and device. */
static PFND3D10DDI_OPENADAPTER real_open11, real_open10;
static _Atomic(PFND3D10DDI_CREATEDEVICE) real_create_device;
static _Atomic(PFND3D11DDI_CREATERESOURCE) real_create_resource;
static atomic_ulong devices, resources;
static pthread_once_t load_once = PTHREAD_ONCE_INIT;

static void report(void)
{
    fprintf(stderr, "forwarding_umd: %lu devices, %lu D3D11 resources created through %s\n",
            atomic_load(&devices), atomic_load(&resources),
            getenv("FORWARDING_UMD_TARGET") ? getenv("FORWARDING_UMD_TARGET") : FORWARDING_UMD_DEFAULT_TARGET);
}

/* Loads the real UMD once (RTLD_LOCAL: its symbols stay its own, as a driver's DLL). It stays
 * loaded until the process ends, as this module does. */
static void load_target(void)
{
    const char *path = getenv("FORWARDING_UMD_TARGET");
    if (!path || !*path)
        path = FORWARDING_UMD_DEFAULT_TARGET;
    void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        fprintf(stderr, "forwarding_umd: cannot load %s: %s\n", path, dlerror());
        return;
    }
    /* POSIX: a function's address travels through dlsym's void *. */
    void *open11 = dlsym(h, "OpenAdapter10_2"), *open10 = dlsym(h, "OpenAdapter10");
    memcpy(&real_open11, &open11, sizeof open11);
    memcpy(&real_open10, &open10, sizeof open10);
    const char *log = getenv("FORWARDING_UMD_LOG");
    if (log && strcmp(log, "1") == 0)
        atexit(report);
}

/* ---- Hooks ----------------------------------------------------------------------------------- */
/* A D3D11 resource: counted, then created by the real UMD. Here a driver could look at or
 * change the description before the real driver sees it. */
static VOID APIENTRY hook_create_resource(D3D10DDI_HDEVICE dev, const D3D11DDIARG_CREATERESOURCE *args,
                                          D3D10DDI_HRESOURCE res, D3D10DDI_HRTRESOURCE rt)
{
    atomic_fetch_add(&resources, 1);
    atomic_load(&real_create_resource)(dev, args, res, rt);
}

/* A device: the real UMD creates it and fills its function tables; then the D3D11 device table's
 * pfnCreateResource is ours. (The 10.x tables are left as the real UMD filled them.) */
static HRESULT APIENTRY hook_create_device(D3D10DDI_HADAPTER adapter, D3D10DDIARG_CREATEDEVICE *args)
{
    HRESULT hr = atomic_load(&real_create_device)(adapter, args);
    if (FAILED(hr))
        return hr;
    atomic_fetch_add(&devices, 1);
    PFND3D11DDI_CREATERESOURCE *slot = NULL; /* the same slot, by the DDI's table */
    if (args->Interface == D3D11_1_DDI_INTERFACE_VERSION && args->p11_1DeviceFuncs)
        slot = &args->p11_1DeviceFuncs->pfnCreateResource;
    else if (args->Interface == D3D11_0_DDI_INTERFACE_VERSION && args->p11DeviceFuncs)
        slot = &args->p11DeviceFuncs->pfnCreateResource;
    if (slot && *slot) {
        atomic_store(&real_create_resource, *slot);
        *slot = hook_create_resource;
    }
    return hr;
}

/* ---- Entry points ------------------------------------------------------------------------------ */
HRESULT APIENTRY OpenAdapter10_2(D3D10DDIARG_OPENADAPTER *args)
{
    pthread_once(&load_once, load_target);
    if (!real_open11)
        return E_FAIL;
    HRESULT hr = real_open11(args);
    if (SUCCEEDED(hr) && args->pAdapterFuncs_2->pfnCreateDevice) {
        atomic_store(&real_create_device, args->pAdapterFuncs_2->pfnCreateDevice);
        args->pAdapterFuncs_2->pfnCreateDevice = hook_create_device;
    }
    return hr;
}

HRESULT APIENTRY OpenAdapter10(D3D10DDIARG_OPENADAPTER *args)
{
    pthread_once(&load_once, load_target);
    if (!real_open10)
        return E_FAIL;
    HRESULT hr = real_open10(args);
    if (SUCCEEDED(hr) && args->pAdapterFuncs->pfnCreateDevice) {
        atomic_store(&real_create_device, args->pAdapterFuncs->pfnCreateDevice);
        args->pAdapterFuncs->pfnCreateDevice = hook_create_device;
    }
    return hr;
}

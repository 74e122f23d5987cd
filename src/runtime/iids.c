/*
 * iids.c - comparing interface identifiers. The identifiers themselves (the SDK's values) are
 * generated with the headers from the api/ descriptions into api_iids.c.
 */
#include "runtime/runtime.h"

BOOL rt_iid_equal(REFIID a, REFIID b)
{
    return a->Data1 == b->Data1 && a->Data2 == b->Data2 && a->Data3 == b->Data3 &&
           memcmp(a->Data4, b->Data4, sizeof(a->Data4)) == 0;
}

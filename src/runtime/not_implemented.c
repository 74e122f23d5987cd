/*
 * not_implemented.c - the answer of every interface slot the reference stack does not execute
 * (issue 15 §2, docs/api.md): the slot exists, in the SDK's place, and says so instead of
 * pretending. The generated api_stubs.h routes each such slot here.
 */
#include "runtime/runtime.h"
#include "runtime/api_stubs.h"

/* An HRESULT method answers E_NOTIMPL; a void or value method has nothing to return the refusal
 * in, so the debug line is its only trace (a value method then answers 0). */
HRESULT rt_api_not_implemented(const char *method)
{
    RT_REFUSE("%s is not implemented by libwddm's reference stack (docs/api.md lists what is)", method);
    return E_NOTIMPL;
}

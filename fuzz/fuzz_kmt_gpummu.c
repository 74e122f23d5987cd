/* fuzz_kmt.c in the WDDM 2.x GpuMmu model (WDDM_KMD_CAPS=configs/gpummu.caps): GPU virtual
 * addresses, page tables, D3DKMTSubmitCommand, paging queues and Lock2 reach their real paths. */
/* rule: build.every-fuzz-fuzz-name-c-libfuzzer */
/* rule: kernel.d3dkmt-thunk-call-decoded-handles-sizes (`fuzz/fuzz_kmt.c`) */
#define FUZZ_KMT_GPUMMU 1
#include "fuzz_kmt.c"

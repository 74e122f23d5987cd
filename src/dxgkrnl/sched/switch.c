/* Lazy context switching (seed 000): the hardware keeps a context's state after its command
 * completed, so a node switches only when a DMA buffer of another context enters its hardware
 * queue. Paging buffers run in the system context without touching the render context's state
 * (the reference KMD's paging commands are copies and fills): they neither switch nor count.
 * Loading the first context into a node that never ran one saves no state and is not counted
 * either. Called under the node's submit_lock, which orders it with the submission itself. */
#include "dxgkrnl/dxgkrnl.h"

void sched_switch_locked(struct sched_node *n, const struct dxgk_packet *p)
{
    WDDM_ASSERT_HELD(&n->submit_lock);
    D3DKMT_HANDLE hc = p->ctx ? p->ctx->handle : 0;
    if (p->paging || hc == n->hw_context)
        return;
    if (n->hw_context) {
        DXGK_COUNT(n->adapter, context_switches, 1);
        sched_trace(n->adapter, WDDM_SCHED_EVENT_SWITCH, n->ordinal, hc, n->hw_context, 0);
    }
    n->hw_context = hc;
}

/*
 * test_unmodeled_args.c - the argument structures of the UMD slots this model does not implement
 * (include/wddm/d3d10umddi_unmodeled.h, issue 19 §2) have the WDK's members, in its order and
 * with its types (the ns-d3d10umddi-* reference pages), and their enumerations the WDK's values
 * (the ne-d3d10umddi-* pages; where a DDI enumeration mirrors an API one, the API's value in
 * include/d3d10.h / d3d11.h). A driver written for Windows reads them unchanged: its functions
 * dereference the arguments and go into the tables' slots without a cast (a wrong type would be
 * a compile error under -Werror). docs/rules/runtime.md.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include <d3d10.h>
#include <d3d11.h>
#include <d3d11_1.h>
#include <wddm/d3d10umddi.h>

#define AT(type, member) offsetof(type, member)

/* ---- Layouts on x86-64, worked out from the reference pages' member lists ---------------------- */

/* rule: runtime.argument-structures-slots-model-not */
static void state_descriptions_have_the_wdk_layout(void **state)
{
    (void)state;
    /* Filter, three address modes, bias, anisotropy, comparison: seven 4-byte members, then the
     * border colour's four floats and the two LOD clamps. */
    assert_int_equal(AT(D3D10_DDI_SAMPLER_DESC, Filter), 0);
    assert_int_equal(AT(D3D10_DDI_SAMPLER_DESC, AddressU), 4);
    assert_int_equal(AT(D3D10_DDI_SAMPLER_DESC, AddressV), 8);
    assert_int_equal(AT(D3D10_DDI_SAMPLER_DESC, AddressW), 12);
    assert_int_equal(AT(D3D10_DDI_SAMPLER_DESC, MipLODBias), 16);
    assert_int_equal(AT(D3D10_DDI_SAMPLER_DESC, MaxAnisotropy), 20);
    assert_int_equal(AT(D3D10_DDI_SAMPLER_DESC, ComparisonFunc), 24);
    assert_int_equal(AT(D3D10_DDI_SAMPLER_DESC, BorderColor), 28);
    assert_int_equal(AT(D3D10_DDI_SAMPLER_DESC, MinLOD), 44);
    assert_int_equal(AT(D3D10_DDI_SAMPLER_DESC, MaxLOD), 48);
    assert_int_equal(sizeof(D3D10_DDI_SAMPLER_DESC), 52);

    /* D3D10.0 blend: eight BOOLs after AlphaToCoverageEnable, six equation members, eight bytes. */
    assert_int_equal(AT(D3D10_DDI_BLEND_DESC, BlendEnable), 4);
    assert_int_equal(AT(D3D10_DDI_BLEND_DESC, SrcBlend), 36);
    assert_int_equal(AT(D3D10_DDI_BLEND_DESC, BlendOp), 44);
    assert_int_equal(AT(D3D10_DDI_BLEND_DESC, BlendOpAlpha), 56);
    assert_int_equal(AT(D3D10_DDI_BLEND_DESC, RenderTargetWriteMask), 60);
    assert_int_equal(sizeof(D3D10_DDI_BLEND_DESC), 68);
    /* D3D10.1 and D3D11.1 blend: a 32- and a 40-byte description per render target. */
    assert_int_equal(AT(D3D10_DDI_RENDER_TARGET_BLEND_DESC1, DestBlend), 8);
    assert_int_equal(AT(D3D10_DDI_RENDER_TARGET_BLEND_DESC1, RenderTargetWriteMask), 28);
    assert_int_equal(sizeof(D3D10_DDI_RENDER_TARGET_BLEND_DESC1), 32);
    assert_int_equal(AT(D3D10_1_DDI_BLEND_DESC, RenderTarget), 8);
    assert_int_equal(sizeof(D3D10_1_DDI_BLEND_DESC), 8 + 8 * 32);
    assert_int_equal(AT(D3D11_1_DDI_RENDER_TARGET_BLEND_DESC, LogicOpEnable), 4);
    assert_int_equal(AT(D3D11_1_DDI_RENDER_TARGET_BLEND_DESC, SrcBlend), 8);
    assert_int_equal(AT(D3D11_1_DDI_RENDER_TARGET_BLEND_DESC, LogicOp), 32);
    assert_int_equal(AT(D3D11_1_DDI_RENDER_TARGET_BLEND_DESC, RenderTargetWriteMask), 36);
    assert_int_equal(sizeof(D3D11_1_DDI_BLEND_DESC), 8 + 8 * 40);

    /* Depth-stencil: six 4-byte members, the two byte masks, then two 16-byte face descriptions. */
    assert_int_equal(AT(D3D10_DDI_DEPTH_STENCIL_DESC, DepthWriteMask), 4);
    assert_int_equal(AT(D3D10_DDI_DEPTH_STENCIL_DESC, DepthFunc), 8);
    assert_int_equal(AT(D3D10_DDI_DEPTH_STENCIL_DESC, FrontEnable), 16);
    assert_int_equal(AT(D3D10_DDI_DEPTH_STENCIL_DESC, BackEnable), 20);
    assert_int_equal(AT(D3D10_DDI_DEPTH_STENCIL_DESC, StencilReadMask), 24);
    assert_int_equal(AT(D3D10_DDI_DEPTH_STENCIL_DESC, StencilWriteMask), 25);
    assert_int_equal(AT(D3D10_DDI_DEPTH_STENCIL_DESC, FrontFace), 28);
    assert_int_equal(AT(D3D10_DDI_DEPTH_STENCIL_DESC, BackFace), 44);
    assert_int_equal(AT(D3D10_DDI_DEPTH_STENCILOP_DESC, StencilFunc), 12);
    assert_int_equal(sizeof(D3D10_DDI_DEPTH_STENCIL_DESC), 60);

    /* Rasterizer: ten 4-byte members; D3D11.1's ForcedSampleCount after them. */
    assert_int_equal(AT(D3D10_DDI_RASTERIZER_DESC, FrontCounterClockwise), 8);
    assert_int_equal(AT(D3D10_DDI_RASTERIZER_DESC, DepthBias), 12);
    assert_int_equal(AT(D3D10_DDI_RASTERIZER_DESC, SlopeScaledDepthBias), 20);
    assert_int_equal(AT(D3D10_DDI_RASTERIZER_DESC, AntialiasedLineEnable), 36);
    assert_int_equal(sizeof(D3D10_DDI_RASTERIZER_DESC), 40);
    assert_int_equal(AT(D3D11_1_DDI_RASTERIZER_DESC, ForcedSampleCount), 40);
    assert_int_equal(sizeof(D3D11_1_DDI_RASTERIZER_DESC), 44);

    assert_int_equal(AT(D3D10_DDI_VIEWPORT, Width), 8);
    assert_int_equal(AT(D3D10_DDI_VIEWPORT, MaxDepth), 20);
    assert_int_equal(sizeof(D3D10_DDI_VIEWPORT), 24);
}

/* rule: runtime.argument-structures-slots-model-not */
static void creation_arguments_have_the_wdk_layout(void **state)
{
    (void)state;
    const size_t p = sizeof(void *);
    /* Depth-stencil views: the resource handle, format, dimension, (D3D11: Flags,) the union. */
    assert_int_equal(AT(D3D10DDIARG_CREATEDEPTHSTENCILVIEW, Format), p);
    assert_int_equal(AT(D3D10DDIARG_CREATEDEPTHSTENCILVIEW, ResourceDimension), p + 4);
    assert_int_equal(AT(D3D10DDIARG_CREATEDEPTHSTENCILVIEW, Tex2D), p + 8);
    assert_int_equal(AT(D3D10DDIARG_CREATEDEPTHSTENCILVIEW, TexCube.ArraySize), p + 16);
    assert_int_equal(AT(D3D11DDIARG_CREATEDEPTHSTENCILVIEW, Flags), p + 8);
    assert_int_equal(AT(D3D11DDIARG_CREATEDEPTHSTENCILVIEW, Tex1D), p + 12);
    assert_int_equal(sizeof(D3D11DDIARG_CREATEDEPTHSTENCILVIEW), 32);

    assert_int_equal(AT(D3D10DDIARG_INPUT_ELEMENT_DESC, Format), 8);
    assert_int_equal(AT(D3D10DDIARG_INPUT_ELEMENT_DESC, InputSlotClass), 12);
    assert_int_equal(AT(D3D10DDIARG_INPUT_ELEMENT_DESC, InputRegister), 20);
    assert_int_equal(sizeof(D3D10DDIARG_INPUT_ELEMENT_DESC), 24);
    assert_int_equal(AT(D3D10DDIARG_CREATEELEMENTLAYOUT, NumElements), p);

    /* Signatures: a pointer and a count per list. */
    assert_int_equal(sizeof(D3D10DDIARG_SIGNATURE_ENTRY), 12);
    assert_int_equal(AT(D3D11_1DDIARG_SIGNATURE_ENTRY, Mask), 8);
    assert_int_equal(AT(D3D11_1DDIARG_SIGNATURE_ENTRY, RegisterComponentType), 12);
    assert_int_equal(AT(D3D11_1DDIARG_SIGNATURE_ENTRY, MinPrecision), 16);
    assert_int_equal(AT(D3D10DDIARG_STAGE_IO_SIGNATURES, pOutputSignature), 2 * p);
    assert_int_equal(AT(D3D11DDIARG_TESSELLATION_IO_SIGNATURES, pPatchConstantSignature), 4 * p);
    assert_int_equal(AT(D3D11_1DDIARG_TESSELLATION_IO_SIGNATURES, NumPatchConstantSignatureEntries), 5 * p);

    /* Stream output. */
    assert_int_equal(AT(D3D10DDIARG_STREAM_OUTPUT_DECLARATION_ENTRY, RegisterMask), 8);
    assert_int_equal(AT(D3D11DDIARG_STREAM_OUTPUT_DECLARATION_ENTRY, OutputSlot), 4);
    assert_int_equal(AT(D3D11DDIARG_STREAM_OUTPUT_DECLARATION_ENTRY, RegisterMask), 12);
    assert_int_equal(AT(D3D10DDIARG_CREATEGEOMETRYSHADERWITHSTREAMOUTPUT, NumEntries), 2 * p);
    assert_int_equal(AT(D3D10DDIARG_CREATEGEOMETRYSHADERWITHSTREAMOUTPUT, StreamOutputStrideInBytes), 2 * p + 4);
    assert_int_equal(AT(D3D11DDIARG_CREATEGEOMETRYSHADERWITHSTREAMOUTPUT, BufferStridesInBytes), 3 * p);
    assert_int_equal(AT(D3D11DDIARG_CREATEGEOMETRYSHADERWITHSTREAMOUTPUT, RasterizedStream), 4 * p + 4);

    /* The view unions the model fills in part hold every WDK member, the same size as before. */
    assert_int_equal(AT(D3D11DDIARG_CREATESHADERRESOURCEVIEW, TexCube.NumCubes), p + 8 + 12);
    assert_int_equal(AT(D3D11DDIARG_CREATESHADERRESOURCEVIEW, BufferEx.Flags), p + 8 + 8);
    assert_int_equal(AT(D3D11DDIARG_CREATESHADERRESOURCEVIEW, Buffer.ElementWidth), p + 8 + 4);
    assert_int_equal(sizeof(D3D11DDIARG_CREATESHADERRESOURCEVIEW), 32);
    assert_int_equal(AT(D3D10DDIARG_CREATESHADERRESOURCEVIEW, Tex3D.MipLevels), p + 8 + 4);
    assert_int_equal(AT(D3D10_1DDIARG_CREATESHADERRESOURCEVIEW, TexCube.First2DArrayFace), p + 8 + 8);
    assert_int_equal(AT(D3D11DDIARG_CREATEUNORDEREDACCESSVIEW, Tex3D.WSize), p + 8 + 8);
    assert_int_equal(sizeof(D3D11DDIARG_CREATEUNORDEREDACCESSVIEW), 32);

    assert_int_equal(AT(D3D10DDI_COUNTER_INFO, NumDetectableParallelUnits), 8);
    assert_int_equal(sizeof(D3D11DDIARG_POINTERDATA), 4);
    D3D11DDIARG_POINTERDATA bits;
    memset(&bits, 0, sizeof bits);
    bits.uCBID = 0xf; /* bits 12..15 */
    UINT word;
    memcpy(&word, &bits, sizeof word);
    assert_int_equal(word, 0xf000);
    assert_int_equal(AT(D3D11_DDI_QUERY_DATA_PIPELINE_STATISTICS, CSInvocations), 80);
}

/* ---- Values: the WDK's, which mirror the API's ------------------------------------------------ */

/* rule: runtime.argument-structures-slots-model-not */
static void enumerations_have_the_wdk_values(void **state)
{
    (void)state;
    assert_int_equal(D3D10_DDI_SIMULTANEOUS_RENDER_TARGET_COUNT, D3D10_SIMULTANEOUS_RENDER_TARGET_COUNT);
    assert_int_equal(D3D10_DDI_BLEND_ZERO, D3D11_BLEND_ZERO);
    assert_int_equal(D3D10_DDI_BLEND_SRC_ALPHASAT, D3D11_BLEND_SRC_ALPHA_SAT);
    assert_int_equal(D3D10_DDI_BLEND_BLEND_FACTOR, D3D11_BLEND_BLEND_FACTOR);
    assert_int_equal(D3D10_DDI_BLEND_INV_SRC1_ALPHA, D3D11_BLEND_INV_SRC1_ALPHA);
    assert_int_equal(D3D10_DDI_BLEND_OP_REV_SUBTRACT, D3D11_BLEND_OP_REV_SUBTRACT);
    assert_int_equal(D3D10_DDI_BLEND_OP_MAX, D3D11_BLEND_OP_MAX);
    assert_int_equal(D3D10_DDI_COLOR_WRITE_ENABLE_ALPHA, D3D11_COLOR_WRITE_ENABLE_ALPHA);
    assert_int_equal(D3D10_DDI_COLOR_WRITE_ENABLE_ALL, D3D11_COLOR_WRITE_ENABLE_ALL);
    assert_int_equal(D3D11_1_DDI_LOGIC_OP_SET, D3D11_LOGIC_OP_SET);
    assert_int_equal(D3D11_1_DDI_LOGIC_OP_OR_INVERTED, D3D11_LOGIC_OP_OR_INVERTED);
    assert_int_equal(D3D10_DDI_COMPARISON_NEVER, D3D11_COMPARISON_NEVER);
    assert_int_equal(D3D10_DDI_COMPARISON_GREATER_EQUAL, D3D11_COMPARISON_GREATER_EQUAL);
    assert_int_equal(D3D10_DDI_DEPTH_WRITE_MASK_ALL, D3D11_DEPTH_WRITE_MASK_ALL);
    assert_int_equal(D3D10_DDI_STENCIL_OP_KEEP, D3D11_STENCIL_OP_KEEP);
    assert_int_equal(D3D10_DDI_STENCIL_OP_INCR, D3D11_STENCIL_OP_INCR);
    assert_int_equal(D3D10_DDI_FILL_WIREFRAME, D3D11_FILL_WIREFRAME);
    assert_int_equal(D3D10_DDI_CULL_BACK, D3D11_CULL_BACK);
    assert_int_equal(D3D10_DDI_FILTER_MIN_LINEAR_MAG_POINT_MIP_LINEAR, D3D11_FILTER_MIN_LINEAR_MAG_POINT_MIP_LINEAR);
    assert_int_equal(D3D10_DDI_FILTER_ANISOTROPIC, D3D11_FILTER_ANISOTROPIC);
    assert_int_equal(D3D10_DDI_FILTER_COMPARISON_MIN_MAG_LINEAR_MIP_POINT, D3D11_FILTER_COMPARISON_MIN_MAG_LINEAR_MIP_POINT);
    assert_int_equal(D3D10_DDI_FILTER_COMPARISON_ANISOTROPIC, D3D11_FILTER_COMPARISON_ANISOTROPIC);
    assert_int_equal((UINT)D3D10_DDI_FILTER_TEXT_1BIT, (UINT)D3D10_FILTER_TEXT_1BIT);
    assert_int_equal(sizeof(D3D10_DDI_FILTER), 4);
    assert_int_equal(D3D10_DDI_TEXTURE_ADDRESS_MIRRORONCE, D3D11_TEXTURE_ADDRESS_MIRROR_ONCE);
    assert_int_equal(D3D10_DDI_INPUT_PER_INSTANCE_DATA, D3D11_INPUT_PER_INSTANCE_DATA);
    assert_int_equal(D3D11_DDI_CREATE_DSV_READ_ONLY_STENCIL, D3D11_DSV_READ_ONLY_STENCIL);
    assert_int_equal(D3D10DDI_COUNTER_TYPE_UINT64, D3D10_COUNTER_TYPE_UINT64);
    assert_int_equal(D3D10DDI_QUERY_STREAMOVERFLOWPREDICATE, D3D11_QUERY_SO_OVERFLOW_PREDICATE);
    /* From 8 on the DDI's queries part from the API's: D3D11's pipeline statistics (with the
     * hull, domain and compute counts) take 8, the per-stream queries follow. */
    assert_int_equal(D3D11DDI_QUERY_PIPELINESTATS, 8);
    assert_int_equal(D3D11DDI_QUERY_STREAMOVERFLOWPREDICATE_STREAM3, 16);
    assert_int_equal(D3D10DDI_COUNTER_TEXTURE_CACHE_HIT_RATE, 0x1011);
    assert_int_equal(D3D10DDI_COUNTER_DEVICE_DEPENDENT_0, 0x40000000);
    assert_int_equal(D3D10_SB_NAME_IS_FRONT_FACE, 9);
    assert_int_equal(D3D11_SB_NAME_FINAL_LINE_DENSITY_TESSFACTOR, 22);
}

/* ---- A driver written for Windows: functions that read the arguments, in the slots -------------- */

static struct {
    D3D10_DDI_SAMPLER_DESC sampler;
    D3D11_1_DDI_RENDER_TARGET_BLEND_DESC blend_rt3;
    UINT8 blend10_mask5;
    D3D10_DDI_BLEND blend10_1_dest2;
    D3D10_DDI_STENCIL_OP back_pass;
    FLOAT forced_bias;
    UINT forced_samples;
    UINT dsv_flags, dsv_array;
    UINT layout_register, so_stride1;
    D3D10_SB_NAME hs_patch1;
    D3D11_SB_OPERAND_MIN_PRECISION vs_in0_precision;
    D3D10_SB_NAME gs_out0;
    UINT cb_offset;
    FLOAT viewport_height1;
    int calls;
} seen;

static SIZE_T APIENTRY calc_sampler(D3D10DDI_HDEVICE d, const D3D10_DDI_SAMPLER_DESC *desc)
{
    return desc->Filter == D3D10_DDI_FILTER_ANISOTROPIC ? 64 : 32;
}
static VOID APIENTRY create_sampler(D3D10DDI_HDEVICE d, const D3D10_DDI_SAMPLER_DESC *desc, D3D10DDI_HSAMPLER h,
                                    D3D10DDI_HRTSAMPLER rt)
{
    seen.sampler = *desc;
    seen.calls++;
}
static VOID APIENTRY create_blend10(D3D10DDI_HDEVICE d, const D3D10_DDI_BLEND_DESC *desc, D3D10DDI_HBLENDSTATE h,
                                    D3D10DDI_HRTBLENDSTATE rt)
{
    seen.blend10_mask5 = desc->BlendEnable[5] ? desc->RenderTargetWriteMask[5] : 0;
    seen.calls++;
}
static VOID APIENTRY create_blend10_1(D3D10DDI_HDEVICE d, const D3D10_1_DDI_BLEND_DESC *desc, D3D10DDI_HBLENDSTATE h,
                                      D3D10DDI_HRTBLENDSTATE rt)
{
    seen.blend10_1_dest2 = desc->RenderTarget[desc->IndependentBlendEnable ? 2 : 0].DestBlend;
    seen.calls++;
}
static VOID APIENTRY create_blend11_1(D3D10DDI_HDEVICE d, const D3D11_1_DDI_BLEND_DESC *desc, D3D10DDI_HBLENDSTATE h,
                                      D3D10DDI_HRTBLENDSTATE rt)
{
    seen.blend_rt3 = desc->RenderTarget[3];
    seen.calls++;
}
static VOID APIENTRY create_depth_stencil(D3D10DDI_HDEVICE d, const D3D10_DDI_DEPTH_STENCIL_DESC *desc,
                                          D3D10DDI_HDEPTHSTENCILSTATE h, D3D10DDI_HRTDEPTHSTENCILSTATE rt)
{
    seen.back_pass = desc->BackEnable ? desc->BackFace.StencilPassOp : D3D10_DDI_STENCIL_OP_KEEP;
    seen.calls++;
}
static VOID APIENTRY create_rasterizer11_1(D3D10DDI_HDEVICE d, const D3D11_1_DDI_RASTERIZER_DESC *desc,
                                           D3D10DDI_HRASTERIZERSTATE h, D3D10DDI_HRTRASTERIZERSTATE rt)
{
    seen.forced_bias = desc->SlopeScaledDepthBias;
    seen.forced_samples = desc->ForcedSampleCount;
    seen.calls++;
}
static VOID APIENTRY create_dsv11(D3D10DDI_HDEVICE d, const D3D11DDIARG_CREATEDEPTHSTENCILVIEW *args,
                                  D3D10DDI_HDEPTHSTENCILVIEW h, D3D10DDI_HRTDEPTHSTENCILVIEW rt)
{
    seen.dsv_flags = args->Flags;
    seen.dsv_array = args->ResourceDimension == D3D10DDIRESOURCE_TEXTURECUBE ? args->TexCube.ArraySize : 0;
    seen.calls++;
}
static VOID APIENTRY create_layout(D3D10DDI_HDEVICE d, const D3D10DDIARG_CREATEELEMENTLAYOUT *args,
                                   D3D10DDI_HELEMENTLAYOUT h, D3D10DDI_HRTELEMENTLAYOUT rt)
{
    const D3D10DDIARG_INPUT_ELEMENT_DESC *last = &args->pVertexElements[args->NumElements - 1];
    seen.layout_register = last->InputSlotClass == D3D10_DDI_INPUT_PER_INSTANCE_DATA ? last->InputRegister : ~0u;
    seen.calls++;
}
static VOID APIENTRY create_vertex_shader11_1(D3D10DDI_HDEVICE d, const UINT *code, D3D10DDI_HSHADER h,
                                              D3D10DDI_HRTSHADER rt, const D3D11_1DDIARG_STAGE_IO_SIGNATURES *sig)
{
    seen.vs_in0_precision = sig->NumInputSignatureEntries ? sig->pInputSignature[0].MinPrecision : 0;
    seen.calls++;
}
static VOID APIENTRY create_hull_shader(D3D10DDI_HDEVICE d, const UINT *code, D3D10DDI_HSHADER h, D3D10DDI_HRTSHADER rt,
                                        const D3D11DDIARG_TESSELLATION_IO_SIGNATURES *sig)
{
    seen.hs_patch1 = sig->pPatchConstantSignature[1].SystemValue;
    seen.calls++;
}
static VOID APIENTRY create_gs_so11(D3D10DDI_HDEVICE d, const D3D11DDIARG_CREATEGEOMETRYSHADERWITHSTREAMOUTPUT *args,
                                    D3D10DDI_HSHADER h, D3D10DDI_HRTSHADER rt, const D3D10DDIARG_STAGE_IO_SIGNATURES *sig)
{
    seen.so_stride1 = args->NumStrides > 1 ? args->BufferStridesInBytes[1] : 0;
    seen.gs_out0 = sig->pOutputSignature[0].SystemValue;
    seen.calls++;
}
static VOID APIENTRY set_shader_with_ifaces(D3D10DDI_HDEVICE d, D3D10DDI_HSHADER h, UINT n, const UINT *ifaces,
                                            const D3D11DDIARG_POINTERDATA *data)
{
    seen.cb_offset = data[0].uCBOffset;
    seen.calls++;
}
static VOID APIENTRY set_viewports(D3D10DDI_HDEVICE d, UINT n, UINT clear, const D3D10_DDI_VIEWPORT *v)
{
    seen.viewport_height1 = v[1].Height;
    seen.calls++;
}
static VOID APIENTRY check_counter_info(D3D10DDI_HDEVICE d, D3D10DDI_COUNTER_INFO *info)
{
    info->LastDeviceDependentCounter = D3D10DDI_COUNTER_DEVICE_DEPENDENT_0 + 2;
    info->NumSimultaneousCounters = 3;
    info->NumDetectableParallelUnits = 1;
    seen.calls++;
}
static VOID APIENTRY check_counter(D3D10DDI_HDEVICE d, D3D10DDI_QUERY q, D3D10DDI_COUNTER_TYPE *type, UINT *active,
                                   LPSTR name, UINT *name_length, LPSTR units, UINT *units_length, LPSTR description,
                                   UINT *description_length)
{
    *type = D3D10DDI_COUNTER_TYPE_UINT64;
    *active = 1;
    seen.calls++;
}

/* rule: runtime.argument-structures-slots-model-not (mutation-checked: two sampler members swapped, a stencil mask widened, the D3D11 view's Flags moved, a bit-field reordered, a blend or filter value changed, a prototype given the 10.0 rasterizer description: each fails it or its build) */
static void a_windows_driver_reads_the_arguments_through_its_slots(void **state)
{
    (void)state;
    memset(&seen, 0, sizeof seen);
    D3D10DDI_DEVICEFUNCS f10 = { 0 };
    f10.pfnCreateBlendState = create_blend10;
    D3D10_1DDI_DEVICEFUNCS f10_1 = { 0 };
    f10_1.pfnCreateBlendState = create_blend10_1;
    D3D11_1DDI_DEVICEFUNCS f = { 0 };
    f.pfnCalcPrivateSamplerSize = calc_sampler;
    f.pfnCreateSampler = create_sampler;
    f.pfnCreateBlendState = create_blend11_1;
    f.pfnCreateDepthStencilState = create_depth_stencil;
    f.pfnCreateRasterizerState = create_rasterizer11_1;
    f.pfnCreateDepthStencilView = create_dsv11;
    f.pfnCreateElementLayout = create_layout;
    f.pfnCreateVertexShader = create_vertex_shader11_1;
    f.pfnVsSetShaderWithIfaces = set_shader_with_ifaces;
    f.pfnSetViewports = set_viewports;
    f.pfnCheckCounterInfo = check_counter_info;
    f.pfnCheckCounter = check_counter;
    D3D11DDI_DEVICEFUNCS f11 = { 0 };
    f11.pfnCreateGeometryShaderWithStreamOutput = create_gs_so11;
    f11.pfnCreateHullShader = create_hull_shader;

    D3D10DDI_HDEVICE dev = { &seen };
    D3D10_DDI_SAMPLER_DESC sd = { .Filter = D3D10_DDI_FILTER_ANISOTROPIC, .AddressU = D3D10_DDI_TEXTURE_ADDRESS_BORDER,
                                  .AddressW = D3D10_DDI_TEXTURE_ADDRESS_MIRROR, .MaxAnisotropy = 16,
                                  .BorderColor = { 0.25f, 0.5f, 0.75f, 1.0f }, .MaxLOD = 7.0f };
    assert_int_equal(f.pfnCalcPrivateSamplerSize(dev, &sd), 64);
    f.pfnCreateSampler(dev, &sd, (D3D10DDI_HSAMPLER){ NULL }, (D3D10DDI_HRTSAMPLER){ NULL });
    assert_memory_equal(&seen.sampler, &sd, sizeof sd);
    assert_true(seen.sampler.BorderColor[2] == 0.75f && seen.sampler.MaxLOD == 7.0f);

    D3D10_DDI_BLEND_DESC b10 = { .BlendEnable = { [5] = TRUE }, .RenderTargetWriteMask = { [5] = D3D10_DDI_COLOR_WRITE_ENABLE_RED } };
    f10.pfnCreateBlendState(dev, &b10, (D3D10DDI_HBLENDSTATE){ NULL }, (D3D10DDI_HRTBLENDSTATE){ NULL });
    assert_int_equal(seen.blend10_mask5, D3D10_DDI_COLOR_WRITE_ENABLE_RED);
    D3D10_1_DDI_BLEND_DESC b10_1 = { .IndependentBlendEnable = TRUE, .RenderTarget[2].DestBlend = D3D10_DDI_BLEND_INV_SRC_ALPHA };
    f10_1.pfnCreateBlendState(dev, &b10_1, (D3D10DDI_HBLENDSTATE){ NULL }, (D3D10DDI_HRTBLENDSTATE){ NULL });
    assert_int_equal(seen.blend10_1_dest2, D3D10_DDI_BLEND_INV_SRC_ALPHA);
    D3D11_1_DDI_BLEND_DESC b = { .IndependentBlendEnable = TRUE,
                                 .RenderTarget[3] = { .LogicOpEnable = TRUE, .LogicOp = D3D11_1_DDI_LOGIC_OP_XOR,
                                                      .RenderTargetWriteMask = D3D10_DDI_COLOR_WRITE_ENABLE_ALL } };
    f.pfnCreateBlendState(dev, &b, (D3D10DDI_HBLENDSTATE){ NULL }, (D3D10DDI_HRTBLENDSTATE){ NULL });
    assert_int_equal(seen.blend_rt3.LogicOp, D3D11_1_DDI_LOGIC_OP_XOR);
    assert_int_equal(seen.blend_rt3.RenderTargetWriteMask, 15);

    D3D10_DDI_DEPTH_STENCIL_DESC ds = { .StencilEnable = TRUE, .BackEnable = TRUE,
                                        .BackFace.StencilPassOp = D3D10_DDI_STENCIL_OP_DECR_SAT };
    f.pfnCreateDepthStencilState(dev, &ds, (D3D10DDI_HDEPTHSTENCILSTATE){ NULL }, (D3D10DDI_HRTDEPTHSTENCILSTATE){ NULL });
    assert_int_equal(seen.back_pass, D3D10_DDI_STENCIL_OP_DECR_SAT);
    D3D11_1_DDI_RASTERIZER_DESC rs = { .FillMode = D3D10_DDI_FILL_SOLID, .CullMode = D3D10_DDI_CULL_NONE,
                                       .SlopeScaledDepthBias = 1.5f, .ForcedSampleCount = 4 };
    f.pfnCreateRasterizerState(dev, &rs, (D3D10DDI_HRASTERIZERSTATE){ NULL }, (D3D10DDI_HRTRASTERIZERSTATE){ NULL });
    assert_true(seen.forced_bias == 1.5f);
    assert_int_equal(seen.forced_samples, 4);

    D3D11DDIARG_CREATEDEPTHSTENCILVIEW dsv = { .Format = DXGI_FORMAT_D24_UNORM_S8_UINT,
                                               .ResourceDimension = D3D10DDIRESOURCE_TEXTURECUBE,
                                               .Flags = D3D11_DDI_CREATE_DSV_READ_ONLY_DEPTH,
                                               .TexCube = { .MipSlice = 1, .FirstArraySlice = 0, .ArraySize = 6 } };
    f.pfnCreateDepthStencilView(dev, &dsv, (D3D10DDI_HDEPTHSTENCILVIEW){ NULL }, (D3D10DDI_HRTDEPTHSTENCILVIEW){ NULL });
    assert_int_equal(seen.dsv_flags, D3D11_DDI_CREATE_DSV_READ_ONLY_DEPTH);
    assert_int_equal(seen.dsv_array, 6);

    D3D10DDIARG_INPUT_ELEMENT_DESC elements[2] = {
        { .InputSlot = 0, .Format = DXGI_FORMAT_R32G32B32_FLOAT, .InputRegister = 0 },
        { .InputSlot = 1, .Format = DXGI_FORMAT_R8G8B8A8_UNORM, .InputSlotClass = D3D10_DDI_INPUT_PER_INSTANCE_DATA,
          .InstanceDataStepRate = 1, .InputRegister = 3 },
    };
    D3D10DDIARG_CREATEELEMENTLAYOUT layout = { elements, 2 };
    f.pfnCreateElementLayout(dev, &layout, (D3D10DDI_HELEMENTLAYOUT){ NULL }, (D3D10DDI_HRTELEMENTLAYOUT){ NULL });
    assert_int_equal(seen.layout_register, 3);

    static const UINT code[2] = { 0x00010040, 2 }; /* never parsed: the pointer's type is the point */
    D3D11_1DDIARG_SIGNATURE_ENTRY vs_in[1] = { { D3D10_SB_NAME_VERTEX_ID, 0, 0x1, D3D10_SB_REGISTER_COMPONENT_UINT32,
                                                 D3D11_SB_OPERAND_MIN_PRECISION_UINT_16 } };
    D3D11_1DDIARG_STAGE_IO_SIGNATURES vs_sig = { vs_in, 1, NULL, 0 };
    f.pfnCreateVertexShader(dev, code, (D3D10DDI_HSHADER){ NULL }, (D3D10DDI_HRTSHADER){ NULL }, &vs_sig);
    assert_int_equal(seen.vs_in0_precision, D3D11_SB_OPERAND_MIN_PRECISION_UINT_16);

    D3D10DDIARG_SIGNATURE_ENTRY patch[2] = { { D3D11_SB_NAME_FINAL_TRI_U_EQ_0_EDGE_TESSFACTOR, 0, 0x1 },
                                             { D3D11_SB_NAME_FINAL_TRI_INSIDE_TESSFACTOR, 1, 0x1 } };
    D3D11DDIARG_TESSELLATION_IO_SIGNATURES hs_sig = { NULL, 0, NULL, 0, patch, 2 };
    f11.pfnCreateHullShader(dev, code, (D3D10DDI_HSHADER){ NULL }, (D3D10DDI_HRTSHADER){ NULL }, &hs_sig);
    assert_int_equal(seen.hs_patch1, D3D11_SB_NAME_FINAL_TRI_INSIDE_TESSFACTOR);

    D3D11DDIARG_STREAM_OUTPUT_DECLARATION_ENTRY decl[1] = { { .Stream = 1, .OutputSlot = 1, .RegisterIndex = 2, .RegisterMask = 0xf } };
    const UINT strides[2] = { 16, 32 };
    D3D11DDIARG_CREATEGEOMETRYSHADERWITHSTREAMOUTPUT so = { code, decl, 1, strides, 2, D3D11_SO_NO_RASTERIZED_STREAM };
    D3D10DDIARG_SIGNATURE_ENTRY gs_out[1] = { { D3D10_SB_NAME_POSITION, 0, 0xf } };
    D3D10DDIARG_STAGE_IO_SIGNATURES gs_sig = { NULL, 0, gs_out, 1 };
    f11.pfnCreateGeometryShaderWithStreamOutput(dev, &so, (D3D10DDI_HSHADER){ NULL }, (D3D10DDI_HRTSHADER){ NULL }, &gs_sig);
    assert_int_equal(seen.so_stride1, 32);
    assert_int_equal(seen.gs_out0, D3D10_SB_NAME_POSITION);

    D3D11DDIARG_POINTERDATA pd[1] = { { .uCBOffset = 0x123, .uCBID = 2 } };
    const UINT ifaces[1] = { 0 };
    f.pfnVsSetShaderWithIfaces(dev, (D3D10DDI_HSHADER){ NULL }, 1, ifaces, pd);
    assert_int_equal(seen.cb_offset, 0x123);
    D3D10_DDI_VIEWPORT vp[2] = { { 0, 0, 64, 64, 0, 1 }, { 0, 0, 32, 16, 0, 1 } };
    f.pfnSetViewports(dev, 2, 0, vp);
    assert_true(seen.viewport_height1 == 16.0f);

    D3D10DDI_COUNTER_INFO info = { 0 };
    f.pfnCheckCounterInfo(dev, &info);
    assert_int_equal(info.LastDeviceDependentCounter, D3D10DDI_COUNTER_DEVICE_DEPENDENT_0 + 2);
    D3D10DDI_COUNTER_TYPE type = D3D10DDI_COUNTER_TYPE_FLOAT32;
    UINT active = 0;
    f.pfnCheckCounter(dev, info.LastDeviceDependentCounter, &type, &active, NULL, NULL, NULL, NULL, NULL, NULL);
    assert_int_equal(type, D3D10DDI_COUNTER_TYPE_UINT64);
    assert_int_equal(seen.calls, 15);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(state_descriptions_have_the_wdk_layout),
        cmocka_unit_test(creation_arguments_have_the_wdk_layout),
        cmocka_unit_test(enumerations_have_the_wdk_values),
        cmocka_unit_test(a_windows_driver_reads_the_arguments_through_its_slots),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

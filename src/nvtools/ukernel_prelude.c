/* The header redscope pre-includes before a user kernel (NVRTC's
 * --pre-include): the element and accumulator types, the operation and its
 * identity, the dynamic shared memory, and rs_block_result, which sends a
 * block's result on as the request's finish wants. The same integer
 * wrap-around and min/max rules as the built-in kernels and the CPU
 * reference. */
#include <stdarg.h>
#include <stdio.h>

#include "compile.h"

static const char *const elem_c[RS_DTYPE_COUNT] = {"int",    "long long", "float",
                                                   "double", "__half",    "__nv_bfloat16"};
static const char *const acc_c[RS_DTYPE_COUNT] = {"int",    "long long", "float",
                                                  "double", "float",     "float"};
/* unsigned twin for wrap-around sums and products, and for compare-and-swap */
static const char *const bits_c[RS_DTYPE_COUNT] = {"unsigned int", "unsigned long long",
                                                   "unsigned int", "unsigned long long",
                                                   "unsigned int", "unsigned int"};

static const char *identity(rs_dtype a, rs_op op)
{
    /* infinity by its bits: NVRTC has no __builtin_inf */
    static const char *const lo[] = {"(-2147483647 - 1)", "(-9223372036854775807LL - 1)",
                                     "(-__int_as_float(0x7f800000))",
                                     "(-__longlong_as_double(0x7ff0000000000000LL))"};
    static const char *const hi[] = {"2147483647", "9223372036854775807LL",
                                     "__int_as_float(0x7f800000)",
                                     "__longlong_as_double(0x7ff0000000000000LL)"};
    const int k = a == RS_INT32 ? 0 : a == RS_INT64 ? 1 : a == RS_FLOAT64 ? 3 : 2;
    switch (op) {
    case RS_SUM: return "0";
    case RS_PROD: return "1";
    case RS_MIN: return hi[k];
    default: return lo[k];
    }
}

static const char *combine(rs_dtype a, rs_op op)
{
    const int integer = a == RS_INT32 || a == RS_INT64;
    switch (op) {
    case RS_SUM: return integer ? "(rs_acc)((rs_bits)a + (rs_bits)b)" : "a + b";
    case RS_PROD: return integer ? "(rs_acc)((rs_bits)a * (rs_bits)b)" : "a * b";
    case RS_MIN: return "b < a ? b : a";
    default: return "a < b ? b : a";
    }
}

/* The atomic finish: one update of out[0] per block. */
static const char *atomic_body(rs_dtype a, rs_op op)
{
    const int integer = a == RS_INT32 || a == RS_INT64;
    if (op == RS_SUM) return integer ? "atomicAdd((rs_bits *)p, (rs_bits)v);" : "atomicAdd(p, v);";
    if (integer && op == RS_MIN) return "atomicMin(p, v);";
    if (integer && op == RS_MAX) return "atomicMax(p, v);";
    if (op == RS_PROD)
        return "rs_bits *u = (rs_bits *)p, old = *u, was;\n"
               "    do { was = old;\n"
               "         old = atomicCAS(u, was, RS_TO_BITS(rs_op(RS_FROM_BITS(was), v)));\n"
               "    } while (old != was);";
    /* floating min/max: values with the sign bit clear order as signed
     * integers, those with it set (-0.0 too) in reverse as unsigned ones */
    if (a == RS_FLOAT64)
        return op == RS_MIN ? "if (__double_as_longlong(v) >= 0)\n"
                              "        atomicMin((long long *)p, __double_as_longlong(v));\n"
                              "    else atomicMax((unsigned long long *)p, "
                              "(unsigned long long)__double_as_longlong(v));"
                            : "if (__double_as_longlong(v) >= 0)\n"
                              "        atomicMax((long long *)p, __double_as_longlong(v));\n"
                              "    else atomicMin((unsigned long long *)p, "
                              "(unsigned long long)__double_as_longlong(v));";
    return op == RS_MIN ? "if (__float_as_int(v) >= 0) atomicMin((int *)p, __float_as_int(v));\n"
                          "    else atomicMax((unsigned int *)p, __float_as_uint(v));"
                        : "if (__float_as_int(v) >= 0) atomicMax((int *)p, __float_as_int(v));\n"
                          "    else atomicMin((unsigned int *)p, __float_as_uint(v));";
}

typedef struct out_buf {
    char *buf;
    size_t len, used;
} out_buf;

static void put(out_buf *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(out_buf *o, const char *fmt, ...)
{
    if (o->used >= o->len) return;
    va_list ap;
    va_start(ap, fmt);
    const int w = vsnprintf(o->buf + o->used, o->len - o->used, fmt, ap);
    va_end(ap);
    if (w > 0) o->used += (size_t)w;
    if (o->used >= o->len) o->used = o->len - 1;
}

static const char single_pass[] =
    "    __shared__ bool rs_last;\n"
    "    __shared__ rs_acc rs_warp[32];\n"
    "    if (threadIdx.x == 0) {\n"
    "        rs_partials[blockIdx.x] = v;\n"
    "        __threadfence();\n"
    "        rs_last = atomicAdd(rs_counter, 1u) == gridDim.x - 1;\n"
    "    }\n"
    "    __syncthreads();\n"
    "    if (!rs_last) return;\n"
    "    rs_acc a = RS_IDENTITY;\n"
    "    for (unsigned i = threadIdx.x; i < gridDim.x; i += blockDim.x)\n"
    "        a = rs_op(a, __ldcg(&rs_partials[i]));\n"
    "    for (int o = 16; o > 0; o >>= 1) a = rs_op(a, __shfl_down_sync(0xffffffffu, a, o));\n"
    "    if ((threadIdx.x & 31) == 0) rs_warp[threadIdx.x >> 5] = a;\n"
    "    __syncthreads();\n"
    "    if (threadIdx.x >= 32) return;\n"
    "    a = threadIdx.x < (blockDim.x >> 5) ? rs_warp[threadIdx.x] : RS_IDENTITY;\n"
    "    for (int o = 16; o > 0; o >>= 1) a = rs_op(a, __shfl_down_sync(0xffffffffu, a, o));\n"
    "    if (threadIdx.x == 0) { *out = a; *rs_counter = 0; }\n";

size_t rs_ukernel_prelude(rs_dtype t, rs_op op, int kfinish, char *buf, size_t len)
{
    out_buf o = {buf, len, 0};
    if (!len) return 0;
    buf[0] = '\0';
    const rs_dtype a = rs_dtype_acc(t);
    put(&o, "// redscope.h: pre-included by redscope for %s %s\n", rs_dtype_name(t),
        rs_op_name(op));
    if (t == RS_FLOAT16) put(&o, "#include <cuda_fp16.h>\n");
    if (t == RS_BFLOAT16) put(&o, "#include <cuda_bf16.h>\n");
    put(&o, "#define RS_TYPE_%s 1\n#define RS_OP_%s 1\n", rs_dtype_name(t), rs_op_name(op));
    put(&o, "typedef %s rs_elem;\ntypedef %s rs_acc;\ntypedef %s rs_bits;\n", elem_c[t], acc_c[a],
        bits_c[a]);
    static const char *const to_bits[] = {"(rs_bits)(x)", "(rs_bits)(x)", "__float_as_uint(x)",
                                          "(rs_bits)__double_as_longlong(x)"};
    static const char *const from_bits[] = {"(rs_acc)(x)", "(rs_acc)(x)", "__uint_as_float(x)",
                                            "__longlong_as_double((long long)(x))"};
    const int k = a == RS_INT32 ? 0 : a == RS_INT64 ? 1 : a == RS_FLOAT64 ? 3 : 2;
    put(&o, "#define RS_TO_BITS(x) %s\n#define RS_FROM_BITS(x) %s\n", to_bits[k], from_bits[k]);
    put(&o, "#define RS_T rs_elem\n#define RS_ACC rs_acc\n#define RS_IDENTITY ((rs_acc)%s)\n",
        identity(a, op));
    put(&o, "static __device__ __forceinline__ rs_acc rs_load(rs_elem x) { return %s; }\n",
        t == RS_FLOAT16    ? "__half2float(x)"
        : t == RS_BFLOAT16 ? "__bfloat162float(x)"
                           : "x");
    put(&o, "static __device__ __forceinline__ rs_acc rs_op(rs_acc a, rs_acc b) { return %s; }\n",
        combine(a, op));
    put(&o, "extern __shared__ __align__(16) unsigned char rs_smem_raw[];\n"
            "#define rs_shared ((rs_acc *)rs_smem_raw)\n");
    put(&o, "__device__ rs_acc *rs_partials;\n__device__ unsigned int *rs_counter;\n");
    put(&o, "// Every thread of the block calls it once, at the end; thread 0's value is\n"
            "// the block's result.\n");
    put(&o, "static __device__ __forceinline__ void rs_block_result(rs_acc *out, rs_acc v)\n{\n");
    /* compile.c's second pass: a call the compiler keeps leaves this in the PTX */
    put(&o, "#ifdef RS_CONTRACT_PASS\n    asm volatile(\"// rs_block_result reached\");\n#endif\n");
    if (kfinish == 0) put(&o, "    if (threadIdx.x == 0) out[blockIdx.x] = v;\n");
    if (kfinish == 1)
        put(&o, "    if (threadIdx.x != 0) return;\n    rs_acc *p = out;\n    %s\n",
            atomic_body(a, op));
    if (kfinish == 2) put(&o, "%s", single_pass);
    put(&o, "}\n");
    return o.used;
}

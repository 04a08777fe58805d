/*
 * The exception-table accessors of loongarch64: scalar (the register-indirect
 * asm of src/uaccess/extable.h) and LSX / LASX vectors.
 * Included by src/uaccess/extable.h (as <uaccess/accessors.h>, from the include
 * directory src/arch/loongarch64), which defines UA_EXTABLE and the unaligned types
 * these use; the contract of every accessor is described there.
 */
#ifndef ALTMEM_LOONGARCH64_ACCESSORS_H
#define ALTMEM_LOONGARCH64_ACCESSORS_H

/* Register-indirect with no offset: one spelling that both assemblers accept. */
#define UA_ADDR "%[addr], 0"
#define UA_L8 "ld.bu"
#define UA_L16 "ld.hu"
#define UA_L32 "ld.wu"
#define UA_L64 "ld.d"
#define UA_S8 "st.b"
#define UA_S16 "st.h"
#define UA_S32 "st.w"
#define UA_S64 "st.d"

#if defined(__loongarch_sx)
/* Vector accessors of the lsx / lasx files (built -mlsx / -mlasx, which
   define __loongarch_sx / __loongarch_asx): vld/vst (16 bytes, operand
   modifier w: $vrN) and xvld/xvst (32 bytes, u: $xrN), unaligned.  A vector
   store that faults may have written part of its bytes: the variants never
   rely on it being all-or-nothing (ua_la_vec.h). */
#include <lsxintrin.h>
/* Base + constant offset: "m" operands (base register + 12-bit offset, vld's
   and xvld's form), clang then folds a constant offset into the instruction,
   as on x86_64. */
#define UA_VLD_M(insn, mod, T, v, p, L)                                          \
    __asm__ goto("1:\t" insn " %" mod "[val], %[mem]\n\t" UA_EXTABLE("1b", "%l[" #L "]") \
                 : [val] "=f"(v) : [mem] "m"(*(const T *)(p)) : "memory" : L)
#define UA_VST_M(insn, mod, T, p, v, L)                                          \
    __asm__ goto("1:\t" insn " %" mod "[val], %[mem]\n\t" UA_EXTABLE("1b", "%l[" #L "]") \
                 : : [mem] "m"(*(T *)(p)), [val] "f"(v) : "memory" : L)
/* Base + index register (vldx / xvldx): for an offset that is not a constant
   (n - W), which would otherwise take an add.d of its own per access. */
#define UA_VLD_X(insn, mod, v, p, i, L)                                          \
    __asm__ goto("1:\t" insn " %" mod "[val], %[base], %[idx]\n\t" UA_EXTABLE("1b", "%l[" #L "]") \
                 : [val] "=f"(v) : [base] "r"(p), [idx] "r"(i) : "memory" : L)
#define UA_VST_X(insn, mod, p, i, v, L)                                          \
    __asm__ goto("1:\t" insn " %" mod "[val], %[base], %[idx]\n\t" UA_EXTABLE("1b", "%l[" #L "]") \
                 : : [base] "r"(p), [idx] "r"(i), [val] "f"(v) : "memory" : L)
typedef __m128i __attribute__((aligned(1), may_alias)) ua_v16u;
#define UA_VLD16(v, p, L) UA_VLD_M("vld", "w", ua_v16u, v, p, L)
#define UA_VST16(p, v, L) UA_VST_M("vst", "w", ua_v16u, p, v, L)
#define UA_VLDX16(v, p, i, L) UA_VLD_X("vldx", "w", v, p, i, L)
#define UA_VSTX16(p, i, v, L) UA_VST_X("vstx", "w", p, i, v, L)
#if defined(__loongarch_asx)
#include <lasxintrin.h>
typedef __m256i __attribute__((aligned(1), may_alias)) ua_v32u;
#define UA_VLD32(v, p, L) UA_VLD_M("xvld", "u", ua_v32u, v, p, L)
#define UA_VST32(p, v, L) UA_VST_M("xvst", "u", ua_v32u, p, v, L)
#define UA_VLDX32(v, p, i, L) UA_VLD_X("xvldx", "u", v, p, i, L)
#define UA_VSTX32(p, i, v, L) UA_VST_X("xvstx", "u", p, i, v, L)
#endif
#endif

#endif

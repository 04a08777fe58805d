/*
 * The exception-table accessors of riscv64: scalar (the register-indirect asm
 * of src/uaccess/extable.h), RVV and Zicboz.
 * Included by src/uaccess/extable.h (as <uaccess/accessors.h>, from the include
 * directory src/arch/riscv64), which defines UA_EXTABLE and the unaligned types
 * these use; the contract of every accessor is described there.
 */
#ifndef ALTMEM_RISCV64_ACCESSORS_H
#define ALTMEM_RISCV64_ACCESSORS_H

/* Register-indirect with no offset: one spelling that both assemblers accept. */
#define UA_ADDR "0(%[addr])"
#define UA_L8 "lbu"
#define UA_L16 "lhu"
#define UA_L32 "lwu"
#define UA_L64 "ld"
#define UA_S8 "sb"
#define UA_S16 "sh"
#define UA_S32 "sw"
#define UA_S64 "sd"

/* RVV (files built with the rvv flag set) and Zicboz.  C cannot hold an RVV
   value here (GCC 12 has no vector types or intrinsics), so a vector load and
   its store are one asm statement, through the register group v8-v15 (e8,
   LMUL 8), each instruction with its own entry to L:
     UA_VCOPY8(d, s, k, L)  copies k bytes, k <= VLMAX (8 * VLENB): vsetvli
                            sets vl = k exactly, vle8.v, vse8.v
     UA_VZERO8(d, k, L)     zeroes k bytes the same way (vmv.v.i, vse8.v)
     UA_CBO_ZERO(p, L)      cbo.zero of the block holding p (.insn: Debian 12's
                            GCC 12 + binutils 2.40 reject the mnemonic even
                            under -march=..._zicboz)
   The fix-up learns nothing from the instruction (not vstart, not whether a
   vector store wrote part of its bytes): the caller's progress is the start
   of the access, and it keeps every vector store inside one 4 KiB page, so a
   store that faults has written nothing.  vstart is left as the fault left it
   until the next vector instruction; UA_VSTART_CLEAR resets it on the fix-up
   path so that code after us finds the state the ABI promises. */
#if defined(__clang__) || (defined(__GNUC__) && __GNUC__ >= 13)
#define UA_RVV_CLOBBERS , "v8", "v9", "v10", "v11", "v12", "v13", "v14", "v15"
#else
#define UA_RVV_CLOBBERS /* GCC 12 knows no vector registers and allocates none */
#endif
#define UA_VCOPY8(d, s, k, L)                                                    \
    __asm__ goto("vsetvli zero, %[kk], e8, m8, ta, ma\n"                          \
                 "1:\tvle8.v v8, (%[ss])\n"                                      \
                 "2:\tvse8.v v8, (%[dd])\n\t"                                    \
                 UA_EXTABLE("1b", "%l[" #L "]") UA_EXTABLE("2b", "%l[" #L "]")   \
                 : : [dd] "r"(d), [ss] "r"(s), [kk] "r"(k) : "memory" UA_RVV_CLOBBERS : L)
#define UA_VZERO8(d, k, L)                                                       \
    __asm__ goto("vsetvli zero, %[kk], e8, m8, ta, ma\n\tvmv.v.i v8, 0\n"        \
                 "1:\tvse8.v v8, (%[dd])\n\t" UA_EXTABLE("1b", "%l[" #L "]")      \
                 : : [dd] "r"(d), [kk] "r"(k) : "memory" UA_RVV_CLOBBERS : L)
#define UA_CBO_ZERO(p, L)                                                        \
    __asm__ goto("1:\t.insn i 0x0f, 2, x0, 4(%[addr])\n\t" UA_EXTABLE("1b", "%l[" #L "]") \
                 : : [addr] "r"(p) : "memory" : L)
#define UA_VSTART_CLEAR() __asm__ volatile("csrw 0x008, zero  # vstart")

#endif

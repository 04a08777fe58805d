/*
 * altmem_bench_btb_flush: 32768 taken jumps, each at its own 16-byte slot
 * (512 KiB of code), then ret.  Executed before a call, it leaves none of the
 * call's branches in the branch target buffer (Intel Golden Cove: about 12K
 * entries; AMD Zen 4: 1.5K + 7K), nor its code in the L1i or the op cache
 * (bench/dispatch/cold_btb.c).
 */
    .text
    .globl altmem_bench_btb_flush
    .type altmem_bench_btb_flush, @function
    .p2align 6
altmem_bench_btb_flush:
    .rept 32768
    jmp 1f
    .p2align 4
1:
    .endr
    ret
    .size altmem_bench_btb_flush, . - altmem_bench_btb_flush

    .section .note.GNU-stack, "", @progbits

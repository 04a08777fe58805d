/*
 * The x86-64 instruction decoder behind copied entries (src/arch/x86_64/insn.c)
 * against objdump, and the copier (copy.c) on bytes in a buffer.
 *
 *   objdump -d -w --insn-width=16 FILE | test_x86_insn --objdump [--strict]
 *
 * For every instruction objdump lists: the decoder must give its length or
 * call it unknown (never another length); a RIP-relative operand exactly where
 * objdump prints "(%rip)"; a branch displacement exactly for the direct jumps
 * and calls, reaching the address objdump prints; the end of the flow for ret
 * and indirect jumps; and "may write %rsp" for every push, pop, leave, enter
 * and instruction whose destination is %rsp.  --strict: no unknown instruction
 * either (the library's own code).  Prints the counts.
 *
 *   test_x86_insn --copy
 *
 * Plans and writes copies of hand-assembled functions into a buffer "at" a
 * chosen address and checks every byte, the relocated fields and the refusals;
 * then checks that the compare mode notices one changed byte (its negative
 * control).  Pure byte work: runs on any host.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "copy.h"
#include "insn.h"

static int failures;

#define CHECK(cond, ...)                                                                           \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            fprintf(stderr, "FAIL: " __VA_ARGS__);                                                 \
            fputc('\n', stderr);                                                                   \
            failures++;                                                                            \
        }                                                                                          \
    } while (0)

static int starts_with(const char *s, const char *p)
{
    return strncmp(s, p, strlen(p)) == 0;
}

/* The mnemonic may carry prefixes objdump prints as words ("rep stos", "bnd jmp",
   "notrack jmp", "lock xadd", "data16 cs nopw"). */
static const char *mnemonic(const char *text)
{
    static const char *const pre[] = {"rep ", "repz ", "repnz ", "repe ", "repne ", "bnd ", "notrack ", "lock ",
                                      "data16 ", "cs ", "ds ", "es ", "ss ", "fs ", "gs ", "addr32 ", "rex ",
                                      "rex.W ", "{vex} ", "{evex} "};
    for (;;) {
        while (*text == ' ')
            text++;
        size_t i;
        for (i = 0; i < sizeof pre / sizeof pre[0]; i++)
            if (starts_with(text, pre[i]))
                break;
        if (i == sizeof pre / sizeof pre[0])
            return text;
        text += strlen(pre[i]);
    }
}

static int writes_rsp(const char *m)
{
    static const char *const stack_ops[] = {"push", "pop", "leave", "enter"};
    for (size_t i = 0; i < sizeof stack_ops / sizeof stack_ops[0]; i++)
        if (starts_with(m, stack_ops[i]))
            return 1;
    if (starts_with(m, "cmp") || starts_with(m, "test") || starts_with(m, "bt ") || starts_with(m, "nop"))
        return 0;
    /* AT&T: the destination is the last operand. */
    const char *end = m + strcspn(m, "#<");
    while (end > m && end[-1] == ' ')
        end--;
    static const char *const rsp[] = {"%rsp", "%esp", "%sp", "%spl"};
    for (size_t i = 0; i < sizeof rsp / sizeof rsp[0]; i++) {
        size_t n = strlen(rsp[i]);
        if ((size_t)(end - m) > n && !strncmp(end - n, rsp[i], n) && (end[-n - 1] == ',' || end[-n - 1] == ' '))
            return 1;
    }
    return 0;
}

static int objdump_mode(int strict)
{
    char line[1024];
    unsigned long lines = 0, known = 0, unknown = 0;
    while (fgets(line, sizeof line, stdin)) {
        /* "  addr:\tbytes\tmnemonic operands" */
        char *tab1 = strchr(line, '\t');
        if (!tab1 || tab1 == line || tab1[-1] != ':')
            continue;
        char *tab2 = strchr(tab1 + 1, '\t');
        if (!tab2)
            continue;
        uint64_t addr = strtoull(line, NULL, 16);
        unsigned char bytes[16];
        size_t n = 0;
        for (char *p = tab1 + 1; p < tab2 && n < sizeof bytes;) {
            char *e;
            unsigned long b = strtoul(p, &e, 16);
            if (e == p || e > tab2)
                break;               /* (strtoul skips the tab: "add" is hex) */
            bytes[n++] = (unsigned char)b;
            p = e;
        }
        char *text = tab2 + 1;
        text[strcspn(text, "\n")] = '\0';
        if (n == 0 || strstr(text, "(bad)") || starts_with(text, ".byte"))
            continue;
        lines++;
        const char *m = mnemonic(text);
        struct altmem__x86_insn in;
        size_t len = altmem__x86_insn_decode(bytes, n, &in);
        if (len == 0) {
            unknown++;
            if (strict)
                CHECK(0, "%" PRIx64 ": unknown to the decoder: %s", addr, text);
            continue;
        }
        known++;
        CHECK(len == n, "%" PRIx64 ": length %zu, objdump %zu: %s", addr, len, n, text);
        if (len != n)
            continue;
        CHECK(!!in.rip_at == !!strstr(text, "(%rip)"), "%" PRIx64 ": RIP-relative %s: %s", addr,
              in.rip_at ? "yes" : "no", text);
        const char *operand = m + strcspn(m, " ");
        operand += strspn(operand, " ");
        int indirect = *operand == '*';
        int direct = (starts_with(m, "j") || starts_with(m, "call") || starts_with(m, "loop") ||
                      starts_with(m, "xbegin")) && !indirect;
        CHECK(!!in.rel_size == direct, "%" PRIx64 ": branch displacement %s: %s", addr, in.rel_size ? "yes" : "no",
              text);
        if (in.rel_size && direct) {
            uint64_t target = strtoull(operand, NULL, 16);
            uint64_t mine = addr + (uint64_t)altmem__x86_insn_target(bytes, &in);
            CHECK(mine == target, "%" PRIx64 ": target %" PRIx64 ", objdump %" PRIx64 ": %s", addr, mine, target,
                  text);
        }
        if (starts_with(m, "ret") || (starts_with(m, "jmp") && indirect))
            CHECK(in.flow == ALTMEM_X86_END, "%" PRIx64 ": should end the flow: %s", addr, text);
        if (starts_with(m, "jmp") && !indirect)
            CHECK(in.flow == ALTMEM_X86_JMP, "%" PRIx64 ": should be a jmp: %s", addr, text);
        if (writes_rsp(m))
            CHECK(in.stack, "%" PRIx64 ": writes %%rsp, decoder says not: %s", addr, text);
    }
    printf("x86_insn: %lu instructions, %lu decoded as objdump does, %lu unknown, %d failures\n", lines, known,
           unknown, failures);
    return failures || lines == 0;
}

/* ---- Copies in a buffer ---------------------------------------------------- */

static unsigned char code[4096], out[4096];

static int64_t le32(const unsigned char *p)
{
    return (int32_t)((uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24);
}

static int copy_mode(void)
{
    /* A hand-assembled entry: the shapes the variants have.
         0: 48 89 f8             mov %rdi,%rax
         3: 48 83 fa 10          cmp $0x10,%rdx
         7: 76 0f                jbe 0x18            (inside)
         9: 48 3b 15 00 01 00 00 cmp 0x100(%rip),%rdx (data: moved)
        10: 0f 87 00 10 00 00    ja +0x1000          (outside: moved)
        16: eb 02                jmp 0x1a            (inside)
        18: 90 90                nops
        1a: c5 fa 6f 06          vmovdqu (%rsi),%xmm0
        1e: e9 00 20 00 00       jmp +0x2000         (outside: moved)
        23: c3                   ret                 (reached by nothing: padding)  */
    static const unsigned char entry[] = {
        0x48, 0x89, 0xf8, 0x48, 0x83, 0xfa, 0x10, 0x76, 0x0f, 0x48, 0x3b, 0x15, 0x00, 0x01, 0x00, 0x00,
        0x0f, 0x87, 0x00, 0x10, 0x00, 0x00, 0xeb, 0x02, 0x90, 0x90, 0xc5, 0xfa, 0x6f, 0x06, 0xe9, 0x00,
        0x20, 0x00, 0x00, 0xc3};
    memset(code, 0xcc, sizeof code);
    memcpy(code, entry, sizeof entry);
    uintptr_t src = (uintptr_t)code, at = src - 0x10000;
    struct altmem__copy_plan plan;
    size_t len = altmem__x86_copy_plan(at, code, SIZE_MAX, 256, NULL, 0, &plan);
    int tail = plan.tail;
    CHECK(len == 0x23 && tail == 0, "plan: %zu bytes, tail %d; want 35 bytes, no tail (no path reaches 0x23)",
          len, tail);
    memset(out, 0, sizeof out);
    CHECK(altmem__x86_copy_apply(out, at, code, &plan, 0) == 1, "apply");
    for (size_t i = 0; i < len; i++) {
        int moved = (i >= 0x0c && i < 0x10) || (i >= 0x12 && i < 0x16) || (i >= 0x1f && i < 0x23);
        if (!moved)
            CHECK(out[i] == code[i], "byte %zu changed", i);
    }
    /* The moved fields reach what the original's reached, from `at`. */
    CHECK(at + 0x10 + le32(out + 0x0c) == src + 0x10 + 0x100, "the RIP-relative operand");
    CHECK(at + 0x16 + le32(out + 0x12) == src + 0x16 + 0x1000, "the ja that leaves the copy");
    CHECK(at + 0x23 + le32(out + 0x1f) == src + 0x23 + 0x2000, "the jmp that leaves the copy");
    CHECK(altmem__x86_copy_apply(out, at, code, &plan, 1) == 1, "compare: the same");
    out[0x13] ^= 1;
    CHECK(altmem__x86_copy_apply(out, at, code, &plan, 1) == 0, "compare: a changed byte unnoticed");

    /* A room that ends inside: the copy stops where every 8-bit branch so far
       lands inside it (or on its end, where the jmp back is), then jumps back.
       Room 0x20 leaves 0x1b for code: the cut is at 0x1a, after the nops. */
    len = altmem__x86_copy_plan(at, code, SIZE_MAX, 0x20, NULL, 0, &plan);
    tail = plan.tail;
    CHECK(len == 0x1a && tail == 1, "cut: %zu bytes, tail %d; want 26, tail", len, tail);
    memset(out, 0, sizeof out);
    altmem__x86_copy_apply(out, at, code, &plan, 0);
    CHECK(out[0x1a] == 0xe9 && at + 0x1a + 5 + le32(out + 0x1b) == src + 0x1a, "the jmp back to the original");
    /* Room 0x1d leaves 0x18: the jmp at 0x16 reaches 0x1a, past any cut up to
       0x18, and the jbe at 7 reaches 0x18, so the last cut is before the jbe. */
    len = altmem__x86_copy_plan(at, code, SIZE_MAX, 0x1d, NULL, 0, &plan);
    tail = plan.tail;
    CHECK(len == 7 && tail == 1, "cut: %zu bytes, tail %d; want 7, tail", len, tail);

    /* A push ends the copy (the stub's unwind entry keeps %rsp the caller's). */
    static const unsigned char pushes[] = {0x48, 0x89, 0xf8, 0x53, 0xc3};
    memset(code, 0xcc, sizeof code);
    memcpy(code, pushes, sizeof pushes);
    len = altmem__x86_copy_plan(at, code, SIZE_MAX, 256, NULL, 0, &plan);
    tail = plan.tail;
    CHECK(len == 3 && tail == 1, "push: %zu bytes, tail %d; want 3, tail", len, tail);

    /* An 8-bit branch out of the copy backwards: nothing before it can be cut
       with it, so the copy stops before it. */
    static const unsigned char back[] = {0x48, 0x89, 0xf8, 0xeb, 0xf0};
    memcpy(code, back, sizeof back);
    len = altmem__x86_copy_plan(at, code, SIZE_MAX, 256, NULL, 0, &plan);
    tail = plan.tail;
    CHECK(len == 3 && tail == 1, "backward rel8: %zu bytes, tail %d; want 3, tail", len, tail);

    /* No path goes on after the ret, but the 8-bit jae reaches past the room:
       the copy must stop before it, not take the function as whole (an entry
       copied whole with such a jae jumped into the next stub). */
    static const unsigned char past[] = {0x48, 0x39, 0xc2, 0x73, 0x7f, 0xc3};
    memset(code, 0xcc, sizeof code);
    memcpy(code, past, sizeof past);
    len = altmem__x86_copy_plan(at, code, SIZE_MAX, 0x40, NULL, 0, &plan);
    tail = plan.tail;
    CHECK(len == 3 && tail == 1, "rel8 past the room: %zu bytes, tail %d; want 3, tail", len, tail);

    /* Out of reach: nothing copied. */
    len = altmem__x86_copy_plan(src - ((uintptr_t)1 << 31), (const unsigned char *)entry, SIZE_MAX, 256, NULL, 0, &plan);
    tail = plan.tail;
    CHECK(len == 0, "2 GiB away: %zu bytes copied", len);

    /* A branch into the middle of an instruction: refused. */
    static const unsigned char middle[] = {0x76, 0x01, 0x48, 0x89, 0xf8, 0xc3};
    memcpy(code, middle, sizeof middle);
    len = altmem__x86_copy_plan(at, code, SIZE_MAX, 256, NULL, 0, &plan);
    tail = plan.tail;
    CHECK(len == 0, "a branch into an instruction: %zu bytes copied", len);

    printf("x86_copy: %d failures\n", failures);
    return failures != 0;
}

int main(int argc, char **argv)
{
    if (argc >= 2 && !strcmp(argv[1], "--objdump"))
        return objdump_mode(argc >= 3 && !strcmp(argv[2], "--strict"));
    if (argc >= 2 && !strcmp(argv[1], "--copy"))
        return copy_mode();
    fprintf(stderr, "usage: objdump -d -w --insn-width=16 FILE | test_x86_insn --objdump [--strict]\n"
                    "       test_x86_insn --copy\n");
    return 2;
}

/*
 * x86-64 instruction lengths (insn.h).  Intel SDM vol. 2, appendix A (opcode
 * maps) and 2.3/2.7 (VEX, EVEX); one switch per map, so that each opcode's
 * operands are read where the map lists them.
 *
 * Assumptions: 64-bit mode (C4, C5 and 62 are always VEX/EVEX prefixes; 06, 07,
 * 27, 60, 61, 82, 9A, C4/C5 as LES/LDS, D4-D6, EA are invalid).
 */
#include "insn.h"

enum {
    MODRM = 1,      /* a ModRM byte (and SIB, displacement) follows the opcode   */
    IMM8 = 2,
    IMM16 = 4,
    IMMZ = 8,       /* 16 or 32 bits by operand size                             */
    IMMV = 16,      /* 16, 32 or 64 bits (mov reg, imm)                          */
    MOFFS = 32,     /* a 64-bit address                                          */
    REL8 = 64,
    RELZ = 128,     /* rel32 (rel16 under 66: refused)                           */
    BAD = 256,
    GPR_RM = 512,   /* the ModRM r/m operand is a general register when mod = 3  */
    GPR_REG = 1024, /* the ModRM reg operand is a general register               */
    STACK = 2048,   /* writes %rsp whatever its operands                         */
};

/* One-byte map. */
static unsigned one_byte(unsigned op, unsigned *flow)
{
    *flow = ALTMEM_X86_NEXT;
    if (op < 0x40) {                                 /* ALU rows: ADD ... CMP     */
        switch (op & 7) {
        case 0: case 1: case 2: case 3: return MODRM | GPR_RM | GPR_REG;
        case 4: return IMM8;
        case 5: return IMMZ;
        default: return BAD;                         /* 0F handled; prefixes, BCD */
        }
    }
    if (op >= 0x50 && op <= 0x5f)
        return STACK;                                /* push, pop                  */
    if (op >= 0x70 && op <= 0x7f) {
        *flow = ALTMEM_X86_JCC;
        return REL8;
    }
    if (op >= 0x84 && op <= 0x8e)
        return MODRM | GPR_RM | GPR_REG;             /* test xchg mov lea (8C/8E: sreg) */
    if (op >= 0x90 && op <= 0x97)
        return op == 0x94 ? STACK : 0;               /* xchg eax, r (94: esp)      */
    if (op >= 0xb0 && op <= 0xb7)
        return op == 0xb4 ? IMM8 | STACK : IMM8;     /* mov r8, imm8 (b4 with REX: spl) */
    if (op >= 0xb8 && op <= 0xbf)
        return op == 0xbc ? IMMV | STACK : IMMV;
    if (op >= 0xd8 && op <= 0xdf)
        return MODRM;                                /* x87                        */
    switch (op) {
    case 0x63: return MODRM | GPR_RM | GPR_REG;      /* movsxd                     */
    case 0x68: return IMMZ | STACK;
    case 0x69: return MODRM | IMMZ | GPR_RM | GPR_REG;
    case 0x6a: return IMM8 | STACK;
    case 0x6b: return MODRM | IMM8 | GPR_RM | GPR_REG;
    case 0x6c: case 0x6d: case 0x6e: case 0x6f: return 0;
    case 0x80: case 0x83: case 0xc0: case 0xc1: case 0xc6: return MODRM | IMM8 | GPR_RM;
    case 0x81: case 0xc7: return MODRM | IMMZ | GPR_RM;
    case 0x8f: return MODRM | STACK;                 /* pop r/m                    */
    case 0x98: case 0x99: case 0x9b: case 0x9e: case 0x9f: return 0;
    case 0x9c: case 0x9d: return STACK;              /* pushf, popf                */
    case 0xa0: case 0xa1: case 0xa2: case 0xa3: return MOFFS;
    case 0xa4: case 0xa5: case 0xa6: case 0xa7: return 0;
    case 0xa8: return IMM8;
    case 0xa9: return IMMZ;
    case 0xaa: case 0xab: case 0xac: case 0xad: case 0xae: case 0xaf: return 0;
    case 0xc2: *flow = ALTMEM_X86_END; return IMM16;  /* ret imm16                  */
    case 0xc3: *flow = ALTMEM_X86_END; return 0;
    case 0xc8: return IMM16 | IMM8 | STACK;          /* enter                      */
    case 0xc9: return STACK;                         /* leave                      */
    case 0xca: *flow = ALTMEM_X86_END; return IMM16;
    case 0xcb: case 0xcc: case 0xcf: *flow = ALTMEM_X86_END; return 0;
    case 0xcd: return IMM8;
    case 0xd0: case 0xd1: case 0xd2: case 0xd3: return MODRM | GPR_RM;
    case 0xd7: return 0;                             /* xlat                       */
    case 0xe0: case 0xe1: case 0xe2: case 0xe3: *flow = ALTMEM_X86_JCC; return REL8;
    case 0xe4: case 0xe5: case 0xe6: case 0xe7: return IMM8;
    case 0xe8: *flow = ALTMEM_X86_CALL; return RELZ;
    case 0xe9: *flow = ALTMEM_X86_JMP; return RELZ;
    case 0xeb: *flow = ALTMEM_X86_JMP; return REL8;
    case 0xec: case 0xed: case 0xee: case 0xef: return 0;
    case 0xf1: case 0xf5: case 0xf8: case 0xf9: case 0xfa: case 0xfb: case 0xfc: case 0xfd: return 0;
    case 0xf4: *flow = ALTMEM_X86_END; return 0;     /* hlt                        */
    case 0xf6: case 0xf7: case 0xfe: case 0xff: return MODRM | GPR_RM;  /* groups: in decode */
    default: return BAD;
    }
}

/* Two-byte map, 0F xx. */
static unsigned two_byte(unsigned op, unsigned rep, unsigned *flow)
{
    *flow = ALTMEM_X86_NEXT;
    if (op >= 0x80 && op <= 0x8f) {
        *flow = ALTMEM_X86_JCC;
        return RELZ;
    }
    if (op >= 0x40 && op <= 0x4f)
        return MODRM | GPR_RM | GPR_REG;             /* cmov                       */
    if (op >= 0x90 && op <= 0x9f)
        return MODRM | GPR_RM;                       /* setcc                      */
    if (op >= 0xc8 && op <= 0xcf)
        return op == 0xcc ? STACK : 0;               /* bswap (cc: esp)            */
    if ((op >= 0x10 && op <= 0x1f) || (op >= 0x28 && op <= 0x2f && op != 0x2c && op != 0x2d) ||
        (op >= 0x51 && op <= 0x6f && op != 0x6e) || (op >= 0x74 && op <= 0x76) ||
        (op >= 0x7c && op <= 0x7d) || op == 0x7f || (op >= 0xd0 && op <= 0xfe && op != 0xd7))
        return MODRM;                                /* SSE and hints: no GPR written */
    switch (op) {
    case 0x00: case 0x01: case 0x02: case 0x03: case 0x0d: return MODRM | GPR_RM | GPR_REG;
    case 0x05: case 0x06: case 0x07: case 0x08: case 0x09: return 0;
    case 0x0b: *flow = ALTMEM_X86_END; return 0;     /* ud2                        */
    case 0x0e: return 0;
    case 0x20: case 0x21: case 0x22: case 0x23: return MODRM | GPR_RM;  /* mov cr/dr: r/m is always a register */
    case 0x2c: case 0x2d: return MODRM | GPR_REG;    /* cvt to a GPR               */
    case 0x30: case 0x31: case 0x32: case 0x33: case 0x34: case 0x35: case 0x37: return 0;
    case 0x50: return MODRM | GPR_REG;               /* movmskps                   */
    case 0x6e: return MODRM;                         /* movd from a GPR            */
    case 0x70: case 0x71: case 0x72: case 0x73: return MODRM | IMM8;
    case 0x77: return 0;                             /* emms                       */
    case 0x78: case 0x79: return MODRM | GPR_RM | GPR_REG;
    case 0x7e: return rep == 0xf3 ? MODRM : MODRM | GPR_RM;   /* movd to a GPR; f3: movq xmm */
    case 0xa0: case 0xa1: case 0xa8: case 0xa9: return STACK;
    case 0xa2: case 0xaa: return 0;
    case 0xa3: case 0xab: case 0xb3: case 0xbb: return MODRM | GPR_RM | GPR_REG;
    case 0xa4: case 0xac: return MODRM | IMM8 | GPR_RM | GPR_REG;
    case 0xa5: case 0xad: case 0xaf: return MODRM | GPR_RM | GPR_REG;
    case 0xae: return MODRM | GPR_RM;                /* fences, rdfsbase ...       */
    case 0xb0: case 0xb1: case 0xb2: case 0xb4: case 0xb5: case 0xb6: case 0xb7:
    case 0xb8: case 0xb9: case 0xbc: case 0xbd: case 0xbe: case 0xbf:
    case 0xc0: case 0xc1: case 0xc3: case 0xc7: return MODRM | GPR_RM | GPR_REG;
    case 0xba: return MODRM | IMM8 | GPR_RM;
    case 0xc2: case 0xc4: case 0xc6: return MODRM | IMM8;
    case 0xc5: return MODRM | IMM8 | GPR_REG;        /* pextrw                     */
    case 0xd7: return MODRM | GPR_REG;               /* pmovmskb                   */
    case 0xff: return MODRM;                         /* ud0                        */
    default: return BAD;                             /* 04 0a 0c 0f(3DNow!) 24-27 36 39 3b-3f 7a 7b a6 a7 */
    }
}

/* 0F38 and 0F3A maps (legacy, VEX or EVEX): which operands may be a GPR written. */
static unsigned three_byte(unsigned map, unsigned op)
{
    if (map == 2)
        return op >= 0xf0 && op <= 0xf7 ? MODRM | GPR_RM | GPR_REG : MODRM;  /* movbe crc32 BMI */
    if (op >= 0x14 && op <= 0x17)
        return MODRM | IMM8 | GPR_RM;                /* pextr*, extractps          */
    return op == 0xf0 ? MODRM | IMM8 | GPR_REG : MODRM | IMM8;  /* rorx           */
}

/* VEX/EVEX map 1 (0F): as the legacy map, for the opcodes that have a VEX form. */
static unsigned vex_map1(unsigned op, unsigned pp)
{
    switch (op) {
    case 0x2c: case 0x2d: case 0x50: case 0xd7: return MODRM | GPR_REG;
    case 0x7e: return pp == 2 ? MODRM : MODRM | GPR_RM;
    case 0x70: case 0x71: case 0x72: case 0x73: case 0xc2: case 0xc4: case 0xc6: return MODRM | IMM8;
    case 0xc5: return MODRM | IMM8 | GPR_REG;
    case 0x90: case 0x91: case 0x92: case 0x93: case 0x98: case 0x99:
        return MODRM | GPR_REG;                      /* kmov and friends           */
    default: return MODRM;
    }
}

static uint32_t get_le(const unsigned char *p, unsigned n)
{
    uint32_t v = 0;
    for (unsigned i = 0; i < n; i++)
        v |= (uint32_t)p[i] << (8 * i);
    return v;
}

size_t altmem__x86_insn_decode(const unsigned char *p, size_t avail, struct altmem__x86_insn *out)
{
    size_t i = 0, lim = avail < 15 ? avail : 15;
    unsigned opsize16 = 0, addr32 = 0, rep = 0, rex = 0;
    out->len = out->flow = out->rel_at = out->rel_size = out->rip_at = out->stack = 0;
    for (;; i++) {                                   /* legacy prefixes            */
        if (i >= lim)
            return 0;
        unsigned b = p[i];
        if (b == 0x66)
            opsize16 = 1;
        else if (b == 0x67)
            addr32 = 1;
        else if (b == 0xf2 || b == 0xf3)
            rep = b;
        else if (b != 0xf0 && b != 0x2e && b != 0x36 && b != 0x3e && b != 0x26 && b != 0x64 && b != 0x65)
            break;
    }
    if ((p[i] & 0xf0) == 0x40) {
        rex = p[i++];
        if (i >= lim)
            return 0;
    }
    unsigned rex_w = (rex >> 3) & 1, ext_r = (rex >> 2) & 1, ext_b = rex & 1, vvvv = 15;
    unsigned op = p[i++], attr, flow = ALTMEM_X86_NEXT, group = 0;
    if (op == 0xc4 || op == 0xc5 || op == 0x62) {
        if (rex || opsize16 || rep)
            return 0;                                /* invalid before VEX/EVEX    */
        unsigned map, pp;
        if (op == 0xc5) {
            if (i + 1 >= lim)
                return 0;
            unsigned b1 = p[i++];
            map = 1, pp = b1 & 3, ext_r = !(b1 & 0x80), ext_b = 0, vvvv = (~b1 >> 3) & 15;
        } else if (op == 0xc4) {
            if (i + 2 >= lim)
                return 0;
            unsigned b1 = p[i++], b2 = p[i++];
            map = b1 & 0x1f, pp = b2 & 3, ext_r = !(b1 & 0x80), ext_b = !(b1 & 0x20);
            rex_w = b2 >> 7, vvvv = (~b2 >> 3) & 15;
        } else {
            if (i + 3 >= lim)
                return 0;
            unsigned p0 = p[i++], p1 = p[i++];
            i++;                                     /* P2: z, L'L, b, V', aaa     */
            if (!(p1 & 4))
                return 0;
            map = p0 & 7, pp = p1 & 3, ext_r = !(p0 & 0x80), ext_b = !(p0 & 0x20);
            rex_w = p1 >> 7, vvvv = (~p1 >> 3) & 15;
        }
        unsigned op2 = p[i++];
        if (map == 1)
            attr = op == 0x62 || op2 != 0x77 ? vex_map1(op2, pp) : 0;   /* vzeroupper/all */
        else if (map == 2 || map == 3)
            attr = three_byte(map, op2);
        else
            return 0;
        if (map == 2 && op2 >= 0xf0 && vvvv == 4)
            attr |= STACK;                           /* BMI's vvvv is a GPR (mulx writes it) */
        op = op2;
    } else if (op == 0x0f) {
        if (i >= lim)
            return 0;
        unsigned op2 = p[i++];
        if (op2 == 0x38 || op2 == 0x3a) {
            if (i >= lim)
                return 0;
            attr = three_byte(op2 == 0x38 ? 2 : 3, p[i++]);
        } else {
            attr = two_byte(op2, rep, &flow);
            if (op2 >= 0x20 && op2 <= 0x23)
                group = 2;                           /* r/m is a register whatever mod says */
        }
    } else {
        attr = one_byte(op, &flow);
        if (op == 0xf6 || op == 0xf7 || op == 0xfe || op == 0xff || op == 0xc6 || op == 0xc7 || op == 0x8f)
            group = 1;                               /* the ModRM reg field picks the instruction */
    }
    if (attr & BAD)
        return 0;
    if (attr & MODRM) {
        if (i >= lim)
            return 0;
        unsigned m = p[i++], mod = m >> 6, reg = (m >> 3) & 7, rm = m & 7;
        if (group == 1) {                            /* the reg field picks the instruction */
            if (op == 0xf6 && reg < 2)
                attr |= IMM8;
            if (op == 0xf7 && reg < 2)
                attr |= IMMZ;
            if (op == 0x8f && reg != 0)
                return 0;                            /* XOP (AMD), not pop          */
            if (op == 0xff && (reg == 3 || reg == 5 || reg == 7))
                return 0;                            /* far call/jmp, invalid       */
            if (op == 0xff && reg == 4)
                flow = ALTMEM_X86_END;               /* jmp *r/m: target unknown    */
            if (op == 0xff && reg == 6)
                attr |= STACK;                       /* push r/m                    */
            if (op == 0xfe && reg > 1)
                return 0;
            if (op == 0xc7 && m == 0xf8) {           /* xbegin rel32: the abort path */
                attr = (attr & ~IMMZ) | RELZ;
                flow = ALTMEM_X86_JCC;
            } else if ((op == 0xc6 || op == 0xc7) && reg != 0 && m != 0xf8) {
                return 0;
            }
        }
        if (group == 2)
            mod = 3;
        if ((attr & GPR_RM) && mod == 3 && rm == 4 && !ext_b)
            attr |= STACK;
        if ((attr & GPR_REG) && reg == 4 && !ext_r)
            attr |= STACK;
        if (mod != 3) {
            unsigned disp = mod == 1 ? 1 : mod == 2 ? 4 : 0;
            if (rm == 4) {
                if (i >= lim)
                    return 0;
                unsigned sib = p[i++];
                if (mod == 0 && (sib & 7) == 5)
                    disp = 4;
            } else if (mod == 0 && rm == 5) {
                if (addr32)
                    return 0;                        /* EIP-relative                */
                out->rip_at = (unsigned char)i;
                disp = 4;
            }
            i += disp;
        }
    }
    if (attr & (REL8 | RELZ)) {
        if ((attr & RELZ) && opsize16 && !rex_w)
            return 0;                                /* rel16 on AMD; REX.W rules   */
        out->rel_at = (unsigned char)i;
        out->rel_size = attr & REL8 ? 1 : 4;
        i += out->rel_size;
    }
    if (attr & IMMZ)
        i += opsize16 && !rex_w ? 2 : 4;
    if (attr & IMMV)
        i += rex_w ? 8 : opsize16 ? 2 : 4;
    if (attr & MOFFS)
        i += addr32 ? 4 : 8;
    if (attr & IMM16)
        i += 2;
    if (attr & IMM8)
        i += 1;
    if (i > lim)
        return 0;
    out->len = (unsigned char)i;
    out->flow = (unsigned char)flow;
    out->stack = (attr & STACK) != 0;
    return i;
}

int64_t altmem__x86_insn_target(const unsigned char *p, const struct altmem__x86_insn *in)
{
    uint32_t raw = get_le(p + in->rel_at, in->rel_size);
    int64_t rel = in->rel_size == 1 ? (int64_t)(int8_t)raw : (int64_t)(int32_t)raw;
    return (int64_t)in->len + rel;
}

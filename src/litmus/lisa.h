/*
 * lisa.h — the LISA front end (herd7's "Bell" architecture, header `LISA`
 * or `Bell`): the architecture-neutral language whose instructions carry
 * annotations that a bell file gives meaning to (`r[acquire] r1 x`,
 * `w[release] y 1`, `f[mb]`, `rmw[...] r1 (add r1 1) x`, `b[] r1 L`,
 * `mov r1 (eq r2 0)`), as lib/LISAParser.mly reads it.
 *
 * REGISTERS: r0..r99 are ids 0..99, printed "rN"; `%name` symbolic
 * registers are allocated to r0..r99 (herd's allowed_for_symb).
 *
 * OPERANDS.  An annotation list is ops[0], OPK_STR: sym the names joined by
 * ',' ("" for []), imm their number.  An address (addr_op) is OPK_MEM:
 * reg the base register or -1 with sym the location's name; sub = 1 when
 * "+ x" follows, x being reg2 (a register) or imm (reg2 = -1).  A value
 * operand (any_value) is OPK_REG, OPK_SYM (a location's address) or
 * OPK_IMM.  An operation is its value operands, flags = its LISAAlu.
 *   LISA_LD    annots, reg, addr              r[annots] reg addr
 *   LISA_ST    annots, addr, reg | imm        w[annots] addr value
 *   LISA_F     annots [, OPK_STR from, OPK_STR to]   f[annots] {L..} {L..}
 *   LISA_RMW   annots, reg, operation, addr   rmw[annots] reg op addr
 *   LISA_B     annots [, reg], OPK_LABEL      b[annots] [reg] L
 *   LISA_MOV   reg, operation                 mov reg op
 */
#ifndef CORRAL_LISA_H
#define CORRAL_LISA_H

#include "litmus.h"

enum { LISA_NREGS = 100 };

typedef enum LISAOp { LISA_LD, LISA_ST, LISA_F, LISA_RMW, LISA_B, LISA_MOV } LISAOp;

/* An operation: a value alone, or (add|xor|and|eq|neq x y). */
typedef enum LISAAlu { LISA_VAL, LISA_ADD, LISA_XOR, LISA_AND, LISA_EQ, LISA_NEQ } LISAAlu;

/* The set name of the i-th annotation: its first letter upper-cased, as
 * herd names the set of events carrying it ('acquire -> Acquire); a
 * string that lives as long as the test.  NULL past the end. */
const char *lisa_tag(const Operand *list, int i);

extern const ArchOps lisa_arch_ops;

#endif

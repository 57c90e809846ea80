/*
 * test_litmus.c — unit tests of the litmus front end (parse.c, the X86,
 * X86_64, PPC, RISC-V, ARM and MIPS parsers), the Hash= digest and the Condition
 * printer; then, when ../shared/conformance/suites exists, a pass over
 * every X86/X86_64/PPC/RISCV test of the x86, ppc, article, sc and riscv
 * suites comparing
 * our Hash= and Condition lines with herd7's .expected output.
 */
#include <dirent.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "litmus/litmus.h"
#include "report/cond.h"
#include "report/hash.h"

/* ------------------------------------------------------------- helpers */

/* Parse text; on failure returns NULL and leaves "LINE:COL: msg" in
 * errbuf (without the file name). */
static Test *parse_str(const char *text, char *errbuf, size_t n) {
  Err err;
  err_init(&err);
  Test *t = litmus_parse("t.litmus", text, &err);
  if (!t && errbuf)
    snprintf(errbuf, n, "%d:%d: %s", err.pos.line, err.pos.col,
             sb_cstr(&err.msg));
  err_free(&err);
  return t;
}

/* The Condition text of a test, or the parse error. */
static char *cond_of(const char *text) {
  static char buf[4][4096]; /* only for these single-threaded tests */
  static int k;
  char *out = buf[k++ & 3];
  Test *t = parse_str(text, out, 4096);
  if (!t) return out;
  StrBuf b;
  sb_init(&b);
  print_condition(t, false, &b);
  snprintf(out, 4096, "%s", sb_cstr(&b));
  sb_free(&b);
  test_free(t);
  return out;
}

static char *error_of(const char *text) {
  static char buf[4096];
  Test *t = parse_str(text, buf, sizeof buf);
  if (t) {
    test_free(t);
    return "(no error)";
  }
  return buf;
}

/* The canonical (hash) spelling of one instruction of arch, or the error. */
static char *ins_of(const char *arch, const char *ins) {
  static char out[4096];
  char text[2048];
  snprintf(text, sizeof text, "%s T\n{}\n P0 ;\n %s ;\n", arch, ins);
  Test *t = parse_str(text, out, sizeof out);
  if (!t) return out;
  StrBuf b;
  sb_init(&b);
  if (t->nthreads == 1 && t->threads[0].nentries == 1)
    t->ops->print_instr(t->threads[0].entries[0].ins, &b, NULL, NULL);
  snprintf(out, sizeof out, "%s", sb_cstr(&b));
  sb_free(&b);
  test_free(t);
  return out;
}

static char *hash_of(const char *text) {
  static char out[4096];
  Test *t = parse_str(text, out, sizeof out);
  if (!t) return out;
  test_hash(t, out);
  test_free(t);
  return out;
}

/* The S_init / S_code / S_obs strings of a test. */
static char *part_of(const char *text, void (*f)(const Test *, StrBuf *)) {
  static char out[4096];
  Test *t = parse_str(text, out, sizeof out);
  if (!t) return out;
  StrBuf b;
  sb_init(&b);
  f(t, &b);
  snprintf(out, sizeof out, "%s", sb_cstr(&b));
  sb_free(&b);
  test_free(t);
  return out;
}

/* ------------------------------------------------------ spec examples */

static const char *const sb_test =
    "X86 SB\n\"Fre PodWR Fre PodWR\"\n{ x=0; y=0; }\n"
    " P0          | P1          ;\n"
    " MOV [x],$1  | MOV [y],$1  ;\n"
    " MOV EAX,[y] | MOV EAX,[x] ;\n"
    "exists (0:EAX=0 /\\ 1:EAX=0)\n";

static void test_spec_examples(void) {
  CHECK_STR(hash_of(sb_test), "7dbd6b8e6dd4abc2ef3d48b0376fb2e3");
  CHECK_STR(part_of(sb_test, hash_init_string), "x=0; y=0");
  CHECK_STR(part_of(sb_test, hash_code_string),
            " MOV [x],$1  | MOV [y],$1  ;\n MOV EAX,[y] | MOV EAX,[x] ;\n");
  CHECK_STR(part_of(sb_test, hash_obs_string), "0:EAX; 1:EAX");
  CHECK_STR(cond_of(sb_test), "exists (0:EAX=0 /\\ 1:EAX=0)");
  const char *mp =
      "PPC MP+syncs\n\"SyncdWW Rfe SyncdRR Fre\"\n"
      "Cycle=Rfe SyncdRR Fre SyncdWW\n{\n0:r2=x; 0:r4=y;\n1:r2=y; 1:r4=x;\n}\n"
      " P0           | P1           ;\n"
      " li r1,1      | lwz r1,0(r2) ;\n"
      " stw r1,0(r2) | sync         ;\n"
      " sync         | lwz r3,0(r4) ;\n"
      " li r3,1      |              ;\n"
      " stw r3,0(r4) |              ;\n"
      "~exists (1:r1=1 /\\ 1:r3=0)\n";
  CHECK_STR(hash_of(mp), "6fa2fc8a03a8948f9262ae5fd1e47a19");
  CHECK_STR(cond_of(mp), "~exists (1:r1=1 /\\ 1:r3=0)");
  const char *loc =
      "X86 LOC\n{ x=-3; y=0; }\n"
      " P0          | P1          ;\n"
      " MOV [x],$-1 | MOV EAX,[x] ;\n"
      " MOV [y],$1  | MOV EBX,[y] ;\n"
      "locations [y; 1:EBX;]\nfilter (1:EAX=-1)\n"
      "exists (1:EAX=-1 /\\ 1:EBX=0)\n";
  CHECK_STR(hash_of(loc), "7131a28b1d05a6cc4ce2ceab070d860b");
  CHECK_STR(part_of(loc, hash_obs_string), "1:EAX; 1:EBX; y");
  Test *t = parse_str(loc, NULL, 0);
  CHECK(t != NULL);
  if (t) {
    StrBuf b;
    sb_init(&b);
    print_condition(t, true, &b);
    CHECK_STR(sb_cstr(&b), "exists (1:EAX=0xffffffff /\\ 1:EBX=0x0)");
    CHECK(t->filter != NULL && t->nlocations == 2);
    sb_free(&b);
    test_free(t);
  }
  const char *noc = "X86 NOC2\n{ x=0; y=0; }\n P0          | P1 ;\n"
                    " MOV [x],$1  | MOV EAX,[x] ;\n";
  CHECK_STR(hash_of(noc), "38d6c0c92313ad23bd87a05836dde357");
  CHECK_STR(cond_of(noc), "forall (true)");
  const char *w4 = "X86 W4\n{ x=0; }\n P0          | P1          ;\n"
                   " MOV [x],$1  | MOV [x],$2  ;\n MOV EAX,[x] |             ;\n"
                   "exists (0:EAX=1 /\\ x=2)\n";
  CHECK_STR(hash_of(w4), "9a47650f1fc733e74cbef258b04e5230");
  CHECK_STR(cond_of(w4), "exists (0:EAX=1 /\\ [x]=2)");
}

/* --------------------------------------------------------- conditions */

#define X86_HEAD "X86 C\n{ x=0; y=0; }\n P0 ;\n MOV [x],$1 ;\n"

static void test_conditions(void) {
  CHECK_STR(cond_of(X86_HEAD "exists (x=1 /\\ y=1 => x=2)"),
            "exists ([x]=1 /\\ ([y]=1 => [x]=2))");
  CHECK_STR(cond_of(X86_HEAD "exists (x=1 => y=1 \\/ x=2)"),
            "exists (([x]=1 => [y]=1) \\/ [x]=2)");
  CHECK_STR(cond_of(X86_HEAD "exists (x=1 => y=1 => x=2)"),
            "exists ([x]=1 => [y]=1 => [x]=2)");
  CHECK_STR(cond_of(X86_HEAD "exists ((x=1 /\\ y=1) \\/ x=2)"),
            "exists ([x]=1 /\\ [y]=1 \\/ [x]=2)");
  CHECK_STR(cond_of(X86_HEAD "exists (x=1 \\/ (y=2 /\\ ~x=2))"),
            "exists ([x]=1 \\/ [y]=2 /\\ not ([x]=2))");
  CHECK_STR(cond_of(X86_HEAD "exists ((x=1 \\/ y=1) /\\ x=2)"),
            "exists (([x]=1 \\/ [y]=1) /\\ [x]=2)");
  CHECK_STR(cond_of(X86_HEAD "exists x!=1"), "exists (not ([x]=1))");
  CHECK_STR(cond_of(X86_HEAD "exists (x<>1 /\\ not y==2)"),
            "exists (not ([x]=1) /\\ not ([y]=2))");
  CHECK_STR(cond_of(X86_HEAD "exists ~(x=1 \\/ y=1)"),
            "exists (not ([x]=1 \\/ [y]=1))");
  CHECK_STR(cond_of(X86_HEAD "~ exists ([x]=0x10)"), "~exists ([x]=16)");
  CHECK_STR(cond_of(X86_HEAD "forall (true \\/ false)"),
            "forall (true \\/ false)");
  CHECK_STR(cond_of(X86_HEAD "final x=1;"), "exists ([x]=1)");
  /* a bare (P) is only seen after locations/filter: herd's splitter cuts
   * the code section at keywords */
  CHECK_STR(cond_of(X86_HEAD "locations [y;] (x=1)"), "exists ([x]=1)");
  CHECK_STR(cond_of(X86_HEAD "exists (0:EAX=x /\\ x=y)"),
            "exists (0:EAX=x /\\ [x]=y)");
  CHECK_STR(cond_of(X86_HEAD "exists (x=0:EAX /\\ [y]=[x])"),
            "exists ([x]=0:EAX /\\ [y]=[x])");
  CHECK_STR(cond_of(X86_HEAD "observed x=1; y=1; and x=2;"),
            "exists ([x]=1 /\\ [y]=1 \\/ [x]=2)");
  CHECK_STR(cond_of(X86_HEAD "locations [x;]"), "forall (true)");
  CHECK_STR(cond_of(X86_HEAD "exists (x=1) with tso:exists;"),
            "exists ([x]=1)");
  /* constants print as parsed, a signed scalar of the machine's width,
   * whatever the location's type (values-and-loops.md 3.6) */
  CHECK_STR(cond_of(X86_HEAD "exists (x=0xffffffff)"), "exists ([x]=-1)");
  const char *ppc =
      "PPC T\n{ uint64_t 0:r1; int64_t 0:r2; uint8_t z; }\n P0 ;\n nop ;\n"
      "exists (0:r1=-1 /\\ 0:r2=0xffffffff /\\ 0:r3=4294967296 /\\ z=257)";
  CHECK_STR(cond_of(ppc), "exists (0:r1=-1 /\\ "
                          "0:r2=4294967295 /\\ 0:r3=4294967296 /\\ [z]=257)");
  CHECK_STR(cond_of("PPC T\n{ int t[2] = {1,2}; }\n P0 ;\n nop ;\n"
                    "exists (t={1,2} /\\ t[1]=2 /\\ 0:r1=label:\"P0:L0\")"),
            "exists (t={1,2} /\\ t[1]=2 /\\ 0:r1=label:\"P0:L0\")");
  CHECK_STR(cond_of("X86_64 T\n{}\n P0 ;\n movl %eax,(x) ;\n"
                    "exists (0:rax=1 /\\ 0:%rbx=2)"),
            "exists (0:rax=1 /\\ 0:rbx=2)");
}

/* ------------------------------------------------------- init section */

static void test_init(void) {
  const char *t1 = "PPC T\n{ int *p=y; int x=1; 0:r1=x; uint64_t 1:r3; }\n"
                   " P0 | P1 ;\n nop | nop ;\n";
  CHECK_STR(part_of(t1, hash_init_string),
            "0:r1=x; uint64_t 1:r3=0; int *p=y; int x=1");
  const char *t2 = "PPC T\n{ int t[2] = {1,2}; int b = -1; *q=&b; "
                   "_Atomic int a=ATOMIC_INIT(3); [c]=0x10; P1:r2=P0:L0; "
                   "0:r4=label:\"P1:L1\"; int* d=&c }\n"
                   " P0 | P1 ;\n L0: | L1: ;\n";
  CHECK_STR(part_of(t2, hash_init_string),
            "0:r4=1:L1; 1:r2=0:L0; _Atomic int a=3; int b=-1; c=0x10; "
            "int *d=c; *q=b; int t[2]");
  CHECK_STR(error_of("PPC T\n{ x=1; x=2; }\n P0 ;\n nop ;\n"),
            "2:8: Location x is initialized more than once");
  CHECK_STR(error_of("PPC T\n{ 0:r99=1; }\n P0 ;\n nop ;\n"),
            "2:5: r99 is not a register");
  CHECK_STR(error_of("PPC T\n{ int t[2] = {1}; }\n P0 ;\n nop ;\n"),
            "2:9: Declared size of array t does not match initial value "
            "size");
  CHECK_STR(error_of("PPC T\n{ x=1 y=2 }\n P0 ;\n nop ;\n"),
            "2:7: expected ';' between initial state items, found 'y'");
  CHECK_STR(error_of("PPC T\n{ x=1; \n P0 ;\n nop ;\n"),
            "2:1: unterminated initial state section (missing '}')");
  CHECK_STR(error_of("PPC T\n{ x=# }\n P0 ;\n nop ;\n"),
            "2:5: unexpected character '#'");
}

/* ---------------------------------------------------- header, sections */

static void test_sections(void) {
  const char *t = "X86 N (tex) \n \"doc\";\n(*{not a brace} *)\n"
                  "Cycle=a b\nMemoryType = foo \n{}\n"
                  " P0 ;\n (* exists *) MOV [x],$1 ;\n"
                  "(* forall *)\nexists (x=1)\n<<\nanything (\n";
  Test *tt = parse_str(t, NULL, 0);
  CHECK(tt != NULL);
  if (tt) {
    CHECK_STR(tt->name, "N");
    CHECK_STR(tt->doc, "doc");
    CHECK_INT(tt->nmeta, 2);
    CHECK_STR(test_meta(tt, "Cycle"), "a b");
    CHECK_STR(test_meta(tt, "MemoryType"), "foo ");
    test_free(tt);
  }
  /* herd's splitter (longest match): "(*" starts a comment in the header
   * only when directly followed by a newline or '{'; otherwise the text up
   * to the next '{' is skipped, and that '{' opens the init section. */
  CHECK_STR(cond_of("X86 N\n(*\n{ *)\n{}\n P0 ;\n MOV [x],$1 ;\n"),
            "forall (true)");
  CHECK_STR(error_of("X86 N\n(* a { *)\n{}\n P0 ;\n MOV [x],$1 ;\n"),
            "2:6: unterminated initial state section (missing '}')");
  /* the MemoryType key enters the digest, Cycle does not */
  const char *base = "X86 N\n{}\n P0 ;\n MOV [x],$1 ;\n";
  char h0[33], h1[33], h2[33];
  snprintf(h0, sizeof h0, "%s", hash_of(base));
  snprintf(h1, sizeof h1, "%s", hash_of("X86 N\nCycle=x\n{}\n P0 ;\n"
                                        " MOV [x],$1 ;\n"));
  snprintf(h2, sizeof h2, "%s", hash_of("X86 N\nMT=x\n{}\n P0 ;\n"
                                        " MOV [x],$1 ;\n"));
  CHECK_STR(h1, h0);
  CHECK(strcmp(h2, h0) != 0);
  CHECK_STR(hash_of("X86 N\nHash=0123abc\n{}\n P0 ;\n MOV [x],$1 ;\n"),
            "0123abc");
  CHECK_STR(hash_of("X86 N\nhash=0123abc\n{}\n P0 ;\n MOV [x],$1 ;\n"), "");
  Test *n = parse_str("X86 --\n{}\n P0 ;\n MOV [x],$1 ;\n", NULL, 0);
  CHECK(n && strcmp(n->name, "t") == 0);
  test_free(n);
  CHECK_STR(error_of("C T\n{}\nP0(int *x) { *x = ; }\n"),
            "3:19: syntax error: expected an expression, found ';'");
  CHECK_STR(error_of("AArch64 T\n{}\n P0 ;\n FOO ;\n"),
            "4:2: unknown AArch64 instruction 'FOO'");
  CHECK_STR(error_of("Z80 T\n{}\n"), "1:1: Z80 is not an implemented "
                                     "architecture");
  CHECK_STR(error_of(""), "1:1: expected 'ARCH NAME' on the first line");
  CHECK_STR(error_of("X86\n{}\n"),
            "1:4: expected a test name after the architecture");
  CHECK_STR(error_of("X86 T\n"), "2:1: missing initial state section "
                                 "'{ ... }'");
  CHECK_STR(error_of("X86 T\n{}\n P0 ;\n (* MOV ;\n"),
            "4:2: unterminated comment");
  CHECK_STR(error_of(X86_HEAD "exists (x=1"),
            "5:12: expected ')', found the end");
  CHECK_STR(error_of(X86_HEAD "exists (x=1) junk"),
            "5:14: expected the end of the test, found 'junk'");
  CHECK_STR(error_of(X86_HEAD "exists (x 1)"),
            "5:11: expected '=', '==' or '!=', found '1'");
}

/* --------------------------------------------------------- code table */

static void test_code(void) {
  const char *t = "X86 T\n{}\n P0          | P1 ;\n"
                  "             | L1: ;\n"
                  " out: JMP L0 | MOV EAX,[x] ;\n"
                  " L0:         | JNE L1 ;\n";
  Test *tt = parse_str(t, NULL, 0);
  CHECK(tt != NULL);
  if (tt) {
    CHECK_INT(tt->nthreads, 2);
    CHECK_INT(tt->threads[0].nentries, 3);
    CHECK_STR(tt->threads[0].entries[0].label, "out");
    CHECK(tt->threads[0].entries[1].ins != NULL);
    CHECK(tt->threads[0].entries[1].label == NULL);
    CHECK_STR(tt->threads[0].entries[2].label, "L0");
    CHECK_INT(tt->threads[1].nentries, 3);
    CHECK_INT(tt->threads[1].entries[1].pos.line, 5);
    CHECK_INT(tt->threads[1].entries[1].pos.col, 16);
    test_free(tt);
  }
  /* labels renamed in sorted order, globally; empty cells give nothing */
  CHECK_STR(part_of(t, hash_code_string),
            " L02:    | L01:        ;\n"
            " JMP L00 | MOV EAX,[x] ;\n"
            " L00:    | JNE L01     ;\n");
  /* LOCK; inside a cell is not a row end */
  const char *lk = "X86 T\n{}\n P0 | P1 ;\n LOCK; ADD [x],$1 | LOCK XCHG "
                   "[x],EAX ;\n";
  CHECK_STR(part_of(lk, hash_code_string),
            " LOCK; ADD [x],$1 | LOCK; XCHG [x],EAX ;\n");
  CHECK_STR(error_of("X86 T\n{}\n P0 | P2 ;\n"),
            "3:7: Processes must be P0, P1, ... (found 'P2' for P1)");
  CHECK_STR(error_of("X86 T\n{}\n P0 | P1 ;\n MOV [x],$1 ;\n"),
            "4:2: mismatch in instruction lines: 1 cells instead of 2");
  CHECK_STR(error_of("X86 T\n{}\n P0 ;\n MOV [x],$1 \n"),
            "5:1: missing ';' at the end of a code row");
  CHECK_STR(error_of("PPC T\n{}\n P0 ;\n li r1,1 ;\n  foo r1,r2 ;\n"),
            "5:3: unknown PPC instruction 'foo r1,r2'");
  CHECK_STR(error_of("PPC T\n{}\n P0 ;\n lwz r1,0(r99) ;\n"),
            "4:11: PPC instruction 'lwz r1,0(r99)': expected a register "
            "r0..r31");
  CHECK_STR(error_of("X86 T\n{}\n P0 ;\n FOO EAX ;\n"),
            "4:2: unknown X86 instruction 'FOO EAX'");
  CHECK_STR(error_of("X86_64 T\n{}\n P0 ;\n movl $1,(x ;\n"),
            "4:12: X86_64 instruction 'movl $1,(x': expected ')', found end "
            "of instruction");
  /* symbolic registers: allocated to free registers, hashed as written */
  const char *sym = "PPC T\n{ %a=x; %b=y; }\n P0 ;\n lwz r1,0(%b) ;\n"
                    " stw r1,0(%a) ;\nexists (0:r1=1)";
  tt = parse_str(sym, NULL, 0);
  CHECK(tt != NULL);
  if (tt) {
    CHECK_INT(tt->threads[0].entries[1].ins->ops[1].reg, 2); /* %a: r2 */
    CHECK_INT(tt->threads[0].entries[0].ins->ops[1].reg, 3); /* %b: r3 */
    CHECK_INT(tt->init[0].loc.thread, 0);
    CHECK_INT(tt->init[0].loc.regid, 2);
    test_free(tt);
  }
  CHECK_STR(part_of(sym, hash_code_string),
            " lwz r1,0(%b) ;\n stw r1,0(%a) ;\n");
  CHECK_STR(part_of(sym, hash_init_string), "a=x; b=y");
  CHECK_STR(error_of("PPC T\n{ %c=x; }\n P0 ;\n nop ;\n"),
            "2:3: symbolic register %c does not appear in code");
}

/* --------------------------------------------------------- instructions */

static void test_x86(void) {
  CHECK_STR(ins_of("X86", "MOV EAX , [x]"), "MOV EAX,[x]");
  CHECK_STR(ins_of("X86", "mov [EBX],1"), "MOV [EBX],$1");
  CHECK_STR(ins_of("X86", "MOVB (ECX),$-2"), "MOV [ECX],$-2");
  CHECK_STR(ins_of("X86", "CMP EAX,$0"), "CMP  EAX,$0");
  CHECK_STR(ins_of("X86", "INC [x]"), "INC  [x]");
  CHECK_STR(ins_of("X86", "DEC EBX"), "DEC  EBX");
  CHECK_STR(ins_of("X86", "LOCK XCHG [x],EAX"), "LOCK; XCHG [x],EAX");
  CHECK_STR(ins_of("X86", "CMOVC EAX,[x]"), "CMOVC EAX,[x]");
  CHECK_STR(ins_of("X86", "CMPXCHG [x],EBX"), "CMPXCHG [x],EBX");
  CHECK_STR(ins_of("X86", "SETNB [y]"), "SETNB [y]");
  CHECK_STR(ins_of("X86", "XOR EAX,EAX"), "XOR EAX,EAX");
  CHECK_STR(ins_of("X86", "ADD [x],%r"), "ADD [x],%r");
  CHECK_STR(ins_of("X86", "mfence"), "MFENCE");
  CHECK_STR(ins_of("X86", "JE L0"), "JE L0");
  CHECK_STR(ins_of("X86", "MOV eax,[x]"),
            "4:6: X86 instruction 'MOV eax,[x]': expected a register or a "
            "memory operand");
  CHECK_STR(ins_of("X86", "MOV [x],$1,$2"),
            "4:12: X86 instruction 'MOV [x],$1,$2': unexpected ','");
}

static void test_x86_64(void) {
  CHECK_STR(ins_of("X86_64", "movl $1 , (x)"), "movl $1,(x)");
  CHECK_STR(ins_of("X86_64", "movq (x),%rax"), "movq (x),%rax");
  CHECK_STR(ins_of("X86_64", "mov %eax,0(%rbx)"), "mov %eax,(%rbx)");
  CHECK_STR(ins_of("X86_64", "movw %ax,-8(%r8)"), "movw %ax,-8(%r8)");
  CHECK_STR(ins_of("X86_64", "movb %al,4(%rax,%rbx,2)"),
            "movb %al,4(%rax, %rbx,2)");
  CHECK_STR(ins_of("X86_64", "lock; xchgl %eax,(x)"), "lock; xchgl %eax,(x)");
  CHECK_STR(ins_of("X86_64", "MFENCE"), "mfence");
  CHECK_STR(ins_of("X86_64", "nop"), "NOP");
  CHECK_STR(ins_of("X86_64", "cmpxchgq (x),%rbx"), "cmpxchgq (x),%rbx");
  CHECK_STR(ins_of("X86_64", "cmovcl %ecx,(y)"), "cmovcl %ecx,(y)");
  CHECK_STR(ins_of("X86_64", "movnti %eax,(x)"), "movnti %eax,(x)");
  CHECK_STR(ins_of("X86_64", "incl (x)"), "incl (x)");
  CHECK_STR(ins_of("X86_64", "shl $2,%rax"), "shl $2,%rax");
  /* herd's lexer has no shlq (nor andq...): only the suffixes it lists */
  CHECK_STR(ins_of("X86_64", "shlq $2,%rax"),
            "4:2: unknown X86_64 instruction 'shlq $2,%rax'");
  CHECK_STR(ins_of("X86_64", "nopl %cs:0(%rax,%eax,0)"), "NOP");
  CHECK_STR(ins_of("X86_64", "endbr64"), "NOP");
  CHECK_STR(ins_of("X86_64", "retq"), "ret");
  CHECK_STR(ins_of("X86_64", "jlt L1"), "jl L1");
  CHECK_STR(ins_of("X86_64", "movl eax,(x)"), "movl %eax,(x)");
  CHECK_STR(ins_of("X86_64", "clflush (x)"), "clflush (x)");
  CHECK_STR(ins_of("X86_64", "movz $1,(x)"),
            "4:2: unknown X86_64 instruction 'movz $1,(x)'");
  /* layout: destination first, views in Operand.sub */
  Test *t = parse_str("X86_64 T\n{}\n P0 ;\n movl %ebx,8(%rcx) ;\n", NULL, 0);
  CHECK(t != NULL);
  if (t) {
    const Instr *i = t->threads[0].entries[0].ins;
    CHECK_INT(i->ops[0].kind, OPK_MEM);
    CHECK_INT(i->ops[0].reg, 2);
    CHECK_INT(i->ops[0].imm, 8);
    CHECK_INT(i->ops[1].kind, OPK_REG);
    CHECK_INT(i->ops[1].reg, 1);
    CHECK_INT(i->ops[1].sub, 1); /* 32-bit view */
    test_free(t);
  }
}

static void test_ppc(void) {
  CHECK_STR(ins_of("PPC", "lwz r1,0,r5"), "lwz r1,0(r5)");
  CHECK_STR(ins_of("PPC", "lwz R1, 4(R2)"), "lwz r1,4(r2)");
  CHECK_STR(ins_of("PPC", "ld r1,8(r2)"), "lwz r1,8(r2)");
  CHECK_STR(ins_of("PPC", "std r1,8,r2"), "stw r1,8(r2)");
  CHECK_STR(ins_of("PPC", "stdx r1,r2,r3"), "stwx r1,r2,r3");
  CHECK_STR(ins_of("PPC", "ldx r1,r2,r3"), "lwzx r1,r2,r3");
  CHECK_STR(ins_of("PPC", "lwax r1,r2,r3"), "lwax r1,r2,r3");
  CHECK_STR(ins_of("PPC", "lwa r1,0(r2)"), "lwa r1,0(r2)");
  CHECK_STR(ins_of("PPC", "add. r1,r2,r3"), "add. r1,r2,r3");
  CHECK_STR(ins_of("PPC", "xor r1,r2,r2"), "xor r1,r2,r2");
  CHECK_STR(ins_of("PPC", "subi r1,r1,1"), "addi r1,r1,-1");
  CHECK_STR(ins_of("PPC", "andi. r1,r2,3"), "andi. r1,r2,3");
  CHECK_STR(ins_of("PPC", "cmpw r1,r2"), "cmpw r1,r2");
  CHECK_STR(ins_of("PPC", "cmpw cr0,r1,r2"), "cmpw r1,r2");
  CHECK_STR(ins_of("PPC", "cmpw cr1,r1,r2"), "cmpw cr1,r1,r2");
  CHECK_STR(ins_of("PPC", "cmpwi cr7,r1,-5"), "cmpwi cr7,r1,-5");
  CHECK_STR(ins_of("PPC", "cmplwi r1, 5"), "cmplwi r1,5");
  CHECK_STR(ins_of("PPC", "b L1"), "b   L1");
  CHECK_STR(ins_of("PPC", "bl L1"), "bl   L1");
  CHECK_STR(ins_of("PPC", "bnl L1"), "bge  L1");
  CHECK_STR(ins_of("PPC", "beq L1"), "beq  L1");
  CHECK_STR(ins_of("PPC", "rlwinm r1,r2,3,4,5"), "rlwinm r1,r2,3, 4,5");
  CHECK_STR(ins_of("PPC", "rlwimi r3, r4, 4, 30, 31"), "rlwimi r3,r4,4, 30,31");
  CHECK_STR(ins_of("PPC", "extsw r10,r9"), "extsw r10, r9");
  CHECK_STR(ins_of("PPC", "clrldi r9, r9, 32"), "clrldi r9,r9,32");
  CHECK_STR(ins_of("PPC", "lis r0, 1"), "lis r0,1");
  CHECK_STR(ins_of("PPC", "addis r0, r0, 1"), "addis r0,r0,1");
  CHECK_STR(ins_of("PPC", "hwsync"), "sync");
  CHECK_STR(ins_of("PPC", "lwarx r1,r0,r2"), "lwarx r1,r0,r2");
  CHECK_STR(ins_of("PPC", "stwcx. r1,r0,r2"), "stwcx. r1,r0,r2");
  CHECK_STR(ins_of("PPC", "mr r1,r2"), "mr r1,r2");
  CHECK_STR(ins_of("PPC", "neg. r1,r2"), "neg. r1,r2");
  CHECK_STR(ins_of("PPC", "mfcr r3"), "mfcr r3");
  CHECK_STR(ins_of("PPC", "com \"a, b; | c\""), "com \"a, b; | c\"");
  CHECK_STR(ins_of("PPC", "stw r1,0(%x)"), "stw r1,0(%x)");
  CHECK_STR(ins_of("PPC", "LWZ r1,0(r2)"),
            "4:2: unknown PPC instruction 'LWZ r1,0(r2)'");
  CHECK_STR(ins_of("PPC", "sync."), "4:2: unknown PPC instruction 'sync.'");
  CHECK_STR(ins_of("PPC", "li r1,0x"),
            "4:8: PPC instruction 'li r1,0x': bad number '0x'");
}

static void test_riscv(void) {
  CHECK_STR(ins_of("RISCV", "lw a0,4(t1)"), "lw x10,4(x6)");
  CHECK_STR(ins_of("RISCV", "lw x1,(x2)"), "lw x1,0(x2)");
  CHECK_STR(ins_of("RISCV", "lbu x1,-8(s0)"), "lbu x1,-8(x8)");
  CHECK_STR(ins_of("RISCV", "lw.aq x1,0(x2)"), "lw.aq x1,0(x2)");
  CHECK_STR(ins_of("RISCV", "ld.aq.rl x1,0(x2)"), "ld.aqrl x1,0(x2)");
  CHECK_STR(ins_of("RISCV", "sw.rl zero,0(fp)"), "sw.rl x0,0(x8)");
  CHECK_STR(ins_of("RISCV", "sd.aqrl x1,8(x2)"), "sd.aqrl x1,8(x2)");
  CHECK_STR(ins_of("RISCV", "li t0,1"), "ori x5,x0,1");
  CHECK_STR(ins_of("RISCV", "mv x5,x6"), "mv x5,x6");
  CHECK_STR(ins_of("RISCV", "addi x5,x6,0"), "mv x5,x6");
  CHECK_STR(ins_of("RISCV", "addi x5,x6,-3"), "addi x5,x6,-3");
  CHECK_STR(ins_of("RISCV", "xori x5,x6,1"), " xori x5,x6,1");
  CHECK_STR(ins_of("RISCV", "xor x9,x7,x7"), "xor x9,x7,x7");
  CHECK_STR(ins_of("RISCV", "addw s11,t6,a7"), "addw x27,x31,x17");
  CHECK_STR(ins_of("RISCV", "lui x1,5"), "lui x1,5");
  CHECK_STR(ins_of("RISCV", "lr.w x8,0(x6)"), "lr.w x8,0(x6)");
  CHECK_STR(ins_of("RISCV", "lr.d.aq x8,(x6)"), "lr.d.aq x8,0(x6)");
  CHECK_STR(ins_of("RISCV", "sc.w.rl x9,x7,0(x6)"), "sc.w.rl x9,x7,0(x6)");
  CHECK_STR(ins_of("RISCV", "amoswap.w.aq.rl x0,x5,(x6)"),
            "amoswap.w.aqrl x0,x5,(x6)");
  CHECK_STR(ins_of("RISCV", "amoadd.d x5,x4,0(x6)"), "amoadd.d x5,x4,(x6)");
  CHECK_STR(ins_of("RISCV", "fence"), "fence rw,rw");
  CHECK_STR(ins_of("RISCV", "fence r, rw"), "fence r,rw");
  CHECK_STR(ins_of("RISCV", "fence iorw,ow"), "fence iorw,ow");
  CHECK_STR(ins_of("RISCV", "fence.tso"), "fence.tso");
  CHECK_STR(ins_of("RISCV", "fence.i"), "fence.i");
  CHECK_STR(ins_of("RISCV", "bne x9,x0,LC00"), "bne x9,x0,LC00");
  CHECK_STR(ins_of("RISCV", "j L"), "j L");
  CHECK_STR(ins_of("RISCV", "sext.w a0,a1"), "sext.w x10,x11");
  CHECK_STR(ins_of("RISCV", "la a0,x"), "la x10,x");
  CHECK_STR(ins_of("RISCV", "sw x5,0(%r)"), "sw x5,0(%r)");
  CHECK_STR(ins_of("RISCV", "nop"), "nop");
  CHECK_STR(ins_of("RISCV", "LW x1,0(x2)"),
            "4:2: unknown RISCV instruction 'LW x1,0(x2)'");
  CHECK_STR(ins_of("RISCV", "lw.rl x1,0(x2)"),
            "4:2: unknown RISCV instruction 'lw.rl x1,0(x2)'");
  CHECK_STR(ins_of("RISCV", "add s10,x1,x2"),
            "4:6: RISCV instruction 'add s10,x1,x2': expected a register");
  CHECK_STR(ins_of("RISCV", "lr.w x1,4(x2)"),
            "4:10: RISCV instruction 'lr.w x1,4(x2)': the offset must be 0");
  CHECK_STR(ins_of("RISCV", "fence r,x"),
            "4:10: RISCV instruction 'fence r,x': expected a fence access set "
            "(r, w, rw, ir, ow, iorw)");
}

static void test_arm(void) {
  CHECK_STR(ins_of("ARM", "LDR R0,[R1]"), "LDR R0,[R1]");
  CHECK_STR(ins_of("ARM", "ldr r0, r1"), "LDR R0,[R1]");
  CHECK_STR(ins_of("ARM", "LDR R0,[R1,#0]"), "LDR R0,[R1,#0]");
  CHECK_STR(ins_of("ARM", "LDR R0,[R1,R2]"), "LDR R0,[R1,R2]");
  CHECK_STR(ins_of("ARM", "LDR R0,[R1,R2,LSL #2]"), "LDR R0,[R1,R2,lsl #2]");
  CHECK_STR(ins_of("ARM", "LDRNE R0,[R1]"), "LDRNE R0,[R1]");
  CHECK_STR(ins_of("ARM", "STREQ R0,[R1,R2]"), "STREQ R0,[R1,R2]");
  CHECK_STR(ins_of("ARM", "STR IP,[SP]"), "STR R12,[SP]");
  CHECK_STR(ins_of("ARM", "LDREX R0,[R1]"), "LDREX R0,[R1]");
  CHECK_STR(ins_of("ARM", "STREX R2,R0,[R1]"), "STREX R2,R0,[R1]");
  CHECK_STR(ins_of("ARM", "LDA R0,[R1]"), "LDA R0,[R1]");
  CHECK_STR(ins_of("ARM", "STL R0,[R1]"), "STL R0,[R1]");
  CHECK_STR(ins_of("ARM", "LDAEX R0,[R1]"), "LDAEX R0,[R1]");
  CHECK_STR(ins_of("ARM", "STLEX R2,R0,[R1]"), "STLEX R2,R0,[R1]");
  CHECK_STR(ins_of("ARM", "LDRD R0,R1,[R2]"), "LDRD R0, R1, [R2]");
  CHECK_STR(ins_of("ARM", "LDRD R4,[R2,#8]"), "LDRD R4, R5, [R2, #8]");
  CHECK_STR(ins_of("ARM", "LDM R0,{R1,R2}"), "LDM R0, {R1,R2}");
  CHECK_STR(ins_of("ARM", "LDMIB R0,{R1,R2}"), "LDMIB R0, {R1,R2}");
  CHECK_STR(ins_of("ARM", "ADD R0,R1,#1"), "ADD R0,R1,#1");
  CHECK_STR(ins_of("ARM", "adds r0,r1,r2"), "ADDS R0,R1,R2");
  CHECK_STR(ins_of("ARM", "EOR R2,R0,R0"), "EOR R2,R0,R0");
  CHECK_STR(ins_of("ARM", "EORS R2,R0,R1"), "EORS R2,R0,R1");
  CHECK_STR(ins_of("ARM", "ANDEQ R0,R1,R2"), "ANDEQ R0, R1, R2");
  CHECK_STR(ins_of("ARM", "ANDEQ R0,R0,R0"), "NOP");
  CHECK_STR(ins_of("ARM", "CMP R0,#1"), "CMP R0,#1");
  CHECK_STR(ins_of("ARM", "CMP R0,R1"), "CMP R0,R1");
  CHECK_STR(ins_of("ARM", "MOV R0,1"), "MOV R0,#1");
  CHECK_STR(ins_of("ARM", "MOVNE R0,R1"), "MOVNE R0,R1");
  CHECK_STR(ins_of("ARM", "MOVW R0,#5"), "MOVWR0, #5");
  CHECK_STR(ins_of("ARM", "MOVWEQ R0,#5"), "MOVWEQR0, #5");
  CHECK_STR(ins_of("ARM", "MOVT R0,#5"), "MOVT R0, #5");
  CHECK_STR(ins_of("ARM", "MOVTEQ R0,#5"), "MOVT EQR0, #5");
  CHECK_STR(ins_of("ARM", "BNE L0"), "BNE L0");
  CHECK_STR(ins_of("ARM", "CBNZ R1,L0"), "CBNZ R1,L0");
  CHECK_STR(ins_of("ARM", "BX LR"), "BX LR");
  CHECK_STR(ins_of("ARM", "DMB"), "DMB");
  CHECK_STR(ins_of("ARM", "DMB SY"), "DMB");
  CHECK_STR(ins_of("ARM", "dsb ishst"), "DSB ISHST");
  CHECK_STR(ins_of("ARM", "ISB"), "ISB");
  CHECK_STR(ins_of("ARM", "PUSH {R1,R2}"), "NOP");
  CHECK_STR(ins_of("ARM", "SEL R0,R1,R2"), "SEL R0,R1,R2");
  CHECK_STR(ins_of("ARM", "STR R0,[%a]"), "STR R0,[%a]");
  CHECK_STR(ins_of("ARM", "Ldr R0,[R1]"),
            "4:2: unknown ARM instruction 'Ldr R0,[R1]'");
  CHECK_STR(ins_of("ARM", "LDRNE R0,[R1,#4]"),
            "4:18: ARM instruction 'LDRNE R0,[R1,#4]': a conditional access "
            "takes [Rn] or [Rn,Rm]");
  CHECK_STR(ins_of("ARM", "LDREX R0,[R1,#4]"),
            "4:18: ARM instruction 'LDREX R0,[R1,#4]': expected [Rn]");
}

static void test_mips(void) {
  CHECK_STR(ins_of("MIPS", "lw $2,0($3)"), "lw $2,0($3)");
  CHECK_STR(ins_of("MIPS", "lw v0,(a0)"), "lw $2,0($4)");
  CHECK_STR(ins_of("MIPS", "sw $ra,-8($sp)"), "sw $31,-8($29)");
  CHECK_STR(ins_of("MIPS", "ll $a4,4($t9)"), "ll $a4,4($25)");
  CHECK_STR(ins_of("MIPS", "sc $2,0($3)"), "sc $2,0($3)");
  CHECK_STR(ins_of("MIPS", "ld $2,0($3)"), "ld $2,0($3)");
  CHECK_STR(ins_of("MIPS", "li $2,1"), "li $2,1");
  CHECK_STR(ins_of("MIPS", "lui $2,1"), "lui $2,1");
  CHECK_STR(ins_of("MIPS", "move $2,$zero"), "move $2,$0");
  CHECK_STR(ins_of("MIPS", "addiu $2,$2,-1"), "addiu $2,$2,-1");
  CHECK_STR(ins_of("MIPS", "xor $2,$3,$3"), "xor $2,$3,$3");
  CHECK_STR(ins_of("MIPS", "dext $2,$3,4,8"), "dext $2,$3,4,8");
  CHECK_STR(ins_of("MIPS", "beq $2,$0,L"), "beq $2,$0,L");
  CHECK_STR(ins_of("MIPS", "bgtz $2,L"), "bgtz $2,L");
  CHECK_STR(ins_of("MIPS", "b L"), "b L");
  CHECK_STR(ins_of("MIPS", "jr $ra"), "jr $31");
  CHECK_STR(ins_of("MIPS", "sync"), "sync");
  CHECK_STR(ins_of("MIPS", "sw %r,0($3)"), "sw %r,0($3)");
  CHECK_STR(ins_of("MIPS", "LW $2,0($3)"),
            "4:2: unknown MIPS instruction 'LW $2,0($3)'");
  CHECK_STR(ins_of("MIPS", "lw $ 2,0($3)"),
            "4:7: MIPS instruction 'lw $ 2,0($3)': expected a register");
  CHECK_STR(ins_of("MIPS", "lw $hi,0($3)"),
            "4:6: MIPS instruction 'lw $hi,0($3)': expected a register");
}

/* ------------------------------------------------------------ robustness */

/* Every prefix, and byte mutations, of a few tests: never a crash (the
 * sanitizers watch), and every failure has a position. */
static void fuzz_one(const char *text) {
  size_t n = strlen(text);
  char *buf = xmalloc(n + 1);
  uint32_t seed = 12345;
  for (size_t cut = 0; cut <= n; cut++) {
    memcpy(buf, text, cut);
    buf[cut] = 0;
    for (int m = 0; m < 3; m++) {
      if (m > 0 && cut > 0) {
        seed = seed * 1103515245u + 12345u;
        buf[(seed >> 8) % cut] = "|;:(*)[]{}=\"~\\/,%$x0\n"[(seed >> 20) % 22];
      }
      Err err;
      err_init(&err);
      Test *t = litmus_parse("f.litmus", buf, &err);
      if (t) {
        char h[33];
        StrBuf b;
        sb_init(&b);
        test_hash(t, h);
        print_condition(t, true, &b);
        sb_free(&b);
        test_free(t);
      } else {
        CHECK(err.pos.line >= 1 && err.pos.col >= 1 && err.msg.len > 0);
      }
      err_free(&err);
    }
  }
  free(buf);
}

static void test_fuzz(void) {
  fuzz_one(sb_test);
  fuzz_one("PPC T\n{ %a=x; int t[2]={1,2}; 0:r2=P0:L0; }\n P0 | P1 ;\n"
           " L0: lwz r1,0(%a) | cmpw cr1,r1,r2 ;\n"
           " beq L0 | com \"x\" ;\n"
           "locations [t;] filter (0:r1=1) exists (0:r1=1 => ~t[1]=2 \\/ "
           "x=y)\n<<\n");
  fuzz_one("X86_64 T\n{}\n P0 ;\n lock; xchgl %eax,4(%rbx,%rcx,2) ;\n"
           "exists (0:rax=1)\n");
  fuzz_one("RISCV T\n{ 0:a0=x; }\n P0 ;\n L: lr.w.aq x5,0(a0) ;\n"
           " sc.w.rl t1,x5,(a0) ;\n bne t1,zero,L ;\n amoadd.d x0,x5,(%r) ;\n"
           " fence r,rw ;\nexists (0:x5=1)\n");
  fuzz_one("ARM T\n{ 0:R0=x; }\n P0 ;\n LDREX R1,[R0] ;\n"
           " STREX R2,R1,[R0,R3,LSL #2] ;\n CMP R2,#0 ;\n BNE L ;\n"
           " LDRD R4,[R0] ;\n L: MOVTEQ R1,#3 ;\nexists (0:R1=1)\n");
  fuzz_one("MIPS T\n{ 0:$2=x; }\n P0 ;\n ll $3,0($2) ;\n sc $3,4($2) ;\n"
           " beq $3,$0,L ;\n L: dext $4,$3,1,2 ;\nexists (0:$3=1)\n");
}

/* ------------------------------------------------------------- corpus */

typedef struct Stats {
  int tests, parse_fail, hash_bad, cond_bad;
} Stats;

/* The value after `prefix` on the first line of text starting with it. */
static bool expected_line(const char *text, const char *prefix, char *out,
                          size_t n) {
  size_t pl = strlen(prefix);
  for (const char *l = text; l && *l; l = strchr(l, '\n'), l = l ? l + 1 : l)
    if (strncmp(l, prefix, pl) == 0) {
      const char *e = strchr(l, '\n');
      size_t len = e ? (size_t)(e - l) - pl : strlen(l) - pl;
      if (len >= n) len = n - 1;
      memcpy(out, l + pl, len);
      out[len] = 0;
      return true;
    }
  return false;
}

static bool wanted_arch(const char *text) {
  size_t i = strspn(text, " \t");
  size_t n = strcspn(text + i, " \t\r\n");
  return (n == 3 && strncmp(text + i, "X86", 3) == 0) ||
         (n == 6 && strncmp(text + i, "X86_64", 6) == 0) ||
         (n == 3 && strncmp(text + i, "PPC", 3) == 0) ||
         (n == 5 && strncmp(text + i, "RISCV", 5) == 0);
}

static void check_corpus_test(const char *path, Stats *st) {
  char *text = read_file(path, NULL);
  if (!text || !wanted_arch(text)) {
    free(text);
    return;
  }
  char epath[4096], want[8192], got_hash[33];
  snprintf(epath, sizeof epath, "%.*s.expected",
           (int)(strlen(path) - strlen(".litmus")), path);
  char *exp = read_file(epath, NULL);
  st->tests++;
  Err err;
  err_init(&err);
  Test *t = litmus_parse(path, text, &err);
  if (!t) {
    StrBuf b;
    sb_init(&b);
    err_format(&err, &b);
    printf("  PARSE %s\n", sb_cstr(&b));
    sb_free(&b);
    st->parse_fail++;
  } else if (exp) {
    test_hash(t, got_hash);
    if (expected_line(exp, "Hash=", want, sizeof want) &&
        strcmp(want, got_hash) != 0) {
      printf("  HASH  %s: got %s want %s\n", path, got_hash, want);
      st->hash_bad++;
    }
    StrBuf b;
    sb_init(&b);
    print_condition(t, false, &b);
    if (expected_line(exp, "Condition ", want, sizeof want) &&
        strcmp(want, sb_cstr(&b)) != 0) {
      printf("  COND  %s:\n    got  %s\n    want %s\n", path, sb_cstr(&b),
             want);
      st->cond_bad++;
    }
    sb_free(&b);
  }
  test_free(t);
  err_free(&err);
  free(exp);
  free(text);
}

static int cmp_cstr(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

static void check_corpus_dir(const char *dir, Stats *st) {
  DIR *d = opendir(dir);
  if (!d) return;
  VEC(char *) names = {0};
  struct dirent *e;
  while ((e = readdir(d))) {
    size_t n = strlen(e->d_name);
    if (n > 7 && strcmp(e->d_name + n - 7, ".litmus") == 0)
      vec_push(names, xstrdup(e->d_name));
  }
  closedir(d);
  if (names.len > 1)
    qsort(names.data, (size_t)names.len, sizeof(char *), cmp_cstr);
  for (int i = 0; i < names.len; i++) {
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, names.data[i]);
    check_corpus_test(path, st);
    free(names.data[i]);
  }
  vec_free(names);
}

static void corpus(void) {
  const char *root = "../shared/conformance/suites";
  DIR *d = opendir(root);
  if (!d) {
    printf("corpus: %s not found, skipped\n", root);
    return;
  }
  closedir(d);
  static const char *const suites[] = {"x86", "ppc", "article", "sc", "riscv"};
  Stats st = {0};
  for (size_t i = 0; i < ARRAY_LEN(suites); i++) {
    char dir[1024];
    snprintf(dir, sizeof dir, "%s/%s", root, suites[i]);
    check_corpus_dir(dir, &st);
  }
  printf("corpus: %d tests, %d parse failures, %d hash mismatches, "
         "%d condition mismatches\n",
         st.tests, st.parse_fail, st.hash_bad, st.cond_bad);
  CHECK_INT(st.parse_fail, 0);
  CHECK_INT(st.hash_bad, 0);
  CHECK_INT(st.cond_bad, 0);
}

int main(void) {
  test_spec_examples();
  test_conditions();
  test_init();
  test_sections();
  test_code();
  test_x86();
  test_x86_64();
  test_ppc();
  test_riscv();
  test_arm();
  test_mips();
  test_fuzz();
  corpus();
  return check_report("test_litmus");
}

/*
 * c.h — C litmus tests (LKMM and C11): the syntax tree of thread bodies,
 * macro (.def) expansion, and the lowering of each thread to the
 * instruction list the symbolic executor walks (../shared/spec/litmus.md
 * §6).
 *
 * litmus_parse() parses the code section into CThreads (c.c) without
 * knowing the macros; c_expand() then expands macro calls from a .def
 * file and lowers every thread to Test.threads, one CInstr per simple
 * statement plus branch/jump/control-scope entries for if and while.
 * Locals and parameters are registers, numbered test-wide in CCode.regs
 * (a register id names the same spelling in every thread).
 */
#ifndef CORRAL_C_H
#define CORRAL_C_H

#include "litmus.h"

/* Expression and statement nodes share one type: a small tree. */
typedef enum CKind {
  /* expressions */
  CK_INT,       /* num */
  CK_REG,       /* reg (local or parameter) */
  CK_NAME,      /* an unresolved name: a macro parameter, memory_order_* */
  CK_DEREF,     /* *a  (plain load as an rvalue; a location as an lvalue) */
  CK_ADDROF,    /* &a */
  CK_BIN,       /* a op b (op: a CBinOp) */
  CK_NOT,       /* !a */
  CK_NEG,       /* -a */
  CK_CALL,      /* name(args): a macro or builtin, before expansion */
  CK_OPTOK,     /* an operator argument of __atomic_op (op) */
  /* internal forms, after expansion (annotation in ann, or mo) */
  CK_LOAD,      /* __load{A}(*x) / atomic_load_explicit(x, mo) */
  CK_XCHG,      /* __xchg{A}(x,v) / atomic_exchange_explicit */
  CK_CMPXCHG,   /* __cmpxchg{A}(x,v,w) */
  CK_OPRET,     /* __atomic_op_return{A}(x,op,v): new value */
  CK_FETCHOP,   /* __atomic_fetch_op{A}(x,op,v) / atomic_fetch_*_explicit */
  CK_ADDUNLESS, /* __atomic_add_unless{A}(x,v,w) */
  CK_TRYLOCK,   /* __trylock(x) */
  CK_ISLOCKED,  /* __islocked(x) */
  CK_CAS,       /* atomic_compare_exchange_*(x,e,d[,mo_s,mo_f]) */
  /* statements */
  CK_ASSIGN,    /* a = b  (a: CK_REG or CK_DEREF) */
  CK_EXPR,      /* a; */
  CK_STORE,     /* __store{A}(*x,v) / atomic_store_explicit(x,v,mo) */
  CK_FENCE,     /* __fence{A} / atomic_thread_fence(mo) */
  CK_ATOMICOP,  /* __atomic_op{A}(x,op,v) */
  CK_LOCK,      /* __lock(x): Linux spin_lock */
  CK_MTXLOCK,   /* lock(x), mtx_lock(x): C11 mutex, always succeeds */
  CK_UNLOCK,    /* __unlock(x), unlock(x), mtx_unlock(x) */
  CK_SRCU,      /* __srcu{A}(x[,v]) */
  CK_BLOCK,     /* { kids } */
  CK_IF,        /* if (a) b [else c] */
  CK_WHILE,     /* while (a) b */
  CK_SKIP,      /* ; or a declaration without initialiser */
} CKind;

typedef enum CBinOp {
  CB_ADD, CB_SUB, CB_MUL, CB_DIV, CB_AND, CB_OR, CB_XOR, CB_ANDNOT,
  CB_EQ, CB_NE, CB_LT, CB_GT, CB_LE, CB_GE, CB_LAND, CB_LOR,
} CBinOp;

/* C11 memory orders (0: none, the node is a Linux annotation). */
typedef enum CMo {
  MO_NONE, MO_RLX, MO_CON, MO_ACQ, MO_REL, MO_ACQ_REL, MO_SC,
} CMo;

typedef struct CNode {
  uint8_t kind;        /* CKind */
  uint8_t op;          /* CBinOp */
  uint8_t mo, mo2;     /* C11 orders (CAS: success, failure) */
  bool weak;           /* CAS: may fail spuriously */
  int reg;             /* CK_REG */
  int64_t num;         /* CK_INT */
  const char *name;    /* CK_CALL, CK_NAME */
  const char *ann;     /* bell annotation of internal forms, or NULL */
  struct CNode *a, *b, *c, *d;
  struct CNode **kids; /* CK_CALL arguments, CK_BLOCK statements */
  int nkids;
  SrcPos pos;
  const char *text;    /* a statement's source text, as herd prints it */
} CNode;

typedef struct CParam {
  const char *name;
  const char *type;    /* printed as the hash wants it: "int*" */
  int reg;
} CParam;

typedef struct CThread {
  int proc;
  CParam *params;
  int nparams;
  const char *body;    /* raw text between the braces */
  CNode *code;         /* CK_BLOCK */
  SrcPos pos;
} CThread;

typedef struct CCode {
  CThread *threads;
  int nthreads;
  const char **regs;   /* register names, test-wide */
  int nregs, capregs;
} CCode;

/* The lowered instruction: Instr first, so that an Instr pointer from
 * Test.threads can be cast back. */
typedef enum COp { COP_STMT, COP_BRANCHZ, COP_JUMP, COP_CTRL_POP } COp;

typedef struct CInstr {
  Instr ins;           /* op: COp; ops[0].sym: target label */
  const CNode *node;   /* COP_STMT: the statement; COP_BRANCHZ: the cond */
  int poi;             /* herd's program-order index of the statement */
} CInstr;

/* The code part of a C event's label, as herd prints it: the statement's
 * text ("int r0 = atomic_load_explicit(y,memory_order_relaxed);", or ""
 * for branch and scope entries) and, in *poi, herd's statement number:
 * the thread body is block 0, a simple statement or block takes the next
 * number, an if or while takes one and its branches start two further.
 * Shared by the graph writer and the explanations. */
const char *c_instr_label(const Instr *ins, int *poi);

/* parse.c hands the code section [start, end) of the file to this. */
void c_parse_code(Test *t, Err *err, const char *text, size_t start,
                  size_t end, SrcPos pos);

/* The CCode of a new C test (before its init section is parsed). */
void c_begin(Test *t);

/* The register id of a name (added when new). */
int c_reg(Test *t, const char *name);

/* Expand macro calls with the definitions in def_text (NULL: none) read
 * from def_path, and lower every thread to t->threads.  Raises through
 * err: an unknown macro, a syntax error in the .def file, a form used
 * with the wrong kind of argument. */
void c_expand(Test *t, const char *def_path, const char *def_text, Err *err);

/* The code digest string of hash.md §6. */
void c_hash_code(const Test *t, StrBuf *out);

extern const ArchOps c_arch_ops;

#endif

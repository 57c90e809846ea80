/*
 * ast.h — abstract syntax of the cat language (models, bell files).
 *
 * The parser (parser.c) builds these nodes in an Arena; the loader
 * (model.c) resolves includes; the interpreter (interp.c) runs them.  Names
 * are interned in the CatNames table shared by everything loaded for one
 * run, so comparing names is comparing integers.  After loading, the AST is
 * read-only and may be shared by threads.
 *
 * Syntactic sugar is removed by the parser:
 *   let f x = e        ->  binding f = fun x -> e
 *   let f(a,b) = e     ->  binding f = fun (a,b) -> e
 *   a | b | c          ->  one E_UNION node with three operands (same for ;)
 */
#ifndef CORRAL_CAT_AST_H
#define CORRAL_CAT_AST_H

#include "../util/util.h"

typedef struct Expr Expr;
typedef struct Ins Ins;

/* A pattern: one name, "_" (name = -1), or a tuple of those. */
typedef struct Pat {
  bool is_tuple;      /* (a,b,...) or () ; false for a single name */
  int name;           /* single name, or -1 for "_" */
  int *names;         /* tuple components, -1 for "_" */
  int nnames;
} Pat;

typedef struct Binding {
  Pat pat;
  Expr *e;
  SrcPos pos;
} Binding;

typedef enum VCondKind { VC_NAME, VC_NOT, VC_AND, VC_OR } VCondKind;
typedef struct VCond {
  VCondKind kind;
  const char *name;   /* VC_NAME: the variant string (without quotes) */
  struct VCond *a, *b;
} VCond;

/* Condition of "if c then e1 else e2" (expressions only). */
typedef enum CondKind { C_EQ, C_SUBSET, C_IN, C_VARIANT } CondKind;
typedef struct Cond {
  CondKind kind;
  Expr *a, *b;        /* C_EQ, C_SUBSET, C_IN */
  VCond *v;           /* C_VARIANT */
} Cond;

typedef enum ExprKind {
  E_ZERO,       /* 0 : the empty relation */
  E_EMPTY,      /* {} : polymorphic empty set */
  E_UNIV,       /* _  : the universe */
  E_VAR,        /* name */
  E_TAG,        /* 'name */
  E_SET,        /* { e1, ..., en }, n >= 1 */
  E_TUPLE,      /* (e1, ..., en), n = 0 or n >= 2 */
  E_UNION,      /* e1 | ... | en  (n-ary) */
  E_SEQ,        /* e1 ; ... ; en  (n-ary) */
  E_INTER,      /* a & b */
  E_DIFF,       /* a \ b */
  E_PROD,       /* a * b */
  E_ADD,        /* a ++ b : add element a to set b */
  E_STAR,       /* a* */
  E_PLUS,       /* a+ */
  E_OPT,        /* a? */
  E_INV,        /* a^-1 */
  E_COMPL,      /* ~a */
  E_BRACKET,    /* [a] */
  E_APP,        /* a b : application of a to b */
  E_FUN,        /* fun pat -> a */
  E_LET,        /* let binds in a */
  E_LETREC,     /* let rec binds in a */
  E_TRY,        /* try a with b */
  E_IF,         /* if cond then a else b */
  E_MATCH_TAG,  /* match a with 't -> e || ... || _ -> dflt end */
  E_MATCH_SET,  /* match a with {} -> e_empty || x ++ r -> e_cons end */
} ExprKind;

typedef struct TagClause {
  int tag;            /* interned tag name (without the quote) */
  Expr *e;
} TagClause;

struct Expr {
  ExprKind kind;
  SrcPos pos;
  int name;           /* E_VAR, E_TAG: interned name */
  Expr **args;        /* E_SET, E_TUPLE, E_UNION, E_SEQ operands */
  int nargs;
  Expr *a, *b;        /* unary/binary operands; E_APP: a = function, b = arg;
                         E_FUN, E_LET, E_LETREC: a = body;
                         E_TRY: a = body, b = handler;
                         E_IF: a = then, b = else;
                         E_MATCH_*: a = scrutinee */
  Pat param;          /* E_FUN */
  Binding *binds;     /* E_LET, E_LETREC */
  int nbinds;
  Cond *cond;         /* E_IF */
  TagClause *clauses; /* E_MATCH_TAG */
  int nclauses;
  Expr *dflt;         /* E_MATCH_TAG default ("_ ->"), may be NULL */
  /* E_MATCH_SET: {} -> e_empty || elt ++ rest -> e_cons, or
   * {} -> e_empty || before | elt ++ after -> e_cons (split form) */
  Expr *e_empty, *e_cons;
  int elt, rest;      /* names bound in the cons clause (-1 for "_") */
  int before;         /* split form only, else -1; then rest = "after" */
  bool split;         /* the split form (before may be -1 there: "_") */
};

typedef enum CheckTest { T_ACYCLIC, T_IRREFLEXIVE, T_EMPTY } CheckTest;
typedef enum CheckMode { CM_CHECK, CM_FLAG, CM_UNDEFINED_UNLESS, CM_ASSERT } CheckMode;

typedef struct Check {
  CheckMode mode;
  CheckTest test;
  bool negated;       /* ~acyclic etc. */
  Expr *e;
  int name;           /* "as NAME", or -1 */
} Check;

typedef enum InsKind {
  I_LET,          /* let binds [in]         : binds, nbinds */
  I_LETREC,       /* let rec binds [when chk] : binds, nbinds, when */
  I_CHECK,        /* check */
  I_SHOW,         /* show e as NAME  (e != NULL)  or  show n1,n2,... */
  I_UNSHOW,       /* unshow n1,n2,... */
  I_INCLUDE,      /* include "file" : str; the loader fills `included` */
  I_PROCEDURE,    /* procedure [rec] NAME pat = body end */
  I_CALL,         /* call NAME arg [as NAME2] */
  I_FORALL,       /* forall x in e do body end */
  I_WITH,         /* with x from e */
  I_IF_VARIANT,   /* if vcond body [else body2] end */
  I_MATCH_TAG,    /* match e with 't -> body || ... end (instruction form) */
  I_ENUM,         /* enum NAME = 'a || 'b ... */
  I_INSTRUCTIONS, /* instructions NAME [e1, ...]   (bell) */
  I_DEFAULT,      /* default NAME [e1, ...]        (bell) */
  I_DEBUG,        /* debug e */
} InsKind;

typedef struct InsList {
  Ins **v;
  int n;
} InsList;

typedef struct InsClause {
  int tag;            /* -1 for the default clause "_" */
  InsList body;
} InsClause;

struct Ins {
  InsKind kind;
  SrcPos pos;
  Binding *binds;     /* I_LET, I_LETREC */
  int nbinds;
  Check *when;        /* I_LETREC "when" test, may be NULL */
  Check check;        /* I_CHECK */
  Expr *e;            /* I_SHOW (expr form), I_CALL arg, I_FORALL set,
                         I_WITH set, I_MATCH_TAG scrutinee, I_DEBUG */
  int name;           /* I_SHOW as NAME, I_PROCEDURE/I_CALL name,
                         I_FORALL/I_WITH bound var, I_ENUM/I_INSTRUCTIONS/
                         I_DEFAULT type name */
  int call_as;        /* I_CALL "as NAME", or -1 */
  int *names;         /* I_SHOW (list form), I_UNSHOW, I_ENUM tags */
  int nnames;
  Expr **args;        /* I_INSTRUCTIONS, I_DEFAULT elements */
  int nargs;
  const char *str;    /* I_INCLUDE file name as written */
  struct CatFile *included; /* I_INCLUDE: filled by the loader */
  Pat param;          /* I_PROCEDURE formals */
  bool is_rec;        /* I_PROCEDURE rec */
  InsList body;       /* I_PROCEDURE, I_FORALL, I_IF_VARIANT then-branch */
  InsList body2;      /* I_IF_VARIANT else-branch */
  VCond *vcond;       /* I_IF_VARIANT */
  InsClause *clauses; /* I_MATCH_TAG */
  int nclauses;
};

/* One parsed file. */
typedef struct CatFile {
  const char *path;     /* as found on the search path ("./x.cat" etc.) */
  const char *title;    /* header name or string, may be NULL */
  const char *arch;     /* header architecture word if it is one, else NULL */
  bool catdep;
  InsList body;
} CatFile;

/* The table of interned names, shared by every file of a run. */
typedef struct CatNames {
  Interner in;
} CatNames;

/* Parse one file's text.  On a syntax error, raises through err with the
 * position (1-based line and column) and a message such as
 * "syntax error: unexpected ')'".  Nodes are allocated in arena. */
CatFile *cat_parse(Arena *arena, CatNames *names, Err *err, const char *path,
                   const char *text);

/* Debug printers (tests and -dumpmodel), fully parenthesised: every
 * compound expression is wrapped in "(...)", e.g. "(a | (b ; c))".
 * cat_print_ins prints one instruction on one line (nested bodies inline);
 * cat_print_file prints a header comment then one instruction per line. */
void cat_print_expr(const CatNames *names, const Expr *e, StrBuf *out);
void cat_print_ins(const CatNames *names, const Ins *i, StrBuf *out);
void cat_print_file(const CatNames *names, const CatFile *f, StrBuf *out);

#endif

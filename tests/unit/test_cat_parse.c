/*
 * test_cat_parse.c — the cat lexer and parser, seen from outside.
 *
 * Trees are compared through cat_print_expr / cat_print_ins, which print
 * every compound expression in parentheses, so a string fixes the shape.
 * Errors are compared as "LINE:COL: message".  Last, every model of the
 * public corpus (../shared/conformance/models, when present) must parse,
 * and truncated or mutated inputs must end in a tree or an error, never a
 * crash (run under ASan/UBSan).
 */
#include "cat/ast.h"
#include "cat/lexer.h"
#include "check.h"

#include <dirent.h>
#include <stdlib.h>

typedef struct Ctx {
  Arena arena;
  CatNames names;
  Err err;
} Ctx;

/* Parses text; on error returns NULL and puts "LINE:COL: msg" in *msg. */
static CatFile *parse(Ctx *c, const char *path, const char *text,
                      const char **msg) {
  ErrJmp j;
  CatFile *f = NULL;
  err_push(&c->err, &j);
  if (setjmp(j.jb) == 0) {
    f = cat_parse(&c->arena, &c->names, &c->err, path, text);
    err_pop(&c->err, &j);
    *msg = NULL;
    return f;
  }
  *msg = arena_printf(&c->arena, "%d:%d: %s", c->err.pos.line,
                      c->err.pos.col, sb_cstr(&c->err.msg));
  return NULL;
}

static const char *sb_keep(Ctx *c, StrBuf *b) {
  const char *s = arena_strdup(&c->arena, sb_cstr(b));
  sb_free(b);
  return s;
}

/* The instructions of text, one per line, or "ERROR LINE:COL: msg". */
static const char *pi(Ctx *c, const char *text) {
  const char *msg;
  CatFile *f = parse(c, "t.cat", text, &msg);
  if (!f) return arena_printf(&c->arena, "ERROR %s", msg);
  StrBuf b;
  sb_init(&b);
  for (int k = 0; k < f->body.n; k++) {
    if (k) sb_putc(&b, '\n');
    cat_print_ins(&c->names, f->body.v[k], &b);
  }
  return sb_keep(c, &b);
}

/* The expression src, as the right-hand side of "let x = src". */
static const char *pe(Ctx *c, const char *src) {
  const char *msg;
  const char *text = arena_printf(&c->arena, "let x = %s", src);
  CatFile *f = parse(c, "t.cat", text, &msg);
  if (!f) return arena_printf(&c->arena, "ERROR %s", msg);
  if (f->body.n != 1 || f->body.v[0]->kind != I_LET) return "NOT ONE LET";
  StrBuf b;
  sb_init(&b);
  cat_print_expr(&c->names, f->body.v[0]->binds[0].e, &b);
  return sb_keep(c, &b);
}

/* "LINE:COL: msg" for text, or "OK". */
static const char *perr(Ctx *c, const char *text) {
  const char *msg;
  return parse(c, "t.cat", text, &msg) ? "OK" : msg;
}

/* ------------------------------------------------------- precedence */

static void test_precedence(Ctx *c) {
  /* level 1 | vs 3 ; */
  CHECK_STR(pe(c, "a | b ; c"), "(a | (b ; c))");
  CHECK_STR(pe(c, "a ; b | c"), "((a ; b) | c)");
  /* n-ary chains, flattened even through parentheses (as herd) */
  CHECK_STR(pe(c, "a | b | c"), "(a | b | c)");
  CHECK_STR(pe(c, "(a | b) | c"), "(a | b | c)");
  CHECK_STR(pe(c, "a;b;c;d"), "(a ; b ; c ; d)");
  CHECK_STR(pe(c, "a ; (b ; c) ; d"), "(a ; b ; c ; d)");
  /* level 2 ++, right-associative */
  CHECK_STR(pe(c, "a ++ b | c"), "((a ++ b) | c)");
  CHECK_STR(pe(c, "a | b ++ c"), "(a | (b ++ c))");
  CHECK_STR(pe(c, "a ++ b ++ c"), "(a ++ (b ++ c))");
  CHECK_STR(pe(c, "a ++ b ; c"), "(a ++ (b ; c))");
  CHECK_STR(pe(c, "a ; b ++ c"), "((a ; b) ++ c)");
  CHECK_STR(pe(c, "f e ++ do_map S"), "((f e) ++ (do_map S))");
  /* level 4 \, left-associative, tighter than ; */
  CHECK_STR(pe(c, "a \\ b ; c"), "((a \\ b) ; c)");
  CHECK_STR(pe(c, "a ; b \\ c"), "(a ; (b \\ c))");
  CHECK_STR(pe(c, "a \\ b \\ c"), "((a \\ b) \\ c)");
  CHECK_STR(pe(c, "a \\ b \\ c \\ d"), "(((a \\ b) \\ c) \\ d)");
  /* level 5 &, right-associative, tighter than \ */
  CHECK_STR(pe(c, "a & b \\ c"), "((a & b) \\ c)");
  CHECK_STR(pe(c, "a \\ b & c"), "(a \\ (b & c))");
  CHECK_STR(pe(c, "a & b & c"), "(a & (b & c))");
  CHECK_STR(pe(c, "a & b | c & d"), "((a & b) | (c & d))");
  /* level 6: infix and postfix *, postfix + ?, prefix ~ */
  CHECK_STR(pe(c, "a * b"), "(a * b)");
  CHECK_STR(pe(c, "a & b * c"), "(a & (b * c))");
  CHECK_STR(pe(c, "a * b & c"), "((a * b) & c)");
  CHECK_STR(pe(c, "a*"), "(a*)");
  CHECK_STR(pe(c, "a* ; b"), "((a*) ; b)");
  CHECK_STR(pe(c, "a ; b*"), "(a ; (b*))");
  CHECK_STR(pe(c, "a+ * b"), "((a+) * b)");
  CHECK_STR(pe(c, "a+?*"), "(((a+)?)*)");
  CHECK_STR(pe(c, "a**"), "((a*)*)");
  CHECK_STR(pe(c, "~a & b"), "((~a) & b)");
  CHECK_STR(pe(c, "a & ~b"), "(a & (~b))");
  CHECK_STR(pe(c, "~a ; b"), "((~a) ; b)");
  CHECK_STR(pe(c, "~~a"), "(~(~a))");
  CHECK_STR(pe(c, "(~R) * W"), "((~R) * W)");
  CHECK_STR(pe(c, "(a+) ; b? | c*"), "(((a+) ; (b?)) | (c*))");
  CHECK_STR(pe(c, "W * _"), "(W * _)");
  CHECK_STR(pe(c, "a * (b)"), "(a * b)");
  CHECK_STR(pe(c, "a * [b]"), "(a * [b])");
  /* level 7 ^-1 */
  CHECK_STR(pe(c, "a^-1"), "(a^-1)");
  CHECK_STR(pe(c, "~a^-1"), "(~(a^-1))");
  CHECK_STR(pe(c, "a * b^-1"), "(a * (b^-1))");
  CHECK_STR(pe(c, "a^-1^-1"), "((a^-1)^-1)");
  CHECK_STR(pe(c, "a^-1*"), "((a^-1)*)");
  CHECK_STR(pe(c, "a ^ -1 ; b"), "((a^-1) ; b)");
  /* level 8: application, tightest, left-associative */
  CHECK_STR(pe(c, "fencerel(B) ; po"), "((fencerel B) ; po)");
  CHECK_STR(pe(c, "domain r | range r"), "((domain r) | (range r))");
  CHECK_STR(pe(c, "f x y"), "((f x) y)");
  CHECK_STR(pe(c, "f(a, b)"), "(f (a, b))");
  CHECK_STR(pe(c, "f x^-1"), "((f x)^-1)");
  CHECK_STR(pe(c, "~f x"), "(~(f x))");
  CHECK_STR(pe(c, "f x*"), "((f x)*)");
  CHECK_STR(pe(c, "f 0 _ 'a {} [x] ()"), "((((((f 0) _) 'a) {}) [x]) ())");
  CHECK_STR(pe(c, "f {a, b} * c"), "((f {a, b}) * c)");
  CHECK_STR(pe(c, "f begin a end"), "(f a)");
}

static void test_precedence_errors(Ctx *c) {
  /* non-associative level 6: equal levels are a syntax error */
  CHECK_STR(perr(c, "let x = R * W * M"), "1:15: syntax error: unexpected '*'");
  CHECK_STR(perr(c, "let x = ~R * W"), "1:12: syntax error: unexpected '*'");
  CHECK_STR(perr(c, "let x = a * b+"), "1:14: syntax error: unexpected '+'");
  CHECK_STR(perr(c, "let x = a * b?"), "1:14: syntax error: unexpected '?'");
  CHECK_STR(perr(c, "let x = a * b*"), "1:14: syntax error: unexpected '*'");
  CHECK_STR(perr(c, "let x = ~a*"), "1:11: syntax error: unexpected '*'");
  CHECK_STR(perr(c, "let x = ~a+"), "1:11: syntax error: unexpected '+'");
  CHECK_STR(perr(c, "let x = a ; ~b?"), "1:15: syntax error: unexpected '?'");
  /* after "*", "~" ties with the postfix reading: an error in herd too */
  CHECK_STR(perr(c, "let x = a * ~b"), "1:13: syntax error: unexpected '~'");
  CHECK_STR(perr(c, "let x = a*\n~empty b"),
            "2:1: syntax error: unexpected '~'");
  CHECK_STR(perr(c, "let x = a\n~empty b"), "OK");
  CHECK_STR(perr(c, "let x = a ^ b"),
            "1:13: syntax error: unexpected identifier 'b'");
  CHECK_STR(perr(c, "let x = a -1"), "1:11: syntax error: unexpected '-1'");
  /* only a name can be applied */
  CHECK_STR(perr(c, "let x = (f) y"),
            "1:13: syntax error: unexpected identifier 'y'");
  CHECK_STR(perr(c, "let x = [a] b"),
            "1:13: syntax error: unexpected identifier 'b'");
}

/* --------------------------------------------------------- lexical */

static void test_lexical(Ctx *c) {
  CHECK_STR(pe(c, "po-loc"), "po-loc");
  CHECK_STR(pe(c, "po-loc | dmb.sy | DMB.ISHLD | r' | _RMW | x_1-2.y"),
            "(po-loc | dmb.sy | DMB.ISHLD | r' | _RMW | x_1-2.y)");
  CHECK_STR(pe(c, "a-1"), "a-1");
  CHECK_STR(pe(c, "r' r"), "(r' r)");
  CHECK_STR(pe(c, "0"), "0");
  CHECK_STR(pe(c, "_"), "_");
  CHECK_STR(pe(c, "{}"), "{}");
  CHECK_STR(pe(c, "'MB | 'rcu-lock | 'a'"), "('MB | 'rcu-lock | 'a')");
  CHECK_STR(pe(c, "'end | '_x"), "('end | '_x)"); /* tags may spell keywords */
  CHECK_STR(pe(c, "a (* c (* nested *) still c *) | b"), "(a | b)");
  CHECK_STR(pe(c, "a (*) still a comment *) | b"), "(a | b)");
  CHECK_STR(pe(c, "a # comment | z\n | b"), "(a | b)");
  CHECK_STR(pe(c, "a // comment | z\n | b"), "(a | b)");
  CHECK_STR(pe(c, "a\t|\r\nb"), "(a | b)");
  CHECK_STR(pi(c, "#ppo\nlet a = b\n#end"), "let a = b");
  CHECK_STR(pi(c, "include \"x (* y *).cat\""), "include \"x (* y *).cat\"");
  CHECK_STR(pi(c, "include \"two\nlines\"\nlet a = b"),
            "include \"two\nlines\"\nlet a = b");
  /* keywords are reserved; a word containing one is not a keyword */
  CHECK_STR(pe(c, "let-x | in.y | end'"), "(let-x | in.y | end')");
  CHECK_STR(perr(c, "let default = a"),
            "1:5: syntax error: unexpected 'default'");
  CHECK_STR(perr(c, "let x = not"), "1:9: syntax error: unexpected 'not'");
  /* longest match: "x->" is "x-" then a stray '>' (as in herd) */
  CHECK_STR(perr(c, "let f = fun x->x"),
            "1:15: syntax error: unexpected character '>'");
  CHECK_STR(pe(c, "fun x -> x"), "(fun x -> x)");
  /* "_x" is a name, "__x" is "_" then "_x", "_1" is "_" then junk */
  CHECK_STR(pe(c, "f __x"), "((f _) _x)");
}

/* Every keyword's spelling lexes as that keyword (the lexer finds them
 * through a table by initial letter), and one letter more makes a name. */
static void test_keywords(Ctx *c) {
  for (int k = K_LET; k < T_NKINDS; k++) {
    const char *word = catlex_spelling((TokKind)k);
    char *longer = arena_printf(&c->arena, "%sx", word);
    Lexer lx;
    catlex_init(&lx, "kw", word, &c->arena, &c->names, &c->err);
    CHECK(catlex_next(&lx).kind == (TokKind)k);
    catlex_init(&lx, "kw", longer, &c->arena, &c->names, &c->err);
    CHECK(catlex_next(&lx).kind == T_ID);
  }
}

static void test_lexical_errors(Ctx *c) {
  CHECK_STR(perr(c, "let x = a @ b"),
            "1:11: syntax error: unexpected character '@'");
  CHECK_STR(perr(c, "let x = a\x01"),
            "1:10: syntax error: unexpected character '\\x01'");
  CHECK_STR(perr(c, "let x = 1"),
            "1:9: syntax error: unexpected character '1'");
  CHECK_STR(perr(c, "let x = 01"),
            "1:10: syntax error: unexpected character '1'");
  CHECK_STR(perr(c, "let x = a - b"),
            "1:11: syntax error: unexpected character '-'");
  CHECK_STR(perr(c, "let x = ' a"),
            "1:9: syntax error: unexpected character '''");
  CHECK_STR(perr(c, "let x = _1"),
            "1:10: syntax error: unexpected character '1'");
  CHECK_STR(perr(c, "let x = a\n  (* open (* nested *) \n"),
            "2:3: syntax error: unexpected end of file inside comment");
  CHECK_STR(perr(c, "let x = a (* (* *)"),
            "1:11: syntax error: unexpected end of file inside comment");
  CHECK_STR(perr(c, "let x = a\ninclude \"abc\n"),
            "2:9: syntax error: unexpected end of file inside string");
  CHECK_STR(perr(c, "let x = a\n\n   $"),
            "3:4: syntax error: unexpected character '$'");
}

/* ----------------------------------------------------- expressions */

static void test_expressions(Ctx *c) {
  CHECK_STR(pe(c, "(a, b)"), "(a, b)");
  CHECK_STR(pe(c, "a, b | c, d"), "(a, (b | c), d)");
  CHECK_STR(pe(c, "()"), "()");
  CHECK_STR(pe(c, "(a)"), "a");
  CHECK_STR(pe(c, "((a))"), "a");
  CHECK_STR(pe(c, "{a, b*, c | d}"), "{a, (b*), (c | d)}");
  CHECK_STR(pe(c, "[a | b]"), "[(a | b)]");
  CHECK_STR(pe(c, "[a, b]"), "[(a, b)]");
  CHECK_STR(pe(c, "begin a | b end ; c"), "((a | b) ; c)");
  CHECK_STR(pe(c, "let y = a in y | b"), "(let y = a in (y | b))");
  CHECK_STR(pe(c, "let y = a and z = b in y"),
            "(let y = a and z = b in y)");
  CHECK_STR(pe(c, "let rec y = y | a in y"), "(let rec y = (y | a) in y)");
  CHECK_STR(pe(c, "let f x = x in f"), "(let f = (fun x -> x) in f)");
  CHECK_STR(pe(c, "fun x -> x | y"), "(fun x -> (x | y))");
  CHECK_STR(pe(c, "fun (a, b) -> a"), "(fun (a, b) -> a)");
  CHECK_STR(pe(c, "fun (a) -> a"), "(fun a -> a)");
  CHECK_STR(pe(c, "fun () -> a"), "(fun () -> a)");
  CHECK_STR(pe(c, "fun _ -> a"), "(fun _ -> a)");
  CHECK_STR(pe(c, "fun (_, b) -> b"), "(fun (_, b) -> b)");
  CHECK_STR(pe(c, "fun x -> a, b"), "(fun x -> (a, b))");
  CHECK_STR(pe(c, "try a with b | c"), "(try a with (b | c))");
  CHECK_STR(pe(c, "try fencerel(MFENCE) with 0"),
            "(try (fencerel MFENCE) with 0)");
  CHECK_STR(pe(c, "(try X with {}) | (try A with {})"),
            "((try X with {}) | (try A with {}))");
  CHECK_STR(pe(c, "map (fun r -> (p | r))"), "(map (fun r -> (p | r)))");
  CHECK_STR(pe(c, "let y = let z = a in z in y"),
            "(let y = (let z = a in z) in y)");
}

static void test_conditions(Ctx *c) {
  CHECK_STR(pe(c, "if a = b then c else d | e"),
            "(if a = b then c else (d | e))");
  CHECK_STR(pe(c, "if a subset b then c else d"),
            "(if a subset b then c else d)");
  CHECK_STR(pe(c, "if a in b | c then c else d"),
            "(if a in (b | c) then c else d)");
  CHECK_STR(pe(c, "if (a) = (b) then c else d"), "(if a = b then c else d)");
  CHECK_STR(pe(c, "if \"vmsa\" then PTE else emptyset"),
            "(if \"vmsa\" then PTE else emptyset)");
  CHECK_STR(pe(c, "if variant \"x\" then a else b"),
            "(if \"x\" then a else b)");
  CHECK_STR(pe(c, "if not \"DIC\" && not \"IDC\" then a else b"),
            "(if ((not \"DIC\") && (not \"IDC\")) then a else b)");
  CHECK_STR(pe(c, "if \"a\" || \"b\" && \"c\" then x else y"),
            "(if (\"a\" || (\"b\" && \"c\")) then x else y)");
  CHECK_STR(pe(c, "if not \"a\" || \"b\" then x else y"),
            "(if ((not \"a\") || \"b\") then x else y)");
  CHECK_STR(pe(c, "if ((\"a\" || \"b\")) && not (\"c\") then x else y"),
            "(if ((\"a\" || \"b\") && (not \"c\")) then x else y)");
  CHECK_STR(pe(c, "if not not \"a\" then x else y"),
            "(if (not (not \"a\")) then x else y)");
  CHECK_STR(perr(c, "let x = if a then b else c"),
            "1:14: syntax error: unexpected 'then'");
  CHECK_STR(perr(c, "let x = if \"a\" = b then b else c"),
            "1:16: syntax error: unexpected '='");
  CHECK_STR(perr(c, "let x = if \"a\" then b"),
            "1:22: syntax error: unexpected end of file");
}

static void test_matches(Ctx *c) {
  CHECK_STR(pe(c, "match t with 'a -> x || 'b -> y | z || _ -> w end"),
            "(match t with 'a -> x || 'b -> (y | z) || _ -> w end)");
  CHECK_STR(pe(c, "match t with || 'a -> x end"), "(match t with 'a -> x end)");
  CHECK_STR(pe(c, "match t with _ -> x end"), "(match t with _ -> x end)");
  CHECK_STR(pe(c, "match S with {} -> a || x ++ r -> b end"),
            "(match S with {} -> a || x ++ r -> b end)");
  CHECK_STR(pe(c, "match S with || {} -> {}\n || e ++ S -> f e ++ g S end"),
            "(match S with {} -> {} || e ++ S -> ((f e) ++ (g S)) end)");
  CHECK_STR(pe(c, "match S with x ++ r -> b || {} -> a end"),
            "(match S with {} -> a || x ++ r -> b end)");
  CHECK_STR(pe(c, "match S with _ ++ _ -> b || {} -> a end"),
            "(match S with {} -> a || _ ++ _ -> b end)");
  CHECK_STR(pe(c, "match S with {} -> a || b | x ++ r -> c end"),
            "(match S with {} -> a || b | x ++ r -> c end)");
  CHECK_STR(pe(c, "match S with _ | x ++ _ -> c || {} -> a end"),
            "(match S with {} -> a || _ | x ++ _ -> c end)");
  CHECK_STR(pe(c, "match t with 'a -> match u with 'b -> x end || 'c -> y end"),
            "(match t with 'a -> (match u with 'b -> x end) || 'c -> y end)");
  CHECK_STR(perr(c, "let x = match t with 'a -> x || _ -> y || 'b -> z end"),
            "1:40: syntax error: unexpected '||'");
  CHECK_STR(perr(c, "let x = match S with {} -> a end"),
            "1:30: syntax error: unexpected 'end'");
  CHECK_STR(perr(c, "let x = match S with x ++ y -> a || x ++ y -> b end"),
            "1:37: syntax error: unexpected identifier 'x'");
}

/* ---------------------------------------------------- instructions */

static void test_bindings(Ctx *c) {
  CHECK_STR(pi(c, "let f x = e"), "let f = (fun x -> e)");
  CHECK_STR(pi(c, "let f _ = e"), "let f = (fun _ -> e)");
  CHECK_STR(pi(c, "let f(a,b) = e"), "let f = (fun (a, b) -> e)");
  CHECK_STR(pi(c, "let f(a) = e"), "let f = (fun a -> e)");
  CHECK_STR(pi(c, "let f() = e"), "let f = (fun () -> e)");
  CHECK_STR(pi(c, "let (a, b) = e"), "let (a, b) = e");
  CHECK_STR(pi(c, "let (a) = e"), "let a = e");
  CHECK_STR(pi(c, "let a, _ = e"), "let (a, _) = e");
  CHECK_STR(pi(c, "let _ = e"), "let _ = e");
  CHECK_STR(pi(c, "let a = b and f x = c and (d, e) = g"),
            "let a = b and f = (fun x -> c) and (d, e) = g");
  CHECK_STR(pi(c, "let a = b in\nlet c = d"), "let a = b\nlet c = d");
  CHECK_STR(pi(c, "let co = mo and coe = moe and coi = coi"),
            "let co = mo and coe = moe and coi = coi");
  CHECK_STR(pi(c, "let rec a = a | b and c = d when acyclic a as x"),
            "let rec a = (a | b) and c = d when acyclic a as x");
  CHECK_STR(pi(c, "let rec a = a ; a | b when ~empty a in\nshow a"),
            "let rec a = ((a ; a) | b) when ~empty a\nshow a");
  CHECK_STR(pi(c, "let rec f x = f x | x"),
            "let rec f = (fun x -> ((f x) | x))");
  CHECK_STR(perr(c, "let a = b when acyclic a"),
            "1:11: syntax error: unexpected 'when'");
  CHECK_STR(perr(c, "let = a"), "1:5: syntax error: unexpected '='");
  CHECK_STR(perr(c, "let f x y = a"),
            "1:9: syntax error: unexpected identifier 'y'");
  CHECK_STR(perr(c, "let a = b in c"),
            "1:14: syntax error: unexpected identifier 'c'");
}

static void test_checks(Ctx *c) {
  CHECK_STR(pi(c, "acyclic po | rf\nirreflexive a as n\nempty a\n~empty b\n"
                  "flag ~empty r as data-race\n"
                  "undefined_unless empty dr as Dr\nassert acyclic a\n"
                  "~acyclic a as x\nflag ~irreflexive a"),
            "acyclic (po | rf)\nirreflexive a as n\nempty a\n~empty b\n"
            "flag ~empty r as data-race\nundefined_unless empty dr as Dr\n"
            "assert acyclic a\n~acyclic a as x\nflag ~irreflexive a");
  CHECK_STR(pi(c, "empty r1 \\ r2"), "empty (r1 \\ r2)");
  CHECK_STR(pi(c, "irreflexive fre;prop;hbstar as observation"),
            "irreflexive (fre ; prop ; hbstar) as observation");
  CHECK_STR(pi(c, "flag ~empty (if \"x\" then 0 else _)\n  as needs-x"),
            "flag ~empty (if \"x\" then 0 else _) as needs-x");
  CHECK_STR(perr(c, "flag acyclic"),
            "1:13: syntax error: unexpected end of file");
  CHECK_STR(perr(c, "flag a"), "1:6: syntax error: unexpected identifier 'a'");
  CHECK_STR(perr(c, "~ ~empty a"), "1:3: syntax error: unexpected '~'");
  CHECK_STR(perr(c, "acyclic a as"),
            "1:13: syntax error: unexpected end of file");
}

static void test_show(Ctx *c) {
  CHECK_STR(pi(c, "show a"), "show a");
  CHECK_STR(pi(c, "show a, b,c"), "show a, b, c");
  CHECK_STR(pi(c, "show a as b"), "show a as b");
  CHECK_STR(pi(c, "show co|fr as ca"), "show (co | fr) as ca");
  CHECK_STR(pi(c, "show isb \\ ctrlisb as isb"),
            "show (isb \\ ctrlisb) as isb");
  CHECK_STR(pi(c, "show (a) as b"), "show a as b");
  CHECK_STR(pi(c, "show implied\nacyclic ghb as tso"),
            "show implied\nacyclic ghb as tso");
  CHECK_STR(pi(c, "unshow fr,co"), "unshow fr, co");
  CHECK_STR(perr(c, "show a | b"),
            "1:11: syntax error: unexpected end of file");
  CHECK_STR(perr(c, "show (a)"), "1:9: syntax error: unexpected end of file");
  CHECK_STR(perr(c, "show a, b as c"), "1:11: syntax error: unexpected 'as'");
  CHECK_STR(perr(c, "unshow a | b"), "1:10: syntax error: unexpected '|'");
}

static void test_procedures(Ctx *c) {
  CHECK_STR(pi(c, "procedure P(a, b) =\n  empty a \\ b\nend"),
            "procedure P(a, b) = empty (a \\ b) end");
  CHECK_STR(pi(c, "procedure P(_, b) = end"), "procedure P(_, b) = end");
  CHECK_STR(pi(c, "procedure P() = end"), "procedure P() = end");
  CHECK_STR(pi(c, "procedure P(x) = end"), "procedure P x = end");
  CHECK_STR(pi(c, "procedure P x = let y = x call Q(y) end"),
            "procedure P x = let y = x call Q y end");
  CHECK_STR(pi(c, "procedure rec P _ = call P(0) end"),
            "procedure rec P _ = call P 0 end");
  CHECK_STR(pi(c, "call inclusion((E*E),rt)"), "call inclusion ((E * E), rt)");
  CHECK_STR(pi(c, "call P(a, b) as n"), "call P (a, b) as n");
  CHECK_STR(pi(c, "call P {} as n"), "call P {} as n");
  CHECK_STR(pi(c, "call P [a]"), "call P [a]");
  CHECK_STR(perr(c, "call P x"),
            "1:8: syntax error: unexpected identifier 'x'");
  CHECK_STR(perr(c, "procedure P(a) = acyclic a"),
            "1:27: syntax error: unexpected end of file");
  CHECK_STR(perr(c, "procedure P(a b) = end"),
            "1:15: syntax error: unexpected identifier 'b'");
}

static void test_control(Ctx *c) {
  CHECK_STR(pi(c, "forall x in S | T do empty x let y = x end"),
            "forall x in (S | T) do empty x let y = x end");
  CHECK_STR(pi(c, "with co from generate_cos(co0)"),
            "with co from (generate_cos co0)");
  CHECK_STR(pi(c, "if \"cos-opt\"\n include \"a.cat\"\nelse\n include "
                  "\"b.cat\"\nend"),
            "if \"cos-opt\" include \"a.cat\" else include \"b.cat\" end");
  CHECK_STR(pi(c, "if not \"a\" || \"b\" && variant \"c\" let x = y end"),
            "if ((not \"a\") || (\"b\" && \"c\")) let x = y end");
  CHECK_STR(pi(c, "if (\"a\") end"), "if \"a\" end");
  CHECK_STR(pi(c, "match t with 'a -> let x = y || 'b -> empty z\n"
                  "  || _ -> end"),
            "match t with 'a -> let x = y || 'b -> empty z || _ -> end");
  CHECK_STR(pi(c, "match t with || 'a -> || 'b -> show x end"),
            "match t with 'a -> || 'b -> show x end");
  CHECK_STR(pi(c, "match t with _ -> show x end"),
            "match t with _ -> show x end");
  CHECK_STR(pi(c, "debug a | b"), "debug (a | b)");
  CHECK_STR(perr(c, "forall x in S empty x end"),
            "1:15: syntax error: unexpected 'empty'");
  CHECK_STR(perr(c, "with x in S"), "1:8: syntax error: unexpected 'in'");
  CHECK_STR(perr(c, "if a = b then end"),
            "1:4: syntax error: unexpected identifier 'a'");
  CHECK_STR(perr(c, "if \"a\" let x = y"),
            "1:17: syntax error: unexpected end of file");
  CHECK_STR(perr(c, "match t with 'a -> b end"),
            "1:20: syntax error: unexpected identifier 'b'");
  CHECK_STR(perr(c, "match S with {} -> end"),
            "1:14: syntax error: unexpected '{'");
}

static void test_bell(Ctx *c) {
  CHECK_STR(pi(c, "enum Accesses = 'ONCE (* c *) ||\n\t'RELEASE || 'rcu-lock"),
            "enum Accesses = 'ONCE || 'RELEASE || 'rcu-lock");
  CHECK_STR(pi(c, "enum T = || 'a"), "enum T = 'a");
  CHECK_STR(pi(c, "instructions R[Accesses]\ninstructions F[A, 'b, c | d]\n"
                  "instructions X[]\ndefault W['once]"),
            "instructions R[Accesses]\ninstructions F[A, 'b, (c | d)]\n"
            "instructions X[]\ndefault W['once]");
  CHECK_STR(perr(c, "procedure P(x) = enum T = 'a end"),
            "1:18: syntax error: unexpected 'enum'");
  CHECK_STR(perr(c, "enum T = 'a ||"),
            "1:15: syntax error: unexpected end of file");
  CHECK_STR(perr(c, "enum T = a"),
            "1:10: syntax error: unexpected identifier 'a'");
  CHECK_STR(perr(c, "instructions R[a"),
            "1:17: syntax error: unexpected end of file");
}

/* ---------------------------------------------------------- header */

static const char *hdr(Ctx *c, const char *text) {
  const char *msg;
  CatFile *f = parse(c, "t.cat", text, &msg);
  if (!f) return arena_printf(&c->arena, "ERROR %s", msg);
  return arena_printf(&c->arena, "title=%s arch=%s catdep=%d n=%d",
                      f->title ? f->title : "-", f->arch ? f->arch : "-",
                      f->catdep, f->body.n);
}

static void test_header(Ctx *c) {
  CHECK_STR(hdr(c, "PPC\ninclude \"cos.cat\""),
            "title=PPC arch=PPC catdep=0 n=1");
  CHECK_STR(hdr(c, "X86 TSO\nlet a = b"), "title=TSO arch=X86 catdep=0 n=1");
  CHECK_STR(hdr(c, "\"x86 TSO Mixed\"\n"),
            "title=x86 TSO Mixed arch=- catdep=0 n=0");
  CHECK_STR(hdr(c, "stdlib let a = b"), "title=stdlib arch=- catdep=0 n=1");
  CHECK_STR(hdr(c, "\"Generate co's\""),
            "title=Generate co's arch=- catdep=0 n=0");
  CHECK_STR(hdr(c, "AArch64 \"Armv8\"\ncatdep\n"),
            "title=Armv8 arch=AArch64 catdep=1 n=0");
  CHECK_STR(hdr(c, "(* c *) catdep (* c *)\ninclude \"x.cat\""),
            "title=- arch=- catdep=1 n=1");
  CHECK_STR(hdr(c, "C RC11"), "title=RC11 arch=C catdep=0 n=0");
  CHECK_STR(hdr(c, "RISC-V"), "title=RISC-V arch=RISC-V catdep=0 n=0");
  CHECK_STR(hdr(c, "Bell \"b\""), "title=b arch=Bell catdep=0 n=0");
  CHECK_STR(hdr(c, "let a = b"), "title=- arch=- catdep=0 n=1");
  CHECK_STR(hdr(c, ""), "title=- arch=- catdep=0 n=0");
  CHECK_STR(hdr(c, "(* only a comment *)"), "title=- arch=- catdep=0 n=0");
  CHECK_STR(hdr(c, "\"a\" \"b\""),
            "ERROR 1:5: syntax error: unexpected string \"b\"");
  CHECK_STR(hdr(c, "A B C"),
            "ERROR 1:5: syntax error: unexpected identifier 'C'");
  CHECK_STR(hdr(c, "catdep X86"),
            "ERROR 1:8: syntax error: unexpected identifier 'X86'");
  CHECK_STR(hdr(c, "let a = b\ncatdep"),
            "ERROR 2:1: syntax error: unexpected 'catdep'");
}

/* ------------------------------------------------------- positions */

static bool pos_is(SrcPos p, int line, int col) {
  return p.line == line && p.col == col && p.file &&
         strcmp(p.file, "dir/m.cat") == 0;
}

static void test_positions(Ctx *c) {
  const char *msg;
  CatFile *f = parse(c, "dir/m.cat",
                     "M\n  let x =\n    (a) | b ; f c\n\tacyclic ~d as n\n"
                     "procedure P(x) =\n show x end",
                     &msg);
  CHECK(f != NULL);
  if (!f) return;
  CHECK_STR(f->path, "dir/m.cat");
  CHECK_INT(f->body.n, 3);
  Ins *let = f->body.v[0];
  CHECK(pos_is(let->pos, 2, 3));
  CHECK(pos_is(let->binds[0].pos, 2, 7));
  Expr *u = let->binds[0].e;
  CHECK(u->kind == E_UNION && pos_is(u->pos, 3, 5));
  CHECK(pos_is(u->args[0]->pos, 3, 6));
  Expr *seq = u->args[1];
  CHECK(seq->kind == E_SEQ && pos_is(seq->pos, 3, 11));
  CHECK(seq->args[1]->kind == E_APP && pos_is(seq->args[1]->pos, 3, 15));
  CHECK(pos_is(seq->args[1]->b->pos, 3, 17));
  Ins *chk = f->body.v[1];
  CHECK(chk->kind == I_CHECK && pos_is(chk->pos, 4, 2));
  CHECK(chk->check.e->kind == E_COMPL && pos_is(chk->check.e->pos, 4, 10));
  CHECK(pos_is(f->body.v[2]->pos, 5, 1));
  CHECK(pos_is(f->body.v[2]->body.v[0]->pos, 6, 2));
  /* desugared functions take the binding's position */
  f = parse(c, "dir/m.cat", "let f x =\n  x", &msg);
  CHECK(f && f->body.v[0]->binds[0].e->kind == E_FUN &&
        pos_is(f->body.v[0]->binds[0].e->pos, 1, 5) &&
        pos_is(f->body.v[0]->binds[0].e->a->pos, 2, 3));
  /* right-nested chains: each node at its first operand */
  f = parse(c, "dir/m.cat", "let x = a ++ b ++ c", &msg);
  CHECK(f && pos_is(f->body.v[0]->binds[0].e->pos, 1, 9) &&
        pos_is(f->body.v[0]->binds[0].e->b->pos, 1, 14));
  /* the error position carries the file name */
  f = parse(c, "dir/m.cat", "let x = )", &msg);
  CHECK(!f && c->err.pos.file && strcmp(c->err.pos.file, "dir/m.cat") == 0);
  StrBuf b;
  sb_init(&b);
  err_format(&c->err, &b);
  CHECK_STR(sb_cstr(&b), "dir/m.cat:1:9: error: syntax error: unexpected ')'");
  sb_free(&b);
}

/* Fields the printer does not show. */
static void test_fields(Ctx *c) {
  const char *msg;
  CatFile *f = parse(c, "t.cat",
                     "let x = match S with {} -> a || e ++ r -> b end\n"
                     "let y = match S with {} -> a || _ | e ++ _ -> b end\n"
                     "show a\ncall P(a)\ninclude \"f.cat\"\nacyclic a",
                     &msg);
  CHECK(f != NULL);
  if (!f) return;
  Expr *m = f->body.v[0]->binds[0].e;
  CHECK(m->kind == E_MATCH_SET && !m->split && m->before == -1);
  CHECK(m->elt >= 0 && m->rest >= 0);
  m = f->body.v[1]->binds[0].e;
  CHECK(m->kind == E_MATCH_SET && m->split && m->before == -1 &&
        m->elt >= 0 && m->rest == -1);
  Ins *show = f->body.v[2];
  CHECK(show->e == NULL && show->nnames == 1);
  CHECK(f->body.v[3]->call_as == -1 && f->body.v[3]->e->kind == E_VAR);
  CHECK_STR(f->body.v[4]->str, "f.cat");
  CHECK(f->body.v[4]->included == NULL);
  CHECK(f->body.v[5]->check.name == -1 && !f->body.v[5]->check.negated &&
        f->body.v[5]->check.mode == CM_CHECK);
}

/* ------------------------------------------------------ robustness */

static void test_syntax_errors(Ctx *c) {
  CHECK_STR(perr(c, "let x = (a"),
            "1:11: syntax error: unexpected end of file");
  CHECK_STR(perr(c, "let x = a)"), "1:10: syntax error: unexpected ')'");
  CHECK_STR(perr(c, "let x = a\nlet y = )"),
            "2:9: syntax error: unexpected ')'");
  CHECK_STR(perr(c, "let x = {a,}"), "1:12: syntax error: unexpected '}'");
  CHECK_STR(perr(c, "let x = a -> b"), "1:11: syntax error: unexpected '->'");
  CHECK_STR(perr(c, "let x = [a"),
            "1:11: syntax error: unexpected end of file");
  CHECK_STR(perr(c, "let x = begin a"),
            "1:16: syntax error: unexpected end of file");
  CHECK_STR(perr(c, "let x ="), "1:8: syntax error: unexpected end of file");
  CHECK_STR(perr(c, "let x = a\n  |"),
            "2:4: syntax error: unexpected end of file");
  CHECK_STR(perr(c, "x"), "OK"); /* a lone word is a header */
  CHECK_STR(perr(c, "a = b"), "1:3: syntax error: unexpected '='");
  CHECK_STR(perr(c, "include x"),
            "1:9: syntax error: unexpected identifier 'x'");
  CHECK_STR(perr(c, "let x = a end"), "1:11: syntax error: unexpected 'end'");
  CHECK_STR(perr(c, "let x = 'a ++ \"s\""),
            "1:15: syntax error: unexpected string \"s\"");
  CHECK_STR(perr(c, "let x = a\n"
                    "\"0123456789012345678901234567890123456789xyz\""),
            "2:1: syntax error: unexpected string "
            "\"0123456789012345678901234567890123456789...\"");
  CHECK_STR(perr(c, "let x = a 'b c"), "OK");
  CHECK_STR(perr(c, "let x = 'b c"),
            "1:12: syntax error: unexpected identifier 'c'");
}

static void test_depth(Ctx *c) {
  StrBuf b;
  sb_init(&b);
  sb_puts(&b, "let x = ");
  for (int k = 0; k < 100; k++) sb_putc(&b, '(');
  sb_putc(&b, 'a');
  for (int k = 0; k < 100; k++) sb_putc(&b, ')');
  CHECK_STR(perr(c, sb_cstr(&b)), "OK");
  sb_clear(&b);
  sb_puts(&b, "let x = ");
  for (int k = 0; k < 100000; k++) sb_puts(&b, "(~");
  CHECK(strstr(perr(c, sb_cstr(&b)), "nesting too deep") != NULL);
  sb_clear(&b);
  for (int k = 0; k < 100000; k++) sb_puts(&b, "forall x in a do ");
  CHECK(strstr(perr(c, sb_cstr(&b)), "nesting too deep") != NULL);
  sb_clear(&b);
  sb_puts(&b, "let x = if ");
  for (int k = 0; k < 100000; k++) sb_puts(&b, "not (");
  CHECK(strstr(perr(c, sb_cstr(&b)), "nesting too deep") != NULL);
  /* long flat chains are iterative, not recursive */
  sb_clear(&b);
  sb_puts(&b, "let x = a");
  for (int k = 0; k < 100000; k++) sb_puts(&b, " | a ; b \\ c");
  CHECK_STR(perr(c, sb_cstr(&b)), "OK");
  sb_clear(&b);
  sb_puts(&b, "let x = f");
  for (int k = 0; k < 100000; k++) sb_puts(&b, " a");
  sb_puts(&b, "*^-1");
  CHECK_STR(perr(c, sb_cstr(&b)), "OK");
  sb_clear(&b);
  sb_puts(&b, "let x = a");
  for (int k = 0; k < 100000; k++) sb_puts(&b, "*^-1+?");
  CHECK_STR(perr(c, sb_cstr(&b)), "OK");
  sb_free(&b);
}

static const char sample[] =
  "\"sample\" catdep\n"
  "include \"cos.cat\" (* c (* d *) *)\n"
  "let rec ob = obs; si | lob | ob; ob and x = {a, b} when acyclic ob in\n"
  "let f(a, _) = fun x -> let y = x^-1 in try y* with [y] | 0 | _\n"
  "let g x = match x with || 'a -> x ++ {} || _ -> if \"v\" && not (\"w\")"
  " then x else ~x end\n"
  "let m S = match S with {} -> () || a | e ++ r -> (a, e, r) end\n"
  "enum E = 'a || 'b\ninstructions R[E]\ndefault R['a]\n"
  "procedure rec P(a, b) = forall e in a do call P(e, b) as n end end\n"
  "with co from f(g, h)\nif \"x\" show a, b else unshow c end\n"
  "match e with 'a -> debug e || _ -> empty e end\n"
  "flag ~empty (a * b) \\ c & d as z  # tail\n"
  "undefined_unless irreflexive a ; b+ as u // tail\n"
  "assert empty domain r | range r\nshow a | b as c\n";

/* Every prefix of sample, and sample with bytes overwritten, must give a
 * tree or an error; ASan/UBSan catch any misstep. */
static void test_robustness(Ctx *c) {
  const char *msg;
  size_t n = sizeof sample - 1;
  char *buf = xmalloc(n + 1);
  CHECK(parse(c, "s.cat", sample, &msg) != NULL);
  if (msg) fprintf(stderr, "sample: %s\n", msg);
  int parsed = 0, failed = 0;
  for (size_t len = 0; len <= n; len++) {
    memcpy(buf, sample, len);
    buf[len] = '\0';
    ArenaMark mk = arena_mark(&c->arena);
    if (parse(c, "s.cat", buf, &msg)) parsed++;
    else failed++;
    arena_reset(&c->arena, mk);
  }
  CHECK(parsed > 0 && failed > 0);
  static const char junk[] = "()[]{}|&*~+^-1\\?=;,'\"_0a#(*\n@\x01\xff";
  uint64_t seed = 0x9e3779b97f4a7c15ULL;
  int unbalanced = 0;
  for (int round = 0; round < 4000; round++) {
    memcpy(buf, sample, n + 1);
    for (int k = 0; k < 1 + round % 4; k++) {
      seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
      size_t at = (size_t)(seed >> 33) % n;
      buf[at] = junk[(seed >> 13) % (sizeof junk - 1)];
    }
    ArenaMark mk = arena_mark(&c->arena);
    (void)parse(c, "s.cat", buf, &msg);
    if (c->err.top != NULL) unbalanced++; /* a handler left installed */
    arena_reset(&c->arena, mk);
  }
  CHECK_INT(unbalanced, 0);
  free(buf);
}

/* ---------------------------------------------------------- corpus */

static bool is_model(const char *name) {
  size_t n = strlen(name);
  return (n > 4 && strcmp(name + n - 4, ".cat") == 0) ||
         (n > 5 && strcmp(name + n - 5, ".bell") == 0);
}

/* Parsing a model cut at 64 places must never crash. */
static void truncations(Ctx *c, const char *path, char *text, size_t len) {
  for (int k = 1; k <= 64; k++) {
    size_t cut = len * (size_t)k / 65;
    char save = text[cut];
    text[cut] = '\0';
    ArenaMark mk = arena_mark(&c->arena);
    const char *msg;
    (void)parse(c, path, text, &msg);
    arena_reset(&c->arena, mk);
    text[cut] = save;
  }
}

static void test_corpus(Ctx *c) {
  const char *dir = "../shared/conformance/models";
  DIR *d = opendir(dir);
  if (!d) {
    printf("test_cat_parse: %s absent, corpus models skipped\n", dir);
    return;
  }
  int count = 0;
  struct dirent *de;
  while ((de = readdir(d)) != NULL) {
    if (!is_model(de->d_name)) continue;
    const char *path = arena_printf(&c->arena, "%s/%s", dir, de->d_name);
    size_t len;
    char *text = read_file(path, &len);
    CHECK(text != NULL);
    if (!text) continue;
    const char *msg;
    CatFile *f = parse(c, path, text, &msg);
    CHECK(f != NULL);
    if (!f) fprintf(stderr, "%s: %s\n", path, msg);
    else count++;
    truncations(c, path, text, len);
    free(text);
  }
  closedir(d);
  CHECK(count > 0);
  printf("test_cat_parse: %d corpus model files parsed\n", count);
}

int main(void) {
  Ctx c;
  arena_init(&c.arena);
  intern_init(&c.names.in);
  err_init(&c.err);
  test_precedence(&c);
  test_precedence_errors(&c);
  test_lexical(&c);
  test_keywords(&c);
  test_lexical_errors(&c);
  test_expressions(&c);
  test_conditions(&c);
  test_matches(&c);
  test_bindings(&c);
  test_checks(&c);
  test_show(&c);
  test_procedures(&c);
  test_control(&c);
  test_bell(&c);
  test_header(&c);
  test_positions(&c);
  test_fields(&c);
  test_syntax_errors(&c);
  test_depth(&c);
  test_robustness(&c);
  test_corpus(&c);
  err_free(&c.err);
  intern_free(&c.names.in);
  arena_free(&c.arena);
  return check_report("test_cat_parse");
}

/*
 * hash.h — herd7's "Hash=" digest of a parsed test, bit for bit
 * (../shared/spec/hash.md; the printing rule of output.md §9).
 */
#ifndef CORRAL_HASH_H
#define CORRAL_HASH_H

#include "../litmus/litmus.h"

/* What herd prints after "Hash=" (at most 32 characters here):
 *  - the value of a metadata line spelled exactly "Hash" (verbatim; a
 *    longer value is truncated to 32 characters, use test_hash_text),
 *  - "" when the only hash key has another capitalisation ("hash",
 *    "HASH"): herd then prints no Hash line at all,
 *  - otherwise the 32 lower-case hex digits of the digest. */
void test_hash(const Test *t, char out[33]);

/* The identity herd compares between tests of the same name (output.md
 * §10.1): the verbatim value of a hash metadata key in any capitalisation
 * (owned by the test), else buf filled with the digest. */
const char *test_hash_text(const Test *t, char buf[33]);

/* The digest computed from the test, ignoring any Hash metadata. */
void test_hash_compute(const Test *t, char out[33]);

/* Compute the digest once, when the test has no hash metadata, and keep
 * it in t->digest, where the functions above find it: the session and
 * then the printers ask for it. */
void test_hash_keep(Test *t);

/* The three strings digested (hash.md §3-§5), for tests and debugging. */
void hash_init_string(const Test *t, StrBuf *out);
void hash_code_string(const Test *t, StrBuf *out);
void hash_obs_string(const Test *t, StrBuf *out);

#endif

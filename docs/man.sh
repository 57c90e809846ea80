#!/bin/sh
# corral's manual page, corral.1, made from `corral -help`, whose option
# lines come from the option table of src/core/options.c: the page and
# -help cannot disagree.  Usage: docs/man.sh ./corral > corral.1
set -eu
bin=$1
version=$("$bin" -version | sed -n '1s/^corral \([^ ]*\).*/\1/p')
cat <<END
.TH CORRAL 1 "" "corral $version" "User Commands"
.SH NAME
corral \\- a herd7-compatible memory-model simulator
.SH SYNOPSIS
.B corral
[\\fIoptions\\fR] \\fIfile.litmus\\fR|\\fI@list\\fR|\\fIdirectory\\fR ...
.br
.B corral judge
|
.B compare
|
.B merge
|
.B serve
\\&...
.SH DESCRIPTION
corral reads litmus tests (a few threads of assembly or C, an initial
state and a final condition) and a memory model written in the cat
language, builds every candidate execution, keeps those the model allows,
and prints the reachable final states and whether the condition is
reached, as herd7 (version 7.58) prints them.  It takes herd7's options
and reads the same litmus, .cat, .bell, .def and .cfg files.  Installed
under the name herd7 (make install-herd7), it can stand in for herd7 in
scripts such as those of the Linux kernel's tools/memory-model.
.PP
Options are applied left to right.  An option herd7 has that has no
effect in corral (a detail of herd7's pictures or traces) is accepted with
a one-line note on standard error; one that would change the results in a
way corral does not reproduce is refused.
END
echo ".SH OPTIONS"
# -help: "Heading:" lines, then "  HEAD  help" lines (HEAD and help are
# separated by two spaces or more)
"$bin" -help | awk '
  function esc(s) { gsub(/\\/, "\\\\e", s); gsub(/^\./, "\\\\\\&.", s); gsub(/-/, "\\-", s); return s }
  NR == 1 { next }
  /^[^ ].*:$/ { sub(/:$/, ""); print ".SS " esc($0); next }
  /^  / {
    line = substr($0, 3)
    i = match(line, /   */)
    if (i) { head = substr(line, 1, i - 1); text = substr(line, i); sub(/^ */, "", text) }
    else { head = line; text = "" }
    print ".TP"; print "\\fB" esc(head) "\\fR"; print esc(text)
  }'
cat <<'END'
.SH EXIT STATUS
.TP
.B 0
every file was processed, including tests that could not be run (each is
reported on standard error with herd7's line, Warning: File "FILE":
MESSAGE (User error), then corral's located diagnostic) and tests stopped
by \-timeout or \-maxcandidates; as herd7.
.TP
.B 1
with \-exit true, a test could not be run: corral stops there.
.TP
.B 2
a command-line or configuration error, or a model that cannot be found
or parsed: no test is run.
.SH FILES
.TP
.I PREFIX/share/corral/models
corral's model library: the models of each architecture and the files of
herd7's library that models include by name (stdlib.cat, cos.cat,
cross.cat, fences.cat, ...).  Files are looked up in the current
directory, the \-I directories, $HERDLIB, then the library.
.SH ENVIRONMENT
.TP
.B HERDLIB
a directory searched for models before the library.
.SH SEE ALSO
herd7(1), README.md in corral's sources.
END

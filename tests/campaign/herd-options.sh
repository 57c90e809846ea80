# Every option of herd7 7.58's -help is accepted by corral with herd7's
# meaning, or refused in one clear line when it would change results in
# a way corral does not reproduce; never "unknown option".  Each row: the
# option and an argument, and what corral must do on t/x86/SB.litmus:
# ok (SB's block; a note on stderr allowed), refused (status 2, one line
# saying so), print (status 0, some text on stdout instead of a block),
# or runs (status 0: -c11 sets a C model, under which SB cannot run).
. ./common.inc
each t/x86/SB.litmus >"$tmp/sb"
printf 'unroll 2\n' >"$tmp/my.cfg"
: >"$tmp/none"
while read -r opt arg want; do
  [ -n "$opt" ] || continue
  [ "$arg" = - ] && arg=
  arg=$(printf '%s' "$arg" | sed "s|TMP|$tmp|g")
  set +e
  # shellcheck disable=SC2086
  "$bin" $opt $arg t/x86/SB.litmus >"$tmp/out" 2>"$tmp/err"
  rc=$?
  set -e
  if grep -q "unknown option" "$tmp/err"; then fail "$opt: $(head -1 "$tmp/err")"; fi
  case $want in
    ok) [ "$rc" = 0 ] || fail "$opt $arg: exit status $rc: $(head -1 "$tmp/err")"
        notime <"$tmp/out" | cmp -s - "$tmp/sb" || fail "$opt $arg: SB's block"
        [ "$(wc -l <"$tmp/err")" -le 1 ] || fail "$opt $arg: stderr: $(cat "$tmp/err")" ;;
    refused) [ "$rc" = 2 ] || fail "$opt $arg: exit status $rc, expected 2"
        [ "$(wc -l <"$tmp/err")" = 1 ] && grep -q "is not supported by corral" "$tmp/err" ||
          fail "$opt $arg: stderr: $(cat "$tmp/err")" ;;
    print) [ "$rc" = 0 ] && [ -s "$tmp/out" ] || fail "$opt: exit status $rc or no output" ;;
    runs) [ "$rc" = 0 ] || fail "$opt $arg: exit status $rc" ;;
  esac
done <<'END'
-I . ok
-archcheck true ok
-arrowsize 0.5 ok
-badexecs true ok
-badflag bad refused
-boxscale 1.0 ok
-brackets true ok
-c11 - runs
-candidates false ok
-cat x86tso.cat ok
-checkfilter true ok
-classes loc ok
-conds TMP/conds refused
-conf TMP/my.cfg ok
-cycles ghb ok
-debug lexer ok
-doshow co ok
-dotcom dot ok
-dotheader TMP/h ok
-dotmode plain ok
-dsiy 0.5 ok
-dumpallfaults false ok
-dumpes false ok
-edgeattr co,color,blue ok
-edgefontsizedelta 1 ok
-edgemerge false ok
-endian big refused
-evince - ok
-excl TMP/none ok
-exit true ok
-extrachars 0.5 ok
-finalrfpos 1,2 ok
-fixedsize true ok
-fontname Helvetica ok
-fontsize 10 ok
-graph columns ok
-gv - ok
-hexa false ok
-initpos 1,2 ok
-initrfpos 1,2 ok
-initwrites true ok
-kinds TMP/kinds refused
-labelbox true ok
-labelinit true ok
-libdir - print
-machsize quad refused
-macros ../../models/linux-kernel.def ok
-margin 0.1 ok
-maxphantom 2 ok
-model x86tso.cat ok
-mono true ok
-morefences false ok
-movelabel true ok
-names t/x86/names ok
-noid co ok
-nshow 1 ok
-o TMP/pics ok
-oneinit true ok
-optace true ok
-outcomereads true refused
-overlap false ok
-pad 0.1 ok
-penwidth 1.0 ok
-preview - ok
-ptscale 1.0 ok
-q - ok
-relabel true ok
-rename TMP/rename refused
-restrict none ok
-scale 1.0 ok
-sep 0.1 ok
-set-libdir ../../models ok
-shift 0.5,0.5 ok
-shortlegend true ok
-show all ok
-showevents mem ok
-showfinalrf true ok
-showflag x ok
-showinitrf true ok
-showinitwrites true ok
-showkind true ok
-showlegend true ok
-showobserved true ok
-showone true ok
-showpo true ok
-showraw co ok
-showthread true ok
-siwidth 1.0 ok
-skipcheck tso ok
-skipchecks tso ok
-speedcheck false ok
-splines spline ok
-squished true ok
-statelessrc11 true refused
-strictskip false ok
-suffix -x ok
-switch - ok
-symetric co ok
-texmacros false ok
-threadposy 0.5 ok
-through none ok
-throughflag x refused
-tikz true ok
-timeout 100 ok
-unroll 2 ok
-unshow po ok
-v - ok
-variant cos-opt ok
-version - print
-view gv ok
-web - ok
-withbox true ok
-xscale 1.0 ok
-yscale 1.0 ok
END
# -names / -excl select tests by name (t/x86/names holds SB)
"$bin" -names t/x86/names t/x86/MP.litmus t/x86/SB.litmus 2>/dev/null | notime | cmp -s - "$tmp/sb" ||
  fail "-names: only SB"
"$bin" -excl t/x86/names t/x86/SB.litmus t/x86/MP.litmus 2>/dev/null | notime |
  cmp -s - "$(each t/x86/MP.litmus >"$tmp/mp"; echo "$tmp/mp")" || fail "-excl: all but SB"
# -view gv with a gv on PATH (a stand-in that records what it is shown):
# the test's graph rendered to PostScript and handed to it
if command -v dot >/dev/null 2>&1; then
  mkdir -p "$tmp/path"
  printf '#!/bin/sh\nhead -c 4 "$1" >"%s/shown"\n' "$tmp" >"$tmp/path/gv"
  chmod +x "$tmp/path/gv"
  PATH="$tmp/path:$PATH" "$bin" -gv -show all t/x86/SB.litmus | notime | cmp -s - "$tmp/sb" ||
    fail "-gv: SB's block"
  [ "$(cat "$tmp/shown" 2>/dev/null)" = "%!PS" ] || fail "-gv: no PostScript shown"
fi
echo ok

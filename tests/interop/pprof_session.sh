# pprof_session.sh — go tool pprof's views from its interactive sessions,
# sourced by tests/interop/t_value_opts.sh, t_pprof_semantics.sh,
# t_pprof_views.sh and t_filter_search.sh (-proto too)
# (make test's CPU budget: a go tool pprof process costs a start and a
# parse of its profile, and of its base, that one session pays once for
# all its views; bench/results/test-time.md).  Needs $tmp (a directory of
# the test's own, its path without blanks), $PPROF (the program `go tool
# pprof` runs) and $REPO.
#
# ps_plan OUT GO-ARGS...: the view `go tool pprof -symbolize=none GO-ARGS`,
#   its standard output into OUT, its standard error into OUT.err, once
#   ps_run has run.  It is asked in a session of its profiles and base
#   (-base, -diff_base, -normalize: read with the profile), one for the
#   views of the default sample type and one for those that name theirs
#   (-sample_index, assigned before each: a name resolves to its first
#   type, the default to the last): every session option is assigned the
#   view's value or the command line's default before the view's command
#   (compact_labels false, as on the command line; a command line's -top
#   shows every node: nodecount 0 in a session, whose top is top 10), and
#   the command writes OUT (">OUT").  The same view of a session asked again is asked once
#   (ps_run copies its answer).  A view no session can ask (another format,
#   a value a session line cannot hold) runs on the command line at once,
#   and so does any with PS_CLI=1.  One session view in 25 also runs on the
#   command line at once (into OUT.cli): ps_run holds the session's answer
#   to it, and its standard error's lines, in any order (go against go).
# ps_run: runs the sessions planned since the last ps_run, two at a time
#   (the largest first), then tests/interop/pprof_session.py writes each
#   view's answer and reports broken sessions and held views that differ:
#   each report is a line "FAIL: ..." on standard output, PS_FAILS their
#   number (0: none).
#
# A session marks each view's assignments with lines no command answers
# ("#aKx" before them, "#bKx" before the view, "#zx" at its end: pprof's
# "unrecognized command" on its standard error): pprof's complaint about
# an assignment (a sample_index the profile has not) lands between a view's
# marks, and the view is refused as the command line refuses the run (no
# answer; its standard error the complaint).  The view's standard error is
# what follows its "#b" mark, less pprof's "Generating report in OUT".
# A session that does not reach its end mark, or exits other than 0,
# fails; one that answered no mark refuses all its views when go could not
# read its profile (exit status not 0, "failed to fetch any source
# profiles"), and fails otherwise (killed at its start, say).
PS_OPTS=(mean drop_negative divide_by focus ignore hide show show_from prune_from tagfocus tagignore tagshow
  taghide tagroot tagleaf relative_percentages noinlines unit sort nodefraction nodecount edgefraction granularity
  compact_labels source_path call_tree trim)
declare -A PS_DEF=([mean]=false [drop_negative]=false [divide_by]=1 [relative_percentages]=false [noinlines]=false
  [unit]=minimum [sort]=flat [nodefraction]=0.005 [nodecount]=-1 [edgefraction]=0.001 [granularity]=functions
  [compact_labels]=false [call_tree]=false [trim]=true)
declare -A PS_SID=() PS_MEMO=()
PS_SL=() PS_NV=() PS_W=() # per session: its lines, its number of views, the bytes of its files
PS_K=0 PS_I0=0            # views planned; the first session ps_run has not run
mkdir -p "$tmp/s"
: >"$tmp/s/views"
: >"$tmp/s/alias"
: >"$tmp/s/held"
: >"$tmp/s/index"
ps_plan() {
  local out=$1 a k cmd= cli=${PS_CLI:-} si= i lines key= expect=
  shift
  local -A want=()
  for a in "$@"; do
    if [ -n "$expect" ]; then # the argument of -peek or -list
      cmd+=" $a" expect=
      continue
    fi
    case $a in
    -top | -tree | -traces | -tags | -dot | -callgrind | -raw | -proto) cmd=${a#-} ;;
    -peek=* | -list=*) cmd="${a%%=*} ${a#*=}" cmd=${cmd#-} ;;
    -peek | -list) cmd=${a#-} expect=1 ;;
    -cum | -flat) want[sort]=${a#-} ;;
    -functions | -filefunctions | -files | -lines | -addresses) want[granularity]=${a#-} ;;
    -mean_delay) want[mean]=true si=delay ;;
    -sample_index=*) si=${a#*=} ;;
    -base=* | -diff_base=* | -normalize) key+=$a$'\n' ;;
    -?*=*)
      k=${a%%=*} k=${k#-}
      if [[ " ${PS_OPTS[*]} " == *" $k "* ]]; then want[$k]=${a#*=}; else cli=1; fi ;;
    -?*)
      k=${a#-}
      if [ "${PS_DEF[$k]-}" = false ]; then want[$k]=true; else cli=1; fi ;;
    *) key+=$a$'\n' ;;
    esac
  done
  [ -z "$cmd" ] || [ -z "$key" ] || [ -n "$expect" ] && cli=1
  # (a session line: words split at blanks, a value up to "//:", trimmed)
  [[ $cmd == *[[:space:]]*[[:space:]]* || $cmd == *\>* || $cmd == *//:* || $* == *$'\n'* || $out == *[[:space:]]* ]] &&
    cli=1
  for k in "${!want[@]}"; do
    [[ ${want[$k]} == *$'\n'* || ${want[$k]} == *//:* || ${want[$k]} != "${want[$k]#[[:space:]]}" ||
      ${want[$k]} != "${want[$k]%[[:space:]]}" ]] && cli=1
  done
  if [ -n "$cli" ]; then
    go tool pprof -symbolize=none "$@" >"$out" 2>"$out.err"
    return
  fi
  [ "$cmd" = top ] && [ -z "${want[nodecount]+x}" ] && want[nodecount]=0
  key=${si:+-sample_index}$'\n'$key # (one session of the default type, one of the named ones)
  i=${PS_SID[$key]-}
  if [ -z "$i" ]; then
    i=${#PS_SL[@]} PS_SID[$key]=$i
    printf '%s' "${key#*$'\n'}" >"$tmp/s/$i.args"
    # (its weight: the bytes of its files, read at each view)
    PS_SL+=("") PS_NV+=(0) PS_W+=("$(sed 's/^-[a-z_]*=//' "$tmp/s/$i.args" | xargs -d '\n' stat -c %s 2>/dev/null |
      awk '{ s += $1 } END { print s + 0 }')")
  fi
  lines=
  [ -n "$si" ] && lines+="sample_index=$si"$'\n'
  for k in "${PS_OPTS[@]}"; do lines+="$k=${want[$k]-${PS_DEF[$k]-}}"$'\n'; done
  if [ -n "${PS_MEMO[$i|$lines$cmd]-}" ]; then
    printf '%s\t%s\n' "${PS_MEMO[$i|$lines$cmd]}" "$out" >>"$tmp/s/alias"
    return
  fi
  PS_MEMO[$i|$lines$cmd]=$out
  PS_K=$((PS_K + 1))
  PS_SL[i]+="#a${PS_K}x"$'\n'"$lines#b${PS_K}x"$'\n'"$cmd >$out"$'\n'
  PS_NV[i]=$((PS_NV[i] + 1))
  printf '%s\t%s\t%s\n' "$PS_K" "$i" "$out" >>"$tmp/s/views"
  if [ $((PS_K % 25)) = 7 ]; then
    go tool pprof -symbolize=none "$@" >"$out.cli" 2>"$out.cli.err"
    printf '%s\tgo tool pprof -symbolize=none %s\n' "$out" "$*" >>"$tmp/s/held"
  fi
}
ps_run() {
  local i
  for ((i = PS_I0; i < ${#PS_SL[@]}; i++)); do
    printf '%s#zx\nquit\n' "${PS_SL[i]}" >"$tmp/s/$i.in"
    printf '%s\t%s\n' "$i" "${PS_NV[i]}" >>"$tmp/s/index"
    printf '%s %s\n' "$((PS_W[i] * PS_NV[i]))" "$i"
  done | sort -rn | cut -d' ' -f2 | PPROF=$PPROF xargs -r -P 2 -I{} bash -c \
    'mapfile -t a <"$0/s/$1.args"; "$PPROF" -symbolize=none "${a[@]}" <"$0/s/$1.in" >/dev/null 2>"$0/s/$1.err"
    echo $? >"$0/s/$1.rc"' "$tmp" {}
  PS_I0=${#PS_SL[@]} PS_SID=() PS_MEMO=() # (a view planned after: a new session)
  python3 "$REPO/tests/interop/pprof_session.py" "$tmp/s" >"$tmp/s/judged" || echo "FAIL: pprof_session.py failed" >>"$tmp/s/judged"
  cat "$tmp/s/judged"
  PS_FAILS=$(grep -c '^FAIL: ' "$tmp/s/judged")
}

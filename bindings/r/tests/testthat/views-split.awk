# `pcol cat FILE --table all --format jsonl` cut into the files of one
# view each, in the current directory: VIEW.jsonl, the view's rows as
# `pcol cat FILE --table VIEW --format jsonl` prints them (a row
# {"table":"VIEW",MEMBERS} is {MEMBERS} there), and counts.tsv
# (VIEW<TAB>ROWS).  views: the views (space-separated); a row of another
# table, or a line of none, fails (exit 1).  Used by cat_views
# (helper-pcol.R) and bindings/test.sh's make_refs.
BEGIN { n = split(views, vs, " "); for (i = 1; i <= n; i++) { c[vs[i]] = 0; printf "" > (vs[i] ".jsonl") } }
{
  t = substr($0, 11, index(substr($0, 11), "\"") - 1)
  if (substr($0, 1, 10) != "{\"table\":\"" || !(t in c)) exit 1
  print "{" substr($0, 13 + length(t)) > (t ".jsonl")
  c[t]++
}
END { for (i = 1; i <= n; i++) print vs[i] "\t" c[vs[i]] > "counts.tsv" }

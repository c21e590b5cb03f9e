#!/usr/bin/perl
# The judge of tests/interop/t_pprof_views.sh: every comparison of pcol's
# output with go tool pprof's text, in one process.
#
#   perl pprof_views_judge.pl DIR TAGS-AWK
#
# DIR/s/index: a line per go tool pprof session, I<TAB>EXIT<TAB>LINES<TAB>FILE;
# DIR/s/I.out its standard output.  The output is split at the prompts: the
# text that follows prompt K (the answer to command line K) is the view
# DIR/s/I.K.  A session that read its profile must answer every line (else
# a crash or a stray prompt would shift or empty the views, and an empty
# view passes against an empty pcol output); one that could not read it
# (go tool pprof exits non-zero before its first prompt) gives every view
# empty, as each command line prints nothing then.
#
# DIR/manifest: a line per comparison, J<TAB>RULE<TAB>GO-TEXT<TAB>MESSAGE;
# pcol's output is DIR/pc/J, GO-TEXT a view or a file.  Both are cut by
# RULE and must be equal: showing (from the first "Showing nodes" line on),
# traces (from the first separator line on), all, or tags (TAGS-AWK, an awk
# program, writes FILE.t of each FILE: its lines, compared sorted).
# DIR/keep: views the test reads after the judge; they are written to their
# files (so are the tags views).
#
# Prints "S<TAB>message" per bad session, "N<TAB>number judged" (each once:
# the test checks that all were), then
# "J<TAB>J" per failed comparison (its two cut texts in DIR/j/J.go, J.pc).
use strict;
use warnings;

my ($d, $tags_of) = @ARGV;
# (texts are passed by reference and searched with index, not regular
# expressions: the largest are tens of MB)
# slurp FILE [BUFFER]: a reference to FILE's text, read into BUFFER (a
# reference) when given (the same buffer again does not allocate again)
sub slurp {
  my ($f, $t) = @_;
  $t //= \my $new;
  $$t = "";
  if (open(my $h, "<:raw", $f)) {
    my $n = -s $h;
    1 while $n > length $$t && read($h, $$t, $n - length $$t, length $$t);
  }
  return $t;
}
# the offset of the first line of $$t that starts with $s, or -1
sub line_at {
  my ($t, $s) = @_;
  return 0 if substr($$t, 0, length $s) eq $s;
  my $i = index($$t, "\n$s");
  return $i < 0 ? -1 : $i + 1;
}
sub put { open(my $o, ">", $_[0]) or die "$_[0]: $!"; print $o ${$_[1]}; close $o or die "$_[0]: $!" }
sub lines { open(my $h, "<", $_[0]) or die "$_[0]: $!"; my @l = <$h>; chomp @l; return @l }

my @man = map { [split /\t/] } lines("$d/manifest");
my %keep = map { $_ => 1 } lines("$d/keep");
my (%bysession, @tags);
for (@man) {
  my ($j, $rule, $go) = @$_;
  push @{$bysession{$go =~ m{^\Q$d\E/s/(\d+)\.\d+$} ? $1 : ""}}, $_;
  if ($rule eq "tags") { $keep{$go} = 1; push @tags, $go, "$d/pc/$j" }
}

# the views, one session at a time (the largest outputs are tens of MB)
my %view;
sub cut { # cut RULE FILE BUFFER
  my ($rule, $p, $buf) = @_;
  my $t = exists $view{$p} ? $view{$p} : slurp($p, $buf);
  my $from = {showing => "Showing nodes", traces => "-----------+"}->{$rule};
  return $t unless defined $from;
  my $i = line_at($t, $from);
  return $i < 0 ? \"" : $i == 0 ? $t : \substr($$t, $i);
}
my (%bad, $gobuf, $pcbuf, $outbuf);
my $judged = 0;
sub judge {
  for (@_) {
    my ($j, $rule, $go) = @$_;
    next if $rule eq "tags";
    $judged++;
    my ($a, $b) = (cut($rule, $go, \$gobuf), cut($rule, "$d/pc/$j", \$pcbuf));
    next if $$a eq $$b;
    put("$d/j/$j.go", $a);
    put("$d/j/$j.pc", $b);
    $bad{$j} = 1;
  }
}
for (lines("$d/s/index")) {
  my ($i, $st, $n, $f) = split /\t/, $_, 4;
  my ($out, $at, $p, @s) = (slurp("$d/s/$i.out", \$outbuf), 0);
  while (($p = index($$out, "(pprof) ", $at)) >= 0) { push @s, substr($$out, $at, $p - $at); $at = $p + 8 }
  push @s, substr($$out, $at);
  my $read = @s > 1; # (its greeting goes to stderr, each prompt to stdout)
  printf "S\tFAIL: %s: go tool pprof's session (exit %d) answered %d of its %d command lines\n",
    $f, $st, $read ? @s - 2 : 0, $n
    if $read ? $st != 0 || @s != $n + 2 : $st == 0;
  %view = ();
  $view{"$d/s/$i.$_"} = $read && $_ < @s ? \$s[$_] : \"" for 1 .. $n;
  $keep{$_} and put($_, $view{$_}) for keys %view;
  judge(@{$bysession{$i} // []});
}
%view = ();
judge(@{$bysession{""} // []}); # the command line's texts

if (@tags) {
  unlink map { "$_.t" } @tags; # (awk writes none for an empty text)
  system("awk", $tags_of, @tags) == 0 or die "awk: $?";
  for (@man) {
    my ($j, $rule, $go) = @$_;
    next unless $rule eq "tags";
    $judged++;
    my ($a, $b) = map { my @l = split /^/m, ${slurp("$_.t")}; \join "", sort @l } $go, "$d/pc/$j";
    next if $$a eq $$b;
    put("$d/j/$j.go", $a);
    put("$d/j/$j.pc", $b);
    $bad{$j} = 1;
  }
}
print "N\t$judged\n";
print "J\t$_->[0]\n" for grep { $bad{$_->[0]} } @man;

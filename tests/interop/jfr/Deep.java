// Deep.java — a recursion deeper than a JFR recording's stackdepth, for
// tests/interop/t_jfr.sh: `java Deep MS DEPTH` spins for MS milliseconds
// in a loop at the bottom of rec(DEPTH), so nearly every execution sample
// has DEPTH + 2 frames or more and the recorder cuts its stack trace.
// Part of pcol, under the project's license.
public class Deep {
  static long sink;

  static long rec(int n) {
    if (n == 0) {
      long s = 0;
      for (int i = 0; i < 20000; i++) s += i * (long) i ^ sink;
      return s;
    }
    return rec(n - 1) + 1;
  }

  public static void main(String[] args) {
    long end = System.currentTimeMillis() + Long.parseLong(args[0]);
    int depth = Integer.parseInt(args[1]);
    while (System.currentTimeMillis() < end) sink += rec(depth);
    System.out.println(sink == 42 ? "" : "done");
  }
}

// Workload.java: the program tests/interop/t_jfr.sh records with JDK Flight
// Recorder: four named threads for about the given milliseconds, CPU-bound
// (recursion, hashing), allocating (byte arrays, strings) and blocked in a
// native call (a socket accept with a timeout, for jdk.NativeMethodSample);
// on JDK 21 or later also an unnamed virtual thread computing (JFR gives
// it javaName "", no osName, osThreadId 0); a second recording started and
// stopped mid-run makes the main
// recording's chunk rotate twice, so the file has three chunks, and its
// execution-sample period of 5 ms is in force while it runs.
import java.net.ServerSocket;
import java.net.SocketTimeoutException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

public class Workload {
  static volatile long sink;

  static long fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }

  static void fibWork(long until) {
    while (System.nanoTime() < until) sink += fib(22);
  }

  static void hashWork(long until) {
    while (System.nanoTime() < until) {
      Map<String, Integer> m = new HashMap<>();
      for (int i = 0; i < 2000; i++) m.put("k" + i, i);
      sink += m.size();
    }
  }

  static void allocWork(long until) {
    List<Object> keep = new ArrayList<>();
    while (System.nanoTime() < until) {
      keep.add(new byte[1024 + (int) (sink & 4095)]);
      keep.add(String.valueOf(sink));
      keep.add(new long[2][3]); // arrays as jfr print names them: long[][], long[]
      keep.add(new String[3]);
      if (keep.size() > 4000) keep.clear();
      sink += keep.size();
    }
  }

  static void acceptWork(long until) {
    try (ServerSocket s = new ServerSocket(0)) {
      s.setSoTimeout(50);
      while (System.nanoTime() < until) {
        try {
          s.accept().close();
        } catch (SocketTimeoutException e) {
          sink++;
        }
      }
    } catch (Exception e) {
      throw new RuntimeException(e);
    }
  }

  public static void main(String[] a) throws Exception {
    long ms = a.length > 0 ? Long.parseLong(a[0]) : 2500;
    long until = System.nanoTime() + ms * 1_000_000L;
    Thread[] t = {new Thread(() -> fibWork(until), "fib-worker"),
                  new Thread(() -> hashWork(until), "hash-worker"),
                  new Thread(() -> allocWork(until), "alloc-worker"),
                  new Thread(() -> acceptWork(until), "accept-worker")};
    for (Thread x : t) x.start();
    Thread v = null;
    try { // Thread.ofVirtual().unstarted(...), by reflection: compiled by JDK 17 too
      Object b = Thread.class.getMethod("ofVirtual").invoke(null);
      v = (Thread) Class.forName("java.lang.Thread$Builder").getMethod("unstarted", Runnable.class)
              .invoke(b, (Runnable) () -> fibWork(until));
      v.start();
    } catch (NoSuchMethodException e) {
      // before JDK 21: no virtual threads
    }
    Thread.sleep(ms / 3);
    jdk.jfr.Recording r = new jdk.jfr.Recording();
    // its shorter execution-sample period is the JVM's while it runs (the
    // settings in force: jdk.ActiveSetting events of 5 ms, then 10 ms again)
    r.enable("jdk.ExecutionSample").withPeriod(java.time.Duration.ofMillis(5));
    r.start();
    Thread.sleep(ms / 3);
    r.stop();
    r.close();
    for (Thread x : t) x.join();
    if (v != null) v.join();
  }
}

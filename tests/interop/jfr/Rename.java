// Rename.java: threads renamed between the chunks of one recording.
public class Rename {
  static volatile long sink;
  static volatile int phase = 1;
  static final Object lock = new Object();

  static long fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }

  static void spin(long ms) {
    long until = System.nanoTime() + ms * 1_000_000L;
    while (System.nanoTime() < until) sink += fib(20);
  }

  static void rotate() throws Exception {
    jdk.jfr.Recording r = new jdk.jfr.Recording();
    r.start();
    r.stop();
    r.close();
  }

  public static void main(String[] a) throws Exception {
    long ms = a.length > 0 ? Long.parseLong(a[0]) : 400;
    Thread t = new Thread(() -> {
      while (phase < 4) spin(5);
    }, "alpha");
    Thread u = new Thread(() -> {
      while (phase == 1) spin(5);
      synchronized (lock) {
        while (phase == 2) {
          try { lock.wait(); } catch (InterruptedException e) { return; }
        }
      }
      while (phase == 3) spin(5);
    }, "sleeper-1");
    t.start();
    u.start();
    Thread.sleep(ms);
    phase = 2;
    Thread.sleep(50);
    rotate();
    t.setName("beta");
    u.setName("sleeper-2");
    Thread.sleep(ms);
    rotate();
    t.setName("gamma");
    synchronized (lock) { phase = 3; lock.notifyAll(); }
    Thread.sleep(ms);
    phase = 4;
    t.join();
    u.join();
  }
}

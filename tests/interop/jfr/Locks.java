// Locks: threads that block on a monitor (jdk.JavaMonitorEnter) and park
// on a ReentrantLock (jdk.ThreadPark), for tests/interop/t_jfr.sh (review
// 21 F2: a lock recording read as an empty profile).  Part of pcol, under
// the project's license.
import java.util.concurrent.locks.ReentrantLock;

public class Locks {
  static final Object MONITOR = new Object();
  static final ReentrantLock LOCK = new ReentrantLock();
  static volatile long sink;

  static void holdMonitor(long ms) {
    synchronized (MONITOR) {
      spin(ms);
    }
  }

  static void holdLock(long ms) {
    LOCK.lock();
    try {
      spin(ms);
    } finally {
      LOCK.unlock();
    }
  }

  static void spin(long ms) {
    long end = System.nanoTime() + ms * 1000000L;
    long x = 0;
    while (System.nanoTime() < end) x += x * 31 + 7;
    sink = x;
  }

  public static void main(String[] args) throws Exception {
    int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 20;
    Thread[] ts = new Thread[3];
    for (int t = 0; t < ts.length; t++) {
      ts[t] = new Thread(() -> {
        for (int i = 0; i < rounds; i++) {
          holdMonitor(2);
          holdLock(2);
        }
      }, "locker-" + t);
      ts[t].start();
    }
    for (Thread t : ts) t.join();
  }
}

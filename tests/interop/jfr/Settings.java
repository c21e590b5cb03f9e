import java.nio.file.Path;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import jdk.jfr.EventType;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;

/* The "period" settings of jdk.ExecutionSample in a recording, as the JDK's
 * own reader (jdk.jfr.consumer) gives them: one line per jdk.ActiveSetting
 * event, "EPOCH_NS<TAB>VALUE" (tests/interop/jfr_judge.py: each execution
 * sample's CPU time is the period in force at its time); and
 * async-profiler's settings, "ap<TAB>NAME<TAB>VALUE": its "event" (of
 * jdk.ActiveRecording), "interval" and "wall" (of jdk.ExecutionSample). */
public class Settings {
  public static void main(String[] args) throws Exception {
    try (RecordingFile f = new RecordingFile(Path.of(args[0]))) {
      Map<Long, String> names = new HashMap<>();
      for (EventType t : f.readEventTypes()) names.put(t.getId(), t.getName());
      while (f.hasMoreEvents()) {
        RecordedEvent e = f.readEvent();
        if (!e.getEventType().getName().equals("jdk.ActiveSetting")) continue;
        String type = names.get(e.getLong("id")), name = e.getString("name");
        if (("jdk.ActiveRecording".equals(type) && "event".equals(name)) ||
            ("jdk.ExecutionSample".equals(type) && ("interval".equals(name) || "wall".equals(name)))) {
          System.out.println("ap\t" + name + "\t" + e.getString("value"));
          continue;
        }
        if (!"jdk.ExecutionSample".equals(type) || !"period".equals(name)) continue;
        Instant t = e.getStartTime();
        System.out.println((t.getEpochSecond() * 1_000_000_000L + t.getNano()) + "\t" + e.getString("value"));
      }
    }
  }
}

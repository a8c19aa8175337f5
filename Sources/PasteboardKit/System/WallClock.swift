#if canImport(Glibc)
  import Glibc
#endif

/// Wall-clock and monotonic time without Foundation (keeps `pb`'s start-up
/// light).
public enum WallClock {
  /// Milliseconds since the Unix epoch.
  public static func nowMilliseconds() -> Int64 {
    var ts = timespec()
    clock_gettime(CLOCK_REALTIME, &ts)
    return Int64(ts.tv_sec) * 1000 + Int64(ts.tv_nsec) / 1_000_000
  }

  /// Milliseconds on the monotonic clock, for deadlines.
  public static func monotonicMilliseconds() -> Int64 {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Int64(ts.tv_sec) * 1000 + Int64(ts.tv_nsec) / 1_000_000
  }

  /// Sleeps until the wall clock reads `deadline` (ms since the epoch).
  public static func sleep(untilMilliseconds deadline: Int64) {
    var ts = timespec(tv_sec: Int(deadline / 1000), tv_nsec: Int(deadline % 1000) * 1_000_000)
    while clock_nanosleep(CLOCK_REALTIME, TIMER_ABSTIME, &ts, nil) == EINTR {}
  }

  /// `2026-11-30 06:39:57` in local time, for listings.
  public static func localTimestamp(milliseconds: Int64) -> String {
    var seconds = time_t(milliseconds / 1000)
    var parts = tm()
    localtime_r(&seconds, &parts)
    var buffer = [CChar](repeating: 0, count: 32)
    let n = strftime(&buffer, buffer.count, "%Y-%m-%d %H:%M:%S", &parts)
    return String(decoding: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }
}

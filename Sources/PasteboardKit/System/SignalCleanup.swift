#if canImport(Glibc)
  import Glibc
#endif

/// What pb undoes when it is interrupted (SIGINT, SIGTERM, SIGHUP): a
/// terminal it switched to another mode gets its mode back, the process
/// groups of programs it is running get SIGTERM (they lead groups of their
/// own, so Ctrl-C at the terminal does not reach them), then registered
/// temporary files are removed, then their directories; then pb dies of
/// the same signal. So an interrupted copy, export, activity or terminal
/// query leaves nothing behind.
public enum SignalCleanup {
  // Fixed C buffers: a signal handler may only touch memory that needs no
  // allocation or locking.
  private static let capacity = 256
  private static let slots: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?> = {
    let p = UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>.allocate(capacity: capacity)
    p.initialize(repeating: nil, count: capacity)
    return p
  }()
  private static let groupCapacity = 16
  private static let groups: UnsafeMutablePointer<pid_t> = {
    let p = UnsafeMutablePointer<pid_t>.allocate(capacity: groupCapacity)
    p.initialize(repeating: 0, count: groupCapacity)
    return p
  }()
  private static var terminal: Int32 = -1
  private static let terminalMode: UnsafeMutablePointer<termios> = {
    let p = UnsafeMutablePointer<termios>.allocate(capacity: 1)
    p.initialize(to: termios())
    return p
  }()

  /// Installs the handlers for SIGINT, SIGTERM and SIGHUP, except for a
  /// signal the process was started with ignored (`nohup`, a background
  /// job of a script): it stays ignored, as the caller asked.
  public static func install() {
    _ = slots
    _ = groups
    _ = terminalMode
    for sig in [SIGINT, SIGTERM, SIGHUP] {
      var current = sigaction()
      guard sigaction(sig, nil, &current) == 0 else { continue }
      // SIG_IGN is the handler value 1.
      if unsafeBitCast(current.__sigaction_handler.sa_handler, to: Int.self) == 1 { continue }
      signal(sig) { received in
        if SignalCleanup.terminal >= 0 { tcsetattr(SignalCleanup.terminal, TCSANOW, SignalCleanup.terminalMode) }
        for i in 0..<SignalCleanup.groupCapacity where SignalCleanup.groups[i] > 0 {
          kill(-SignalCleanup.groups[i], SIGTERM)
        }
        // Files first, then the directories that held them.
        for i in 0..<SignalCleanup.capacity {
          if let path = SignalCleanup.slots[i] { unlink(path) }
        }
        for i in 0..<SignalCleanup.capacity {
          if let path = SignalCleanup.slots[i] { rmdir(path) }
        }
        signal(received, SIG_DFL)
        raise(received)
      }
    }
  }

  /// Removes `path` (a file, or a directory once empty) on interruption.
  public static func register(_ path: String) {
    for i in 0..<capacity where slots[i] == nil {
      slots[i] = ByteString.withCString(path) { strdup($0) }
      return
    }
  }

  public static func unregister(_ path: String) {
    for i in 0..<capacity {
      if let p = slots[i], ByteString.decode(cString: p) == path {
        slots[i] = nil
        free(p)
      }
    }
  }

  /// Ends the process group `group` on interruption.
  public static func register(group: pid_t) {
    for i in 0..<groupCapacity where groups[i] == 0 {
      groups[i] = group
      return
    }
  }

  public static func unregister(group: pid_t) {
    for i in 0..<groupCapacity where groups[i] == group { groups[i] = 0 }
  }

  /// Puts `mode` back on the terminal `descriptor` on interruption (one
  /// terminal at a time).
  public static func restoreOnInterruption(terminal descriptor: Int32, mode: termios) {
    terminal = -1
    terminalMode.pointee = mode
    terminal = descriptor
  }

  public static func forgetTerminal() { terminal = -1 }
}

#if canImport(Glibc)
  import Glibc
#endif

/// SIGTERM and SIGINT for a serving owner: blocked except while it waits
/// in `ppoll`, where the handler only records the signal. The owner then
/// finishes the request at hand and exits voluntarily (offering the
/// clipboard to a manager), and it needs no self-pipe descriptor.
enum StopSignals {
  nonisolated(unsafe) static var received: Int32 = 0
  /// The mask to wait with: everything the process had, minus the stop
  /// signals.
  nonisolated(unsafe) static var waitMask = sigset_t()
  nonisolated(unsafe) static var installed = false

  static func install() {
    guard !installed else { return }
    installed = true
    var block = sigset_t()
    sigemptyset(&block)
    sigaddset(&block, SIGTERM)
    sigaddset(&block, SIGINT)
    var previous = sigset_t()
    sigprocmask(SIG_BLOCK, &block, &previous)
    waitMask = previous
    sigdelset(&waitMask, SIGTERM)
    sigdelset(&waitMask, SIGINT)
    var action = sigaction()
    action.__sigaction_handler.sa_handler = { StopSignals.received = $0 }
    sigemptyset(&action.sa_mask)
    sigaction(SIGTERM, &action, nil)
    sigaction(SIGINT, &action, nil)
  }
}

import PasteboardKit

#if canImport(Glibc)
  import Glibc
#endif

/// One `write(2)` of a whole sequence to a blocking terminal, made by a
/// thread of its own while the caller goes on (writing the board).
///
/// Why one write: the kernel makes a single write to a terminal whole,
/// never interleaved with another program writing to the same terminal
/// (tmux redrawing, an editor whose clipboard command pb is), however long
/// the terminal takes to read it; a series of writes cannot promise that,
/// and a sequence with someone else's bytes inside it is lost. Why a
/// thread: a slow terminal (tmux parses 133 KB in a few milliseconds)
/// reads while the board is written, and a terminal that stopped reading
/// (Ctrl-S) cannot hold pb past the deadline of `wait`.
final class TerminalWrite {
  private let descriptor: Int32
  private let bytes: [UInt8]
  /// Written by the thread before it signals `done`, read after.
  private var written = 0
  private var failure: Int32 = 0
  /// The thread writes one byte to `done[1]` when it has finished.
  private var done: [Int32] = [-1, -1]
  private var thread = pthread_t()
  private var finished = false

  /// Starts writing `bytes` to the blocking descriptor `descriptor`.
  init(_ bytes: [UInt8], to descriptor: Int32) throws {
    self.descriptor = descriptor
    self.bytes = bytes
    guard pipe(&done) == 0 else { throw PasteboardError.failed("cannot write to the terminal: pipe: \(errnoText())") }
    for fd in done { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
    let context = Unmanaged.passRetained(self).toOpaque()
    let started = pthread_create(
      &thread, nil,
      { context in
        let write = Unmanaged<TerminalWrite>.fromOpaque(context!).takeRetainedValue()
        write.run()
        return nil
      }, context)
    if started != 0 {
      Unmanaged<TerminalWrite>.fromOpaque(context).release()
      closePipe()
      throw PasteboardError.failed("cannot write to the terminal: no thread (\(errnoText(started)))")
    }
  }

  deinit { closePipe() }

  private func closePipe() {
    for fd in done where fd >= 0 { close(fd) }
    done = [-1, -1]
  }

  /// The thread's work: one write, retried only for what a signal cut
  /// short (the kernel then has written a part, and the rest follows).
  private func run() {
    while written < bytes.count {
      let n = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress! + written, $0.count - written) }
      if n < 0 {
        if errno == EINTR { continue }
        failure = errno
        break
      }
      written += n
    }
    var one: UInt8 = 1
    _ = Glibc.write(done[1], &one, 1)
  }

  /// Waits until the write is done, at most until `deadline`.
  /// - Throws: `late()` when the terminal has not taken it all by then
  ///   (the thread is left blocked; it ends with the process), `.failed`
  ///   when the write failed.
  func wait(until deadline: Int64, late: () -> PasteboardError) throws {
    if finished { return }
    switch awaitReadiness(done[0], for: Int16(POLLIN), until: deadline) {
    case .ready: break
    case .timedOut:
      pthread_detach(thread)
      finished = true
      throw late()
    case .failed(let code): throw PasteboardError.failed("cannot wait for the terminal: \(errnoText(code))")
    }
    pthread_join(thread, nil)
    finished = true
    if failure != 0 { throw PasteboardError.failed("cannot write to the terminal: \(errnoText(failure))") }
  }
}

#if canImport(Glibc)
  import Glibc
#endif

/// The text of an errno value, as `strerror(3)` gives it ("No space left
/// on device"): the one place pb turns a system error code into words.
public func errnoText(_ code: Int32 = errno) -> String {
  String(cString: strerror(code))
}

/// Turns a failed system call into a `PasteboardError` that names what was
/// being done, the path, and the system's reason.
func systemFailure(_ action: String, _ path: String? = nil, code: Int32 = errno) -> PasteboardError {
  let target = path.map { " \($0)" } ?? ""
  return .failed("cannot \(action)\(target): \(errnoText(code))")
}

/// Retries a system call while it fails with `EINTR`.
///
/// The C functions return -1 and set errno on failure; everything else is a
/// result.
@inline(__always)
public func retryingOnInterrupt<T: BinaryInteger>(_ call: () -> T) -> T {
  while true {
    let result = call()
    if result == -1 && errno == EINTR { continue }
    return result
  }
}

#if canImport(Glibc)
  import Glibc
#endif

/// The environment variable `name`, or nil when unset or empty; bytes that
/// are not UTF-8 are kept (see `ByteString`).
public func environmentValue(_ name: String) -> String? {
  guard let raw = getenv(name) else { return nil }
  let value = ByteString.decode(cString: raw)
  return value.isEmpty ? nil : value
}

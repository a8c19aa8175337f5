#if canImport(Glibc)
  import Glibc
#endif

/// The environment variable `name`, or nil when unset or empty.
public func environmentValue(_ name: String) -> String? {
  guard let raw = getenv(name) else { return nil }
  let value = String(cString: raw)
  return value.isEmpty ? nil : value
}

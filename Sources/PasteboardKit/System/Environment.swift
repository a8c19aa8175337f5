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

/// This process's environment as `NAME=value` strings (bytes kept), with
/// `extra` set on top: what a child process is started with.
public func environmentStrings(setting extra: [String: String] = [:]) -> [String] {
  var result: [String] = []
  var i = 0
  while let entry = environ[i] {
    let text = ByteString.decode(cString: entry)
    let name = String(text.prefix { $0 != "=" })
    if extra[name] == nil { result.append(text) }
    i += 1
  }
  for (name, value) in extra.sorted(by: { $0.key < $1.key }) { result.append(name + "=" + value) }
  return result
}

/// The working directory (bytes kept); `/` when it cannot be found (it was
/// removed).
public func currentDirectory() -> String {
  var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
  guard getcwd(&buffer, buffer.count) != nil else { return "/" }
  return ByteString.decode(buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) })
}

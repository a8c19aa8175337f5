#if canImport(Glibc)
  import Glibc
#endif
import PasteboardKit

/// `pb.mail`: the items as an e-mail message (see `MailMessage`), written
/// to the file `--into FILE` (atomically), or else handed to `sendmail -t
/// -i` when one is configured (`PB_SENDMAIL`, else `sendmail` on PATH or
/// in /usr/sbin). `--to` (repeatable) and `--subject` fill the headers;
/// the sender is `--from`, else `EMAIL`, else user@host. Returns the file
/// written, as text.
public final class MailActivity: Activity {
  public let activityType = "pb.mail"
  public let title = "Mail"
  public let category = ActivityCategory.share
  private let environment: ActivityEnvironment
  private var message: MailMessage?

  public init(environment: ActivityEnvironment) { self.environment = environment }

  public func canPerform(with items: [ActivityItem]) -> Bool { !items.isEmpty }

  public func prepare(with items: [ActivityItem]) throws {
    if environment.into == nil {
      let program = try sendmail()
      guard program != nil, !environment.mailTo.isEmpty else {
        throw PasteboardError.invalid(
          program == nil
            ? "pb.mail needs --into FILE to write the message to, or --to ADDRESS and a sendmail program (PB_SENDMAIL, or sendmail on PATH or in /usr/sbin) to hand it to"
            : "pb.mail needs --to ADDRESS to hand the message to sendmail (or --into FILE to write it to a file)")
      }
    }
    let host = MailActivity.hostName()
    let from = environment.mailFrom ?? environmentValue("EMAIL") ?? "\(MailActivity.userName())@\(host)"
    var subject = environment.mailSubject
    var parts: [MailMessage.Part] = []
    var counts: [ActivityItem.Kind: Int] = [:]
    for item in items {
      counts[item.kind, default: 0] += 1
      let n = counts[item.kind]!
      switch item.kind {
      case .text, .url:
        let bytes = try item.bytes() + (item.kind == .url ? [0x0A] : [])
        if subject == nil { subject = MailActivity.subject(fromText: bytes) }
        parts.append(.init(type: item.kind == .url ? MIMEType.utf8Text : item.type, bytes: bytes, fileName: nil))
      case .file:
        let name = item.path.map { String($0.split(separator: "/").last ?? "file") } ?? "file"
        parts.append(.init(type: item.type, bytes: try item.bytes(), fileName: name))
      case .image, .data:
        let ext = TypeDetection.fileExtension(for: item.type) ?? "bin"
        let base = item.kind == .image ? "image" : "data"
        parts.append(.init(type: item.type, bytes: try item.bytes(), fileName: n == 1 ? "\(base).\(ext)" : "\(base)-\(n).\(ext)"))
      }
    }
    let finalSubject = subject ?? "Shared with pb"
    for address in environment.mailTo { try MailMessage.checkAddress(address, "address") }
    try MailMessage.checkAddress(from, "sender")
    try MailMessage.checkHeader(finalSubject, "subject")
    message = MailMessage(
      from: from, to: environment.mailTo, subject: finalSubject, date: environment.clock(), host: host, parts: parts)
  }

  /// A subject from a text item: its first line that is not blank, with
  /// control characters as spaces, at most 60 characters.
  static func subject(fromText bytes: [UInt8]) -> String? {
    let text = String(decoding: bytes.prefix(4096), as: UTF8.self)
    for line in text.split(whereSeparator: \.isNewline) {
      let cleaned = String(String.UnicodeScalarView(line.unicodeScalars.compactMap { s -> Unicode.Scalar? in
        if s == "\u{FEFF}" { return nil }
        return s.properties.generalCategory == .control ? " " : s
      })).trimmingCharacters()
      if !cleaned.isEmpty { return String(cleaned.prefix(60)).trimmingCharacters() }
    }
    return nil
  }

  public func perform() throws -> [ActivityItem] {
    guard let message else { throw PasteboardError.failed("pb.mail was not prepared") }
    let bytes = message.bytes()
    if let into = environment.into {
      let file = try OutputFile(into)
      try file.write(.bytes(bytes))
      try file.commit()
      return [.text(into + "\n")]
    }
    guard let program = try sendmail() else { throw PasteboardError.unavailable("no sendmail program to hand the message to") }
    try ProgramRun.run([program, "-t", "-i"], input: bytes, timeout: environment.timeoutMilliseconds, what: "cannot send the mail")
    return []
  }

  /// The sendmail program: `PB_SENDMAIL` (a path, or a name on PATH),
  /// else `sendmail` on PATH or in /usr/sbin; nil when there is none.
  /// - Throws: `.invalid` when `PB_SENDMAIL` names no program.
  private func sendmail() throws -> String? {
    if let configured = environmentValue("PB_SENDMAIL") {
      let found = configured.contains("/") ? (MailActivity.isProgram(configured) ? configured : nil) : environment.programs.find(configured)
      guard let found else {
        throw PasteboardError.invalid("PB_SENDMAIL names '\(configured)', which is not a program pb can run")
      }
      return found
    }
    return environment.programs.find("sendmail") ?? (MailActivity.isProgram("/usr/sbin/sendmail") ? "/usr/sbin/sendmail" : nil)
  }

  static func isProgram(_ path: String) -> Bool {
    var st = stat()
    return ByteString.withCString(path) { access($0, X_OK) == 0 && stat($0, &st) == 0 } && st.st_mode & S_IFMT == S_IFREG
  }

  static func hostName() -> String {
    var buffer = [CChar](repeating: 0, count: 256)
    guard gethostname(&buffer, buffer.count - 1) == 0 else { return "localhost" }
    let name = String(cString: buffer)
    return name.isEmpty ? "localhost" : name
  }

  static func userName() -> String {
    if let pw = getpwuid(geteuid()), let name = pw.pointee.pw_name { return String(cString: name) }
    return environmentValue("USER") ?? "user"
  }
}

import PasteboardKit

#if canImport(Glibc)
  import Glibc
#endif

/// The `pb` command: parses the arguments, runs one command, and maps every
/// outcome to one exit status and at most one `pb:` line on standard error.
public enum PB {
  public static let version = "0.1.0"

  static let commands: [CommandSpec] = [
    CopyCommand.spec, PasteCommand.spec, TypesCommand.spec, ClearCommand.spec, BoardsCommand.spec,
    CountCommand.spec, HistoryCommand.spec, InfoCommand.spec, ShareCommand.spec, TableCommand.spec, WatchCommand.spec,
    HelpCommand.spec,
  ]

  /// Runs pb with this process's arguments and standard streams; returns
  /// the exit status.
  public static func main() -> Int32 {
    // The arguments as given: a file name that is not UTF-8 keeps its
    // bytes (CommandLine.arguments would replace them).
    let arguments = (0..<Int(CommandLine.argc)).map { ByteString.decode(cString: CommandLine.unsafeArgv[$0]!) }
    return main(arguments)
  }

  /// Runs pb with `arguments` (argv, program name first) on `io`; returns
  /// the exit status.
  public static func main(_ arguments: [String], io: CommandIO = .process) -> Int32 {
    if let status = ExpirySweeper.runIfRequested(arguments) ?? X11Support.runInternalCommand(arguments) {
      return status
    }
    // A write to a file over a size limit must fail with EFBIG, not kill pb.
    signal(SIGXFSZ, SIG_IGN)
    SignalCleanup.install()
    var quiet = false
    do {
      var invocation = try Invocation.parse(Array(arguments.dropFirst()), commands: commands)
      invocation.io = io
      quiet = invocation.has("quiet")
      if invocation.has("version") {
        try io.print("pb \(version)\n")
        return 0
      }
      guard let command = invocation.command else {
        if invocation.has("help") {
          try io.print(HelpCommand.overview())
          return 0
        }
        throw UsageError("no command given (see 'pb --help')")
      }
      if invocation.has("help") {
        try io.print(HelpCommand.text(for: command))
        return 0
      }
      return try command.run(invocation)
    } catch let error as UsageError {
      io.complain(error.message)
      return ExitStatus.usage
    } catch let error as PasteboardError {
      let status = error.exitStatus
      if !(quiet && status == ExitStatus.nothingThere) { io.complain(error.description) }
      return status
    } catch {
      io.complain("\(error)")
      return ExitStatus.failure
    }
  }
}

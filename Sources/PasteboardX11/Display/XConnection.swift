import CX11
#if canImport(Glibc)
  import Glibc
#endif
import PasteboardKit

/// One connection to an X server with an unmapped window of pb's own, used
/// from one thread.
///
/// Every wait goes through `next(until:)`: drain Xlib's queue first,
/// then `poll` the connection with a deadline, so no event hides in Xlib's
/// private queue and no wait is unbounded.
final class XConnection {
  let display: OpaquePointer
  let fd: Int32
  /// The display's name, for messages ("DISPLAY is :5").
  let displayName: String
  let atoms: Atoms
  let window: Window
  /// A server time taken when the connection opened (the `PropertyNotify`
  /// of a zero-length append to pb's window): a real timestamp for owning,
  /// as ICCCM asks, at no extra round trip. (Conversions send CurrentTime,
  /// which owners accept.)
  private(set) var openedAt: Time = 0
  /// Largest request the server takes, in bytes.
  let maxRequestBytes: Int

  /// Opens the display named `name` (DISPLAY when nil).
  ///
  /// - Parameter probeMilliseconds: how long the server may take to answer
  ///   a bare connection attempt before it counts as unreachable.
  /// - Throws: `.unavailable` naming the display and the reason.
  init(name: String? = nil, probeMilliseconds: Int64 = 1000) throws {
    guard let displayName = name ?? environmentValue("DISPLAY") else {
      throw PasteboardError.unavailable("cannot use the X11 clipboard: DISPLAY is unset")
    }
    self.displayName = displayName
    guard let address = DisplayAddress(displayName) else {
      throw PasteboardError.unavailable("cannot use the X11 clipboard: '\(displayName)' is not a display name (DISPLAY is \(displayName))")
    }
    if let reason = DisplayProbe.check(address, milliseconds: probeMilliseconds) {
      throw PasteboardError.unavailable("cannot open display \(displayName): \(reason) (DISPLAY is \(displayName))")
    }
    ErrorTrap.install()
    // Selections need no keyboard: skipping XKB saves XOpenDisplay two
    // round trips.
    _ = XkbIgnoreExtension(True)
    guard let display = XOpenDisplay(displayName) else {
      throw PasteboardError.unavailable("cannot open display \(displayName): the X server refused the connection (DISPLAY is \(displayName))")
    }
    self.display = display
    XSetIOErrorExitHandler(display, { display, _ in
      if let display { ErrorTrap.lostDisplays.append(display) }
    }, nil)
    fd = pb_connection_number(display)
    let extended = XExtendedMaxRequestSize(display)
    maxRequestBytes = 4 * Int(extended > 0 ? extended : XMaxRequestSize(display))
    window = XCreateSimpleWindow(display, pb_default_root(display), 0, 0, 1, 1, 0, 0, 0)
    XSelectInput(display, window, PropertyChangeMask)
    // A zero-length append changes nothing but makes the server report its
    // time; the reply to the atoms below follows the event on the wire.
    XChangeProperty(display, window, 39 /* XA_WM_NAME */, 19 /* INTEGER */, 32, PropModeAppend, nil, 0)
    let interned = XConnection.intern(Atoms.names, on: display)
    atoms = Atoms(interned)
    for (name, atom) in zip(Atoms.names, interned) {
      atomCache[name] = atom
      nameCache[atom] = name
    }
    for (name, atom) in [("STRING", Atom(31)), ("ATOM", 4), ("INTEGER", 19), ("PRIMARY", 1), ("SECONDARY", 2)] {
      atomCache[name] = atom
      nameCache[atom] = name
    }
    openedAt = try takeTimestamp(property: 39)
  }

  private var abandoned = false

  deinit {
    if abandoned {
      close(fd)
    } else {
      XCloseDisplay(display)
    }
    // The next display opened may get the same address.
    ErrorTrap.forget(display)
  }

  /// Gives the connection up without a word to the server, for a parent
  /// whose forked child goes on using it.
  func abandon() { abandoned = true }

  /// Whether the connection to the server broke.
  var isLost: Bool { ErrorTrap.lostDisplays.contains(display) }

  func checkAlive() throws {
    if isLost {
      throw PasteboardError.unavailable("lost the connection to the X server (DISPLAY is \(displayName))")
    }
  }

  // MARK: atoms

  private static func intern(_ names: [String], on display: OpaquePointer) -> [Atom] {
    var cNames = names.map { strdup($0) }
    defer { cNames.forEach { free($0) } }
    var result = [Atom](repeating: 0, count: names.count)
    _ = cNames.withUnsafeMutableBufferPointer { namesPtr in
      result.withUnsafeMutableBufferPointer {
        XInternAtoms(display, namesPtr.baseAddress, Int32(names.count), False, $0.baseAddress)
      }
    }
    return result
  }

  private var atomCache: [String: Atom] = [:]
  private var nameCache: [Atom: String] = [:]

  /// The atom named `name`, created if needed (for MIME targets).
  func atom(_ name: String) -> Atom {
    if let a = atomCache[name] { return a }
    let a = XInternAtom(display, name, False)
    atomCache[name] = a
    nameCache[a] = name
    return a
  }

  /// The name of `atom`, or nil for a bad atom.
  func name(of atom: Atom) -> String? {
    if let n = nameCache[atom] { return n }
    guard atom != 0, let raw = XGetAtomName(display, atom) else { return nil }
    defer { XFree(raw) }
    let n = String(cString: raw)
    nameCache[atom] = n
    atomCache[n] = atom
    return n
  }

  /// Names of many atoms in one round trip.
  func names(of list: [Atom]) -> [String?] {
    var unknown = Array(Set(list.filter { $0 != 0 && nameCache[$0] == nil }))
    if !unknown.isEmpty {
      var out = [UnsafeMutablePointer<CChar>?](repeating: nil, count: unknown.count)
      // A bad atom in the list fails the whole call (recorded, not fatal);
      // the names then stay unknown and those targets are skipped.
      _ = XGetAtomNames(display, &unknown, Int32(unknown.count), &out)
      for (i, a) in unknown.enumerated() {
        guard let p = out[i] else { continue }
        let n = String(cString: p)
        nameCache[a] = n
        atomCache[n] = a
        XFree(p)
      }
    }
    return list.map { nameCache[$0] }
  }

  // MARK: waiting

  enum Wake {
    case event(XEvent)
    case timedOut
    /// A stop signal arrived (once `StopSignals` is installed).
    case woken
  }

  /// The next event, or `.timedOut` at `deadline` (monotonic ms; nil waits
  /// without limit), or `.woken` when a stop signal arrives (once
  /// `StopSignals` is installed).
  func next(until deadline: Int64?) throws -> Wake {
    while true {
      if XPending(display) > 0 {
        var event = XEvent()
        XNextEvent(display, &event)
        return .event(event)
      }
      try checkAlive()
      var timeout: Int32 = -1
      if let deadline {
        let left = deadline - WallClock.monotonicMilliseconds()
        if left <= 0 { return .timedOut }
        timeout = Int32(min(left, 3_600_000))
      }
      if StopSignals.installed && StopSignals.received != 0 { return .woken }
      var fds = [pollfd(fd: fd, events: Int16(POLLIN), revents: 0)]
      let n: Int32
      if StopSignals.installed {
        n = pb_ppoll(&fds, UInt(fds.count), timeout, &StopSignals.waitMask)
        if StopSignals.received != 0 { return .woken }
      } else {
        n = poll(&fds, nfds_t(fds.count), timeout)
      }
      if n < 0 && errno != EINTR {
        throw PasteboardError.failed("cannot wait for the X server: \(errnoText())")
      }
      // POLLIN, POLLHUP or POLLERR on the connection: XPending reads what
      // is there, and a broken connection shows up as isLost.
      if n > 0, fds[0].revents & Int16(POLLHUP | POLLERR | POLLNVAL) != 0 {
        _ = XPending(display)
        try checkAlive()
        if fds[0].revents & Int16(POLLNVAL) != 0 {
          throw PasteboardError.unavailable("lost the connection to the X server (DISPLAY is \(displayName))")
        }
      }
    }
  }

  // MARK: time

  /// A current server time: append nothing to `property` on pb's window and
  /// read the time of the resulting `PropertyNotify`.
  func serverTime() throws -> Time {
    XChangeProperty(display, window, atoms.timestampProperty, atoms.integer, 32, PropModeAppend, nil, 0)
    XFlush(display)
    return try takeTimestamp(property: atoms.timestampProperty)
  }

  private func takeTimestamp(property: Atom) throws -> Time {
    let deadline = WallClock.monotonicMilliseconds() + 5000
    while true {
      switch try next(until: deadline) {
      case .event(let e):
        if e.type == PropertyNotify, e.xproperty.window == window, e.xproperty.atom == property {
          return e.xproperty.time
        }
      case .timedOut, .woken:
        throw PasteboardError.timedOut("the X server did not report its time within 5 s (DISPLAY is \(displayName))")
      }
    }
  }
}

/// Compares X server times, which are 32-bit milliseconds that wrap about
/// every 49.7 days: true when `a` is earlier than `b`.
func serverTime(_ a: Time, isEarlierThan b: Time) -> Bool {
  Int32(bitPattern: UInt32(truncatingIfNeeded: a &- b)) < 0
}

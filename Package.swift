// swift-tools-version:5.9
import PackageDescription

// One direction of dependency:
//   pb -> PBCommandLine -> PasteboardKit, PasteboardX11, PasteboardRedis,
//                          PasteboardActivities, PasteboardTable, PasteboardTerminal
// PasteboardX11, PasteboardRedis, PasteboardActivities, PasteboardTable and
// PasteboardTerminal import PasteboardKit only (and X11 and Redis their C
// modules: libX11, hiredis and libsodium);
// none knows another or the command line.
// The core library (PasteboardKit) knows nothing of the command line and
// imports no C library beyond glibc (CSystem only shows glibc's Linux
// declarations to Swift).
let package = Package(
  name: "pb",
  products: [
    .executable(name: "pb", targets: ["pb"]),
    .library(name: "PasteboardKit", targets: ["PasteboardKit"]),
    .library(name: "PasteboardActivities", targets: ["PasteboardActivities"]),
    .library(name: "PasteboardTable", targets: ["PasteboardTable"]),
    .library(name: "PasteboardTerminal", targets: ["PasteboardTerminal"]),
  ],
  targets: [
    .systemLibrary(name: "CSystem"),
    .target(name: "PasteboardKit", dependencies: ["CSystem"]),
    .systemLibrary(name: "CX11", pkgConfig: "x11", providers: [.apt(["libx11-dev", "libxfixes-dev"])]),
    .target(name: "PasteboardX11", dependencies: ["PasteboardKit", "CX11"]),
    .systemLibrary(name: "CHiredis", pkgConfig: "hiredis", providers: [.apt(["libhiredis-dev"])]),
    .systemLibrary(name: "CSodium", pkgConfig: "libsodium", providers: [.apt(["libsodium-dev"])]),
    .target(name: "PasteboardRedis", dependencies: ["PasteboardKit", "CHiredis", "CSodium"]),
    .target(name: "PasteboardActivities", dependencies: ["PasteboardKit"]),
    .target(name: "PasteboardTable", dependencies: ["PasteboardKit"]),
    .target(name: "PasteboardTerminal", dependencies: ["PasteboardKit"]),
    .target(name: "PBCommandLine", dependencies: ["PasteboardKit", "PasteboardX11", "PasteboardRedis", "PasteboardActivities", "PasteboardTable", "PasteboardTerminal"]),
    .executableTarget(name: "pb", dependencies: ["PBCommandLine"]),
    // The conformance suite every backend passes (a test-support library).
    .target(name: "PasteboardConformance", dependencies: ["PasteboardKit"], path: "Tests/PasteboardConformance"),
    // A private redis-server for the Redis backend's tests.
    .target(name: "RedisTestSupport", path: "Tests/RedisTestSupport"),
    .testTarget(name: "PasteboardKitTests", dependencies: ["PasteboardKit", "PasteboardConformance"]),
    .testTarget(name: "PBCommandLineTests", dependencies: ["PBCommandLine", "PasteboardKit", "RedisTestSupport"]),
    .testTarget(name: "PasteboardActivitiesTests", dependencies: ["PasteboardActivities", "PasteboardKit"]),
    .testTarget(name: "PasteboardTableTests", dependencies: ["PasteboardTable", "PasteboardKit"]),
    .testTarget(name: "PasteboardTerminalTests", dependencies: ["PasteboardTerminal", "PasteboardKit"]),
    .testTarget(name: "PasteboardRedisTests", dependencies: ["PasteboardRedis", "PasteboardKit", "PasteboardConformance", "RedisTestSupport"]),
    .testTarget(name: "PasteboardX11Tests", dependencies: ["PasteboardX11", "PasteboardKit", "PasteboardConformance"]),
  ]
)

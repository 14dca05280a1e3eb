// swift-tools-version: 6.1
import PackageDescription

/// Source plugins: one folder under `Plugins/` each, module `<Name>Source`, test target
/// `<Name>SourceTests`. `statline new-source NAME` appends to this list; keep one name a line.
let sourcePlugins: [String] = [
  "GenericHTML",
  "StatBroadcast",
  "NCAA",
  "ESPN",
  // statline:new-source-plugins
]

/// Extra dependencies and resources of a plugin beyond `StatlineCore` and `StatlineHTML`.
let pluginExtras: [String: (dependencies: [Target.Dependency], resources: [Resource])] = [
  "GenericHTML": ([.product(name: "Yams", package: "Yams")], [.copy("Examples")])
]

let swiftSettings: [SwiftSetting] = [
  .swiftLanguageMode(.v6),
  .enableUpcomingFeature("ExistentialAny"),
]

let pluginTargets: [Target] = sourcePlugins.flatMap { name -> [Target] in
  let extras = pluginExtras[name]
  return [
    .target(
      name: "\(name)Source",
      dependencies: ["StatlineCore", "StatlineHTML"] + (extras?.dependencies ?? []),
      path: "Plugins/\(name)",
      exclude: [],
      resources: extras?.resources ?? [],
      swiftSettings: swiftSettings
    ),
    .testTarget(
      name: "\(name)SourceTests",
      dependencies: [
        .target(name: "\(name)Source"), "StatlineCore", "StatlineHTML", "StatlineEngine", "StatlineFixtures",
        "StatlineTesting",
        .product(name: "Clocks", package: "swift-clocks"),
      ],
      path: "Tests/\(name)SourceTests",
      swiftSettings: swiftSettings
    ),
  ]
}

let package = Package(
  name: "Statline",
  platforms: [.macOS(.v15)],
  products: [
    .executable(name: "statline", targets: ["statline"]),
    .library(name: "StatlineCore", targets: ["StatlineCore"]),
    .library(name: "StatlineHTML", targets: ["StatlineHTML"]),
    .library(name: "StatlineEngine", targets: ["StatlineEngine"]),
    .library(name: "StatlineSQLite", targets: ["StatlineSQLite"]),
    .library(name: "StatlinePostgres", targets: ["StatlinePostgres"]),
    .library(name: "StatlineEvents", targets: ["StatlineEvents"]),
    .library(name: "StatlineServer", targets: ["StatlineServer"]),
    .library(name: "StatlineCanonical", targets: ["StatlineCanonical"]),
    .library(name: "StatlinePush", targets: ["StatlinePush"]),
    .library(name: "StatlineCommit", targets: ["StatlineCommit"]),
    .library(name: "StatlineFixtures", targets: ["StatlineFixtures"]),
    .library(name: "StatlineLoopback", targets: ["StatlineLoopback"]),
    .library(name: "StatlineApp", targets: ["StatlineApp"]),
    .library(name: "StatlineTesting", targets: ["StatlineTesting"]),
  ] + sourcePlugins.map { .library(name: "\($0)Source", targets: ["\($0)Source"]) },
  dependencies: [
    .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
    .package(url: "https://github.com/jpsim/Yams", from: "6.0.0"),
    .package(url: "https://github.com/pointfreeco/swift-clocks", from: "1.0.0"),
    .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
    .package(url: "https://github.com/apple/swift-nio", from: "2.101.0"),
    .package(url: "https://github.com/apple/swift-nio-extras", from: "1.35.0"),
    .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
    .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.6.0"),
    .package(url: "https://github.com/apple/swift-crypto", "3.12.0"..<"5.0.0"),
    .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.0"),
    .package(url: "https://github.com/apple/swift-http-types", from: "1.3.0"),
    .package(url: "https://github.com/adam-fowler/compress-nio", from: "1.5.0"),
    .package(url: "https://github.com/apple/swift-metrics", from: "2.5.0"),
    .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.0.0"),
    .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.0"),
    .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.0"),
    .package(url: "https://github.com/apple/swift-nio-http2", from: "1.46.0"),
    .package(url: "https://github.com/apple/swift-certificates", from: "1.21.0"),
    .package(url: "https://github.com/apple/swift-asn1", from: "1.7.0"),
  ],
  targets: [
    .target(name: "StatlineCore", swiftSettings: swiftSettings),
    .systemLibrary(
      name: "CLibXML2",
      pkgConfig: "libxml-2.0",
      providers: [.apt(["libxml2-dev"])]
    ),
    .target(name: "StatlineHTML", dependencies: ["CLibXML2", "StatlineCore"], swiftSettings: swiftSettings),
    .target(
      name: "StatlineEngine",
      dependencies: [
        "StatlineCore", .product(name: "AsyncHTTPClient", package: "async-http-client"),
        .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOHTTP1", package: "swift-nio"),
        .product(name: "NIOPosix", package: "swift-nio"),
        .product(name: "NIOHTTPCompression", package: "swift-nio-extras"),
        .product(name: "Crypto", package: "swift-crypto"),
      ],
      swiftSettings: swiftSettings),
    .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
    .target(
      name: "StatlineServer",
      dependencies: [
        "StatlineCore", "StatlineCanonical", .product(name: "Hummingbird", package: "hummingbird"),
        .product(name: "HummingbirdCore", package: "hummingbird"),
        .product(name: "HTTPTypes", package: "swift-http-types"), .product(name: "Logging", package: "swift-log"),
        .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOHTTP1", package: "swift-nio"),
        .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
        .product(name: "NIOHTTPTypesHTTP1", package: "swift-nio-extras"),
        .product(name: "CompressNIO", package: "compress-nio"),
        .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
        .product(name: "Metrics", package: "swift-metrics"), .product(name: "CoreMetrics", package: "swift-metrics"),
        .product(name: "Prometheus", package: "swift-prometheus"), .product(name: "Crypto", package: "swift-crypto"),
      ],
      resources: [.copy("openapi.json"), .copy("live.html")],
      swiftSettings: swiftSettings),
    .target(
      name: "StatlineEvents",
      dependencies: [
        "StatlineCore", .product(name: "AsyncHTTPClient", package: "async-http-client"),
        .product(name: "Crypto", package: "swift-crypto"), .product(name: "Logging", package: "swift-log"),
        .product(name: "NIOCore", package: "swift-nio"),
      ],
      swiftSettings: swiftSettings),
    .target(
      name: "StatlinePush",
      dependencies: [
        "StatlineCore", .product(name: "Crypto", package: "swift-crypto"),
        .product(name: "CryptoExtras", package: "swift-crypto"),
        .product(name: "AsyncHTTPClient", package: "async-http-client"),
        .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOSSL", package: "swift-nio-ssl"),
        .product(name: "Logging", package: "swift-log"),
      ],
      swiftSettings: swiftSettings),
    .target(
      name: "StatlineCanonical", dependencies: ["StatlineCore"], resources: [.copy("Resources/teams.tsv")],
      swiftSettings: swiftSettings),
    .target(
      name: "StatlineCommit", dependencies: ["StatlineCore", "StatlineCanonical"], swiftSettings: swiftSettings),
    .target(
      name: "StatlineSQLite", dependencies: ["CSQLite", "StatlineCore", "StatlineCommit"],
      swiftSettings: swiftSettings),
    .target(
      name: "StatlinePostgres",
      dependencies: [
        "StatlineCore", "StatlineCommit", .product(name: "PostgresNIO", package: "postgres-nio"),
        .product(name: "NIOSSL", package: "swift-nio-ssl"), .product(name: "Logging", package: "swift-log"),
        .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOPosix", package: "swift-nio"),
      ],
      swiftSettings: swiftSettings),
    .target(name: "StatlineFixtures", dependencies: ["StatlineCore"], swiftSettings: swiftSettings),
    .target(
      name: "StatlineCLI",
      dependencies: ["StatlineCore", .product(name: "ArgumentParser", package: "swift-argument-parser")],
      swiftSettings: swiftSettings),
    .target(
      name: "StatlineLoopback",
      dependencies: [
        "StatlineCore", .product(name: "NIOCore", package: "swift-nio"),
        .product(name: "NIOPosix", package: "swift-nio"), .product(name: "NIOHTTP1", package: "swift-nio"),
        .product(name: "NIOHTTPCompression", package: "swift-nio-extras"),
        .product(name: "NIOHTTP2", package: "swift-nio-http2"), .product(name: "NIOHPACK", package: "swift-nio-http2"),
        .product(name: "NIOSSL", package: "swift-nio-ssl"), .product(name: "X509", package: "swift-certificates"),
        .product(name: "SwiftASN1", package: "swift-asn1"), .product(name: "Crypto", package: "swift-crypto"),
        .product(name: "CryptoExtras", package: "swift-crypto"),
      ],
      swiftSettings: swiftSettings),
    .target(
      name: "StatlineApp",
      dependencies: [
        "StatlineCore", "StatlineHTML", "StatlineEngine", "StatlineSQLite", "StatlinePostgres", "StatlineEvents",
        "StatlineServer", "StatlineCanonical", "StatlineCommit", "StatlineFixtures", "StatlineCLI", "StatlinePush",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
        .product(name: "AsyncHTTPClient", package: "async-http-client"),
        .product(name: "Yams", package: "Yams"),
        .product(name: "Logging", package: "swift-log"),
        .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
        .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOPosix", package: "swift-nio"),
        .product(name: "NIOHTTP1", package: "swift-nio"),
        .product(name: "NIOHTTPCompression", package: "swift-nio-extras"),
        .product(name: "Metrics", package: "swift-metrics"), .product(name: "CoreMetrics", package: "swift-metrics"),
      ] + sourcePlugins.map { .target(name: "\($0)Source") },
      swiftSettings: swiftSettings
    ),
    .target(
      name: "StatlineDemo",
      dependencies: [
        "StatlineApp", "StatlineCLI", "StatlineCore", "StatlineEngine", "StatlineEvents", "StatlineSQLite",
        "StatlineServer", "StatlineLoopback", "StatlinePush", "StatlineCanonical",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
        .product(name: "Logging", package: "swift-log"),
        .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
      ],
      swiftSettings: swiftSettings),
    .target(
      name: "StatlineBench",
      dependencies: [
        "StatlineApp", "StatlineCLI", "StatlineDemo", "StatlineLoopback", "StatlineFixtures", "StatlineCore",
        "StatlineHTML",
        "StatlineEngine", "StatlineEvents", "StatlineSQLite", "StatlinePostgres", "StatlineServer",
        "StatlineCanonical", "StatlineCommit", "StatlinePush",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
        .product(name: "AsyncHTTPClient", package: "async-http-client"),
        .product(name: "Logging", package: "swift-log"), .product(name: "NIOCore", package: "swift-nio"),
        .product(name: "CompressNIO", package: "compress-nio"),
      ],
      swiftSettings: swiftSettings),
    .target(
      name: "StatlineScaffold",
      dependencies: [
        "StatlineCLI", "StatlineCore", "StatlineFixtures",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ],
      swiftSettings: swiftSettings),
    .executableTarget(
      name: "statline",
      dependencies: [
        "StatlineApp", "StatlineDemo", "StatlineBench", "StatlineScaffold",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ],
      swiftSettings: swiftSettings),
    .target(
      name: "StatlineTesting",
      dependencies: [
        "StatlineCore", "StatlineCanonical", "StatlineCommit", "StatlineEngine", "StatlineFixtures",
        "StatlineLoopback",
      ],
      swiftSettings: swiftSettings),
    .testTarget(
      name: "StatlineCoreTests", dependencies: ["StatlineCore", "StatlineTesting"], swiftSettings: swiftSettings),
    .testTarget(
      name: "StatlineHTMLTests", dependencies: ["StatlineHTML", "StatlineCore", "StatlineTesting"],
      swiftSettings: swiftSettings),
    .testTarget(
      name: "StatlineEngineTests",
      dependencies: [
        "StatlineEngine", "StatlineCore", "StatlineTesting", "StatlineLoopback",
        .product(name: "Clocks", package: "swift-clocks"),
      ],
      swiftSettings: swiftSettings),
    .testTarget(
      name: "StatlinePushTests",
      dependencies: [
        "StatlinePush", "StatlineCore", "StatlineTesting", "StatlineLoopback",
        .product(name: "Crypto", package: "swift-crypto"),
        .product(name: "CryptoExtras", package: "swift-crypto"),
        .product(name: "NIOSSL", package: "swift-nio-ssl"), .product(name: "Logging", package: "swift-log"),
        .product(name: "AsyncHTTPClient", package: "async-http-client"),
        .product(name: "NIOCore", package: "swift-nio"),
      ],
      swiftSettings: swiftSettings
    ),
    .testTarget(
      name: "StatlineServerTests",
      dependencies: [
        "StatlineServer", "StatlineCore", "StatlineSQLite", "StatlineTesting", "StatlineApp", "StatlineCanonical",
        .product(name: "AsyncHTTPClient", package: "async-http-client"),
        .product(name: "NIOHTTP1", package: "swift-nio"), .product(name: "NIOCore", package: "swift-nio"),
        .product(name: "NIOEmbedded", package: "swift-nio"), .product(name: "CompressNIO", package: "compress-nio"),
        .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
        .product(name: "Logging", package: "swift-log"), .product(name: "Hummingbird", package: "hummingbird"),
        .product(name: "HTTPTypes", package: "swift-http-types"),
      ],
      swiftSettings: swiftSettings),
    .testTarget(
      name: "StatlineEventsTests",
      dependencies: [
        "StatlineEvents", "StatlineCore", "StatlineEngine", "StatlineTesting", "StatlineLoopback",
        .product(name: "Clocks", package: "swift-clocks"),
        .product(name: "Crypto", package: "swift-crypto"), .product(name: "NIOCore", package: "swift-nio"),
        .product(name: "NIOPosix", package: "swift-nio"), .product(name: "NIOHTTP1", package: "swift-nio"),
        .product(name: "AsyncHTTPClient", package: "async-http-client"),
        .product(name: "Logging", package: "swift-log"),
      ],
      swiftSettings: swiftSettings),
    .testTarget(
      name: "StatlineSQLiteTests",
      dependencies: [
        "StatlineSQLite", "StatlineTesting", "StatlineCore", "StatlineCanonical", "StatlineCommit", "CSQLite",
      ],
      swiftSettings: swiftSettings),
    .testTarget(
      name: "StatlinePostgresTests",
      dependencies: [
        "StatlinePostgres", "StatlineTesting", "StatlineCore", "StatlineEngine", "StatlineSQLite", "StatlineServer",
        "StatlineEvents", "StatlineCanonical", .product(name: "Logging", package: "swift-log"),
        .product(name: "PostgresNIO", package: "postgres-nio"),
      ],
      swiftSettings: swiftSettings),
    .testTarget(
      name: "StatlineCommitTests", dependencies: ["StatlineCommit", "StatlineCore", "StatlineTesting"],
      swiftSettings: swiftSettings),
    .testTarget(
      name: "StatlineCanonicalTests", dependencies: ["StatlineCanonical", "StatlineCore", "StatlineTesting"],
      swiftSettings: swiftSettings),
    .testTarget(
      name: "StatlineAppTests",
      dependencies: [
        "StatlineApp", "StatlineTesting", "StatlineCore", "StatlineSQLite", "StatlineServer", "StatlineCanonical",
        "StatlineFixtures", "StatlineLoopback", "StatlineEngine", "StatlineEvents", "StatlineDemo",
        "StatBroadcastSource", .product(name: "Logging", package: "swift-log"),
        .product(name: "Crypto", package: "swift-crypto"), .product(name: "CompressNIO", package: "compress-nio"),
        .product(name: "NIOCore", package: "swift-nio"),
      ],
      swiftSettings: swiftSettings
    ),
    .testTarget(
      name: "StatlineBenchTests",
      dependencies: [
        "StatlineBench", "StatlineApp", "StatlineTesting", "StatlineCore", "StatlineLoopback", "StatlineFixtures",
      ],
      swiftSettings: swiftSettings),
    .testTarget(
      name: "StatlineDemoTests", dependencies: ["StatlineDemo", "StatlineApp", "StatlineTesting", "StatlineCore"],
      swiftSettings: swiftSettings),
    .testTarget(
      name: "StatlineScaffoldTests", dependencies: ["StatlineScaffold", "StatlineTesting", "StatlineCore"],
      swiftSettings: swiftSettings),
  ] + pluginTargets
)

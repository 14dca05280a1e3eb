// swift-tools-version: 6.1
import PackageDescription

/// The libFuzzer targets, a package of their own beside Statline's: the fuzzer's
/// `main` comes from libFuzzer, so this executable only links with `--sanitize=fuzzer` and must
/// stay out of the main package's ordinary builds. Build and run them with `scripts/fuzz`.
let package = Package(
  name: "StatlineFuzz",
  platforms: [.macOS(.v15)],
  dependencies: [.package(name: "Statline", path: "..")],
  targets: [
    .executableTarget(
      name: "statline-fuzz",
      dependencies: [
        .product(name: "StatlineCore", package: "Statline"),
        .product(name: "StatlineHTML", package: "Statline"),
        .product(name: "GenericHTMLSource", package: "Statline"),
        .product(name: "StatBroadcastSource", package: "Statline"),
        .product(name: "NCAASource", package: "Statline"),
        .product(name: "ESPNSource", package: "Statline"),
        .product(name: "StatlineServer", package: "Statline"),
        .product(name: "StatlineCanonical", package: "Statline"),
        .product(name: "StatlinePush", package: "Statline"),
      ],
      path: "Sources/StatlineFuzz",
      swiftSettings: [.swiftLanguageMode(.v6), .enableUpcomingFeature("ExistentialAny")]
    )
  ]
)

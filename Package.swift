// swift-tools-version:6.0
import Foundation
import PackageDescription

let strictSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny")
]
let argumentParser: Target.Dependency = .product(name: "ArgumentParser", package: "swift-argument-parser")

let package = Package(
    name: "FetchKit",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "FetchKit", targets: ["FetchKit"]),
        .library(name: "FetchKitSQLite", targets: ["FetchKitSQLite"]),
        .library(name: "FetchKitPostgres", targets: ["FetchKitPostgres"]),
        .library(name: "FetchKitTesting", targets: ["FetchKitTesting"]),
        .executable(name: "fetchkit", targets: ["FetchKitCLI"])
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.0"),
        .package(url: "https://github.com/apple/swift-collections.git", from: "1.1.0"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.5.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.6.0"),
        .package(url: "https://github.com/apple/swift-configuration.git", from: "1.4.0"),
        .package(url: "https://github.com/apple/swift-system.git", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-metrics.git", from: "2.5.0")
    ],
    targets: [
        .target(
            name: "FetchKit",
            dependencies: [
                .product(name: "Logging", package: "swift-log"),
                .product(name: "HashTreeCollections", package: "swift-collections"),
                .product(name: "Configuration", package: "swift-configuration"),
                .product(name: "SystemPackage", package: "swift-system"),
                .product(name: "CoreMetrics", package: "swift-metrics")
            ],
            swiftSettings: strictSettings
        ),
        .target(
            name: "FetchKitDrivers",
            dependencies: ["FetchKit"],
            path: "Backends/Drivers",
            swiftSettings: strictSettings
        ),
        .systemLibrary(
            name: "CSQLite",
            path: "Backends/CSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"])]
        ),
        .target(
            name: "FetchKitSQLite",
            dependencies: ["FetchKit", "FetchKitDrivers", "CSQLite", .product(name: "Logging", package: "swift-log")],
            path: "Backends/SQLite",
            swiftSettings: strictSettings
        ),
        .systemLibrary(
            name: "CLibPQ",
            path: "Backends/CLibPQ",
            pkgConfig: "libpq",
            providers: [.apt(["libpq-dev"])]
        ),
        .target(
            name: "FetchKitPostgres",
            dependencies: [
                "FetchKit", "FetchKitDrivers", "CLibPQ", .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "CoreMetrics", package: "swift-metrics")
            ],
            path: "Backends/Postgres",
            swiftSettings: strictSettings
        ),
        .target(
            name: "FetchKitTesting",
            dependencies: ["FetchKit"],
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "FetchKitCLI",
            dependencies: [
                "FetchKit", "FetchKitSQLite", "FetchKitPostgres", "FetchKitTesting", argumentParser,
                .product(name: "Logging", package: "swift-log")
            ],
            // The product (and binary) is `fetchkit`; the target is not: a target `fetchkit` would write
            // fetchkit.build and fetchkit.swiftmodule over FetchKit's on a case-insensitive volume (macOS).
            path: "Sources/FetchKitCLI",
            swiftSettings: strictSettings
        ),
        // A second FetchKit app instance for the PostgreSQL tests: writes random transactions, or watches
        // live controllers and reports whether they converged (Integration/Peer/README.md).
        .executableTarget(
            name: "FetchKitPeer",
            dependencies: ["FetchKit", "FetchKitPostgres", "FetchKitTesting"],
            path: "Integration/Peer",
            exclude: ["README.md"],
            swiftSettings: strictSettings
        ),
        // The predicate-format fuzzer's engine (Fuzz/README.md): shared by `fetchkit-fuzz` and FetchKitFuzzTests,
        // not a product, so users never see it. Dialects are passed in, so it depends on no backend.
        .target(
            name: "FetchKitFuzz",
            dependencies: ["FetchKit", "FetchKitTesting"],
            path: "Fuzz/Engine",
            swiftSettings: strictSettings
        ),
        // A developer tool, not a product: `swift build -c release --product fetchkit-fuzz`.
        .executableTarget(
            name: "fetchkit-fuzz",
            dependencies: ["FetchKitFuzz", "FetchKit", "FetchKitSQLite", "FetchKitPostgres", argumentParser],
            path: "Fuzz/Runner",
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "FetchKitTests",
            dependencies: ["FetchKit", "FetchKitTesting", .product(name: "Logging", package: "swift-log")],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "FetchKitSQLiteTests",
            dependencies: [
                "FetchKit", "FetchKitSQLite", "FetchKitTesting", "FetchKitDrivers", "CSQLite",
                // The CLI's command types, to parse the documents' command lines (DocumentedCommandsTests).
                "FetchKitCLI", argumentParser,
                .product(name: "MetricsTestKit", package: "swift-metrics")
            ],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "FetchKitFuzzTests",
            dependencies: ["FetchKitFuzz", "FetchKit", "FetchKitSQLite", "FetchKitPostgres"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "FetchKitPostgresTests",
            dependencies: [
                "FetchKit", "FetchKitPostgres", "FetchKitTesting", "FetchKitDrivers", "CLibPQ",
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log")
            ],
            swiftSettings: strictSettings
        )
    ],
    swiftLanguageModes: [.v6]
)

// The documentation plugin joins only when docs are built, so users never resolve it:
//   FETCHKIT_DOCS=1 swift package generate-documentation --target FetchKit
if ProcessInfo.processInfo.environment["FETCHKIT_DOCS"] != nil {
    package.dependencies.append(.package(url: "https://github.com/swiftlang/swift-docc-plugin.git", from: "1.4.0"))
}

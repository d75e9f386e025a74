// swift-tools-version:6.1
import PackageDescription

// FetchKit's benchmarks live in their own package so library users never resolve it.
// Run: cd Benchmarks && swift run -c release fetchkit-benchmarks [name…]
let package = Package(
    name: "FetchKitBenchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        // The BenchmarkHooks trait compiles the engine probes the benchmarks time (never in an app's build).
        .package(name: "FetchKit", path: "../", traits: ["BenchmarkHooks"]),
        // The peer a Swift developer would pick instead, measured in the same run (Benchmarks only).
        .package(url: "https://github.com/groue/GRDB.swift.git", from: "7.10.0"),
        // To send the stores' log lines to stderr: the benchmarks' stdout is their report.
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.0")
    ],
    targets: [
        .systemLibrary(
            name: "CSQLiteBench",
            path: "Sources/CSQLiteBench",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"]), .brew(["sqlite"])]
        ),
        .systemLibrary(
            name: "CLibPQBench",
            path: "Sources/CLibPQBench",
            pkgConfig: "libpq",
            providers: [.apt(["libpq-dev"]), .brew(["libpq"])]
        ),
        .executableTarget(
            name: "fetchkit-benchmarks",
            dependencies: [
                .product(name: "FetchKit", package: "FetchKit"),
                .product(name: "FetchKitMacros", package: "FetchKit"),
                .product(name: "FetchKitSQLite", package: "FetchKit"),
                .product(name: "FetchKitPostgres", package: "FetchKit"),
                .product(name: "FetchKitBackendKit", package: "FetchKit"),
                .product(name: "FetchKitSession", package: "FetchKit"),
                "CSQLiteBench",
                "CLibPQBench",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Logging", package: "swift-log")
            ],
            path: "Sources/FetchKitBenchmarks",
        )
    ],
    swiftLanguageModes: [.v6]
)

// swift-tools-version:6.1
import CompilerPluginSupport
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
        // Apps: controllers, requests, predicates, records, the store contract.
        .library(name: "FetchKit", targets: ["FetchKit"]),
        // Records declared once: the `@Entity` macro (builds swift-syntax; FetchKit itself does not).
        .library(name: "FetchKitMacros", targets: ["FetchKitMacros"]),
        // The embedded default and the server backend.
        .library(name: "FetchKitSQLite", targets: ["FetchKitSQLite"]),
        .library(name: "FetchKitPostgres", targets: ["FetchKitPostgres"]),
        // A store held in memory, for controller tests without a database; written against the backend kit alone.
        .library(name: "FetchKitInMemory", targets: ["FetchKitInMemory"]),
        // Live results for remote clients, framework-free: one session per client over any WebSocket.
        .library(name: "FetchKitSession", targets: ["FetchKitSession"]),
        // Live results routes for Hummingbird 2 and Vapor 4: each behind a trait of its name, so an app builds
        // (and resolves) only its own framework: `.package(url: …, from: …, traits: ["Hummingbird"])`.
        .library(name: "FetchKitHummingbird", targets: ["FetchKitHummingbird"]),
        .library(name: "FetchKitVapor", targets: ["FetchKitVapor"]),
        // Backend authors: the SQL compiler, the connection pool and the write transaction a backend builds on.
        .library(name: "FetchKitBackendKit", targets: ["FetchKitBackendKit"]),
        // Backend authors' and app authors' tests: the conformance suite and the oracle.
        .library(name: "FetchKitTesting", targets: ["FetchKitTesting"]),
        .executable(name: "fetchkit", targets: ["FetchKitCLI"])
    ],
    traits: [
        .trait(
            name: "Configuration",
            description: "StoreConfiguration read from environment variables and JSON files (swift-configuration)."),
        .trait(name: "Metrics", description: "FetchKit's counters and gauges, reported through swift-metrics."),
        .trait(
            name: "Tracing",
            description:
                "Spans of writes, routing, applying and delivering, reported through swift-distributed-tracing."),
        .trait(name: "Hummingbird", description: "FetchKitHummingbird: live results routes for Hummingbird 2."),
        .trait(name: "Vapor", description: "FetchKitVapor: live results routes for Vapor 4."),
        .trait(
            name: "BenchmarkHooks",
            description: "Probes and switches FetchKit's own benchmarks time the engine with; never for apps."),
        // Only the `fetchkit` tool's: off, it builds and runs (SQLite) where libpq is not installed. The
        // FetchKitPostgres product does not depend on it; an app that links only FetchKit and FetchKitSQLite never
        // needs libpq, whatever its traits.
        .trait(
            name: "Postgres",
            description: "The fetchkit tool's PostgreSQL support (slots, capture-sql, postgres:// URLs): needs libpq."),
        .default(enabledTraits: ["Configuration", "Metrics", "Postgres"])
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.0"),
        .package(url: "https://github.com/apple/swift-collections.git", from: "1.1.0"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.5.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.6.0"),
        .package(url: "https://github.com/apple/swift-configuration.git", from: "1.4.0"),
        .package(url: "https://github.com/apple/swift-metrics.git", from: "2.5.0"),
        // `withTracer` (a tracer bound to a task, what the tests use) is 1.7's.
        .package(url: "https://github.com/apple/swift-distributed-tracing.git", from: "1.7.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.20.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-websocket.git", from: "2.6.0"),
        .package(url: "https://github.com/vapor/vapor.git", from: "4.115.0"),
        // Only the macro targets depend on it.
        .package(url: "https://github.com/swiftlang/swift-syntax.git", "600.0.0"..<"605.0.0")
    ],
    targets: [
        .target(
            name: "FetchKit",
            dependencies: [
                .product(name: "Logging", package: "swift-log"),
                .product(name: "HashTreeCollections", package: "swift-collections"),
                .product(
                    name: "Configuration", package: "swift-configuration", condition: .when(traits: ["Configuration"])),
                .product(name: "CoreMetrics", package: "swift-metrics", condition: .when(traits: ["Metrics"])),
                .product(name: "Tracing", package: "swift-distributed-tracing", condition: .when(traits: ["Tracing"]))
            ],
            swiftSettings: strictSettings
        ),
        // The `@Entity` macro's expansions: what the compiler plugin runs and the macro tests call directly.
        // Only it, the plugin and the macro tests use swift-syntax.
        .target(
            name: "FetchKitMacrosImplementation",
            dependencies: [
                .product(name: "SwiftSyntax", package: "swift-syntax"),
                .product(name: "SwiftSyntaxMacros", package: "swift-syntax"),
                .product(name: "SwiftDiagnostics", package: "swift-syntax"),
                // Built anyway: SwiftSyntaxMacros depends on it.
                .product(name: "SwiftSyntaxBuilder", package: "swift-syntax")
            ],
            swiftSettings: strictSettings
        ),
        // The compiler plugin that provides the macros: their implementation, run by the compiler.
        .macro(
            name: "FetchKitMacrosPlugin",
            dependencies: [
                "FetchKitMacrosImplementation", .product(name: "SwiftSyntax", package: "swift-syntax"),
                .product(name: "SwiftSyntaxMacros", package: "swift-syntax"),
                .product(name: "SwiftCompilerPlugin", package: "swift-syntax")
            ],
            path: "Sources/FetchKitMacrosPlugin",
            swiftSettings: strictSettings
        ),
        // The macros' declarations, and FetchKit re-exported.
        .target(
            name: "FetchKitMacros",
            dependencies: ["FetchKit", "FetchKitMacrosPlugin"],
            swiftSettings: strictSettings
        ),
        .target(
            name: "FetchKitBackendKit",
            dependencies: [
                "FetchKit", .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle")
            ],
            swiftSettings: strictSettings
        ),
        .systemLibrary(
            name: "CSQLite",
            path: "Backends/CSQLite",
            pkgConfig: "sqlite3",
            // macOS's SDK has sqlite3 too; with Homebrew's (keg-only), SwiftPM finds its sqlite3.pc under brew's opt/.
            providers: [.apt(["libsqlite3-dev"]), .brew(["sqlite"])]
        ),
        .target(
            name: "FetchKitSQLite",
            dependencies: [
                "FetchKitBackendKit", "CSQLite", .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle")
            ],
            path: "Backends/SQLite",
            swiftSettings: strictSettings
        ),
        .systemLibrary(
            name: "CLibPQ",
            path: "Backends/CLibPQ",
            pkgConfig: "libpq",
            // Homebrew's libpq is keg-only: SwiftPM reads its libpq.pc from `$(brew --prefix)/opt/libpq/lib/pkgconfig`.
            providers: [.apt(["libpq-dev"]), .brew(["libpq"])]
        ),
        .target(
            name: "FetchKitPostgres",
            dependencies: [
                "FetchKitBackendKit", "CLibPQ", .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "CoreMetrics", package: "swift-metrics", condition: .when(traits: ["Metrics"]))
            ],
            path: "Backends/Postgres",
            swiftSettings: strictSettings
        ),
        // One live results session per remote client: the wire envelope, scope and allowlist, backpressure,
        // moves, resume. No web framework: the server products adapt it to theirs.
        .target(
            name: "FetchKitSession",
            dependencies: ["FetchKit", .product(name: "Logging", package: "swift-log")],
            swiftSettings: strictSettings
        ),
        // Empty unless its trait is on: then the framework's products join.
        .target(
            name: "FetchKitHummingbird",
            dependencies: [
                "FetchKitSession", "FetchKit",
                .product(name: "Hummingbird", package: "hummingbird", condition: .when(traits: ["Hummingbird"])),
                .product(
                    name: "HummingbirdWebSocket", package: "hummingbird-websocket",
                    condition: .when(traits: ["Hummingbird"])),
                .product(
                    name: "ServiceLifecycle", package: "swift-service-lifecycle",
                    condition: .when(traits: ["Hummingbird"]))
            ],
            swiftSettings: strictSettings
        ),
        .target(
            name: "FetchKitVapor",
            dependencies: [
                "FetchKitSession", "FetchKit",
                .product(name: "Vapor", package: "vapor", condition: .when(traits: ["Vapor"]))
            ],
            swiftSettings: strictSettings
        ),
        .target(
            name: "FetchKitTesting",
            dependencies: ["FetchKit", "FetchKitFixtures"],
            swiftSettings: strictSettings
        ),
        // The todo-list schema and sample data the conformance suite, the demos and the tests share (plain
        // `Record`s and rows, no macro), and a seeded random generator: not a product.
        .target(
            name: "FetchKitFixtures",
            dependencies: ["FetchKit"],
            swiftSettings: strictSettings
        ),
        // The fixture schema's todos and categories declared with `@Entity`, with their relationships: the `fetchkit`
        // demos' records, and those the conformance and macro tests run the record checks through. Not a product;
        // only what needs `@Entity` records depends on it (it builds swift-syntax).
        .target(
            name: "FetchKitMacroFixtures",
            dependencies: ["FetchKitMacros", "FetchKitFixtures"],
            swiftSettings: strictSettings
        ),
        // A complete backend written against the public backend kit alone (the "Writing a backend" article walks
        // through it): the store controller tests run on without a database.
        .target(
            name: "FetchKitInMemory",
            dependencies: [
                "FetchKitBackendKit", .product(name: "ServiceLifecycle", package: "swift-service-lifecycle")
            ],
            swiftSettings: strictSettings
        ),
        // The repository's test infrastructure (child processes, built products, temporary directories, log and metrics
        // capture).
        .target(
            name: "FetchKitTestSupport",
            dependencies: [
                .product(name: "Logging", package: "swift-log"),
                .product(name: "MetricsTestKit", package: "swift-metrics"),
                .product(
                    name: "InMemoryTracing", package: "swift-distributed-tracing", condition: .when(traits: ["Tracing"])
                )
            ],
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "FetchKitCLI",
            dependencies: [
                "FetchKit", "FetchKitSQLite", "FetchKitBackendKit", "FetchKitFixtures", "FetchKitMacroFixtures",
                argumentParser,
                // Without the Postgres trait the tool builds without libpq; its PostgreSQL commands say so.
                .target(name: "FetchKitPostgres", condition: .when(traits: ["Postgres"])),
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
            dependencies: [
                "FetchKit", "FetchKitPostgres", "FetchKitTesting", "FetchKitFixtures",
                .product(name: "Logging", package: "swift-log")
            ],
            path: "Integration/Peer",
            exclude: ["README.md"],
            swiftSettings: strictSettings
        ),
        // The predicate-format fuzzer's engine (Fuzz/README.md): shared by `fetchkit-fuzz` and FetchKitFuzzTests,
        // not a product, so users never see it. Dialects are passed in, so it depends on no backend.
        .target(
            name: "FetchKitFuzz",
            dependencies: ["FetchKit", "FetchKitBackendKit", "FetchKitTesting", "FetchKitFixtures"],
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
        // The unit test targets: one per module, no database server, no process, no swift-syntax.
        // FetchKit's core, its folders as Sources/FetchKit's (controllers over the in-memory store).
        .testTarget(
            name: "FetchKitTests",
            dependencies: [
                "FetchKit", "FetchKitBackendKit", "FetchKitTesting", "FetchKitFixtures", "FetchKitInMemory",
                .product(name: "Logging", package: "swift-log")
            ],
            swiftSettings: strictSettings
        ),
        // The backend kit: the SQL compiler and dialects, schema plans.
        .testTarget(
            name: "FetchKitBackendKitTests",
            dependencies: ["FetchKit", "FetchKitBackendKit", "FetchKitTesting", "FetchKitFixtures"],
            swiftSettings: strictSettings
        ),
        // The in-memory store.
        .testTarget(
            name: "FetchKitInMemoryTests",
            dependencies: ["FetchKit", "FetchKitInMemory", "FetchKitTesting", "FetchKitFixtures"],
            swiftSettings: strictSettings
        ),
        // The test kit itself: ListSimulator.
        .testTarget(
            name: "FetchKitTestingTests",
            dependencies: ["FetchKit", "FetchKitTesting", "FetchKitFixtures"],
            swiftSettings: strictSettings
        ),
        // The conformance suite (StoreConformance) over every store: in memory, SQLite, PostgreSQL (both feeds), its
        // record checks through the `@Entity` fixture records; app instances as separate processes on one PostgreSQL
        // (Processes/, with FetchKitPeer). The long checks; they build swift-syntax.
        .testTarget(
            name: "FetchKitConformanceTests",
            dependencies: [
                "FetchKit", "FetchKitTesting", "FetchKitFixtures", "FetchKitMacroFixtures", "FetchKitInMemory",
                "FetchKitSQLite", "FetchKitPostgres", "FetchKitTestSupport"
            ],
            swiftSettings: strictSettings
        ),
        // The live session core, over the in-memory store and a transport the tests hold.
        .testTarget(
            name: "FetchKitSessionTests",
            dependencies: [
                "FetchKitSession", "FetchKit", "FetchKitInMemory", "FetchKitTesting", "FetchKitFixtures",
                "FetchKitBackendKit"
            ],
            swiftSettings: strictSettings
        ),
        // The framework products, when their traits are on (Integration/test.sh turns both on).
        .testTarget(
            name: "FetchKitHummingbirdTests",
            dependencies: [
                "FetchKitHummingbird", "FetchKitSession", "FetchKit", "FetchKitInMemory", "FetchKitSQLite",
                "FetchKitBackendKit", "FetchKitFixtures",
                .product(name: "HummingbirdTesting", package: "hummingbird", condition: .when(traits: ["Hummingbird"])),
                .product(
                    name: "HummingbirdWSClient", package: "hummingbird-websocket",
                    condition: .when(traits: ["Hummingbird"])),
                .product(
                    name: "ServiceLifecycle", package: "swift-service-lifecycle",
                    condition: .when(traits: ["Hummingbird"]))
            ],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "FetchKitVaporTests",
            dependencies: [
                "FetchKitVapor", "FetchKitSession", "FetchKit", "FetchKitInMemory", "FetchKitBackendKit",
                "FetchKitFixtures",
                .product(name: "VaporTesting", package: "vapor", condition: .when(traits: ["Vapor"]))
            ],
            swiftSettings: strictSettings
        ),
        // The live board example (Examples/LiveList): a model and a server for each framework, in this package so
        // that they share its build; their headless-Chromium suite runs with the other tests.
        .target(
            name: "LiveListModel",
            dependencies: [
                "FetchKit", "FetchKitMacros", "FetchKitSession", "FetchKitSQLite", "FetchKitPostgres",
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle")
            ],
            path: "Examples/LiveList/Sources/LiveListModel",
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "live-list-hummingbird",
            dependencies: [
                "LiveListModel", "FetchKitHummingbird", "FetchKitSession",
                .product(name: "Hummingbird", package: "hummingbird", condition: .when(traits: ["Hummingbird"])),
                .product(
                    name: "HummingbirdWebSocket", package: "hummingbird-websocket",
                    condition: .when(traits: ["Hummingbird"])),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle")
            ],
            path: "Examples/LiveList/Sources/live-list-hummingbird",
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "live-list-vapor",
            dependencies: [
                "LiveListModel", "FetchKitVapor", "FetchKitSession",
                .product(name: "Vapor", package: "vapor", condition: .when(traits: ["Vapor"]))
            ],
            path: "Examples/LiveList/Sources/live-list-vapor",
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "LiveListTests",
            dependencies: [
                "LiveListModel", "FetchKit", "FetchKitSQLite", "FetchKitPostgres",
                .product(
                    name: "HummingbirdWSClient", package: "hummingbird-websocket",
                    condition: .when(traits: ["Hummingbird"])),
                .product(name: "Logging", package: "swift-log")
            ],
            path: "Examples/LiveList/Tests/LiveListTests",
            swiftSettings: strictSettings
        ),
        // The SQLite backend, on temporary files and in-memory databases.
        .testTarget(
            name: "FetchKitSQLiteTests",
            dependencies: [
                "FetchKit", "FetchKitSQLite", "FetchKitTesting", "FetchKitFixtures", "FetchKitTestSupport",
                "FetchKitBackendKit", "CSQLite",
                .product(name: "MetricsTestKit", package: "swift-metrics"),
                .product(
                    name: "InMemoryTracing", package: "swift-distributed-tracing", condition: .when(traits: ["Tracing"])
                )
            ],
            swiftSettings: strictSettings
        ),
        // The macros' expansions and diagnostics, and macro-declared records through a SQLite store and typed
        // requests.
        //
        // The macros' implementation is a library target of its own, depended on here: a test target that
        // depends on the `.macro` target itself makes SwiftPM build every test target for the host, where
        // FetchKitIntegrationTests can no longer import the FetchKitCLI executable.
        .testTarget(
            name: "FetchKitMacrosTests",
            dependencies: [
                "FetchKitMacros", "FetchKitMacrosImplementation", "FetchKitSQLite", "FetchKitTesting",
                "FetchKitFixtures", "FetchKitMacroFixtures",
                .product(name: "SwiftSyntax", package: "swift-syntax"),
                .product(name: "SwiftSyntaxMacros", package: "swift-syntax"),
                .product(name: "SwiftDiagnostics", package: "swift-syntax"),
                .product(name: "SwiftSyntaxBuilder", package: "swift-syntax"),
                .product(name: "SwiftSyntaxMacroExpansion", package: "swift-syntax"),
                .product(name: "SwiftSyntaxMacrosGenericTestSupport", package: "swift-syntax")
            ],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "FetchKitFuzzTests",
            dependencies: ["FetchKitFuzz", "FetchKit", "FetchKitSQLite", "FetchKitPostgres"],
            swiftSettings: strictSettings
        ),
        // The PostgreSQL backend: server-free tests always; the rest against DATABASE_URL, skipped with one line
        // when it is not set (FETCHKIT_REQUIRE_POSTGRES=1 makes a missing server a failure, as CI does).
        .testTarget(
            name: "FetchKitPostgresTests",
            dependencies: [
                "FetchKit", "FetchKitPostgres", "FetchKitTesting", "FetchKitFixtures", "FetchKitTestSupport",
                "FetchKitBackendKit", "CLibPQ",
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "MetricsTestKit", package: "swift-metrics"),
                .product(
                    name: "InMemoryTracing", package: "swift-distributed-tracing", condition: .when(traits: ["Tracing"])
                )
            ],
            swiftSettings: strictSettings
        ),
        // Processes, the CLI, the documents' commands and examples, the JavaScript client.
        .testTarget(
            name: "FetchKitIntegrationTests",
            dependencies: [
                "FetchKit", "FetchKitMacros", "FetchKitSQLite", "FetchKitFixtures", "FetchKitTestSupport",
                "FetchKitTesting",
                // The CLI's command types, to parse the documents' command lines (DocumentedCommandsTests).
                "FetchKitCLI", argumentParser
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

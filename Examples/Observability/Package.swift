// swift-tools-version:6.1
import PackageDescription

// An app that exports FetchKit's metrics to Prometheus (swift-prometheus) and its spans over OTLP (swift-otel),
// with the Grafana dashboard beside it (grafana-dashboard.json). A package of its own: FetchKit never depends on
// either exporter.
let package = Package(
    name: "Observability",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "FetchKit", path: "../..", traits: ["Metrics", "Tracing", "Postgres", "Hummingbird"]),
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.20.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus.git", from: "2.1.0"),
        // OTLP over HTTP only: the gRPC exporter's build is the larger by far.
        .package(url: "https://github.com/swift-otel/swift-otel.git", from: "1.0.0", traits: ["OTLPHTTP"]),
        .package(url: "https://github.com/apple/swift-distributed-tracing.git", from: "1.7.0"),
        .package(url: "https://github.com/apple/swift-metrics.git", from: "2.5.0"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.6.0")
    ],
    targets: [
        .executableTarget(
            name: "fetchkit-observability",
            dependencies: [
                .product(name: "FetchKit", package: "FetchKit"),
                .product(name: "FetchKitSQLite", package: "FetchKit"),
                .product(name: "FetchKitPostgres", package: "FetchKit"),
                .product(name: "FetchKitHummingbird", package: "FetchKit"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "OTel", package: "swift-otel"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle")
            ],
            swiftSettings: [.enableUpcomingFeature("ExistentialAny")]
        )
    ]
)

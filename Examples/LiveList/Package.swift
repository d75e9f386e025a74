// swift-tools-version:6.0
import Foundation
import PackageDescription

// SwiftPM names a path dependency after its folder: whatever the clone of FetchKit is called.
let fetchKit = URL(fileURLWithPath: Context.packageDirectory).deletingLastPathComponent().deletingLastPathComponent()
    .lastPathComponent.lowercased()

// FetchKit's live web example: a Hummingbird server that opens one ResultsController per browser
// connection and streams wire changesets over WebSocket to a page that animates the list and reorders it
// by drag. See README.md.
let package = Package(
    name: "LiveList",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "fetchkit-live-list", targets: ["fetchkit-live-list"])
    ],
    dependencies: [
        .package(path: "../.."),
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.20.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-websocket.git", from: "2.6.0"),
        .package(url: "https://github.com/apple/swift-configuration.git", from: "1.4.0"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.6.0")
    ],
    targets: [
        .target(
            name: "LiveList",
            dependencies: [
                .product(name: "FetchKit", package: fetchKit),
                .product(name: "FetchKitMacros", package: fetchKit),
                .product(name: "FetchKitSQLite", package: fetchKit),
                .product(name: "FetchKitPostgres", package: fetchKit),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
                .product(name: "Configuration", package: "swift-configuration"),
                .product(name: "Logging", package: "swift-log")
            ],
            swiftSettings: [.enableUpcomingFeature("ExistentialAny")]
        ),
        .executableTarget(
            name: "fetchkit-live-list",
            dependencies: ["LiveList"],
            swiftSettings: [.enableUpcomingFeature("ExistentialAny")]
        ),
        .testTarget(
            name: "LiveListTests",
            dependencies: [
                "LiveList",
                .product(name: "FetchKitTesting", package: fetchKit),
                .product(name: "HummingbirdWSClient", package: "hummingbird-websocket"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle")
            ],
            swiftSettings: [.enableUpcomingFeature("ExistentialAny")]
        )
    ],
    swiftLanguageModes: [.v6]
)

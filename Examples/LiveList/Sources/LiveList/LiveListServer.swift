import FetchKit
import Foundation
import Hummingbird
import HummingbirdWebSocket
import Logging

/// The example's web server: the page at `/`, and at `/live` a WebSocket per browser connection that
/// streams one results controller's batches as wire changesets and takes the page's commands.
///
/// ```swift
/// let server = try LiveListServer(store: store, logger: logger)
/// try await server.application(host: "127.0.0.1", port: 8080).runService()
/// ```
///
/// `/live?where=FORMAT` narrows the page's request with an NSPredicate format string over the cards
/// (`done == NO`, `title CONTAINS[c] 'test'`): each connection has its own controller.
public struct LiveListServer: Sendable {
    let store: any PersistentStore
    let assets: StaticAssets
    let logger: Logger

    /// A server over `store`, which holds the `Card` entity (``Board/schema(table:)``).
    ///
    /// - Throws: when the page's files cannot be read.
    public init(store: any PersistentStore, logger: Logger) throws {
        self.store = store
        self.assets = try StaticAssets()
        self.logger = logger
    }

    /// The Hummingbird application, listening on `host`:`port` (0: any free port, reported to
    /// `onServerRunning`).
    public func application(
        host: String, port: Int, onServerRunning: @escaping @Sendable (Int) async -> Void = { _ in }
    ) -> some ApplicationProtocol {
        let router = Router(context: BasicWebSocketRequestContext.self)
        for path in assets.paths {
            router.get(RouterPath(path)) { [assets] _, _ -> Response in
                guard let asset = assets[path] else { return Response(status: .notFound) }
                return Response(
                    status: .ok, headers: [.contentType: asset.contentType, .cacheControl: "no-store"],
                    body: ResponseBody(byteBuffer: asset.body))
            }
        }
        router.ws("/live") { [self] inbound, outbound, context in
            await serve(query: context.request.uri.query, inbound: inbound, outbound: outbound)
        }
        return Application(
            router: router,
            server: .http1WebSocketUpgrade(
                webSocketRouter: router, configuration: .init(ws: .init(maxFrameSize: 1 << 24))),
            configuration: .init(address: .hostname(host, port: port), serverName: "fetchkit-live-list"),
            onServerRunning: { channel in await onServerRunning(channel.localAddress?.port ?? port) },
            logger: logger)
    }

    /// Serves one page until it disconnects.
    func serve(query: String?, inbound: WebSocketInboundStream, outbound: WebSocketOutboundWriter) async {
        let send: @Sendable (String) async throws -> Void = { try await outbound.write(.text($0)) }
        do {
            let predicate = try Self.predicate(query: query)
            let session = ListSession(store: store, request: try Board.request(where: predicate), logger: logger)
            let commands = inbound.messages(maxSize: 1 << 16).compactMap { message -> String? in
                guard case .text(let text) = message else { return nil }
                return text
            }
            try await session.run(commands: commands, send: send)
        } catch {
            logger.info("a page's connection ended", metadata: ["error": "\(error)"])
            try? await send(ServerMessage.error("\(error)").json())
            // A request the page cannot fix by reconnecting: say so with the close code, so it stops trying.
            if Self.isInvalidRequest(error) { try? await outbound.close(.policyViolation, reason: "invalid request") }
        }
    }

    /// Whether `error` rejects the page's request itself (its predicate), rather than the moment.
    static func isInvalidRequest(_ error: any Error) -> Bool {
        switch (error as? FetchKitError)?.code {
        case .invalidPredicate?, .unknownKey?, .typeMismatch?, .unsupported?: return true
        default: return false
        }
    }

    /// The predicate of `?where=FORMAT`, checked against the schema (`.true` without one).
    static func predicate(query: String?) throws -> FetchPredicate {
        let items = URLComponents(string: "/?" + (query ?? ""))?.queryItems ?? []
        guard let format = items.first(where: { $0.name == "where" })?.value, !format.isEmpty else { return .true }
        return try FetchPredicate(format: format)
    }
}

#if Hummingbird
    import FetchKit
    import FetchKitHummingbird
    import FetchKitInMemory
    import FetchKitSession
    import Foundation
    import Hummingbird
    import HummingbirdWebSocket
    import Logging
    import ServiceLifecycle
    import Synchronization
    import Testing

    /// `router.liveResults` in a real Hummingbird application over real WebSockets: each user sees their own scope,
    /// refusals close with 1008, and a graceful shutdown closes every session with 1001 before the store closes.
    @Suite("Hummingbird: live results routes")
    struct LiveResultsRouteTests {
        static let card = Entity(
            "Card", table: "card", primaryKey: .integer("id"),
            attributes: [Attribute("owner", .text, indexed: true), Attribute("lane", .text), Attribute("title", .text)])

        static func store() async throws -> InMemoryStore {
            let store = InMemoryStore(schema: try Schema([card]))
            try await store.write { tx in
                for id in Int64(1)...6 {
                    _ = try tx.insert(
                        [
                            "id": .integer(id), "owner": .text(id % 2 == 0 ? "bob" : "ann"),
                            "lane": .text(id % 3 == 0 ? "Done" : "Doing"), "title": .text("card \(id)")
                        ], into: "Card")
                }
            }
            return store
        }

        /// A running application with one route, `/cards`, scoped by the `user` query parameter (a stand-in for an
        /// identity that authentication middleware would set).
        struct Running {
            let store: InMemoryStore
            let port: Int
            let group: ServiceGroup
            let task: Task<Void, any Error>
        }

        static func start() async throws -> Running {
            let store = try await store()
            let router = Router(context: BasicWebSocketRequestContext.self)
            let sessions = LiveSessionGroup()
            var session = LiveResultsSession(
                store: store,
                request: FetchRequest<Row>(
                    entity: "Card", sortDescriptors: [.ascending("lane"), .ascending("id")],
                    sectionNameKeyPath: "lane"),
                policy: ClientQueryPolicy(filterable: ["title", "lane"], sortable: ["title"]), resume: ResumeStore())
            session.sessions = sessions
            router.liveResults("/cards", session) { request, _ in
                guard let user = request.uri.queryParameters.get("user") else {
                    throw SessionError(.forbidden, "sign in first")
                }
                return .key("owner") == user
            }
            let (ports, portSink) = AsyncStream.makeStream(of: Int.self)
            let app = Application(
                router: router, server: .http1WebSocketUpgrade(webSocketRouter: router),
                configuration: .init(address: .hostname("127.0.0.1", port: 0)),
                onServerRunning: { channel in portSink.yield(channel.localAddress?.port ?? 0) },
                logger: Logger(label: "test-app"))
            var logger = Logger(label: "test-group")
            logger.logLevel = .error
            let group = ServiceGroup(
                configuration: .init(
                    services: [.init(service: store), .init(service: app), .init(service: sessions)], logger: logger))
            let task = Task { try await group.run() }
            var iterator = ports.makeAsyncIterator()
            let port = try #require(await iterator.next())
            return Running(store: store, port: port, group: group, task: task)
        }

        private static func open(filter: String? = nil) -> String {
            filter.map { #"{"v": 1, "type": "open", "filter": "\#($0)"}"# } ?? #"{"v": 1, "type": "open"}"#
        }

        /// The owners of every card in a message's changeset.
        private static func owners(_ message: [String: Any]) -> Set<String> {
            let changeset = message["changeset"] as? [String: Any]
            let sections = (changeset?["sections"] as? [String: Any])?["inserted"] as? [[String: Any]] ?? []
            let rows = (changeset?["rows"] as? [String: Any])?["inserted"] as? [[String: Any]] ?? []
            let objects =
                sections.flatMap { $0["objects"] as? [[String: Any]] ?? [] }
                + rows.compactMap { $0["object"] as? [String: Any] }
            return Set(objects.compactMap { $0["owner"] as? String })
        }

        @Test func eachUserSeesTheirOwnCardsWhateverTheFilter() async throws {
            let running = try await Self.start()
            let ann = try await LiveClient.connect(port: running.port, path: "/cards", user: "ann")
            try await ann.send(Self.open(filter: "title BEGINSWITH 'card' OR lane == 'Done'"))
            try await ann.wait(for: "results") { $0.contains("results") }
            try await running.store.write { tx in
                _ = try tx.insert(["id": 7, "owner": "ann", "lane": "Doing", "title": "card 7"], into: "Card")
                _ = try tx.insert(["id": 8, "owner": "bob", "lane": "Done", "title": "card 8"], into: "Card")
            }
            try await ann.wait(for: "the batch") { $0.contains("batch") }
            #expect(ann.messages.reduce(into: Set<String>()) { $0.formUnion(Self.owners($1)) } == ["ann"])
            await ann.close()
            await running.group.triggerGracefulShutdown()
            try await running.task.value
        }

        @Test func aForbiddenFilterAndAMissingUserAreRefusedWith1008() async throws {
            let running = try await Self.start()
            let nosy = try await LiveClient.connect(port: running.port, path: "/cards", user: "ann")
            try await nosy.send(Self.open(filter: "owner == 'bob'"))
            #expect(try await nosy.closed()?.closeCode == .policyViolation)
            #expect(nosy.types == ["refused"])
            let anonymous = try await LiveClient.connect(port: running.port, path: "/cards", user: nil)
            #expect(try await anonymous.closed()?.closeCode == .policyViolation)
            #expect(anonymous.types == ["refused"])
            #expect((anonymous.messages.first?["error"] as? [String: Any])?["message"] as? String == "sign in first")
            await running.group.triggerGracefulShutdown()
            try await running.task.value
        }

        @Test func aGracefulShutdownClosesEverySessionWith1001ThenTheStore() async throws {
            let running = try await Self.start()
            let ann = try await LiveClient.connect(port: running.port, path: "/cards", user: "ann")
            try await ann.send(Self.open())
            try await ann.wait(for: "results") { $0.contains("results") }
            await running.group.triggerGracefulShutdown()
            let frame = try await ann.closed()
            #expect(frame?.closeCode == .goingAway, "closed with \(String(describing: frame)), received \(ann.types)")
            try await running.task.value
            await #expect(throws: FetchKitError.self) {
                try await running.store.write { tx in try tx.delete("Card", key: 1) }
            }
        }
    }
#endif

#if Vapor
    import FetchKit
    import FetchKitInMemory
    import FetchKitSession
    import FetchKitVapor
    import Foundation
    import Vapor

    /// A card as the store holds it, sent whole on `/board`.
    struct Card: Record, Equatable {
        static let entity = Entity(
            "Card", table: "card", primaryKey: .integer("id"),
            attributes: [
                Attribute("owner", .integer, indexed: true), Attribute("lane", .text), Attribute("title", .text),
                Attribute("position", .double)
            ])

        var id: Int64
        var owner: Int64
        var lane: String
        var title: String
        var position: Double
    }

    /// A card as `/mine` projects it: without its owner.
    struct CardView: Codable, Sendable, Equatable {
        var id: Int64
        var title: String
        var lane: String
    }

    /// The signed-in user of `/mine`, from the `X-User` header.
    struct User: Authenticatable {
        var id: Int64
    }

    struct UserAuthenticator: AsyncRequestAuthenticator {
        func authenticate(request: Request) async throws {
            if let id = request.headers.first(name: "X-User").flatMap(Int64.init) { request.auth.login(User(id: id)) }
        }
    }

    /// A Vapor application serving a board of cards (twelve, of owners 1 and 2, in three lanes) on a random local
    /// port, over an in-memory store it gave `app.fetchKit.use(_:)`:
    ///
    /// - `/board`: `liveResults(store:request:policy:scope:)`, scoped to the `X-User` header's owner (no header:
    ///   the scope throws a `SessionError`);
    /// - `/mine`: `liveResults(session:scope:)` with a projection, on a group whose middleware signs the user in
    ///   and turns away requests without one;
    /// - `/abort`: a scope that throws `Abort(.unauthorized)`;
    /// - `/stalled`: a scope that never returns, so the client's messages wait unread;
    /// - `GET /cards/count`: the store's cards, counted through `req.fetchKit.store`.
    final class BoardServer: Sendable {
        let app: Application
        let store: InMemoryStore
        let port: Int

        static let policy = ClientQueryPolicy(filterable: ["title", "lane"], sortable: ["title"])

        private init(app: Application, store: InMemoryStore, port: Int) {
            self.app = app
            self.store = store
            self.port = port
        }

        /// Runs `body` with a started server, and shuts it down after (unless `body` did).
        static func with(_ body: (BoardServer) async throws -> Void) async throws {
            let server = try await start()
            do {
                try await body(server)
            } catch {
                try? await server.shutDown()
                throw error
            }
            try await server.shutDown()
        }

        static func start() async throws -> BoardServer {
            var logger = Logger(label: "fetchkit.vapor.tests")
            logger.logLevel = .error
            let app = try await Application.make(.testing, logger: logger)
            let store = try await makeStore()
            app.fetchKit.use(store)
            app.fetchKit.shutdownGracePeriod = .seconds(5)
            routes(app, store: store)
            app.http.server.configuration.hostname = "127.0.0.1"
            app.http.server.configuration.port = 0
            app.http.server.configuration.logger = logger
            app.environment.arguments = ["serve"]
            do {
                try await app.startup()
            } catch {
                try? await app.asyncShutdown()
                throw error
            }
            guard let port = app.http.server.shared.localAddress?.port else {
                try? await app.asyncShutdown()
                throw Abort(.internalServerError, reason: "the server has no port")
            }
            return BoardServer(app: app, store: store, port: port)
        }

        func shutDown() async throws {
            if !app.didShutdown { try await app.asyncShutdown() }
        }

        /// Opens a WebSocket to `path`, as `user` when there is one.
        func connect(_ path: String, user: Int64? = nil) async throws -> TestClient {
            var headers = HTTPHeaders()
            if let user { headers.add(name: "X-User", value: "\(user)") }
            return try await TestClient.connect(to: "ws://127.0.0.1:\(port)/\(path)", headers: headers)
        }

        /// The cards `owner` has now, by lane, as a fresh fetch finds them (`/board`'s order).
        func fresh(owner: Int64, filter: FetchPredicate = .true) async throws -> [[Int64]] {
            var request = Self.request
            request.predicate = .and([Self.scope(owner: owner), filter])
            let cards = try await store.fetch(request)
            return Dictionary(grouping: cards, by: \.lane).sorted { $0.key < $1.key }.map { $0.value.map(\.id) }
        }

        static let request = FetchRequest<Card>(
            sortDescriptors: [.ascending("lane"), .ascending("position")], sectionNameKeyPath: "lane")

        static func scope(owner: Int64) -> FetchPredicate { .key("owner") == owner }

        private static func routes(_ app: Application, store: InMemoryStore) {
            app.liveResults("board", store: store, request: request, policy: policy) { req in
                guard let user = req.headers.first(name: "X-User").flatMap(Int64.init) else {
                    throw SessionError(.forbidden, "sign in first")
                }
                return scope(owner: user)
            }
            let mine = LiveResultsSession(store: store, request: request, policy: policy) { card in
                CardView(id: card.id, title: card.title, lane: card.lane)
            }
            app.grouped(UserAuthenticator(), User.guardMiddleware()).liveResults("mine", session: mine) { req in
                scope(owner: try req.auth.require(User.self).id)
            }
            app.liveResults("abort", session: mine) { _ in throw Abort(.unauthorized, reason: "no token") }
            app.liveResults("stalled", session: mine) { _ in
                try await Task.sleep(for: .seconds(60))
                return nil
            }
            app.get("cards", "count") { req in
                String(try await req.fetchKit.store.count(FetchRequest<Card>()))
            }
        }

        private static func makeStore() async throws -> InMemoryStore {
            let store = InMemoryStore(schema: try Schema([Card.entity]))
            try await store.write { tx in
                for id in Int64(1)...12 {
                    _ = try tx.insert(
                        [
                            "id": .integer(id), "owner": .integer(id % 2 == 0 ? 2 : 1),
                            "lane": .text(["Backlog", "Doing", "Done"][Int(id % 3)]), "title": .text("card \(id)"),
                            "position": .double(Double(id))
                        ], into: "Card")
                }
            }
            return store
        }
    }
#endif

#if Vapor
    import FetchKit
    import FetchKitSession
    import FetchKitVapor
    import Foundation
    import Testing
    import Vapor

    /// `liveResults` on a real Vapor server, with WebSocketKit's client: what a client receives is its own user's
    /// list, refusals close with 1008, and shutdown closes every session with 1001 before the store.
    @Suite("Vapor live results routes")
    struct LiveResultsRouteTests {
        @Test func theClientReceivesItsUsersListThenABatchForAWriteInScope() async throws {
            try await BoardServer.with { server in
                let client = try await server.connect("board", user: 1)
                try await client.open()
                try await client.wait(for: "results") {
                    try client.received(as: Card.self).contains { $0.type == "results" }
                }
                #expect(try client.list(of: Card.self).ids(\.id) == (try await server.fresh(owner: 1)))
                try await server.store.write { tx in
                    try tx.update("Card", key: 2, set: ["title": "not yours"])  // owner 2: no batch
                }
                try await server.store.write { tx in
                    try tx.update("Card", key: 1, set: ["lane": "Done", "position": 0.5])  // owner 1
                }
                let expected = try await server.fresh(owner: 1)
                try await client.wait(for: "the batch") { try client.list(of: Card.self).ids(\.id) == expected }
                // A status message may come between them when the machine is loaded (the list catching up).
                let received = try client.received(as: Card.self).filter { $0.type != "status" }
                #expect(received.map(\.type) == ["results", "batch"])
                #expect(received.allSatisfy { $0.v == 1 && $0.token != nil })
                #expect(try client.list(of: Card.self).sections.flatMap(\.objects).allSatisfy { $0.owner == 1 })
                try await client.close()
            }
        }

        @Test(arguments: [nil, "title BEGINSWITH 'card' OR lane == 'Done'", "NOT (lane == 'Doing')"])
        func anotherUsersRowsNeverArriveWhateverTheFilter(filter: String?) async throws {
            try await BoardServer.with { server in
                let client = try await server.connect("board", user: 2)
                try await client.open(filter: filter)
                try await client.wait(for: "results") {
                    try client.received(as: Card.self).contains { $0.type == "results" }
                }
                let predicate = try filter.map { try FetchPredicate(format: $0) } ?? .true
                #expect(
                    try client.list(of: Card.self).ids(\.id) == (try await server.fresh(owner: 2, filter: predicate)))
                // Owner 1's cards move into every lane the filter shows; then one of owner 2's does.
                try await server.store.write { tx in
                    for id: Int64 in [1, 3, 5] { try tx.update("Card", key: .integer(id), set: ["lane": "Done"]) }
                    _ = try tx.insert(
                        ["id": 41, "owner": 1, "lane": "Done", "title": "card 41", "position": 1], into: "Card")
                }
                try await server.store.write { tx in
                    _ = try tx.insert(
                        ["id": 42, "owner": 2, "lane": "Done", "title": "card 42", "position": 2], into: "Card")
                }
                let expected = try await server.fresh(owner: 2, filter: predicate)
                try await client.wait(for: "owner 2's card") { try client.list(of: Card.self).ids(\.id) == expected }
                // A status message may come between them when the machine is loaded (the list catching up).
                let received = try client.received(as: Card.self).filter { $0.type != "status" }
                #expect(received.map(\.type) == ["results", "batch"], "owner 1's write sends no batch")
                let objects = received.compactMap(\.changeset).flatMap { changeset in
                    changeset.sectionInserts.flatMap(\.objects) + changeset.rowInserts.map(\.object)
                        + changeset.rowUpdates.map(\.object) + changeset.rowMoves.compactMap(\.object)
                }
                #expect(!objects.isEmpty && objects.allSatisfy { $0.owner == 2 })
                try await client.close()
            }
        }

        @Test func aFilterOnAKeyTheServerDoesNotAllowIsRefusedAndClosedWith1008() async throws {
            try await BoardServer.with { server in
                let client = try await server.connect("board", user: 2)
                try await client.open(filter: "owner == 1")
                #expect(try await client.waitUntilClosed() == SessionCloseCode.policyViolation.rawValue)
                // A status message may come between them when the machine is loaded (the list catching up).
                let received = try client.received(as: Card.self).filter { $0.type != "status" }
                #expect(received.map(\.type) == ["refused"])
                #expect(received.first?.error?.code == "forbidden")
                #expect(received.first?.error?.message.contains("owner") == true)
            }
        }

        @Test(arguments: [
            ("board", "sign in first"),  // no X-User: the scope throws a SessionError
            ("abort", "this list is not available here")  // an Abort: its reason is not the client's to read
        ])
        func aScopeThatThrowsRefusesTheClientWith1008(path: String, message: String) async throws {
            try await BoardServer.with { server in
                // The scope runs at the upgrade: the refusal comes without an `open`.
                let client = try await server.connect(path)
                #expect(try await client.waitUntilClosed() == SessionCloseCode.policyViolation.rawValue)
                let received = try client.received(as: CardView.self)
                #expect(received.map(\.type) == ["refused"])
                #expect(received.first?.error?.code == "forbidden")
                #expect(received.first?.error?.message == message)
            }
        }

        @Test func aGroupsMiddlewareSignsTheUserInBeforeTheUpgradeOrTurnsTheRequestAway() async throws {
            try await BoardServer.with { server in
                let client = try await server.connect("mine", user: 1)
                try await client.open(filter: "lane == 'Done'")
                try await client.wait(for: "results") {
                    try client.received(as: CardView.self).contains { $0.type == "results" }
                }
                let expected = try await server.fresh(owner: 1, filter: .key("lane") == "Done")
                #expect(try client.list(of: CardView.self).ids(\.id) == expected)
                try await client.close()
                await #expect(throws: (any Error).self, "no user: the guard answers 401, no upgrade") {
                    _ = try await server.connect("mine")
                }
            }
        }

        @Test func aClientThatSendsMoreThanTheSessionReadsIsClosedWith1008() async throws {
            try await BoardServer.with { server in
                let client = try await server.connect("stalled", user: 1)
                for _ in 0..<100 where !client.isClosed {
                    try? await client.send(#"{"v": 1, "type": "move", "id": 1, "key": 1, "section": "Done"}"#)
                }
                #expect(try await client.waitUntilClosed() == SessionCloseCode.policyViolation.rawValue)
            }
        }

        @Test func shutdownClosesEverySessionWith1001ThenClosesTheStore() async throws {
            let server = try await BoardServer.start()
            var clients: [TestClient] = []
            for user: Int64 in [1, 2] {
                let client = try await server.connect("board", user: user)
                try await client.open()
                try await client.wait(for: "results") {
                    try client.received(as: Card.self).contains { $0.type == "results" }
                }
                clients.append(client)
            }
            #expect(server.app.fetchKit.liveSessionCount == 2)
            try await server.shutDown()
            for client in clients {
                #expect(try await client.waitUntilClosed() == SessionCloseCode.goingAway.rawValue)
                // A session whose store closed first would have sent `error` and closed with 1000.
                #expect(try client.received(as: Card.self).map(\.type) == ["results"])
            }
            await #expect(throws: FetchKitError.self, "the store is closed") {
                _ = try await server.store.count(FetchRequest<Card>())
            }
        }

        @Test func aSessionStillDecidingItsScopeAtShutdownClosesWith1001() async throws {
            let server = try await BoardServer.start()
            let client = try await server.connect("stalled", user: 1)
            try await client.wait(for: "the session") { server.app.fetchKit.liveSessionCount == 1 }
            try await server.shutDown()
            #expect(try await client.waitUntilClosed() == SessionCloseCode.goingAway.rawValue)
            #expect(try client.received(as: CardView.self).isEmpty, "no refusal")
        }

        @Test func aRouteReachesTheStoreThroughTheRequest() async throws {
            try await BoardServer.with { server in
                let response = try await server.app.client.get("http://127.0.0.1:\(server.port)/cards/count")
                #expect(response.status == .ok)
                #expect(response.body.map { String(buffer: $0) } == "12")
                #expect(server.app.fetchKit.store === server.store)
            }
        }
    }
#endif

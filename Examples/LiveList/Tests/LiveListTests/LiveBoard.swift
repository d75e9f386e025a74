import FetchKit
import Foundation
import Testing

/// A running board for one test: its database, its server and a headless browser to open pages in.
struct LiveBoard: Sendable {
    let database: BoardDatabase
    let server: BoardServer
    let devTools: DevTools

    /// Runs `body` with a new board of `kind`, then stops everything whatever happens.
    static func with(_ kind: BoardDatabase.Case, _ body: (LiveBoard) async throws -> Void) async throws {
        let database = try await BoardDatabase.make(kind.backend)
        let chromium: Chromium
        do { chromium = try await Chromium.launch() } catch {
            await database.remove()
            throw error
        }
        let server = try BoardServer(framework: kind.framework, store: database.url, tablePrefix: database.tablePrefix)
        do {
            try await server.start()
            let devTools = try await DevTools.connect(to: chromium.devToolsURL)
            do {
                try await body(LiveBoard(database: database, server: server, devTools: devTools))
            } catch {
                Issue.record("\(kind.framework)'s last log lines:\n\(server.logTail())")
                await devTools.close()
                throw error
            }
            await devTools.close()
        } catch {
            await server.stop()
            server.removeFiles()
            chromium.close()
            await database.remove()
            throw error
        }
        await server.stop()
        server.removeFiles()
        chromium.close()
        await database.remove()
    }

    /// A page of member `name`, signed in on a browser of their own, at `path` (with its query).
    func page(signedInAs name: String?, path: String = "/") async throws -> BoardPage {
        let page = try await BrowserPage.open(server.url + (name.map { "/signin?name=\($0)" } ?? path), in: devTools)
        let board = BoardPage(page: page)
        try await board.waitUntilLoaded()
        if name != nil && path != "/" {
            try await page.navigate(server.url + path)
            try await Task.sleep(for: .milliseconds(200))
            try await board.waitUntilLoaded()
        }
        return board
    }

    /// Waits until `page` shows exactly what a fresh fetch of `team`'s cards (narrowed by `filter`) returns.
    func waitUntil(
        _ page: BoardPage, showsTeam team: String, filter: String? = nil, _ when: String,
        timeout: Duration = .seconds(20)
    ) async throws {
        var last: (shown: [LaneView], expected: [LaneView]) = ([], [])
        do {
            try await LiveListTests.waitUntil("the page shows \(team)'s board \(when)", timeout: timeout) {
                last = (try await page.view(), try await database.expected(team: team, filter: filter))
                return try await page.status() == "live" && last.shown == last.expected
            }
        } catch {
            Issue.record("shown: \(last.shown)\nexpected: \(last.expected)\ntrace: \(try await page.trace())")
            throw error
        }
    }
}

/// The board's page in a browser tab, read through `window.liveBoard`.
struct BoardPage: Sendable {
    let page: BrowserPage

    func waitUntilLoaded() async throws {
        try await LiveListTests.waitUntil("the page loads") {
            try await page.evaluate("JSON.stringify(typeof window.liveBoard)") == #""object""#
        }
    }

    func status() async throws -> String {
        try await decode(String.self, "liveBoard.status()")
    }

    func view() async throws -> [LaneView] {
        try await decode([LaneView].self, "liveBoard.view()")
    }

    /// The page's trace: when it loaded, the statuses it showed, the messages it received by type, its errors.
    func trace() async throws -> Trace {
        try await decode(Trace.self, "liveBoard.trace")
    }

    struct Trace: Decodable, Sendable {
        let loadedAt: Double
        let statuses: [String]
        let received: [String: Int]
        let bytes: Int
        let errors: [String]
    }

    /// Drags card `key` to the end of lane `lane`, as a mouse would.
    func drag(card key: Int64, toEndOfLane lane: String) async throws {
        let from = try await box(of: "[data-key='\(key)']")
        let to = try await box(of: "[data-lane='\(lane)']")
        try await page.drag(
            from: (from.x + from.width / 2, from.y + from.height / 2), to: (to.x + to.width / 2, to.y + to.height - 4))
    }

    /// Drags card `key` onto the top edge of card `target`: it goes just above it.
    func drag(card key: Int64, onto target: Int64) async throws {
        let from = try await box(of: "[data-key='\(key)']")
        let to = try await box(of: "[data-key='\(target)']")
        try await page.drag(
            from: (from.x + from.width / 2, from.y + from.height / 2), to: (to.x + to.width / 2, to.y + 3))
    }

    private struct Box: Decodable {
        let x, y, width, height: Double
    }

    private func box(of selector: String) async throws -> Box {
        try await decode(Box.self, "document.querySelector(\"\(selector)\").getBoundingClientRect()")
    }

    /// The value of `expression` in the page, through JSON.
    func decode<T: Decodable>(_ type: T.Type, _ expression: String) async throws -> T {
        let json = try await page.evaluate("JSON.stringify(\(expression))") ?? "null"
        return try JSONDecoder().decode(T.self, from: Data(json.utf8))
    }
}

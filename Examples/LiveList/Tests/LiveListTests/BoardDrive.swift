import FetchKit
import FetchKitTesting
import Foundation
import Hummingbird
import Logging
import ServiceLifecycle

@testable import LiveList

/// Drives the live board end to end: the server over `store`, two pages in headless Chromium (one
/// filtered), writes through `writer` (another connection to the same database) and drags in the page. After
/// each step both pages must show exactly what a fresh fetch of their request returns, in order.
struct BoardDrive {
    let store: any PersistentStore
    let writer: any PersistentStore

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// A page's board as rendered, and its connection's counters (`window.liveBoard`).
    struct PageState: Decodable, CustomStringConvertible {
        struct Lane: Decodable, Equatable {
            var name: String
            var cards: [Card]
        }
        struct Card: Decodable, Equatable {
            var key: Int64
            var title: String
            var done: Bool
        }
        var results: Int
        var batches: Int
        var moves: Int
        var errors: [String]
        var serverErrors: [String]
        var moveErrors: [String]
        var sentMoves: [String]
        var lanes: [Lane]

        var description: String {
            lanes.map { "\($0.name): \($0.cards.map(\.key))" }.joined(separator: " | ")
        }
    }

    /// What the DOM shows, read from the elements (not from the page's model).
    static let readPage = """
        typeof liveBoard === 'undefined' ? null : JSON.stringify({
          results: liveBoard.results, batches: liveBoard.batches, moves: liveBoard.moves,
          errors: liveBoard.errors, serverErrors: liveBoard.serverErrors, moveErrors: liveBoard.moveErrors,
          sentMoves: liveBoard.sentMoves.map((move) => JSON.stringify(move)),
          lanes: [...document.querySelectorAll('#board .lane')].map((lane) => ({
            name: lane.dataset.name,
            cards: [...lane.querySelectorAll('.card')].map((card) => ({
              key: Number(card.dataset.key), title: card.querySelector('.title').textContent,
              done: card.querySelector('input').checked })) })) })
        """

    /// Where each card is on screen.
    static let readGeometry = """
        (() => {
          for (const animation of document.getAnimations()) animation.finish();
          window.scrollTo(0, 0);
          return JSON.stringify([...document.querySelectorAll('#board .card')].map((card) => {
            const rect = card.getBoundingClientRect();
            return { key: Number(card.dataset.key), lane: card.closest('.lane').dataset.name,
                     x: rect.left + rect.width / 2, top: rect.top, height: rect.height }; }));
        })()
        """

    struct CardBox: Decodable {
        var key: Int64
        var lane: String
        var x: Double
        var top: Double
        var height: Double
        var middle: (x: Double, y: Double) { (x, top + height / 2) }
    }

    func run() async throws {
        try await Board.seedIfEmpty(writer)
        let server = try LiveListServer(store: store, logger: Logger(label: "live-list-test"))
        try await withServer(server) { port in
            try await withBrowser { devTools in
                let all = try await BrowserPage.open("http://127.0.0.1:\(port)/", in: devTools)
                let open = try await BrowserPage.open(
                    "http://127.0.0.1:\(port)/?where=done%20%3D%3D%20NO", in: devTools)
                let pages = [(all, FetchPredicate.true), (open, try FetchPredicate(format: "done == NO"))]
                for (page, predicate) in pages { try await waitUntilShowsDatabase(page, predicate, "at first") }
                try await checkABadFilterIsRefused(port: port, devTools: devTools)

                try await writeRandomly(transactions: 60, seed: 7)
                for (page, predicate) in pages {
                    try await waitUntilShowsDatabase(page, predicate, "after 60 transactions")
                }

                try await dragAcrossLanesWhileAnotherWriterInserts(on: all)
                for (page, predicate) in pages {
                    try await waitUntilShowsDatabase(page, predicate, "after the first drag")
                }
                try await dragToTopOfItsLane(on: all)
                for (page, predicate) in pages {
                    try await waitUntilShowsDatabase(page, predicate, "after the second drag")
                }
                try await dragToEndOfAnotherLane(on: all)
                for (page, predicate) in pages {
                    try await waitUntilShowsDatabase(page, predicate, "after the third drag")
                }

                try await dragTheLastCardOutOfItsLane(on: all)
                for (page, predicate) in pages {
                    try await waitUntilShowsDatabase(page, predicate, "after the fourth drag")
                }

                try await useTheControls(on: all)
                for (page, predicate) in pages {
                    try await waitUntilShowsDatabase(page, predicate, "after using the controls")
                }

                try await writeRandomly(transactions: 30, seed: 11)
                for (page, predicate) in pages {
                    let state = try await waitUntilShowsDatabase(page, predicate, "at the end")
                    guard state.results == 1, state.errors.isEmpty, state.serverErrors.isEmpty, state.batches > 10
                    else {
                        throw Failure(
                            description: "the page should have been kept in step by batches alone: \(state.results) "
                                + "results messages, \(state.batches) batches, errors "
                                + "\(state.errors + state.serverErrors)"
                        )
                    }
                }
                let moves = try await pageState(all)?.moves
                guard moves == 4 else {
                    throw Failure(description: "the page heard \(moves ?? 0) move answers, expected 4")
                }
            }
        }
    }

    // MARK: The steps

    /// Random inserts, renames, completions, lane changes and deletes, some transactions with two statements;
    /// bursts, then pauses.
    func writeRandomly(transactions: Int, seed: UInt64) async throws {
        var random = SeededRandom(seed: seed)
        for step in 0..<transactions {
            let keys = try await writer.fetch(FetchRequest(entity: "Card")).compactMap { $0["id", as: Int64.self] }
            let key = keys.isEmpty ? 0 : keys[random.int(0..<keys.count)]
            let kind = keys.count < 4 ? 0 : random.int(0..<6)
            let lane = Board.lanes[random.int(0..<Board.lanes.count)]
            let position = Double(random.int(0..<2_000)) / 100
            let done = random.int(0..<3) == 0
            let twice = step % 7 == 3
            try await writer.write { tx in
                switch kind {
                case 0, 1:
                    _ = try tx.insert(
                        [
                            "title": .text("Card \(seed)-\(step)"), "lane": .text(lane), "position": .double(position),
                            "done": .bool(done)
                        ], into: "Card")
                case 2: try tx.update("Card", key: .integer(key), set: ["title": .text("Renamed \(seed)-\(step)")])
                case 3: try tx.update("Card", key: .integer(key), set: ["done": .bool(done)])
                case 4:
                    try tx.update("Card", key: .integer(key), set: ["lane": .text(lane), "position": .double(position)])
                default: try tx.delete("Card", key: .integer(key))
                }
                if twice {
                    _ = try tx.insert(
                        ["title": .text("Second \(seed)-\(step)"), "lane": .text(lane), "position": .double(-position)],
                        into: "Card")
                }
            }
            if step % 10 == 9 { try await Task.sleep(for: .milliseconds(150)) }
        }
    }

    /// Drags the first card of one lane onto the second card of another; midway, another writer inserts a
    /// card at the top of that lane. The move names its neighbour by key, so it lands right above it anyway.
    func dragAcrossLanesWhileAnotherWriterInserts(on page: BrowserPage) async throws {
        let boxes = try await geometry(page)
        let lanes = Dictionary(grouping: boxes, by: \.lane)
        guard let (targetLane, targetCards) = lanes.filter({ $0.value.count >= 2 }).min(by: { $0.key < $1.key }),
            let source = boxes.first(where: { $0.lane != targetLane })
        else { throw Failure(description: "the board has no two lanes to drag between: \(boxes.map(\.lane))") }
        let target = targetCards[1]
        try await page.drag(from: source.middle, to: (target.x, target.top + target.height * 0.25)) {
            _ = try await writer.write { tx in
                try tx.insert(
                    ["title": "Slipped in during the drag", "lane": .text(targetLane), "position": -1_000.0],
                    into: "Card")
            }
        }
        let state = try await waitForMoveAnswers(page, 1)
        let order = try await databaseOrder(lane: targetLane)
        guard let dragged = order.firstIndex(of: source.key), order.indices.contains(dragged + 1),
            order[dragged + 1] == target.key
        else {
            throw Failure(
                description: "card \(source.key) should be right above \(target.key) in \(targetLane): \(order) "
                    + "(moves sent: \(state.sentMoves))")
        }
    }

    /// Drags the last card of the fullest lane to its top.
    func dragToTopOfItsLane(on page: BrowserPage) async throws {
        let boxes = try await geometry(page)
        let lanes = Dictionary(grouping: boxes, by: \.lane)
        guard let (lane, cards) = lanes.max(by: { $0.value.count < $1.value.count }), cards.count >= 2,
            let last = cards.last
        else { throw Failure(description: "no lane with two cards") }
        try await page.drag(from: last.middle, to: (cards[0].x, cards[0].top + 3))
        let state = try await waitForMoveAnswers(page, 2)
        let order = try await databaseOrder(lane: lane)
        guard order.first == last.key else {
            throw Failure(description: "card \(last.key) should top \(lane): \(order) (moves sent: \(state.sentMoves))")
        }
    }

    /// Drags the top card of one lane below the last card of another.
    func dragToEndOfAnotherLane(on page: BrowserPage) async throws {
        let boxes = try await geometry(page)
        let lanes = Dictionary(grouping: boxes, by: \.lane)
        guard let (lane, cards) = lanes.min(by: { $0.key > $1.key }), let last = cards.last,
            let source = boxes.first(where: { $0.lane != lane })
        else { throw Failure(description: "no two lanes") }
        // Once the dragged card joins the lane, the cards below it move down by a card: aim well below the last.
        try await page.drag(from: source.middle, to: (last.x, last.top + last.height * 2.5))
        let state = try await waitForMoveAnswers(page, 3)
        let order = try await databaseOrder(lane: lane)
        guard order.last == source.key else {
            throw Failure(
                description: "card \(source.key) should end \(lane): \(order) (moves sent: \(state.sentMoves); "
                    + "dropped at y \(last.top + last.height * 2.5) below \(last.key) at \(last.top) + \(last.height))")
        }
    }

    /// Leaves one card in the Doing lane (another writer moves the rest to Backlog), then drags it into Done:
    /// the move empties its lane, whose deletion is the only batch the controller publishes for it.
    func dragTheLastCardOutOfItsLane(on page: BrowserPage) async throws {
        let doing = try await databaseOrder(lane: "Doing")
        guard let kept = doing.first else { throw Failure(description: "the Doing lane is empty") }
        _ = try await writer.write { tx in
            try tx.update("Card", where: .key("lane") == "Doing" && .key("id") != kept, set: ["lane": "Backlog"])
        }
        try await waitUntilShowsDatabase(page, .true, "with one card in Doing")
        let boxes = try await geometry(page)
        guard let source = boxes.first(where: { $0.key == kept }), let last = boxes.last(where: { $0.lane == "Done" })
        else {
            throw Failure(description: "card \(kept) or the Done lane is not on the page")
        }
        try await page.drag(from: source.middle, to: (last.x, last.top + last.height * 2.5))
        let state = try await waitForMoveAnswers(page, 4)
        let lanes = try await databaseLanes(.true)
        guard !lanes.contains(where: { $0.name == "Doing" }),
            lanes.first(where: { $0.name == "Done" })?.cards.last?.key == kept
        else {
            throw Failure(
                description:
                    "card \(kept) should end Done and Doing be gone: "
                    + "\(lanes.map { "\($0.name): \($0.cards.map(\.key))" }) "
                    + "(moves sent: \(state.sentMoves))")
        }
    }

    /// Adds a card through the form, ticks a card's checkbox and deletes another with its button.
    func useTheControls(on page: BrowserPage) async throws {
        guard
            let titleField = try await page.evaluate(
                """
                (() => { const field = document.querySelector('#add [name=title]'); field.scrollIntoView(); \
                field.focus();
                         document.querySelector('#add [name=lane]').value = 'Doing';
                         const rect = document.querySelector('#add button').getBoundingClientRect();
                         return JSON.stringify([rect.left + rect.width / 2, rect.top + rect.height / 2]); })()
                """), let add = try? JSONDecoder().decode([Double].self, from: Data(titleField.utf8)), add.count == 2
        else { throw Failure(description: "the page has no add form") }
        try await page.type("Typed into the page")
        try await page.click(at: (add[0], add[1]))
        try await waitUntil("the typed card is in Doing") {
            try await databaseLanes(.key("lane") == "Doing").first?.cards.contains { $0.title == "Typed into the page" }
                == true
        }
        try await waitUntilShowsDatabase(page, .true, "after the add")

        let controls = try await page.evaluate(
            """
            JSON.stringify([...document.querySelectorAll('#board .card')].slice(0, 2).map((card) => {
              for (const animation of document.getAnimations()) animation.finish();
              window.scrollTo(0, 0);
              const box = (element) => { const rect = element.getBoundingClientRect();
                                          return [rect.left + rect.width / 2, rect.top + rect.height / 2]; };
              return { key: Number(card.dataset.key), done: card.querySelector('input').checked,
                       checkbox: box(card.querySelector('input')), remove: box(card.querySelector('button')) }; }))
            """)
        struct Controls: Decodable {
            var key: Int64
            var done: Bool
            var checkbox: [Double]
            var remove: [Double]
        }
        let cards = try JSONDecoder().decode([Controls].self, from: Data((controls ?? "[]").utf8))
        guard cards.count == 2 else { throw Failure(description: "fewer than two cards on the page") }
        try await page.click(at: (cards[0].checkbox[0], cards[0].checkbox[1]))
        try await waitUntil("card \(cards[0].key) is ticked \(!cards[0].done)") {
            try await writer.fetch(FetchRequest(entity: "Card", predicate: .key("id") == cards[0].key)).first?[
                "done", as: Bool.self]
                == !cards[0].done
        }
        // Click the delete button once the page shows the tick, at where the button is then.
        try await waitUntilShowsDatabase(page, .true, "after the tick")
        let removeAt =
            try await page.evaluate(
                """
                (() => { for (const animation of document.getAnimations()) animation.finish();
                         const rect = \
                document.querySelector('#board .card[data-key="\(cards[1].key)"] button').getBoundingClientRect();
                         return JSON.stringify([rect.left + rect.width / 2, rect.top + rect.height / 2]); })()
                """
            ).flatMap { try? JSONDecoder().decode([Double].self, from: Data($0.utf8)) } ?? cards[1].remove
        try await page.click(at: (removeAt[0], removeAt[1]))
        try await waitUntil("card \(cards[1].key) is deleted") {
            try await writer.count(FetchRequest(entity: "Card", predicate: .key("id") == cards[1].key)) == 0
        }
    }

    /// A page whose filter names an unknown key gets the error, and the close code that stops it reconnecting.
    func checkABadFilterIsRefused(port: Int, devTools: DevTools) async throws {
        let page = try await BrowserPage.open("http://127.0.0.1:\(port)/?where=colour%20%3D%3D%20'red'", in: devTools)
        try await waitUntil("the bad filter is refused") {
            try await page.evaluate("JSON.stringify(typeof liveBoard !== 'undefined' && liveBoard.refused)") == "true"
        }
        let errors = try await page.evaluate("JSON.stringify([liveBoard.results, ...liveBoard.serverErrors])") ?? ""
        guard errors.contains("unknown key 'colour'"), errors.hasPrefix("[0,") else {
            throw Failure(description: "a bad filter should be refused with the unknown key's name, got \(errors)")
        }
    }

    // MARK: Reading and waiting

    /// The page's state, or `nil` while its script has not run yet.
    func pageState(_ page: BrowserPage) async throws -> PageState? {
        guard let json = try await page.evaluate(Self.readPage) else { return nil }
        return try JSONDecoder().decode(PageState.self, from: Data(json.utf8))
    }

    func geometry(_ page: BrowserPage) async throws -> [CardBox] {
        guard let json = try await page.evaluate(Self.readGeometry) else {
            throw Failure(description: "the page returned nothing")
        }
        return try JSONDecoder().decode([CardBox].self, from: Data(json.utf8))
    }

    /// The lanes a fresh fetch of the page's request returns.
    func databaseLanes(_ predicate: FetchPredicate) async throws -> [PageState.Lane] {
        var lanes: [PageState.Lane] = []
        for card in try await writer.fetch(Board.request(where: predicate)) {
            let shown = PageState.Card(key: card.id ?? -1, title: card.title, done: card.done)
            if lanes.last?.name == card.lane {
                lanes[lanes.count - 1].cards.append(shown)
            } else {
                lanes.append(.init(name: card.lane, cards: [shown]))
            }
        }
        return lanes
    }

    func databaseOrder(lane: String) async throws -> [Int64] {
        try await databaseLanes(.key("lane") == lane).first?.cards.map(\.key) ?? []
    }

    /// Waits until the page's DOM shows exactly the database's rows for its request, in order.
    @discardableResult
    func waitUntilShowsDatabase(_ page: BrowserPage, _ predicate: FetchPredicate, _ when: String) async throws
        -> PageState
    {
        let deadline = ContinuousClock.now + .seconds(30)
        var last: (page: PageState, database: [PageState.Lane])?
        while ContinuousClock.now < deadline {
            let database = try await databaseLanes(predicate)
            if let state = try await pageState(page) {
                if state.lanes == database { return state }
                last = (state, database)
            }
            try await Task.sleep(for: .milliseconds(100))
        }
        let databaseState = last.map {
            PageState(
                results: 0, batches: 0, moves: 0, errors: [], serverErrors: [], moveErrors: [], sentMoves: [],
                lanes: $0.database)
        }
        throw Failure(
            description: "\(when), the page for '\(predicate)' shows \(last.map { "\($0.page)" } ?? "nothing"); "
                + "the database has \(databaseState.map { "\($0)" } ?? "?")"
        )
    }

    @discardableResult
    func waitForMoveAnswers(_ page: BrowserPage, _ count: Int) async throws -> PageState {
        let deadline = ContinuousClock.now + .seconds(15)
        while ContinuousClock.now < deadline {
            guard let state = try await pageState(page) else { throw Failure(description: "the page is gone") }
            if !state.errors.isEmpty {
                throw Failure(description: "the page fell out of step with the server: \(state.errors)")
            }
            if !state.serverErrors.isEmpty || !state.moveErrors.isEmpty {
                throw Failure(
                    description:
                        "the server refused: \(state.serverErrors + state.moveErrors) (moves sent: \(state.sentMoves))")
            }
            if state.moves >= count { return state }
            try await Task.sleep(for: .milliseconds(50))
        }
        throw Failure(description: "the page's move \(count) was not answered")
    }

    // MARK: The server and the browser

    func withServer(_ server: LiveListServer, _ body: (Int) async throws -> Void) async throws {
        let (ports, portSink) = AsyncStream.makeStream(of: Int.self)
        let application = server.application(host: "127.0.0.1", port: 0) { portSink.yield($0) }
        let group = ServiceGroup(services: [application], logger: Logger(label: "live-list-test"))
        let running = Task { try await group.run() }
        var iterator = ports.makeAsyncIterator()
        guard let port = await iterator.next() else { throw Failure(description: "the server did not start") }
        do {
            try await body(port)
        } catch {
            await group.triggerGracefulShutdown()
            _ = await running.result
            throw error
        }
        await group.triggerGracefulShutdown()
        try await running.value
    }

    func withBrowser(_ body: (DevTools) async throws -> Void) async throws {
        let chromium = try await Chromium.launch()
        do {
            let devTools = try await DevTools.connect(to: chromium.devToolsURL)
            do {
                try await body(devTools)
            } catch {
                await devTools.close()
                throw error
            }
            await devTools.close()
        } catch {
            chromium.close()
            throw error
        }
        chromium.close()
    }
}

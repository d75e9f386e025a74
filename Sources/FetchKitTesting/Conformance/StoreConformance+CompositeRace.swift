import FetchKit
import FetchKitFixtures
import Foundation

/// A composite part's request switched (`setRequest`) while a transaction inserting one todo and updating
/// another commits: after each round and `sync()` the composite equals fresh fetches of its parts, and every
/// batch applies to a model of the UI and leads to what the data source showed inside its callbacks.
extension StoreConformance {
    func checkCompositeSwitchesRacingWrites(on store: any PersistentStore, rounds: Int) async throws {
        let bystanders = try await Self.bystanders(Self.raceBystanders, on: store)
        let requests = try Self.racingRequests()
        let names = requests.keys.sorted()
        let categoriesRequest = FetchRequest(entity: "Category", sortDescriptors: [.ascending("name")])
        let todos = ResultsController(store: store, request: requests["byDone"] ?? FetchRequest(entity: "Todo"))
        let categories = ResultsController(store: store, request: categoriesRequest)
        let composite = CompositeResultsController()
        let menu = try composite.addFixedSection("Menu", rows: ["Settings"])
        let todoPart = try composite.add(todos)
        let categoryPart = try composite.add(categories)
        let recorder = CompositeRecorder()
        let reader: @Sendable (CompositeResultsController) -> CompositeRecorder.Content = { composite in
            composite.sections.enumerated().map { index, section in
                let rows = (0..<section.count).map { row -> String in
                    let path = RowPath(section: index, row: row)
                    if let fixed = composite.row(at: path, in: menu) { return "menu:\(fixed)" }
                    if let todo = composite.object(at: path, in: todoPart) { return "todo:\(todo["id"] ?? .null)" }
                    if let category = composite.object(at: path, in: categoryPart) {
                        return "category:\(category["id"] ?? .null)"
                    }
                    return "?"
                }
                return (section.name, rows)
            }
        }
        recorder.read.withLock { $0 = reader }
        composite.delegate = recorder
        try await composite.performFetch()

        /// Fresh fetches of the parts, as (section name, row identities).
        func expected(_ todosRequest: FetchRequest<Row>) async throws -> CompositeRecorder.Content {
            var todoSections: CompositeRecorder.Content = []
            var ordered = todosRequest
            if let key = todosRequest.sectionNameKeyPath, todosRequest.sortDescriptors.first?.key != key {
                ordered.sortDescriptors.insert(.ascending(key), at: 0)
            }
            for row in try await store.fetch(ordered) {
                let name = todosRequest.sectionNameKeyPath.map { (row[$0] ?? .null).sectionName } ?? ""
                if todoSections.last?.section != name { todoSections.append((name, [])) }
                todoSections[todoSections.count - 1].rows.append("todo:\(row["id"] ?? .null)")
            }
            // Without a section key there is always one section, even when empty.
            if todosRequest.sectionNameKeyPath == nil && todoSections.isEmpty { todoSections = [("", [])] }
            let categoryRows = try await store.fetch(categoriesRequest).map { "category:\($0["id"] ?? .null)" }
            return [(section: "Menu", rows: ["menu:Settings"])] + todoSections + [(section: "", rows: categoryRows)]
        }

        var ui = reader(composite)
        let seed = ProcessInfo.processInfo.environment["FETCHKIT_SEED"].flatMap(UInt64.init) ?? 0xC_2A45
        var random = SeededRandom(seed: seed)
        var keys = RaceKeys()
        var current = "byDone"
        for round in 0..<rounds {
            let target = random.int(0..<5) == 0 ? current : names[random.int(0..<names.count)]
            let request = requests[target] ?? FetchRequest(entity: "Todo")
            let write = RacingWrite.make(&random, round: round, keys: keys.all, deleting: keys.nextDeleted())
            let timing = RaceTiming.make(&random)
            async let switched: Void = Self.after(timing.switchFirst ? 0 : timing.lead) {
                try await todos.setRequest(request)
            }
            async let written = Self.after(timing.switchFirst ? timing.lead : 0) {
                try await write.commit(to: store)
            }
            let (_, key) = try await (switched, written)
            keys.inserted.append(key)
            current = target
            await composite.sync()
            let context =
                "round \(round) (seed \(seed)): the part switched to \(target) "
                + "\(timing.switchFirst ? "first" : "after \(timing.lead) turns"), racing \(write)"
            try recorder.checkOrder()
            for (update, inCallbacks) in zip(recorder.updates, recorder.shownInCallbacks) {
                do {
                    ui = try ListSimulator.apply(update.changeset, to: ui, expecting: inCallbacks)
                } catch {
                    throw ConformanceFailure(
                        "\(context): a batch does not lead to what the data source showed inside its callbacks: "
                            + "\(error)")
                }
            }
            recorder.reset()
            let want = try await expected(request)
            let now = reader(composite)
            try expect(
                now.map(\.section) == want.map(\.section) && now.map(\.rows) == want.map(\.rows),
                "\(context): after sync() the composite shows \(now), fresh fetches give \(want)")
            try expect(
                ui.map(\.section) == want.map(\.section) && ui.map(\.rows) == want.map(\.rows),
                "\(context): the batches lead the UI's model to \(ui), fresh fetches give \(want)")
            try await ResultsOracle.checkMatchesFreshFetch(todos, in: store)
        }
        composite.delegate = nil
        try expect(bystanders.allSatisfy { $0.fetchedObjects.isEmpty }, "a bystander holds a todo")
    }
}

import FetchKit
import Foundation
import Synchronization

/// Seed 000: one sectioned list from parts — a fixed menu section, tasks sectioned by category and capped
/// per section, every category, a few notes — under random transactions that change several parts at
/// once. A model of the UI takes each batch; after every transaction it equals the composite, and the
/// composite equals fresh fetches of its parts, capped.
extension StoreConformance {
    /// Records a composite's batches and checks their callbacks' order.
    final class CompositeRecorder: CompositeResultsControllerDelegate, Sendable {
        private let recorded = Mutex<(updates: [CompositeUpdate], callbacks: [String])>(([], []))

        var updates: [CompositeUpdate] { recorded.withLock { $0.updates } }

        func reset() { recorded.withLock { $0 = ([], []) } }

        /// Throws unless the callbacks came as will-change, sections, rows, did-change, whole batch.
        func checkOrder() throws {
            let callbacks = recorded.withLock { $0.callbacks }
            let order = ["will": 0, "section": 1, "row": 2, "did": 3, "apply": 4]
            var last = 4
            for callback in callbacks {
                let rank = order[callback] ?? -1
                let restarts = rank == 0 && last == 4
                guard restarts || rank >= last && rank != 0 else {
                    throw ConformanceFailure("composite callbacks out of order: \(callbacks)")
                }
                last = rank
            }
        }

        private func note(_ callback: String) { recorded.withLock { $0.callbacks.append(callback) } }

        func controllerWillChangeContent(_ controller: CompositeResultsController) { note("will") }
        func controller(_ controller: CompositeResultsController, didChangeSection name: String, atSectionIndex: Int?,
                        for type: ResultsChangeType, newSectionIndex: Int?) { note("section") }
        func controller(_ controller: CompositeResultsController, didChangeRowAt rowPath: RowPath?,
                        for type: ResultsChangeType, newRowPath: RowPath?) { note("row") }
        func controllerDidChangeContent(_ controller: CompositeResultsController) { note("did") }
        func controller(_ controller: CompositeResultsController, didApply update: CompositeUpdate) {
            recorded.withLock {
                $0.callbacks.append("apply")
                $0.updates.append(update)
            }
        }
    }

    /// The composite checks.
    static var compositeChecks: [Check] {
        [Check(name: "composite: fixed and capped parts of three entities stay exact under transactions across parts",
               body: { try await $0.checkComposite(on: $1) })]
    }

    func checkComposite(on store: any PersistentStore) async throws {
        let tasksRequest = FetchRequest(entity: "Task", sortDescriptors: [.ascending("category.name"), .ascending("title")],
                                        sectionNameKeyPath: "category.name")
        let categoriesRequest = FetchRequest(entity: "Category", sortDescriptors: [.ascending("name")])
        let notesRequest = FetchRequest(entity: "Note", sortDescriptors: [.descending("slug")])
        let tasks = ResultsController(store: store, request: tasksRequest, as: Fixtures.TaskRecord.self)
        let categories = ResultsController(store: store, request: categoriesRequest)
        let notes = ResultsController(store: store, request: notesRequest, as: Fixtures.NoteRecord.self)
        let composite = CompositeResultsController()
        let menu = try composite.addFixedSection("Menu", rows: ["Settings", "About"])
        let taskPart = try composite.add(tasks, limit: 2)
        let categoryPart = try composite.add(categories)
        let notePart = try composite.add(notes, limit: 3)
        let recorder = CompositeRecorder()
        composite.delegate = recorder
        try await composite.performFetch()

        /// What the composite should show: fresh fetches, capped, as (section name, row identities).
        func expected() async throws -> [(section: String, rows: [String])] {
            func sections(_ rows: [Row], key: String?, limit: Int?, part: String) -> [(section: String, rows: [String])] {
                // Without a section key there is always one section, even when empty (as in NSFRC).
                var result: [(section: String, rows: [String])] = key == nil ? [("", [])] : []
                for row in rows {
                    let name = key.map { (row[$0] ?? .null).sectionName } ?? ""
                    if result.last?.section != name { result.append((name, [])) }
                    if limit.map({ result[result.count - 1].rows.count < $0 }) ?? true {
                        result[result.count - 1].rows.append("\(part):\(row["id"] ?? row["slug"] ?? .null)")
                    }
                }
                return result
            }
            return [(section: "Menu", rows: ["menu:Settings", "menu:About"])]
                + sections(try await store.fetch(tasksRequest), key: "category.name", limit: 2, part: "task")
                + sections(try await store.fetch(categoriesRequest), key: nil, limit: nil, part: "category")
                + sections(try await store.fetch(notesRequest), key: nil, limit: 3, part: "note")
        }

        /// What the composite shows, read through its typed accessors.
        func shown() -> [(section: String, rows: [String])] {
            composite.sections.enumerated().map { index, section in
                let rows = (0..<section.count).map { row -> String in
                    let path = RowPath(section: index, row: row)
                    if let fixed = composite.row(at: path, in: menu) { return "menu:\(fixed)" }
                    if let task = composite.object(at: path, in: taskPart) { return "task:\(Value.integer(task.id ?? -1))" }
                    if let category = composite.object(at: path, in: categoryPart) { return "category:\(category["id"] ?? .null)" }
                    if let note = composite.object(at: path, in: notePart) { return "note:\(Value.text(note.slug))" }
                    return "?"
                }
                return (section.name, rows)
            }
        }

        var ui = shown()
        try expect(ui.map(\.section) == (try await expected()).map(\.section), "first sections \(ui.map(\.section))")
        var random = SeededRandom(seed: 0xC0_4905)
        var batches = 0
        for step in 0..<250 {
            let operations = (0..<random.int(1...3)).map { _ in RandomOperation.make(&random) }
            let note = random.int(0..<4) == 0 ? random.int(0..<12) : nil
            let dialect = store.dialect
            do {
                try await store.write { tx in
                    for operation in operations { try operation.apply(tx, dialect: dialect) }
                    if let note { try tx.upsert(Fixtures.NoteRecord(slug: "n\(note)", body: "step \(step)")) }
                }
            } catch is FetchKitError {}
            await composite.sync()
            try recorder.checkOrder()
            let context = "step \(step), operations \(operations)"
            try expect(recorder.updates.count <= 1, "\(context): one transaction gave \(recorder.updates.count) batches")
            let want = try await expected()
            for update in recorder.updates {
                batches += 1
                do {
                    ui = try ListSimulator.apply(update.changeset, to: ui, expecting: want)
                } catch {
                    throw ConformanceFailure("\(context): the batch does not apply: \(error)")
                }
            }
            recorder.reset()
            let now = shown()
            try expect(now.map(\.section) == want.map(\.section) && now.map(\.rows) == want.map(\.rows),
                       "\(context): the composite shows \(now), fresh fetches give \(want)")
        }
        try expect(batches > 100, "only \(batches) batches")
    }
}

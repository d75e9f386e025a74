import FetchKit
import Foundation
import Synchronization

/// Seed 000 (two fetched results controllers in one table): a fixed menu section, todos capped per
/// category, and every category, in one list with global index paths.
enum CompositeDemo {
    /// Prints the composite's batches in global index paths.
    final class Printer: ResultsControllerDelegate, Sendable {
        private let lines = Mutex<[String]>([])

        func takeReport() -> String {
            lines.withLock { lines in
                defer { lines.removeAll() }
                return lines.isEmpty ? "   (no batch)" : lines.joined(separator: "\n")
            }
        }

        func controller(
            _ controller: CompositeResultsController, didChange section: CompositeSection,
            atSectionIndex: Int?, for type: ResultsChangeType, newSectionIndex: Int?
        ) {
            let at = [atSectionIndex.map { "old \($0)" }, newSectionIndex.map { "new \($0)" }].compactMap { $0 }
            lines.withLock {
                $0.append("   section \(type.rawValue) '\(section.name)' (\(at.joined(separator: ", ")))")
            }
        }

        func controller(
            _ controller: CompositeResultsController, didChange row: CompositeRow, at rowPath: RowPath?,
            for type: ResultsChangeType, newRowPath: RowPath?
        ) {
            let paths = [rowPath.map { "\($0)" }, newRowPath.map { "\($0)" }].compactMap { $0 }.joined(separator: " → ")
            lines.withLock { $0.append("   row \(type.rawValue) \(paths)") }
        }

        func controller(_ controller: CompositeResultsController, didApply update: CompositeBatch) {
            lines.withLock {
                $0.insert(
                    "   one batch for transaction \(update.transactionID.map(String.init) ?? "-"): "
                        + "\(update.changeset.sectionCountsBefore) → \(update.changeset.sectionCountsAfter)", at: 0)
            }
        }
    }

    static func run() async throws {
        let store = try await DemoStore.seeded()
        let todos = ResultsController(
            store: store,
            request: try FetchRequest<Todo>(
                sortBy: [SortDescriptor(\.category?.name), SortDescriptor(\.title)], sectionBy: \.category?.name))
        let categories = ResultsController(
            store: store, request: try FetchRequest<Category>(sortBy: [SortDescriptor(\.name)]))
        let list = CompositeResultsController()
        let menu = try list.addFixedSection("Menu", rows: ["Settings"])
        let todoPart = try list.add(todos, limit: 2)
        let categoryPart = try list.add(categories)
        let printer = Printer()
        list.delegate = printer
        try await list.performFetch()

        func show() {
            for (index, section) in list.sections.enumerated() {
                print(
                    "   ▸ [\(index)] \(section.name.isEmpty ? "(none)" : section.name) — part \(section.part), "
                        + "\(section.count) row(s)"
                )
                for row in 0..<section.count {
                    let path = RowPath(section: index, row: row)
                    let text =
                        list.row(at: path, in: menu)
                        ?? list.object(at: path, in: todoPart).map { "todo '\($0.title)'" }
                        ?? list.object(at: path, in: categoryPart).map { "category '\($0.name)'" } ?? "?"
                    print("       \(path) \(text)")
                }
            }
            print("")
        }
        print(
            "FetchKit demo composite — a menu, todos (at most 2 per category) and categories in one list\n")
        show()
        DemoStore.step("one transaction: rename category Errands to 'Chores', add a category and a todo")
        try await store.write { tx in
            var errands = try tx.category(named: "Errands")
            errands.name = "Chores"
            try tx.update(errands)
            try tx.insert(Category(name: "Garden", position: 4))
            try tx.insert(Todo(title: "Aardvark food", category: try tx.category(named: "Work")))
        }
        await list.sync()
        print(printer.takeReport())
        show()
        await store.close()
    }
}

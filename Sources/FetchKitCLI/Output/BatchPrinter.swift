import FetchKit
import Foundation
import Synchronization

/// The demos' delegate (of a controller or a multi-controller of todos): turns each batch's callbacks into
/// readable lines.
final class BatchPrinter<Controller: DelegatingController>: ResultsControllerDelegate, Sendable
where Controller.Object == Todo, Controller.Section == ResultsSection<Todo>, Controller.Update == ResultsBatch<Todo> {
    private let lines = Mutex<[String]>([])

    var hasReport: Bool { lines.withLock { !$0.isEmpty } }

    func takeReport() -> String {
        lines.withLock { lines in
            defer { lines.removeAll() }
            return lines.isEmpty ? "   (no batch)" : lines.joined(separator: "\n")
        }
    }

    private func section(_ section: ResultsSection<Todo>, _ old: Int?, _ type: ResultsChangeType, _ new: Int?) {
        let at = [old.map { "old \($0)" }, new.map { "new \($0)" }].compactMap { $0 }
        lines.withLock { $0.append("   section \(type.rawValue) '\(section.name)' (\(at.joined(separator: ", ")))") }
    }

    private func row(_ todo: Todo, _ old: RowPath?, _ type: ResultsChangeType, _ new: RowPath?) {
        let paths = [old.map { "\($0)" }, new.map { "\($0)" }].compactMap { $0 }.joined(separator: " → ")
        lines.withLock { $0.append("   row \(type.rawValue) \(paths) '\(todo.title)'") }
    }

    private func batch(_ update: ResultsBatch<Todo>) {
        guard let changeset = update.changeset else { return }
        lines.withLock {
            $0.insert(
                "   batch of transaction \(update.transactionID.map(String.init) ?? "-"): "
                    + "\(changeset.sectionCountsBefore) rows per section → \(changeset.sectionCountsAfter)", at: 0)
        }
    }

    func controller(
        _ controller: Controller, didChange section: ResultsSection<Todo>, atSectionIndex: Int?,
        for type: ResultsChangeType, newSectionIndex: Int?
    ) {
        self.section(section, atSectionIndex, type, newSectionIndex)
    }

    func controller(
        _ controller: Controller, didChange todo: Todo, at rowPath: RowPath?,
        for type: ResultsChangeType, newRowPath: RowPath?
    ) {
        row(todo, rowPath, type, newRowPath)
    }

    func controller(_ controller: Controller, didApply update: ResultsBatch<Todo>) { batch(update) }
}

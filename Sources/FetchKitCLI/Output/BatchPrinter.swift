import FetchKit
import Foundation
import Synchronization

/// The demos' delegate (of a controller or a multi-controller): turns each batch's callbacks into readable
/// lines.
final class BatchPrinter<Controller: DelegatingController>: ResultsControllerDelegate, Sendable
where Controller.Object == Row, Controller.Section == ResultsSection<Row>, Controller.Update == ResultsBatch<Row> {
    private let lines = Mutex<[String]>([])

    var hasReport: Bool { lines.withLock { !$0.isEmpty } }

    func takeReport() -> String {
        lines.withLock { lines in
            defer { lines.removeAll() }
            return lines.isEmpty ? "   (no batch)" : lines.joined(separator: "\n")
        }
    }

    private func section(_ section: ResultsSection<Row>, _ old: Int?, _ type: ResultsChangeType, _ new: Int?) {
        let at = [old.map { "old \($0)" }, new.map { "new \($0)" }].compactMap { $0 }
        lines.withLock { $0.append("   section \(type.rawValue) '\(section.name)' (\(at.joined(separator: ", ")))") }
    }

    private func row(_ object: Row, _ old: RowPath?, _ type: ResultsChangeType, _ new: RowPath?) {
        let paths = [old.map { "\($0)" }, new.map { "\($0)" }].compactMap { $0 }.joined(separator: " → ")
        let title = object["title", as: String.self] ?? "?"
        lines.withLock { $0.append("   row \(type.rawValue) \(paths) '\(title)'") }
    }

    private func batch(_ update: ResultsBatch<Row>) {
        guard let changeset = update.changeset else { return }
        lines.withLock {
            $0.insert(
                "   batch of transaction \(update.transactionID.map(String.init) ?? "-"): "
                    + "\(changeset.sectionCountsBefore) rows per section → \(changeset.sectionCountsAfter)", at: 0)
        }
    }

    func controller(
        _ controller: Controller, didChange section: ResultsSection<Row>, atSectionIndex: Int?,
        for type: ResultsChangeType, newSectionIndex: Int?
    ) {
        self.section(section, atSectionIndex, type, newSectionIndex)
    }

    func controller(
        _ controller: Controller, didChange object: Row, at rowPath: RowPath?,
        for type: ResultsChangeType, newRowPath: RowPath?
    ) {
        row(object, rowPath, type, newRowPath)
    }

    func controller(_ controller: Controller, didApply update: ResultsBatch<Row>) { batch(update) }
}
